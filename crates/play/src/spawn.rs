//! Where the player starts: above the level when it has nowhere to stand,
//! and out of the geometry when a spawn given on the command line or in a
//! script is inside it. Everywhere else the level's spawn search decides
//! ([`slidewalk_level::spawn::start_point`], the one level-check uses too).

use glam::Vec3;
use slidewalk_controller::{CharacterState, ControllerConfig};
use slidewalk_level::{Level, Spawn};
use slidewalk_sweep::{Ellipsoid, PlacedCollider};

/// The centre of the top of the level's bounds, looking along −z: where
/// the player starts (and falls from) when [`slidewalk_level::spawn::start_point`]
/// finds no place to stand.
pub fn above_the_level(level: &Level) -> Spawn {
    let bounds = PlacedCollider::world_bounds_of(&level.placed_at_rest());
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

/// Highest a spawn inside geometry is lifted looking for room, metres.
pub const MAX_SPAWN_LIFT: f32 = 10.0;
/// The step of that search, metres.
const LIFT_STEP: f32 = 0.02;

/// Feet `feet` (metres) where a player standing with `config` overlaps
/// none of the level's geometry at rest: `feet` itself when it is free,
/// else the lowest free place straight above it within
/// [`MAX_SPAWN_LIFT`] (in 2 cm steps: a spawn inside a stair step ends on
/// top of it), else `None`.
pub fn clear_of_geometry(level: &Level, config: &ControllerConfig, feet: Vec3) -> Option<Vec3> {
    let colliders = level.placed_at_rest();
    let standing = CharacterState::standing_at(feet, config);
    let e = Ellipsoid::new(standing.radii).ok()?;
    let lift = standing.position - feet;
    let steps = (MAX_SPAWN_LIFT / LIFT_STEP) as u32;
    (0..=steps)
        .map(|k| feet + standing.up * (k as f32 * LIFT_STEP))
        .find(|at| slidewalk_sweep::penetration_depth(&e, *at + lift, &colliders) == 0.0)
}

/// Where a player asked to start at `feet` (the command line's `--spawn`,
/// a script's `spawn`) is put: [`clear_of_geometry`], or `feet` when there
/// is no room above it. With the message to show when it is not where it
/// was asked (and whether that is an error: no room).
pub fn place_asked_spawn(level: &Level, config: &ControllerConfig, feet: Vec3) -> (Vec3, Option<(String, bool)>) {
    match clear_of_geometry(level, config, feet) {
        Some(free) if free == feet => (feet, None),
        Some(free) => (
            free,
            Some((
                format!("the spawn {feet:.2} is inside the level's geometry; starting on top of it at {free:.2}"),
                false,
            )),
        ),
        None => (
            feet,
            Some((
                format!(
                    "the spawn {feet:.2} is inside the level's geometry with no room within {MAX_SPAWN_LIFT} m above it"
                ),
                true,
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_spawn_inside_a_block_goes_on_top_and_a_free_one_stays() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
        let level = slidewalk_level::load(&path).unwrap();
        let config = ControllerConfig::default();
        // The demo level's spawn is free.
        let spawn = level.spawns[0].position;
        assert_eq!(clear_of_geometry(&level, &config, spawn), Some(spawn));
        // Inside the 0.7 m ledge (`Ledge_070`, x −21…−17, z 21…24): on top of it.
        let on_top = clear_of_geometry(&level, &config, Vec3::new(-19.0, 0.1, 22.5)).unwrap();
        assert!((on_top.y - 0.7).abs() <= LIFT_STEP, "{on_top}");
        assert_eq!((on_top.x, on_top.z), (-19.0, 22.5));
        let (placed, note) = place_asked_spawn(&level, &config, Vec3::new(-19.0, 0.1, 22.5));
        assert_eq!(placed, on_top);
        assert!(note.is_some_and(|(text, error)| text.contains("inside the level's geometry") && !error));
        assert_eq!(place_asked_spawn(&level, &config, spawn), (spawn, None));
        // Under the level is open space: the spawn stays.
        let below = Vec3::new(0.0, -30.0, 0.0);
        assert_eq!(clear_of_geometry(&level, &config, below), Some(below));
    }
}
