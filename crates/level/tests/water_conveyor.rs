//! The extras that move a character by where it is, on files written by
//! hand (see `fixture`), embedded `.gltf` and `.glb`: `"water": true`
//! nodes become water volumes (not solid, in their node's frame with its
//! pose), `"conveyor"` nodes become static parts with their surface
//! velocity turned into the world, and each misuse is refused with an
//! error naming the node.

mod fixture;

use fixture::*;
use glam::{Quat, Vec3};
use serde_json::{Value, json};
use slidewalk_level::{Level, load_bytes};
use slidewalk_sweep::CollisionLayers;
use std::f32::consts::FRAC_PI_2;
use std::path::Path;

/// A fixture with a 2 × 2 m floor at y = 0 (node 0, "Floor") and a box
/// mesh 2 × 1 × 2 m, its bottom at y = 0 (mesh 1).
fn floor_and_box() -> (Fixture, usize) {
    let mut f = Fixture::with_floor();
    let b = f.cuboid_mesh("box", [-1.0, 0.0, -1.0], [1.0, 1.0, 1.0]);
    (f, b)
}

/// The fixture loaded from embedded `.gltf` and from `.glb`.
fn both_ways(f: &Fixture) -> [Level; 2] {
    [
        f.load_embedded().unwrap(),
        load_bytes(&f.glb(), None, Path::new("fixture.glb")).unwrap(),
    ]
}

#[test]
fn water_nodes_become_water_volumes_in_their_frame_apart_from_what_collides() {
    let (mut f, b) = floor_and_box();
    // A child of water is ordinary geometry, and does not take its layers.
    let rock = f.node(json!({"name": "Rock", "mesh": b, "translation": [0, -1, 0]}), false);
    f.node(
        json!({"name": "Pool", "mesh": b, "children": [rock], "translation": [5, -2, 0],
               "rotation": Quat::from_rotation_y(FRAC_PI_2).to_array(), "scale": [3, 2, 1],
               "extras": {"water": true, "layers": {"collides": ["player"]}}}),
        true,
    );
    f.node(
        json!({"name": "Puddle", "mesh": b, "translation": [-5, 0, 0], "extras": {"water": true}}),
        true,
    );
    // `false` is plain geometry.
    f.node(
        json!({"name": "Dry", "mesh": b, "translation": [0, 0, 5], "extras": {"water": false}}),
        true,
    );
    for level in both_ways(&f) {
        let water: Vec<(&str, CollisionLayers)> = level.water.iter().map(|w| (w.name.as_str(), w.layers)).collect();
        assert_eq!(
            water,
            [
                ("Pool", CollisionLayers::new(u32::MAX, 0b10)),
                ("Puddle", CollisionLayers::ALL)
            ]
        );
        assert_eq!(level.report.water, 2);
        let pool = &level.water[0];
        assert_eq!(pool.collider.len(), 12);
        // In the node's frame, its scale kept: 6 × 2 × 2 m, bottom at 0.
        let local = pool.collider.bounds();
        assert!((local.min - Vec3::new(-3.0, 0.0, -1.0)).length() < 1e-5, "{local:?}");
        assert!((local.max - Vec3::new(3.0, 2.0, 1.0)).length() < 1e-5, "{local:?}");
        assert!((pool.pose.translation - Vec3::new(5.0, -2.0, 0.0)).length() < 1e-6);
        assert!(pool.pose.rotation.angle_between(Quat::from_rotation_y(FRAC_PI_2)) < 1e-5);
        // Placed, it is turned: 2 m along x, 6 m along z.
        let world = pool.placed().pose.transform_aabb(local);
        assert!((world.size() - Vec3::new(2.0, 2.0, 6.0)).length() < 1e-4, "{world:?}");
        // Not solid: the floor, the rock and Dry collide, in the static collider.
        assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12 + 12);
        assert!(level.parts.is_empty() && level.sensors.is_empty());
        assert_eq!(level.placed_at_rest().len(), 1);
    }
}

#[test]
fn conveyor_nodes_become_parts_with_their_velocity_in_the_world() {
    let (mut f, b) = floor_and_box();
    // A child of a conveyor is not one: "conveyor" is the node's own mesh's.
    let rail = f.node(json!({"name": "Rail", "mesh": b, "translation": [0, 0, 3]}), false);
    f.node(
        json!({"name": "Belt", "mesh": b, "translation": [4, 0, 0], "children": [rail],
               "extras": {"conveyor": [2, 0, 0], "friction": 0.5}}),
        true,
    );
    // Turned 90° about +y: its local +x is the world's −z.
    f.node(
        json!({"name": "Turned", "mesh": b, "translation": [8, 0, 0], "scale": [2, 1, 1],
               "rotation": Quat::from_rotation_y(FRAC_PI_2).to_array(),
               "extras": {"conveyor": [1.5, 0, 0], "launch": [0, 5, 0]}}),
        true,
    );
    for level in both_ways(&f) {
        let names: Vec<&str> = level.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Belt", "Turned"]);
        assert_eq!(level.parts[0].conveyor, Some(Vec3::new(2.0, 0.0, 0.0)));
        assert_eq!(level.parts[0].launch, None);
        let turned = level.parts[1].conveyor.unwrap();
        assert!((turned - Vec3::new(0.0, 0.0, -1.5)).length() < 1e-6, "{turned}");
        assert_eq!(level.parts[1].launch, Some(Vec3::new(0.0, 5.0, 0.0)));
        assert!(level.parts.iter().all(|p| p.collider.len() == 12 && !p.climbable));
        // Rail stays in the static collider with the floor.
        assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12);
        // Solid, numbered after the statics, with the belt's friction.
        assert_eq!(level.placed_at_rest().len(), 1 + 2);
        assert_eq!(level.friction(1, 0), 0.5);
    }
}

