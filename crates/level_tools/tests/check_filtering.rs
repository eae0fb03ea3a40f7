//! The level checker on a room with a one-way platform, a barrier the
//! player passes through, a grate that stops the player, and sensors: the
//! walkers meet it as the player does (jumping up through the platform is
//! no fall), and the command line counts the parts and sensors.

#[path = "../../level/tests/fixture/mod.rs"]
mod fixture;

use fixture::*;
use serde_json::json;
use slidewalk_level::load_bytes;
use slidewalk_level_tools::{CheckConfig, walk_level};
use slidewalk_sweep::test_util::{Soup, stairs_room};
use std::path::Path;

/// A closed 12 × 4 × 12 m room with stairs (floor at y = −2), a one-way
/// platform 0.9 m up, a barrier for the crowd and the balls, a grate for
/// the player and the crowd, a kill sensor and a named sensor.
fn room() -> Vec<u8> {
    let mut f = Fixture::default();
    let soup: Soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let m = f.triangle_mesh("room", &soup.positions, &soup.triangles);
    f.node(json!({"name": "Room", "mesh": m}), true);
    let platform = f.cuboid_mesh("platform", [1.0, -1.2, -4.0], [4.0, -1.1, -1.0]);
    f.node(
        json!({"name": "Platform", "mesh": platform, "extras": {"one_way": true}}),
        true,
    );
    let wall = f.cuboid_mesh("wall", [-0.05, -2.0, 1.0], [0.05, 2.0, 5.0]);
    f.node(
        json!({"name": "Barrier", "mesh": wall, "translation": [-2, 0, 0],
               "extras": {"layers": {"collides": ["crowd", "balls"]}}}),
        true,
    );
    f.node(
        json!({"name": "Grate", "mesh": wall, "translation": [3, 0, 0],
               "extras": {"layers": {"collides": ["player", "crowd"]}}}),
        true,
    );
    let volume = f.cuboid_mesh("volume", [-1.0, -2.0, -1.0], [1.0, 0.0, 1.0]);
    f.node(
        json!({"name": "Pit", "mesh": volume, "translation": [-3, 0, -3], "extras": {"sensor": "kill"}}),
        true,
    );
    f.node(
        json!({"name": "Bell", "mesh": volume, "translation": [0, 0, 3], "extras": {"sensor": "bell"}}),
        true,
    );
    f.glb()
}

#[test]
fn walkers_meet_one_way_and_layered_parts_as_the_player_does() {
    let level = load_bytes(&room(), None, Path::new("room.glb")).unwrap();
    assert_eq!((level.parts.len(), level.sensors.len()), (3, 2));
    let report = walk_level(&level, &CheckConfig::short(16, 600));
    assert!(report.passed(), "{report:#?}");
    assert_eq!(report.fell_through, 0, "{report:#?}");
    assert!(report.jumps > 0);
}

#[test]
fn level_check_counts_parts_and_sensors() {
    let dir = temp_dir("check-filtering");
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
        ("one_way_parts", 1),
        ("layered_parts", 2),
        ("parts_the_player_passes", 1),
        ("part_triangles", 36),
        ("sensors", 2),
        ("kill_sensors", 1),
        ("checkpoint_sensors", 0),
        ("named_sensors", 1),
        ("one_way_movers", 0),
    ] {
        assert_eq!(v[key], json!(n), "{key}: {v:#}");
    }
    assert_eq!(
        v["sensor_list"][1],
        json!({"name": "Bell", "kind": "bell", "triangles": 12})
    );
    assert_eq!(v["passed"], json!(true));
    let out = std::process::Command::new(exe)
        .arg(dir.join("room.glb"))
        .args(["--walks", "2", "--ticks", "60"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "parts      3 static parts (36 triangles): 1 one-way, 2 with layers (1 the player passes through)"
        ),
        "{text}"
    );
    assert!(
        text.contains("sensors    2 (1 kill, 0 checkpoint, 1 named; not solid)"),
        "{text}"
    );
    assert!(text.contains("  bell \"Bell\" (12 triangles)"), "{text}");
}
