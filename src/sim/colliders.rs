//! The collision world of a tick: the level's static collider and the
//! door and lift colliders on their entities, posed from their bodies,
//! with their motion over the tick as velocities.

use super::level::CurrentLevel;
use super::movers::MoverBody;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use sweep::PlacedCollider;

/// Read access to this tick's colliders.
#[derive(SystemParam)]
pub struct Colliders<'w, 's> {
    level: Res<'w, CurrentLevel>,
    movers: Query<'w, 's, &'static MoverBody>,
    time: Res<'w, Time<Fixed>>,
}

impl Colliders<'_, '_> {
    /// The colliders, numbered as [`level::Level::friction`] expects:
    /// the static collider first (when there is one), then the movers in
    /// the level's order, at their poses for the end of the tick. Empty
    /// when no level is loaded.
    pub fn placed(&self) -> Vec<PlacedCollider<'_>> {
        self.posed(false)
    }

    /// The same colliders at their poses at the start of the tick (the
    /// previous tick's end), with the same velocities: what a sweep over
    /// the whole tick from its start needs (the balls).
    pub fn placed_at_tick_start(&self) -> Vec<PlacedCollider<'_>> {
        self.posed(true)
    }

    fn posed(&self, at_tick_start: bool) -> Vec<PlacedCollider<'_>> {
        let Some(level) = &self.level.level else {
            return Vec::new();
        };
        let dt = self.time.timestep().as_secs_f32();
        let mut bodies: Vec<&MoverBody> = self.movers.iter().collect();
        bodies.sort_by_key(|b| b.index);
        let mut placed: Vec<PlacedCollider<'_>> = level.statics.iter().map(PlacedCollider::fixed).collect();
        for body in bodies {
            let Some(m) = level.movers.get(body.index) else {
                continue;
            };
            let mut collider = PlacedCollider::from_poses(&m.collider, body.previous, body.pose, dt);
            if at_tick_start {
                collider.pose = body.previous;
            }
            placed.push(collider);
        }
        placed
    }

    /// World bounds of the level's geometry at rest, if a level is loaded.
    pub fn level_bounds(&self) -> Option<sweep::Aabb> {
        self.level.bounds
    }

    /// Friction of a surface by collider index and triangle.
    pub fn friction(&self, collider: usize, triangle: u32) -> f32 {
        self.level
            .level
            .as_ref()
            .map_or(1.0, |l| l.friction(collider, triangle))
    }

    /// The level's analytic colliders (exact planes and cylinders, for the
    /// balls), each with its surface's friction; empty without a level.
    pub fn analytic_shapes(&self) -> Vec<(sweep::AnalyticShape, f32)> {
        self.level.level.as_ref().map_or_else(Vec::new, |l| {
            l.analytic
                .iter()
                .map(|a| (a.shape, l.surfaces.get(a.surface as usize).map_or(1.0, |s| s.friction)))
                .collect()
        })
    }

    /// Whether a triangle of the [`Colliders::placed`] numbering belongs to
    /// a node with an analytic collider (a sphere meets its exact shape
    /// instead).
    pub fn is_analytic(&self, collider: usize, triangle: u32) -> bool {
        self.level
            .level
            .as_ref()
            .is_some_and(|l| l.statics.is_some() && collider == 0 && l.static_triangle_is_analytic(triangle))
    }

    /// Whether every triangle of the static collider (collider 0) belongs
    /// to an analytic collider's node, so a sphere need not look at it.
    pub fn statics_all_analytic(&self) -> bool {
        self.level
            .level
            .as_ref()
            .is_some_and(|l| l.statics.is_some() && !l.analytic.is_empty() && l.static_analytic.iter().all(|&a| a))
    }

    /// The mover (index in the level) a collider index belongs to.
    pub fn mover_of(&self, collider: usize) -> Option<usize> {
        let level = self.level.level.as_ref()?;
        let first = level.statics.is_some() as usize;
        collider.checked_sub(first).filter(|i| *i < level.movers.len())
    }
}
