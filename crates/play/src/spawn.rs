//! Where the player starts: the level's spawn search
//! ([`level::spawn::start_point`], the one level-check uses too), or — for
//! a level with nowhere to stand — the centre of the top of its bounds.

use glam::Vec3;
use level::{Level, Spawn};

/// The spawn point to use: the level's first, or one found on its
/// geometry, or the centre of the top of its bounds when there is none
/// (the player then falls; the game says so).
pub fn spawn_point(level: &Level, radii: Vec3, walkable_cos: f32) -> Spawn {
    level::spawn::start_point(level, radii, walkable_cos).unwrap_or_else(|| {
        let bounds = level::spawn::world_bounds(&level::spawn::colliders_at_rest(level));
        let centre = bounds.center();
        Spawn {
            position: if centre.is_finite() {
                Vec3::new(centre.x, bounds.max.y, centre.z)
            } else {
                Vec3::ZERO
            },
            yaw: 0.0,
        }
    })
}
