//! The level checker on a room with a climbable wall, a climbable door and
//! a launch pad: the walkers walk it, and the command line counts the
//! climbable parts and movers and lists the launch pads.

#[path = "../../level/tests/fixture/mod.rs"]
mod fixture;

use fixture::*;
use serde_json::json;
use slidewalk_level::load_bytes;
use slidewalk_level_tools::{CheckConfig, walk_level};
use slidewalk_sweep::test_util::{Soup, box_room};
use std::path::Path;

/// A closed 12 × 4 × 12 m room (floor at y = −2) with a climbable block
/// (and a climbable child on it), a launch pad on the floor and a
/// climbable sliding door.
fn room() -> Vec<u8> {
    let mut f = Fixture::default();
    let soup: Soup = box_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let m = f.triangle_mesh("room", &soup.positions, &soup.triangles);
    f.node(json!({"name": "Room", "mesh": m}), true);
    let block = f.cuboid_mesh("block", [-1.0, -2.0, -5.0], [1.0, 0.0, -4.0]);
    let cap = f.cuboid_mesh("cap", [-1.0, 0.0, -5.0], [1.0, 0.2, -4.5]);
    let child = f.node(json!({"name": "Cap", "mesh": cap}), false);
    f.node(
        json!({"name": "Wall", "mesh": block, "children": [child], "extras": {"climbable": true}}),
        true,
    );
    let pad = f.cuboid_mesh("pad", [2.0, -2.0, 2.0], [3.0, -1.9, 3.0]);
    f.node(
        json!({"name": "Pad", "mesh": pad, "extras": {"launch": [0.0, 6.0, 0.0]}}),
        true,
    );
    let leaf = f.cuboid_mesh("leaf", [0.0, -1.99, -0.05], [1.0, 0.0, 0.05]);
    f.node(
        json!({"name": "Door", "mesh": leaf, "translation": [-4, 0, 3],
               "extras": {"door": "slide", "climbable": true}}),
        true,
    );
    f.glb()
}

#[test]
fn walkers_walk_a_level_with_climbable_parts_and_a_launch_pad() {
    let level = load_bytes(&room(), None, Path::new("room.glb")).unwrap();
    let parts: Vec<(&str, bool, bool)> = level
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.climbable, p.launch.is_some()))
        .collect();
    assert_eq!(
        parts,
        [("Wall", true, false), ("Cap", true, false), ("Pad", false, true)]
    );
    assert!(level.movers[0].climbable);
    let report = walk_level(&level, &CheckConfig::short(8, 400));
    assert!(report.passed(), "{report:#?}");
}

#[test]
fn level_check_counts_climbable_parts_and_launch_pads() {
    let dir = temp_dir("check-moves");
    std::fs::write(dir.join("room.glb"), room()).unwrap();
    let exe = env!("CARGO_BIN_EXE_level-check");
    let out = std::process::Command::new(exe)
        .arg(dir.join("room.glb"))
        .args(["--walks", "4", "--ticks", "300", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (key, n) in [
        ("static_parts", 3),
        ("one_way_parts", 0),
        ("layered_parts", 0),
        ("climbable_parts", 2),
        ("launch_pads", 1),
        ("climbable_movers", 1),
    ] {
        assert_eq!(v[key], json!(n), "{key}: {v:#}");
    }
    assert_eq!(
        v["launch_pad_list"],
        json!([{"name": "Pad", "launch_m_per_s": [0.0, 6.0, 0.0]}])
    );
    assert_eq!(v["movers"][0]["climbable"], json!(true));
    let out = std::process::Command::new(exe)
        .arg(dir.join("room.glb"))
        .args(["--walks", "2", "--ticks", "60"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "parts      3 static parts (36 triangles): 0 one-way, 0 with layers (0 the player passes through), 2 climbable, 1 launch pads"
        ),
        "{text}"
    );
    assert!(text.contains("  launch pad \"Pad\" (0.0, 6.0, 0.0) m/s"), "{text}");
    assert!(
        text.contains("mover      door \"Door\" (12 triangles, climbable)"),
        "{text}"
    );
}
