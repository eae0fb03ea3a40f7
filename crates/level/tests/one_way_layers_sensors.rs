//! The extras that filter collisions, on files written by hand (see
//! `fixture`): `"one_way"` nodes become static parts with their world
//! direction (rotated, sheared, mirrored, inherited), `"layers"` parse and
//! decide who is stopped, `"sensor"` nodes become volumes apart, and the
//! placed colliders, friction and the spawn search number and meet them as
//! documented. Their misuses are in `filtering_errors.rs`.

mod fixture;

use fixture::*;
use glam::{Quat, Vec3};
use serde_json::json;
use slidewalk_level::layers::{BALL_LAYERS, CROWD_LAYERS, PLAYER_LAYERS};
use slidewalk_level::{Level, SensorKind, spawn};
use slidewalk_sweep::{CollisionLayers, Ellipsoid, SlideOptions, collide_and_slide};

/// A fixture with a 40 × 40 m floor at y = 0 and a box mesh (mesh 1),
/// 4 × 0.2 × 4 m with its top at the node's origin.
fn floor_and_plank() -> (Fixture, usize) {
    let mut f = Fixture::default();
    let floor = f.cuboid_mesh("floor", [-20.0, -1.0, -20.0], [20.0, 0.0, 20.0]);
    f.node(json!({"name": "Floor", "mesh": floor}), true);
    let plank = f.cuboid_mesh("plank", [-2.0, -0.2, -2.0], [2.0, 0.0, 2.0]);
    (f, plank)
}

fn assert_close(a: Vec3, b: Vec3) {
    assert!((a - b).length() < 1e-5, "{a} is not {b}");
}

const PLAYER: Vec3 = Vec3::new(0.4, 0.9, 0.4);

/// Where a body of `layers` (the player's shape) ends, moved from `start` by `motion`.
fn moved(level: &Level, layers: CollisionLayers, start: Vec3, motion: Vec3) -> Vec3 {
    let e = Ellipsoid::new(PLAYER).unwrap();
    let options = SlideOptions {
        layers,
        ..Default::default()
    };
    collide_and_slide(&e, start, motion, &level.placed_at_rest(), &options).position
}

