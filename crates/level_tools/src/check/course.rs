//! What every walk of one run shares: the level, the run's settings, the
//! controller, the level's bounds, the walker's shape, where the game would
//! start a player and the walkable surface in cells. Its methods are in
//! `walk` (one walk) and `placement` (where a walker starts).

use super::config::CheckConfig;
use super::coverage::Coverage;
use glam::Vec3;
use slidewalk_controller::{CharacterState, Controller};
use slidewalk_level::{Level, spawn};
use slidewalk_sweep::{Aabb, Ellipsoid, PlacedCollider};

/// What every walk shares: the level, the run's settings, the controller.
pub(crate) struct Course<'l> {
    pub(super) level: &'l Level,
    pub(super) config: &'l CheckConfig,
    pub(super) controller: Controller,
    /// The whole level's box with the movers at rest (world frame, metres).
    pub(super) bounds: Aabb,
    /// The standing walker's shape.
    pub(super) standing: Ellipsoid,
    /// Cosine of the steepest walkable slope.
    pub(super) walkable_cos: f32,
    /// Where the game starts a player on this level (centre), if anywhere.
    pub(super) game_start: Option<Vec3>,
    /// The walkable static surface in cells.
    pub(super) coverage: Coverage,
}

impl<'l> Course<'l> {
    /// The course of `level` for walks run by `config`.
    ///
    /// # Panics
    /// If `config.controller` is not a valid configuration.
    pub(super) fn new(level: &'l Level, config: &'l CheckConfig) -> Self {
        let bounds = PlacedCollider::world_bounds_of(&level.placed_at_rest());
        let walkable_cos = config.controller.walkable_slope_deg.to_radians().cos();
        let game_start = spawn::start_point(level, config.controller.standing_radii, walkable_cos)
            .map(|s| CharacterState::standing_at(s.position, &config.controller).position);
        Course {
            level,
            config,
            controller: Controller::new(config.controller).expect("valid controller config"),
            bounds,
            standing: Ellipsoid::new(config.controller.standing_radii).expect("valid radii"),
            walkable_cos,
            game_start,
            coverage: Coverage::of(level, walkable_cos),
        }
    }
}