#[test]
fn bad_water_and_conveyor_values_are_refused_naming_the_node() {
    let cases: [(&str, Value, &str); 16] = [
        ("Pool", json!({"water": 1}), "\"water\" must be true or false, got 1"),
        ("Pool", json!({"water": "yes"}), "\"water\" must be true or false"),
        (
            "Belt",
            json!({"conveyor": 2}),
            "\"conveyor\" must be an array of three numbers",
        ),
        (
            "Belt",
            json!({"conveyor": [2, 0]}),
            "\"conveyor\" must be an array of three numbers",
        ),
        ("Belt", json!({"conveyor": [0, 0, 0]}), "\"conveyor\" must not be zero"),
        ("Belt", json!({"conveyor": [100.5, 0, 0]}), "faster than 100 m/s"),
        ("Belt", json!({"conveyor": [1e30, 0, 0]}), "\"conveyor\" is 1e30 m/s"),
        (
            "Door",
            json!({"water": true}),
            "\"water\" is for a static node with a mesh, not a door node",
        ),
        ("Lift", json!({"conveyor": [1, 0, 0]}), "not a lift node"),
        ("Spawn", json!({"conveyor": [1, 0, 0]}), "not a spawn node"),
        (
            "Pool",
            json!({"water": true, "sensor": "kill"}),
            "\"water\" and \"sensor\" cannot go together",
        ),
        (
            "Pool",
            json!({"water": true, "one_way": true}),
            "\"water\" and \"one_way\" cannot go together",
        ),
        (
            "Pool",
            json!({"water": true, "conveyor": [1, 0, 0]}),
            "\"water\" and \"conveyor\" cannot go together",
        ),
        (
            "Pool",
            json!({"water": true, "launch": [0, 5, 0]}),
            "\"water\" and \"launch\" cannot go together",
        ),
        (
            "Belt",
            json!({"sensor": "kill", "conveyor": [1, 0, 0]}),
            "and \"conveyor\" cannot go together",
        ),
        (
            "Belt",
            json!({"collider": "cylinder", "conveyor": [1, 0, 0]}),
            "cannot go with \"conveyor\"",
        ),
    ];
    for (name, extras, says) in cases {
        let (mut f, b) = floor_and_box();
        f.node(json!({"name": name, "mesh": b, "extras": extras}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, name);
        assert!(reason.contains(says), "{name}: {reason}");
    }
    // On a node of zero scale there is no rotation to turn it by (the
    // level_json fuzz target's find: it was turned into NaN).
    let (mut f, b) = floor_and_box();
    f.node(
        json!({"name": "Flat", "mesh": b, "scale": [0, 0, 0], "extras": {"conveyor": [1, 0, 0]}}),
        true,
    );
    let (node, reason) = f.refusal();
    assert_eq!(node, "Flat");
    assert!(reason.contains("no rotation to turn it by"), "{reason}");
    // Each needs a mesh of its own.
    for (extras, says) in [
        (json!({"water": true}), "\"water\" needs a mesh on the node itself"),
        (
            json!({"conveyor": [1, 0, 0]}),
            "\"conveyor\" needs a mesh on the node itself",
        ),
    ] {
        let (mut f, _) = floor_and_box();
        f.node(json!({"name": "Empty", "extras": extras}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, "Empty");
        assert!(reason.contains(says), "{reason}");
    }
    // Inside a door, a lift or a no-collide node.
    for parent in ["Door", "Lift", "nocollide-decor"] {
        for (extras, says) in [
            (
                json!({"water": true}),
                "\"water\" cannot be part of a door, lift or no-collide node",
            ),
            (json!({"conveyor": [1, 0, 0]}), "\"conveyor\" is for static geometry"),
        ] {
            let (mut f, b) = floor_and_box();
            let child = f.node(json!({"name": "Inner", "mesh": b, "extras": extras}), false);
            f.node(json!({"name": parent, "mesh": b, "children": [child]}), true);
            let (node, reason) = f.refusal();
            assert_eq!(node, "Inner");
            assert!(reason.contains(says), "{parent}: {reason}");
        }
    }
}
