//! The extras that give a surface a move of the character's, on files
//! written by hand (see `fixture`): `"climbable"` nodes (and their
//! children) become climbable static parts or climbable doors and lifts,
//! `"launch"` nodes become launch-pad static parts with their velocity,
//! and each misuse is refused with an error naming the node.

mod fixture;

use fixture::*;
use glam::Vec3;
use serde_json::{Value, json};
use slidewalk_level::MAX_LAUNCH_SPEED;

/// A fixture with a 2 × 2 m floor at y = 0 (node 0, "Floor") and a unit
/// box mesh (mesh 1).
fn floor_and_box() -> (Fixture, usize) {
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    f.node(json!({"name": "Floor", "mesh": m}), true);
    let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
    (f, b)
}

#[test]
fn climbable_nodes_and_their_children_become_climbable_parts() {
    let (mut f, b) = floor_and_box();
    f.node(
        json!({"name": "Wall", "mesh": b, "translation": [3, 0, 0], "extras": {"climbable": true}}),
        true,
    );
    f.node(
        json!({"name": "Plain", "mesh": b, "translation": [6, 0, 0], "extras": {"climbable": false}}),
        true,
    );
    // A climbable group without a mesh: its children inherit, or say no.
    let rung = f.node(json!({"name": "Rung", "mesh": b, "translation": [0, 1, 0]}), false);
    let smooth = f.node(
        json!({"name": "Smooth", "mesh": b, "translation": [0, 2, 0], "extras": {"climbable": false}}),
        false,
    );
    let grip = f.node(
        json!({"name": "Grip", "mesh": b, "translation": [0, 3, 0], "extras": {"climbable": true}}),
        false,
    );
    f.node(
        json!({"name": "Ladder", "translation": [9, 0, 0], "children": [rung, smooth, grip],
               "extras": {"climbable": true}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let names: Vec<&str> = level.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Wall", "Rung", "Grip"]);
    assert_eq!(level.report.parts, 3);
    for part in &level.parts {
        assert!(part.climbable, "{}", part.name);
        assert_eq!(part.launch, None, "{}", part.name);
        assert_eq!(part.one_way, None, "{}", part.name);
        assert_eq!(part.collider.len(), 12, "{}", part.name);
    }
    // The floor, Plain and Smooth stay in the merged static collider.
    assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12 + 12);
    let wall = level.parts[0].collider.bounds();
    assert!((wall.min - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-6, "{wall:?}");
    // Placed with the others: statics, parts, movers.
    assert_eq!(level.placed_at_rest().len(), 1 + 3);
}

#[test]
fn climbable_goes_with_one_way_and_layers() {
    let (mut f, b) = floor_and_box();
    f.node(
        json!({"name": "Trellis", "mesh": b, "extras": {"climbable": true, "one_way": true,
               "layers": {"collides": ["player"]}}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    assert_eq!(level.parts.len(), 1);
    let part = &level.parts[0];
    assert!(part.climbable);
    assert!(part.one_way.is_some());
    assert_ne!(part.layers, slidewalk_sweep::CollisionLayers::ALL);
}

#[test]
fn doors_and_lifts_are_climbable_from_their_own_node_or_a_parent() {
    let (mut f, b) = floor_and_box();
    f.node(
        json!({"name": "Door", "mesh": b, "translation": [3, 0, 0], "extras": {"climbable": true}}),
        true,
    );
    let lift = f.node(json!({"name": "Lift", "mesh": b}), false);
    f.node(
        json!({"name": "Shaft", "translation": [6, 0, 0], "children": [lift], "extras": {"climbable": true}}),
        true,
    );
    f.node(json!({"name": "Lift_plain", "mesh": b, "translation": [9, 0, 0]}), true);
    let level = f.load_embedded().unwrap();
    let climbable: Vec<(&str, bool)> = level.movers.iter().map(|m| (m.name.as_str(), m.climbable)).collect();
    assert_eq!(climbable, [("Door", true), ("Lift", true), ("Lift_plain", false)]);
    assert!(level.parts.is_empty());
}

#[test]
fn launch_nodes_become_launch_pads_with_their_velocity() {
    let (mut f, b) = floor_and_box();
    // A child of a launch pad is not one: "launch" is the node's own mesh's.
    let rail = f.node(json!({"name": "Rail", "mesh": b, "translation": [0, 0, 2]}), false);
    f.node(
        json!({"name": "Pad", "mesh": b, "translation": [3, 0, 0], "scale": [1.5, 0.1, 1.5],
               "children": [rail], "extras": {"launch": [0.0, 12.0, 0.0]}}),
        true,
    );
    f.node(
        json!({"name": "Springboard", "mesh": b, "translation": [6, 0, 0],
               "extras": {"launch": [3, 8.5, -4], "climbable": true, "friction": 0.5}}),
        true,
    );
    f.node(
        json!({"name": "Cannon", "mesh": b, "translation": [9, 0, 0],
               "extras": {"launch": [0, 0, -MAX_LAUNCH_SPEED]}}),
        true,
    );
    let level = f.load_embedded().unwrap();
    let pads: Vec<(&str, Option<Vec3>, bool)> = level
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.launch, p.climbable))
        .collect();
    assert_eq!(
        pads,
        [
            ("Pad", Some(Vec3::new(0.0, 12.0, 0.0)), false),
            ("Springboard", Some(Vec3::new(3.0, 8.5, -4.0)), true),
            ("Cannon", Some(Vec3::new(0.0, 0.0, -1000.0)), false),
        ]
    );
    // Rail stays in the static collider with the floor.
    assert_eq!(level.statics.as_ref().unwrap().len(), 2 + 12);
    let top = level.parts[0].collider.bounds();
    assert!((top.max - Vec3::new(4.5, 0.1, 1.5)).length() < 1e-6, "{top:?}");
    // The springboard keeps its friction (the parts are numbered after the statics).
    assert_eq!(level.friction(2, 0), 0.5);
    assert_eq!(level.friction(1, 0), 1.0);
}

#[test]
fn bad_climbable_and_launch_values_are_refused_naming_the_node() {
    let cases: [(&str, Value, &str); 14] = [
        (
            "Wall",
            json!({"climbable": 1}),
            "\"climbable\" must be true or false, got 1",
        ),
        (
            "Wall",
            json!({"climbable": "yes"}),
            "\"climbable\" must be true or false, got \"yes\"",
        ),
        (
            "Pad",
            json!({"launch": 12}),
            "\"launch\" must be an array of three numbers",
        ),
        (
            "Pad",
            json!({"launch": [0, 12]}),
            "\"launch\" must be an array of three numbers",
        ),
        (
            "Pad",
            json!({"launch": [0, "up", 0]}),
            "\"launch\" must be an array of three numbers",
        ),
        ("Pad", json!({"launch": [0, 0, 0]}), "\"launch\" must not be zero"),
        ("Pad", json!({"launch": [0, 1000.5, 0]}), "faster than 1000 m/s"),
        ("Pad", json!({"launch": [1e30, 0, 0]}), "\"launch\" is 1e30 m/s"),
        (
            "Door",
            json!({"launch": [0, 12, 0]}),
            "not a door node (a launch pad does not move)",
        ),
        (
            "Lift",
            json!({"launch": [0, 12, 0]}),
            "not a lift node (a launch pad does not move)",
        ),
        (
            "Spawn",
            json!({"climbable": true}),
            "\"climbable\" is for geometry that collides, not a spawn node",
        ),
        (
            "Trap",
            json!({"sensor": "kill", "launch": [0, 1, 0]}),
            "and \"launch\" cannot go together",
        ),
        (
            "Trap",
            json!({"sensor": "kill", "climbable": false}),
            "and \"climbable\" cannot go together",
        ),
        (
            "Disc",
            json!({"collider": "cylinder", "climbable": true}),
            "cannot go with \"climbable\" or \"launch\"",
        ),
    ];
    for (name, extras, says) in cases {
        let (mut f, b) = floor_and_box();
        f.node(json!({"name": name, "mesh": b, "extras": extras}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, name);
        assert!(reason.contains(says), "{name}: {reason}");
    }
    // A launch pad needs a mesh of its own.
    let (mut f, _) = floor_and_box();
    f.node(json!({"name": "Empty", "extras": {"launch": [0, 5, 0]}}), true);
    let (node, reason) = f.refusal();
    assert_eq!(node, "Empty");
    assert!(
        reason.contains("\"launch\" needs a mesh on the node itself"),
        "{reason}"
    );
    // Inside a door, a lift or a no-collide node.
    for parent in ["Door", "Lift", "nocollide-decor"] {
        let (mut f, b) = floor_and_box();
        let child = f.node(
            json!({"name": "Pad", "mesh": b, "extras": {"launch": [0, 5, 0]}}),
            false,
        );
        f.node(json!({"name": parent, "mesh": b, "children": [child]}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, "Pad");
        assert!(
            reason.contains("\"launch\" is for static geometry"),
            "{parent}: {reason}"
        );
    }
    // "climbable" goes on the door or lift node itself.
    for parent in ["Door", "Lift"] {
        let (mut f, b) = floor_and_box();
        let child = f.node(
            json!({"name": "Panel", "mesh": b, "extras": {"climbable": true}}),
            false,
        );
        f.node(json!({"name": parent, "mesh": b, "children": [child]}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, "Panel");
        assert!(
            reason.contains("\"climbable\" goes on the door or lift node itself"),
            "{reason}"
        );
    }
    // An analytic collider under a climbable group.
    let (mut f, b) = floor_and_box();
    let pillar = f.node(
        json!({"name": "Pillar", "mesh": b, "extras": {"collider": "cylinder"}}),
        false,
    );
    f.node(
        json!({"name": "Group", "children": [pillar], "extras": {"climbable": true}}),
        true,
    );
    let (node, reason) = f.refusal();
    assert_eq!(node, "Pillar");
    assert!(reason.contains("\"climbable\" (this node's or a parent's)"), "{reason}");
}
