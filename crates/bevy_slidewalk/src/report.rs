//! What a character's last tick did: [`MovementReport`], the controller's
//! own report with what the plugin knows beside it (the ground and the
//! contacts named by entity).

use crate::collider::Surface;
use bevy::prelude::*;
use slidewalk_controller::TickReport;

/// The ground a character stands on, as the plugin names it (its point,
/// normal and velocity are the controller's, in
/// [`TickReport::ground`]).
#[derive(Clone, Debug, PartialEq, Reflect)]
#[reflect(Debug, Clone)]
pub struct GroundHit {
    /// The collider entity stood on (none for an [`Obstacles`](crate::Obstacles) shape).
    pub entity: Option<Entity>,
    /// Its surface.
    pub surface: Surface,
}

/// The outcome of the character's last tick. Each fact once: the
/// controller's report as it made it, and the entities behind its
/// collider indices.
#[derive(Component, Clone, Debug, Default, Reflect)]
#[reflect(Component, Default, Debug, Clone)]
pub struct MovementReport {
    /// The controller's own report (flags, contacts, ground, what carried
    /// or pushed it), collider indices as in this tick's
    /// [`CollisionWorld::placed`](crate::CollisionWorld::placed) followed
    /// by the [`Obstacles`](crate::Obstacles).
    pub tick: TickReport,
    /// The ground stood on at the end of the tick, by entity and surface.
    pub ground: Option<GroundHit>,
    /// The collider entity of each of `tick.contacts`, in the same order
    /// (none for an obstacle).
    pub contact_entities: Vec<Option<Entity>>,
}

impl MovementReport {
    /// Standing on walkable ground at the end of the tick.
    pub fn grounded(&self) -> bool {
        self.tick.ground.is_some()
    }
}
