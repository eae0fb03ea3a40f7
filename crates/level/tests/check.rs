//! The level checker's walks on small levels written by hand: a closed room
//! passes with no penetration, an open floor reports walkers that walked off
//! its edge (not an error), and the command line reports and exits as documented.

mod fixture;

use fixture::*;
use level::{CheckConfig, load_bytes, walk_level};
use serde_json::json;
use std::path::Path;
use sweep::test_util::{Soup, stairs_room};

fn soup_level(soup: &Soup, extra: impl FnOnce(&mut Fixture)) -> Vec<u8> {
    let mut f = Fixture::default();
    let p: Vec<[f32; 3]> = soup.positions.iter().map(|v| v.to_array()).collect();
    let p = f.positions(&p);
    let i: Vec<u32> = soup.triangles.iter().flatten().copied().collect();
    let i = f.indices(&i, 4);
    let m = f.mesh("room", &[(p, Some(i), TRIANGLES)]);
    f.node(json!({"name": "Room", "mesh": m}), true);
    extra(&mut f);
    f.glb()
}

#[test]
fn a_closed_room_with_stairs_passes() {
    let soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let level = load_bytes(&soup_level(&soup, |_| {}), None, Path::new("room.glb")).unwrap();
    let report = walk_level(
        &level,
        &CheckConfig {
            walks: 8,
            ticks: 300,
            ..Default::default()
        },
    );
    assert!(report.passed(), "{report:#?}");
    assert_eq!(report.walked_off, 0, "{report:#?}");
    assert_eq!(report.updates, 8 * 300);
    assert!(report.max_penetration <= 1e-4);
}

#[test]
fn walking_off_an_open_floor_is_reported_apart() {
    let mut soup = Soup::default();
    soup.grid((-3.0, -3.0), (3.0, 3.0), 0.0, 4);
    let bytes = soup_level(&soup, |f| {
        f.node(json!({"name": "Spawn", "translation": [0.0, 0.0, 0.0]}), true);
    });
    let level = load_bytes(&bytes, None, Path::new("floor.glb")).unwrap();
    assert_eq!(level.spawns.len(), 1);
    let report = walk_level(
        &level,
        &CheckConfig {
            walks: 6,
            ticks: 600,
            ..Default::default()
        },
    );
    assert!(report.walked_off > 0, "{report:#?}");
    assert!(report.passed(), "{report:#?}");
}

#[test]
fn level_check_command_reports_and_exits() {
    let dir = temp_dir("level-check");
    let soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    std::fs::write(dir.join("room.glb"), soup_level(&soup, |_| {})).unwrap();
    let exe = env!("CARGO_BIN_EXE_level-check");
    let out = std::process::Command::new(exe)
        .arg(dir.join("room.glb"))
        .args(["--walks", "4", "--ticks", "120", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["passed"], json!(true));
    assert_eq!(v["updates"], json!(4 * 120));
    assert!(v["bvh_nodes"].as_u64().unwrap() > 0);
    // A missing file: a clear message and exit status 2, no panic.
    let out = std::process::Command::new(exe)
        .arg(dir.join("nope.glb"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read level"));
    // A bad option.
    let out = std::process::Command::new(exe)
        .args(["x.glb", "--walks", "many"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("whole number"));
}

#[test]
fn a_level_made_by_another_tool_loads_and_walks() {
    // Written by the Python `trimesh` package (tests/data/make_trimesh_scene.py):
    // a scene graph with transforms, boxes, a tilted ramp, a sphere, a cylinder, a ring.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trimesh_scene.glb");
    let level = level::load(path).unwrap();
    assert_eq!(level.report.mesh_instances, 9);
    assert!(level.spawns.is_empty() && level.movers.is_empty());
    let report = walk_level(
        &level,
        &CheckConfig {
            walks: 8,
            ticks: 300,
            ..Default::default()
        },
    );
    assert!(
        report.passed() && report.stuck == 0 && report.walked_off == 0,
        "{report:#?}"
    );
}