#[test]
fn one_way_nodes_become_parts_with_their_world_direction() {
    let mut f = Fixture::with_floor();
    let b = f.cuboid_mesh("box", [-1.0, -0.1, -1.0], [1.0, 0.0, 1.0]);
    let tilt = Quat::from_rotation_z(0.5);
    let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    f.node(
        json!({"name": "Plank", "mesh": b, "translation": [0, 1, 0], "extras": {"one_way": true}}),
        true,
    );
    f.node(
        json!({"name": "Tilted", "mesh": b, "translation": [5, 1, 0], "rotation": tilt.to_array(),
               "extras": {"one_way": true}}),
        true,
    );
    // Stretched along x after a 45° turn: the direction is the normal of
    // the transformed local floor, not the image of +Y.
    let sheared = f.node(
        json!({"name": "Sheared", "mesh": b, "rotation": turn.to_array(), "extras": {"one_way": true}}),
        false,
    );
    f.node(
        json!({"name": "Stretch", "scale": [2, 1, 1], "children": [sheared]}),
        true,
    );
    // A one-way group: a child takes the group's direction, or says no.
    let a = f.node(json!({"name": "A", "mesh": b, "rotation": tilt.to_array()}), false);
    let solid = f.node(json!({"name": "B", "mesh": b, "extras": {"one_way": false}}), false);
    f.node(
        json!({"name": "Group", "rotation": tilt.inverse().to_array(), "children": [a, solid],
               "extras": {"one_way": true}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let names: Vec<&str> = level.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Plank", "Tilted", "Sheared", "A"]);
    assert_eq!(level.report.parts, 4);
    // The floor and B stay in the merged static collider.
    assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12);
    for part in &level.parts {
        assert_eq!(part.collider.len(), 12, "{}", part.name);
        assert_eq!(part.layers, CollisionLayers::ALL);
    }
    let dir = |k: usize| level.parts[k].one_way.unwrap();
    assert_close(dir(0), Vec3::Y);
    assert_close(dir(1), tilt * Vec3::Y);
    assert_close(dir(2), Vec3::new(-1.0, 2.0, 0.0).normalize());
    let linear = glam::Mat3::from_diagonal(Vec3::new(2.0, 1.0, 1.0)) * glam::Mat3::from_quat(turn);
    for along in [Vec3::X, Vec3::Z] {
        assert!(dir(2).dot(linear * along).abs() < 1e-6);
    }
    assert_close(dir(3), tilt.inverse() * Vec3::Y);
    assert_eq!(level.parts[0].node, 1);
    assert!(level.parts.iter().all(|p| p.surface == 0));
}

#[test]
fn a_body_lands_on_a_one_way_box_from_above_and_rises_through_it_from_below() {
    let (mut f, plank) = floor_and_plank();
    f.node(
        json!({"name": "Platform", "mesh": plank, "translation": [0, 2, 0], "extras": {"one_way": true}}),
        true,
    );
    f.node(json!({"name": "Shelf", "mesh": plank, "translation": [10, 3, 0]}), true);
    let level = f.load_embedded().unwrap();
    assert_eq!(level.parts.len(), 1);
    let all = CollisionLayers::ALL;
    // Dropped from above: it stands on the platform's top (y = 2).
    let fell = moved(&level, all, Vec3::new(0.0, 4.0, 0.0), Vec3::NEG_Y * 3.0);
    assert!((fell.y - 2.9).abs() < 0.01, "{fell}");
    // Rising from the floor below: it passes through, then lands on top.
    let rose = moved(&level, all, Vec3::new(0.0, 0.95, 0.0), Vec3::Y * 3.0);
    assert!((rose.y - 3.95).abs() < 1e-3, "{rose}");
    let landed = moved(&level, all, rose, Vec3::NEG_Y * 2.0);
    assert!((landed.y - 2.9).abs() < 0.01, "{landed}");
    // From the side, inside it: nothing holds it.
    let across = moved(&level, all, Vec3::new(-4.0, 1.9, 0.0), Vec3::X * 8.0);
    assert!((across - Vec3::new(4.0, 1.9, 0.0)).length() < 1e-3, "{across}");
    // The same box without "one_way" (its bottom at y = 2.8) stops it from below.
    let blocked = moved(&level, all, Vec3::new(10.0, 0.95, 0.0), Vec3::Y * 3.0);
    assert!((blocked.y - 1.9).abs() < 0.01, "{blocked}");
}

#[test]
fn a_mirrored_one_way_node_is_solid_from_its_local_up_side() {
    // Scaled −1 in y: its local +Y faces down, and so does the front of
    // its triangles (wound as glTF draws a mirrored mesh).
    let (mut f, plank) = floor_and_plank();
    f.node(
        json!({"name": "Upside down", "mesh": plank, "translation": [0, 3, 0], "scale": [1, -1, 1],
               "extras": {"one_way": true}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    assert_close(level.parts[0].one_way.unwrap(), Vec3::NEG_Y);
    let all = CollisionLayers::ALL;
    // From below it is a ceiling at y = 3.
    let rose = moved(&level, all, Vec3::new(0.0, 0.95, 0.0), Vec3::Y * 3.0);
    assert!((rose.y - 2.1).abs() < 0.01, "{rose}");
    // From above it lets the body fall through to the floor.
    let fell = moved(&level, all, Vec3::new(0.0, 5.0, 0.0), Vec3::NEG_Y * 5.0);
    assert!((fell.y - 0.9).abs() < 0.01, "{fell}");
}

#[test]
fn layers_parse_from_names_and_numbers_and_are_inherited() {
    let mut f = Fixture::with_floor();
    let b = f.cuboid_mesh("box", [-1.0, -0.1, -1.0], [1.0, 0.0, 1.0]);
    f.node(
        json!({"name": "Barrier", "mesh": b, "extras": {"layers": {"member": ["world"], "collides": ["crowd", "Balls"]}}}),
        true,
    );
    f.node(
        json!({"name": "Numbered", "mesh": b, "extras": {"layers": {"collides": [1, 31]}}}),
        true,
    );
    let child = f.node(json!({"name": "Child", "mesh": b}), false);
    let back = f.node(
        json!({"name": "Back to all", "mesh": b, "extras": {"layers": {}}}),
        false,
    );
    f.node(
        json!({"name": "Grates", "children": [child, back], "extras": {"layers": {"collides": ["player", "crowd"]}}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let layers: Vec<(&str, CollisionLayers)> = level.parts.iter().map(|p| (p.name.as_str(), p.layers)).collect();
    assert_eq!(
        layers,
        [
            ("Barrier", CollisionLayers::new(0b1, 0b1100)),
            ("Numbered", CollisionLayers::new(u32::MAX, 0b10 | 1 << 31)),
            ("Child", CollisionLayers::new(u32::MAX, 0b110)),
        ]
    );
    assert!(level.parts.iter().all(|p| p.one_way.is_none()));
    assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12);
    for (extras, says) in [
        (json!({"layers": {"collides": ["ghosts"]}}), "unknown layer \"ghosts\""),
        (json!({"layers": {"member": [32]}}), "layer 32 in \"layers\" \"member\""),
        (json!({"layers": {"member": [-3]}}), "layer -3 "),
        (json!({"layers": {"member": "world"}}), "must be a list of layer names"),
        (json!({"layers": {"member": [null]}}), "layer null "),
        (json!({"layers": {"members": []}}), "unknown key \"members\""),
        (json!({"layers": true}), "\"layers\" must be an object"),
    ] {
        let mut f = Fixture::with_floor();
        let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
        f.node(json!({"name": "Bad", "mesh": b, "extras": extras}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, "Bad");
        assert!(reason.contains(says), "{extras}: {reason}");
    }
}

#[test]
fn a_barrier_stops_the_crowd_and_the_balls_and_a_grate_lets_the_balls_through() {
    let (mut f, plank) = floor_and_plank();
    // Walls across x = 0 (a plank stood on its side) and x = 10.
    let wall = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    f.node(
        json!({"name": "Barrier", "mesh": plank, "translation": [0, 1, 0], "rotation": wall.to_array(),
               "extras": {"layers": {"collides": ["crowd", "balls"]}}}),
        true,
    );
    f.node(
        json!({"name": "Grate", "mesh": plank, "translation": [10, 1, 0], "rotation": wall.to_array(),
               "extras": {"layers": {"collides": ["player", "crowd"]}}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let through = |layers: CollisionLayers, x: f32| {
        let end = moved(&level, layers, Vec3::new(x - 2.0, 1.0, 0.0), Vec3::X * 4.0);
        end.x > x + 1.0
    };
    assert!(through(PLAYER_LAYERS, 0.0));
    assert!(!through(CROWD_LAYERS, 0.0));
    assert!(!through(BALL_LAYERS, 0.0));
    assert!(!through(PLAYER_LAYERS, 10.0));
    assert!(!through(CROWD_LAYERS, 10.0));
    assert!(through(BALL_LAYERS, 10.0));
}

#[test]
fn sensors_are_volumes_apart_from_what_collides() {
    let mut f = Fixture::with_floor();
    let b = f.cuboid_mesh("box", [-1.0, 0.0, -1.0], [1.0, 2.0, 1.0]);
    let inside = f.node(json!({"name": "Pedestal", "mesh": b}), false);
    f.node(json!({"name": "Pit", "mesh": b, "extras": {"sensor": "kill"}}), true);
    f.node(
        json!({"name": "Flag", "mesh": b, "children": [inside], "extras": {"sensor": "Checkpoint",
               "layers": {"collides": ["player"]}}}),
        true,
    );
    f.node(
        json!({"name": "Bell", "mesh": b, "extras": {"sensor": "bell tower"}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let sensors: Vec<(&str, &SensorKind, CollisionLayers)> = level
        .sensors
        .iter()
        .map(|s| (s.name.as_str(), &s.kind, s.layers))
        .collect();
    assert_eq!(
        sensors,
        [
            ("Pit", &SensorKind::Kill, CollisionLayers::ALL),
            ("Flag", &SensorKind::Checkpoint, CollisionLayers::new(u32::MAX, 0b10)),
            ("Bell", &SensorKind::Named("bell tower".into()), CollisionLayers::ALL),
        ]
    );
    assert_eq!(level.sensors[2].kind.word(), "bell tower");
    assert!(level.sensors.iter().all(|s| s.collider.len() == 12));
    assert_eq!(level.report.sensors, 3);
    // Not solid: only the floor and the pedestal (the flag's child, whose
    // layers are not the flag's) collide, in the merged static collider.
    assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12);
    assert!(level.parts.is_empty());
    assert_eq!(level.placed_at_rest().len(), 1);
}

#[test]
fn doors_and_lifts_carry_layers_and_a_one_way_direction_in_their_frame() {
    let (mut f, plank) = floor_and_plank();
    let quarter = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    f.node(
        json!({"name": "Lift", "mesh": plank, "translation": [0, 2, 0], "rotation": quarter.to_array(),
               "extras": {"one_way": true, "layers": {"collides": ["player"]}}}),
        true,
    );
    // A door inside a one-way group turned about z: the group's +Y, in
    // the door's frame.
    let tilt = Quat::from_rotation_z(0.3);
    let door = f.node(
        json!({"name": "Door", "mesh": plank, "rotation": quarter.to_array()}),
        false,
    );
    f.node(
        json!({"name": "Group", "rotation": tilt.to_array(), "children": [door], "extras": {"one_way": true}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    assert!(level.parts.is_empty());
    let (lift, door) = (&level.movers[0], &level.movers[1]);
    assert_close(lift.one_way.unwrap(), Vec3::Y);
    assert_eq!(lift.layers, CollisionLayers::new(u32::MAX, 0b10));
    assert_close(door.rest.rotation * door.one_way.unwrap(), tilt * Vec3::Y);
    assert_eq!(door.layers, CollisionLayers::ALL);
    let placed = level.placed_at_rest();
    assert_eq!(level.first_mover(), 1);
    assert_close(placed[1].pose.rotation * placed[1].one_way.unwrap(), quarter * Vec3::Y);
    assert_eq!(placed[1].layers, lift.layers);
}

#[test]
fn placed_colliders_and_friction_number_statics_then_parts_then_movers() {
    let mut f = Fixture::default();
    let floor = f.square_mesh("floor");
    let b = f.cuboid_mesh("box", [-1.0, -0.1, -1.0], [1.0, 0.0, 1.0]);
    f.node(
        json!({"name": "Floor", "mesh": floor, "extras": {"friction": 0.5}}),
        true,
    );
    f.node(
        json!({"name": "Lift", "mesh": b, "translation": [5, 0, 0], "extras": {"friction": 0.8}}),
        true,
    );
    f.node(
        json!({"name": "Ice plank", "mesh": b, "translation": [0, 1, 0], "extras": {"friction": 0, "one_way": true}}),
        true,
    );
    f.node(
        json!({"name": "Grate", "mesh": b, "translation": [0, 2, 0], "extras": {"layers": {"collides": ["player"]}}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let placed = level.placed_at_rest();
    assert_eq!(placed.len(), 4);
    assert_eq!(level.first_mover(), 3);
    assert!(std::ptr::eq(placed[0].mesh, level.statics.as_ref().unwrap()));
    assert!(std::ptr::eq(placed[1].mesh, &level.parts[0].collider));
    assert!(std::ptr::eq(placed[2].mesh, &level.parts[1].collider));
    assert!(std::ptr::eq(placed[3].mesh, &level.movers[0].collider));
    assert_eq!((placed[0].layers, placed[0].one_way), (CollisionLayers::ALL, None));
    assert_eq!(placed[1].one_way, Some(Vec3::Y));
    assert_eq!(placed[2].layers, CollisionLayers::new(u32::MAX, 0b10));
    assert_eq!(placed[3].one_way, None);
    let friction: Vec<f32> = (0..5).map(|c| level.friction(c, 0)).collect();
    assert_eq!(friction, [0.5, 0.0, 1.0, 0.8, 1.0]);
    // Moved lifts keep their place after the parts.
    let up = slidewalk_sweep::Pose {
        translation: level.movers[0].rest.translation + Vec3::Y,
        ..level.movers[0].rest
    };
    let placed = level.placed(&[up], &[level.movers[0].rest], 0.5);
    assert_close(placed[3].linear_velocity, Vec3::Y * 2.0);
    // Without static triangles, the parts come first.
    let mut f = Fixture::default();
    let b = f.cuboid_mesh("box", [-1.0, -0.1, -1.0], [1.0, 0.0, 1.0]);
    f.node(json!({"name": "Lift", "mesh": b, "extras": {"friction": 0.8}}), true);
    f.node(
        json!({"name": "Plank", "mesh": b, "extras": {"friction": 0.3, "one_way": true}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    assert!(level.statics.is_none());
    assert_eq!(level.first_mover(), 1);
    assert_eq!([0, 1].map(|c| level.friction(c, 0)), [0.3, 0.8]);
}

#[test]
fn the_spawn_search_lands_on_one_way_platforms_and_not_on_what_the_player_passes() {
    let radii = PLAYER;
    // A one-way platform over the middle of the floor: the drop lands on it.
    let (mut f, plank) = floor_and_plank();
    f.node(
        json!({"name": "Platform", "mesh": plank, "translation": [0, 2, 0], "extras": {"one_way": true}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let start = spawn::start_point(&level, radii, 0.7).unwrap();
    assert!((start.position.y - 2.0).abs() < 0.02, "{start:?}");
    // A barrier the player passes through and a sensor above the floor:
    // the drop goes through both to the floor.
    let (mut f, plank) = floor_and_plank();
    f.node(
        json!({"name": "Barrier", "mesh": plank, "translation": [0, 2, 0],
               "extras": {"layers": {"collides": ["crowd", "balls"]}}}),
        true,
    );
    f.node(
        json!({"name": "Pit", "mesh": plank, "translation": [0, 4, 0], "extras": {"sensor": "kill"}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let start = spawn::start_point(&level, radii, 0.7).unwrap();
    assert!(start.position.y.abs() < 0.02, "{start:?}");
}
