//! The collision world of a tick as the game's systems ask for it: the
//! `bevy_slidewalk` plugin's [`CollisionWorld`] (the level's statics, doors
//! and lifts are collider entities, posed from their transforms, moving
//! with their motion over the tick), plus what only the level knows (its
//! analytic shapes for the balls, its bounds, which mover a door or lift is).

use super::level::MoverBody;
use super::level::{CurrentLevel, LevelStatics};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_slidewalk::CollisionWorld;
use slidewalk_sweep::PlacedCollider;

/// Read access to this tick's colliders.
#[derive(SystemParam)]
pub struct Colliders<'w, 's> {
    world: Res<'w, CollisionWorld>,
    level: Res<'w, CurrentLevel>,
    statics: Query<'w, 's, Entity, With<LevelStatics>>,
    movers: Query<'w, 's, &'static MoverBody>,
}

impl Colliders<'_, '_> {
    /// The colliders at their poses for the end of the tick, numbered as
    /// the plugin numbers them this tick (empty without a level).
    pub fn placed(&self) -> Vec<PlacedCollider<'_>> {
        self.world.placed()
    }

    /// The same colliders at their poses at the start of the tick (the
    /// previous tick's end), with the same velocities: what a sweep over
    /// the whole tick from its start needs (the balls).
    pub fn placed_at_tick_start(&self) -> Vec<PlacedCollider<'_>> {
        self.world.placed_at_tick_start()
    }

    /// World bounds of the level's geometry at rest, if a level is loaded.
    pub fn level_bounds(&self) -> Option<slidewalk_sweep::Aabb> {
        self.level.bounds
    }

    /// Friction of a surface by collider index and triangle.
    pub fn friction(&self, collider: usize, triangle: u32) -> f32 {
        self.world.friction(collider, triangle)
    }

    /// The level's analytic colliders (exact planes and cylinders, for the
    /// balls), each with its surface's friction; empty without a level.
    pub fn analytic_shapes(&self) -> Vec<(slidewalk_sweep::AnalyticShape, f32)> {
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
        let Some(level) = self.level.level.as_ref() else {
            return false;
        };
        self.world
            .locate(collider, triangle)
            .is_some_and(|(entity, t)| self.statics.contains(entity) && level.static_triangle_is_analytic(t))
    }

    /// The index of the static collider when every one of its triangles
    /// belongs to an analytic collider's node and it has an index of its
    /// own, so a sphere need not look at that index at all.
    pub fn all_analytic_statics(&self) -> Option<usize> {
        let level = self.level.level.as_ref()?;
        let all = level.statics.is_some() && !level.analytic.is_empty() && level.static_analytic.iter().all(|&a| a);
        let statics = self.statics.iter().next()?;
        (all && !self.world.is_merged(statics)).then(|| self.world.index_of(statics))?
    }

    /// The mover (index in the level) a collider index belongs to.
    pub fn mover_of(&self, collider: usize) -> Option<usize> {
        let entity = self.world.entity(collider, 0)?;
        self.movers.get(entity).ok().map(|m| m.index)
    }
}
