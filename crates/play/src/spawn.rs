//! Where the player starts: above the level when it has nowhere to stand,
//! and out of the geometry when a spawn given on the command line or in a
//! script is inside it. Everywhere else the level's spawn search decides
//! ([`slidewalk_level::spawn::start_point`], the one level-check uses too).
//! Several players (a network game) are each placed where they fit, apart
//! from the others ([`place_apart`]).

use glam::Vec3;
use slidewalk_controller::frame::extent_along;
use slidewalk_controller::{CharacterState, ControllerConfig};
use slidewalk_level::{Level, Spawn};
use slidewalk_sweep::{CollisionLayers, Ellipsoid, PlacedCollider};

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

/// A body already in place that a player placed must not overlap: its
/// centre and its radii along the world axes, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedBody {
    /// The centre, metres.
    pub centre: Vec3,
    /// The radii along the world axes, metres.
    pub radii: Vec3,
}

/// The least room between two players placed side by side, metres.
pub const PLAYER_GAP: f32 = 0.2;
/// How many rings of places around the spawn are tried ([`place_apart`]).
const RINGS: u32 = 4;
/// How far below a place the ground is looked for, metres: a place
/// beside a spawn on the ground must have ground this close under it too.
const GROUND_REACH: f32 = 0.6;

/// The feet (metres) where a player standing with `config` is put when it
/// should stand at `feet` facing `yaw` (radians) and `others` may be in
/// the way: the first of these places, in this order, that leaves
/// [`PLAYER_GAP`] to every body of `others`, overlaps nothing of
/// `colliders` that a body of `layers` meets, is reached from `feet` in a
/// straight line without meeting anything (not behind a wall) and, when
/// `feet` has ground within 0.6 m under it, has too (not over a drop):
/// `feet` itself, then rings around it, ring `k` (1 to 4) at `k` times
/// the width of a player plus [`PLAYER_GAP`], each ring to the right,
/// left, back, front, then back right, back left, front right, front left
/// of the facing. With no such place: the first place apart from the
/// others, else `feet`.
///
/// A pure function of its arguments, in a fixed order: every peer of a
/// network game places every player at the same place.
pub fn place_apart(
    colliders: &[PlacedCollider<'_>],
    layers: CollisionLayers,
    config: &ControllerConfig,
    feet: Vec3,
    yaw: f32,
    others: &[PlacedBody],
) -> Vec3 {
    let standing = CharacterState::standing_at(feet, config);
    let Ok(e) = Ellipsoid::new(standing.radii) else {
        return feet;
    };
    let (up, radii) = (standing.up, standing.radii);
    let lift = standing.position - feet;
    let right = crate::heading_direction(yaw - std::f32::consts::FRAC_PI_2, up);
    let front = crate::heading_direction(yaw, up);
    let width = 2.0 * extent_along(radii, right).max(extent_along(radii, front));
    let ground_under =
        |centre: Vec3| slidewalk_sweep::sweep_with(&e, centre, -up * GROUND_REACH, colliders, layers, ()).is_some();
    let on_ground = ground_under(standing.position);
    let apart = |centre: Vec3| {
        others.iter().all(|o| {
            let d = o.centre - centre;
            let along_up = d.dot(up);
            let across = d - up * along_up;
            let side = across.normalize_or_zero();
            along_up.abs() >= extent_along(radii, up) + extent_along(o.radii, up) + PLAYER_GAP / 2.0
                || (side != Vec3::ZERO
                    && across.length() >= extent_along(radii, side) + extent_along(o.radii, side) + PLAYER_GAP / 2.0)
        })
    };
    let fits = |centre: Vec3| {
        slidewalk_sweep::penetration_depth_with(&e, centre, colliders, layers, ()) == 0.0
            && (centre == standing.position
                || slidewalk_sweep::sweep_with(
                    &e,
                    standing.position,
                    centre - standing.position,
                    colliders,
                    layers,
                    (),
                )
                .is_none())
            && (!on_ground || ground_under(centre))
    };
    let directions = [
        right,
        -right,
        -front,
        front,
        (right - front).normalize(),
        (-right - front).normalize(),
        (right + front).normalize(),
        (-right + front).normalize(),
    ];
    let places = std::iter::once(feet)
        .chain((1..=RINGS).flat_map(|k| directions.map(move |d| feet + d * (k as f32 * (width + PLAYER_GAP)))));
    let mut first_apart = None;
    for place in places {
        let centre = place + lift;
        if !apart(centre) {
            continue;
        }
        if fits(centre) {
            return place;
        }
        first_apart.get_or_insert(place);
    }
    first_apart.unwrap_or(feet)
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

    /// The demo level and the player's layers and config.
    fn demo() -> (Level, CollisionLayers, ControllerConfig) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
        (
            slidewalk_level::load(&path).unwrap(),
            slidewalk_level::layers::PLAYER_LAYERS,
            ControllerConfig::default(),
        )
    }

    /// `count` players placed one after another at `feet` facing `yaw`.
    fn place_all(
        level: &Level,
        layers: CollisionLayers,
        config: &ControllerConfig,
        feet: Vec3,
        yaw: f32,
        count: usize,
    ) -> Vec<PlacedBody> {
        let mut placed = Vec::new();
        for _ in 0..count {
            let at = place_apart(&level.placed_at_rest(), layers, config, feet, yaw, &placed);
            let standing = CharacterState::standing_at(at, config);
            placed.push(PlacedBody {
                centre: standing.position,
                radii: standing.radii,
            });
        }
        placed
    }

    /// Every body overlaps nothing of the level and no other body.
    fn assert_free_and_apart(level: &Level, layers: CollisionLayers, bodies: &[PlacedBody]) {
        for (i, a) in bodies.iter().enumerate() {
            let e = Ellipsoid::new(a.radii).unwrap();
            let depth = slidewalk_sweep::penetration_depth_with(&e, a.centre, &level.placed_at_rest(), layers, ());
            assert_eq!(depth, 0.0, "player {i} at {} is inside the level", a.centre);
            for (j, b) in bodies.iter().enumerate().skip(i + 1) {
                let d = b.centre - a.centre;
                let across = Vec3::new(d.x, 0.0, d.z).length();
                assert!(
                    across >= a.radii.x + b.radii.x + PLAYER_GAP / 2.0 - 1e-5 || d.y.abs() >= a.radii.y + b.radii.y,
                    "players {i} and {j} overlap: {} and {}",
                    a.centre,
                    b.centre
                );
            }
        }
    }

    #[test]
    fn players_are_placed_where_they_fit_apart_from_each_other() {
        let (level, layers, config) = demo();
        let spawn = level.spawns[0];
        // Alone: the spawn itself.
        assert_eq!(
            place_apart(&level.placed_at_rest(), layers, &config, spawn.position, spawn.yaw, &[]),
            spawn.position
        );
        // Four at the spawn: the first there, the next to its right, each free and apart.
        let four = place_all(&level, layers, &config, spawn.position, spawn.yaw, 4);
        assert_free_and_apart(&level, layers, &four);
        let right = crate::heading_direction(spawn.yaw - std::f32::consts::FRAC_PI_2, Vec3::Y);
        let second_feet = four[1].centre - (four[0].centre - spawn.position);
        assert!(
            (second_feet - (spawn.position + right * (0.8 + PLAYER_GAP))).length() < 1e-4,
            "{second_feet}"
        );
        // Just west of the 0.7 m ledge (x −21…−17), facing −z: the place to
        // the right (+x) is inside the ledge, so the second goes elsewhere.
        let feet = Vec3::new(-21.6, 0.0, 22.5);
        let two = place_all(&level, layers, &config, feet, 0.0, 2);
        assert_eq!(two[0].centre.x, feet.x);
        assert_free_and_apart(&level, layers, &two);
        assert!(two[1].centre.x <= feet.x + 1e-4, "to the right: {}", two[1].centre);
        // In the air (nothing under the spawn): placed apart all the same.
        let air = place_all(&level, layers, &config, Vec3::new(50.0, 5.0, 50.0), 0.0, 4);
        assert_free_and_apart(&level, layers, &air);
    }
}
