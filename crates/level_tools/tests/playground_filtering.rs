//! The playground's one-way platforms, collision layers and sensors: the
//! committed `playground.glb` has the one-way stack, the kill zone under
//! every floor, the checkpoint, the ball room's named sensor, the crowd
//! barrier and the grate, where its layout says and with the extras that
//! make them what they are, probed with sweeps as the player, the crowd
//! and the balls meet them.

use glam::Vec3;
use slidewalk_level::layers::{BALL_LAYERS, CROWD_LAYERS, PLAYER_LAYERS, met_by};
use slidewalk_level::{Level, SensorKind, StaticPart};
use slidewalk_level_tools::generate::playground::*;
use slidewalk_sweep::{Aabb, CollisionLayers, Ellipsoid, PlacedCollider, sweep};

const PLAYGROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/playground.glb");

fn playground() -> Level {
    slidewalk_level::load(PLAYGROUND)
        .unwrap_or_else(|e| panic!("{e} (run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`)"))
}

/// The default player ellipsoid.
fn player() -> Ellipsoid {
    Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap()
}

/// A ball of the game's default radius.
fn ball() -> Ellipsoid {
    Ellipsoid::sphere(0.15).unwrap()
}

fn part<'a>(level: &'a Level, name: &str) -> &'a StaticPart {
    level
        .parts
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no part {name}"))
}

fn sensor_bounds(level: &Level, kind: &SensorKind) -> Aabb {
    let found: Vec<_> = level.sensors.iter().filter(|s| s.kind == *kind).collect();
    assert_eq!(found.len(), 1, "one {kind:?} sensor");
    found[0].collider.bounds()
}

fn assert_box(bounds: Aabb, (min, max): (Vec3, Vec3), what: &str) {
    assert!(
        (bounds.min - min).abs().max_element() < 1e-5 && (bounds.max - max).abs().max_element() < 1e-5,
        "{what}: {bounds:?}, expected {min} … {max}"
    );
}

/// The level at rest as a body with `layers` meets it.
fn met(level: &Level, layers: CollisionLayers) -> Vec<PlacedCollider<'_>> {
    met_by(&level.placed_at_rest(), layers)
}

#[test]
fn the_one_way_stack_is_three_platforms_a_jump_apart() {
    let level = playground();
    let one_way: Vec<_> = level.parts.iter().filter(|p| p.one_way.is_some()).collect();
    assert!(one_way.len() >= 3, "{} one-way parts", one_way.len());
    let mut below = 0.0;
    for (name, min, max) in ONE_WAY_STACK {
        let p = part(&level, name);
        let up = p.one_way.unwrap_or_else(|| panic!("{name} is not one-way"));
        assert!(up.dot(Vec3::Y) > 0.9999, "{name} is one-way along {up}");
        assert_eq!(p.layers, CollisionLayers::ALL, "{name} stops every body");
        assert_box(p.collider.bounds(), (min, max), name);
        // A default jump raises the feet 1.0 m: the next top is within reach.
        let rise = max.y - below;
        assert!(rise > 0.5 && rise <= 0.8 + 1e-5, "{name}: {rise} m above the one below");
        below = max.y;
    }
    // Each overlaps the one below (jump up through it from there) and
    // leaves part of it uncovered (stand there clear of the next).
    for pair in ONE_WAY_STACK.windows(2) {
        let ((_, lo_min, lo_max), (_, hi_min, hi_max)) = (pair[0], pair[1]);
        assert!(hi_max.z > lo_min.z + 1.0 && hi_max.z < lo_max.z - 1.0);
        assert_eq!((hi_min.x, hi_max.x), (lo_min.x, lo_max.x));
    }
    // A player rising from the ground under the lowest passes up through
    // all three; one falling onto the top one lands on it (winding
    // outward: the top faces face +Y).
    let colliders = met(&level, PLAYER_LAYERS);
    let (_, min, max) = ONE_WAY_STACK[2];
    let centre = (min + max) / 2.0;
    let from_ground = Vec3::new(centre.x, 0.91, centre.z);
    let up = sweep(&player(), from_ground, Vec3::Y * 3.0, &colliders);
    assert!(up.is_none(), "stopped on the way up: {up:?}");
    let down = sweep(
        &player(),
        Vec3::new(centre.x, 4.0, centre.z),
        Vec3::NEG_Y * 3.0,
        &colliders,
    )
    .expect("lands on the top platform");
    assert!((down.point.y - max.y).abs() < 1e-4, "{down:?}");
    assert!(down.normal.dot(Vec3::Y) > 0.9999);
}

