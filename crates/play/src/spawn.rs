//! Where the player starts on a level with nowhere to stand: above it.
//! Everywhere else the level's spawn search decides
//! ([`level::spawn::start_point`], the one level-check uses too).

use glam::Vec3;
use level::{Level, Spawn};

/// The centre of the top of the level's bounds, looking along −z: where
/// the player starts (and falls from) when [`level::spawn::start_point`]
/// finds no place to stand.
pub fn above_the_level(level: &Level) -> Spawn {
    let bounds = sweep::PlacedCollider::world_bounds_of(&level.placed_at_rest());
    let centre = bounds.center();
    Spawn {
        position: if centre.is_finite() {
            Vec3::new(centre.x, bounds.max.y, centre.z)
        } else {
            Vec3::ZERO
        },
        yaw: 0.0,
    }
}
