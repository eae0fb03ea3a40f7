//! [`Obstacles`]: solid shapes for one tick that are not entities (the
//! agents of a crowd simulated outside the ECS, other characters).

use bevy::prelude::*;
use glam::Vec3;
use std::sync::Arc;

/// Solid shapes for this tick only that are not entities: the game fills
/// it before [`SlidewalkSystems::Step`](crate::SlidewalkSystems::Step);
/// every character collides with them after the
/// [`CollisionWorld`](crate::CollisionWorld)'s colliders. Contacts with
/// them name no entity.
///
/// Characters do not collide with one another by themselves: each tick
/// sees the colliders and these shapes only. A game that wants its
/// characters to block each other puts each one's ellipsoid (or a hull of
/// it) here, as the demo game does for its player and its crowd.
#[derive(Resource, Reflect, Default, Clone)]
#[reflect(opaque)]
#[reflect(Resource, Default, Clone)]
pub struct Obstacles(pub Vec<Obstacle>);

/// A shape of [`Obstacles`], at rest where it is placed.
#[derive(Clone)]
pub struct Obstacle {
    /// The triangles, in the obstacle's frame.
    pub shape: Arc<slidewalk_sweep::MeshCollider>,
    /// Where it is.
    pub pose: slidewalk_sweep::Pose,
}

impl Obstacles {
    /// The shapes as the collision core places them (at rest), in order.
    pub fn placed(&self) -> impl Iterator<Item = slidewalk_sweep::PlacedCollider<'_>> {
        self.0
            .iter()
            .map(|o| slidewalk_sweep::PlacedCollider::moving(&o.shape, o.pose, Vec3::ZERO, Vec3::ZERO))
    }
}