#[test]
fn the_kill_zone_lies_under_every_floor_and_beyond_every_edge() {
    let level = playground();
    let kill = sensor_bounds(&level, &SensorKind::Kill);
    assert_box(kill, KILL_ZONE, "kill zone");
    let mut world = PlacedCollider::world_bounds_of(&level.placed_at_rest());
    for m in &level.movers {
        world = world.union(m.pose_at(1.0).transform_aabb(m.collider.bounds()));
    }
    assert!(kill.max.y <= world.min.y - 15.0, "kill zone {kill:?}, level {world:?}");
    for axis in [0, 2] {
        assert!(kill.min[axis] <= world.min[axis] - 10.0 && kill.max[axis] >= world.max[axis] + 10.0);
    }
    // Nothing solid lies under the ground down to it and through it: a
    // player who falls out falls into it.
    let under = Vec3::new(0.0, -GROUND_DEPTH - 1.0, 0.0);
    let fall = Vec3::Y * (kill.min.y - 1.0 - under.y);
    assert_eq!(sweep(&player(), under, fall, &met(&level, PLAYER_LAYERS)), None);
}

#[test]
fn the_checkpoint_stands_on_the_upper_floor_and_the_ball_room_has_its_sensor() {
    let level = playground();
    assert_eq!(level.report.sensors, 3);
    let checkpoint = sensor_bounds(&level, &SensorKind::Checkpoint);
    assert_box(checkpoint, CHECKPOINT, "checkpoint");
    let size = checkpoint.max - checkpoint.min;
    assert!(size.y >= 2.0 && size.x >= 2.0 && size.z >= 2.0, "{size}");
    // Its floor is the upper floor: stood on by the player.
    let c = (checkpoint.min + checkpoint.max) / 2.0;
    let floor = sweep(
        &player(),
        c + Vec3::Y * 2.0,
        Vec3::NEG_Y * 10.0,
        &met(&level, PLAYER_LAYERS),
    )
    .unwrap();
    assert!((floor.point.y - UPPER_FLOOR_HEIGHT).abs() < 1e-4, "{floor:?}");
    assert!((checkpoint.min.y - UPPER_FLOOR_HEIGHT).abs() < 1e-5);

    let named = SensorKind::Named(BALL_ROOM_SENSOR.into());
    let area = sensor_bounds(&level, &named);
    assert_box(area, BALL_ROOM_AREA, "ball room sensor");
    let inside = BALL_ROOM.centre();
    assert!(area.min.x <= BALL_ROOM.min.x && area.max.x >= BALL_ROOM.max.x && area.min.y <= 0.0 && area.max.y >= 1.8);
    assert!(area.min.z <= BALL_ROOM.min.y && area.max.z >= BALL_ROOM.max.y && inside.x > area.min.x);
    // Every sensor reports every body and none is solid: a player walks
    // through the ball room's unhindered by it.
    assert!(level.sensors.iter().all(|s| s.layers == CollisionLayers::ALL));
    let across = sweep(
        &player(),
        Vec3::new(BALL_ROOM.min.x + 0.5, 0.95, -11.0),
        Vec3::X * 11.0,
        &met(&level, PLAYER_LAYERS),
    );
    assert!(across.is_none(), "{across:?}");
}

