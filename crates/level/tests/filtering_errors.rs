//! Misused `"one_way"`, `"layers"` and `"sensor"` extras, on files written
//! by hand (see `fixture`): each is refused with an error naming the node
//! and saying what is wrong.

mod fixture;

use fixture::*;
use serde_json::{Value, json};

#[test]
fn misplaced_sensors_are_refused_naming_the_node() {
    let cases: [(&str, Value, &str); 10] = [
        ("Empty", json!({"sensor": ""}), "needs a name"),
        ("Number", json!({"sensor": 7}), "\"sensor\" must be a name"),
        ("Door", json!({"sensor": "kill"}), "not a door node"),
        ("Lift", json!({"sensor": "kill"}), "not a lift node"),
        ("Spawn", json!({"sensor": "kill"}), "not a spawn node"),
        ("nocollide", json!({"sensor": "kill"}), "not a nocollide node"),
        (
            "Solid",
            json!({"sensor": "kill", "collider": "plane"}),
            "and \"collider\" cannot go together",
        ),
        (
            "Boxed",
            json!({"sensor": "kill", "proxy": "box"}),
            "and \"proxy\" cannot go together",
        ),
        (
            "Oneway",
            json!({"sensor": "kill", "one_way": false}),
            "and \"one_way\" cannot go together",
        ),
        ("Hollow", json!({"sensor": "kill"}), "needs a mesh on the node itself"),
    ];
    for (name, extras, says) in cases {
        let mut f = Fixture::with_floor();
        let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
        let mut node = json!({"name": name, "extras": extras});
        if name != "Hollow" {
            node["mesh"] = json!(b);
        }
        f.node(node, true);
        let (node, reason) = f.refusal();
        assert_eq!(node, name);
        assert!(reason.contains(says), "{name}: {reason}");
    }
    // Inside a door or a no-collide node.
    for parent in ["Door", "nocollide-decor"] {
        let mut f = Fixture::with_floor();
        let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
        let child = f.node(json!({"name": "Trap", "mesh": b, "extras": {"sensor": "kill"}}), false);
        f.node(json!({"name": parent, "mesh": b, "children": [child]}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, "Trap");
        assert!(
            reason.contains("cannot be part of a door, lift or no-collide node"),
            "{reason}"
        );
    }
}

#[test]
fn misplaced_one_way_and_layers_are_refused_naming_the_node() {
    let cases: [(&str, Value, &str); 6] = [
        (
            "Plank",
            json!({"one_way": "yes"}),
            "\"one_way\" must be true or false, got \"yes\"",
        ),
        (
            "Plank",
            json!({"one_way": 1}),
            "\"one_way\" must be true or false, got 1",
        ),
        (
            "Spawn",
            json!({"one_way": true}),
            "\"one_way\" is for geometry that collides, not a spawn node",
        ),
        (
            "nocollide",
            json!({"layers": {}}),
            "\"layers\" is for geometry that collides, not a nocollide node",
        ),
        (
            "Disc",
            json!({"collider": "cylinder", "one_way": true}),
            "cannot go with \"one_way\" or \"layers\"",
        ),
        (
            "Flat",
            json!({"one_way": true}),
            "needs a finite, invertible node transform",
        ),
    ];
    for (name, extras, says) in cases {
        let mut f = Fixture::with_floor();
        let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
        let mut node = json!({"name": name, "mesh": b, "extras": extras});
        if name == "Flat" {
            node["scale"] = json!([1, 0, 1]);
        }
        f.node(node, true);
        let (node, reason) = f.refusal();
        assert_eq!(node, name);
        assert!(reason.contains(says), "{name}: {reason}");
    }
    // An analytic collider under a layered group.
    let mut f = Fixture::with_floor();
    let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
    let pillar = f.node(
        json!({"name": "Pillar", "mesh": b, "extras": {"collider": "cylinder"}}),
        false,
    );
    f.node(
        json!({"name": "Group", "children": [pillar], "extras": {"layers": {"collides": ["balls"]}}}),
        true,
    );
    let (node, reason) = f.refusal();
    assert_eq!(node, "Pillar");
    assert!(reason.contains("(this node's or a parent's)"), "{reason}");
    // Inside a door or a lift: they go on the mover's node.
    for extras in [json!({"one_way": true}), json!({"layers": {"member": [4]}})] {
        let mut f = Fixture::with_floor();
        let b = f.cuboid_mesh("box", [0.0; 3], [1.0; 3]);
        let child = f.node(json!({"name": "Panel", "mesh": b, "extras": extras}), false);
        f.node(json!({"name": "Door", "mesh": b, "children": [child]}), true);
        let (node, reason) = f.refusal();
        assert_eq!(node, "Panel");
        assert!(reason.contains("go on the door or lift node itself"), "{reason}");
    }
}