#[test]
fn the_crowd_barrier_stops_the_crowd_and_the_balls_and_lets_the_player_through() {
    let level = playground();
    let barrier = part(&level, "crowd_barrier");
    assert_eq!(barrier.one_way, None);
    assert!(!PLAYER_LAYERS.interacts_with(barrier.layers));
    assert!(CROWD_LAYERS.interacts_with(barrier.layers) && BALL_LAYERS.interacts_with(barrier.layers));
    assert_box(barrier.collider.bounds(), CROWD_BARRIER, "crowd barrier");
    // Into the ball room through its entrance, along −z.
    let entrance = (BALL_ROOM_ENTRANCE.0 + BALL_ROOM_ENTRANCE.1) / 2.0;
    let from = Vec3::new(entrance, 0.95, BALL_ROOM.max.y + 3.0);
    let walk_in = Vec3::NEG_Z * 5.0;
    assert_eq!(sweep(&player(), from, walk_in, &met(&level, PLAYER_LAYERS)), None);
    let agent = sweep(&player(), from, walk_in, &met(&level, CROWD_LAYERS)).expect("the crowd is stopped");
    assert!((agent.point.z - CROWD_BARRIER.1.z).abs() < 1e-4, "{agent:?}");
    // A ball rolled out of the room bounces off it.
    let from = Vec3::new(entrance, 0.15, BALL_ROOM.max.y - 2.0);
    let ball_out = sweep(&ball(), from, Vec3::Z * 5.0, &met(&level, BALL_LAYERS)).expect("the ball is stopped");
    assert!((ball_out.point.z - CROWD_BARRIER.0.z).abs() < 1e-4, "{ball_out:?}");
}

#[test]
fn the_grate_stops_the_player_and_the_crowd_and_lets_the_balls_out() {
    let level = playground();
    let grate = part(&level, "grate");
    assert_eq!(grate.one_way, None);
    assert!(PLAYER_LAYERS.interacts_with(grate.layers) && CROWD_LAYERS.interacts_with(grate.layers));
    assert!(!BALL_LAYERS.interacts_with(grate.layers));
    assert_box(grate.collider.bounds(), GRATE, "grate");
    assert!(GRATE.0.x > BALL_ROOM.max.x && GRATE.1.x < BALL_ROOM.max.x + BALL_ROOM_WALL_THICKNESS);
    // Out of the ball room through its window, along +x, at every height
    // and across the whole window.
    for z in [GRATE_OPENING.0 + 0.4, -16.0, GRATE_OPENING.1 - 0.4] {
        let from = Vec3::new(BALL_ROOM.max.x - 2.0, 0.95, z);
        for layers in [PLAYER_LAYERS, CROWD_LAYERS] {
            let hit = sweep(&player(), from, Vec3::X * 5.0, &met(&level, layers)).expect("stopped by the grate");
            assert!((hit.point.x - GRATE.0.x).abs() < 1e-4, "{hit:?}");
        }
        for y in [0.15, 1.0, 1.7] {
            let from = Vec3::new(BALL_ROOM.max.x - 2.0, y, z);
            let out = sweep(&ball(), from, Vec3::X * 5.0, &met(&level, BALL_LAYERS));
            assert_eq!(out, None, "a ball at height {y}, z {z} did not fly through");
        }
    }
    // A ball is stopped by the wall beside the window.
    let wall = Vec3::new(BALL_ROOM.max.x - 2.0, 1.0, GRATE_OPENING.0 - 1.0);
    let hit = sweep(&ball(), wall, Vec3::X * 5.0, &met(&level, BALL_LAYERS)).expect("the wall");
    assert!((hit.point.x - BALL_ROOM.max.x).abs() < 1e-4, "{hit:?}");
}

#[test]
fn the_filtering_nodes_are_parts_and_nothing_else_is() {
    let level = playground();
    let mut names: Vec<&str> = level.parts.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    // With the moves course's climbable wall and launch pad (`playground_moves.rs`)
    // and the feel course's two walkways (`playground_feel.rs`).
    assert_eq!(
        names,
        [
            "OneWay_080",
            "OneWay_160",
            "OneWay_240",
            "crowd_barrier",
            "feel_walkway_east",
            "feel_walkway_west",
            "grate",
            "moves_ladder",
            "moves_launch_pad"
        ]
    );
    let filtering = level
        .parts
        .iter()
        .filter(|p| p.one_way.is_some() || p.layers != CollisionLayers::ALL)
        .count();
    assert_eq!(filtering, 5);
    assert_eq!(level.report.parts, 9);
    assert_eq!(level.first_mover(), 10, "the static collider and nine parts");
}
