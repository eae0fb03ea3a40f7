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
    // Walk 0 starts where the game starts a player on a level without a
    // spawn node: dropped from above, onto the roof, which it may walk off.
    assert!(report.first_start.unwrap().y > 2.0, "{report:#?}");
    assert!(report.walked_off <= 1, "{report:#?}");
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

#[test]
fn soak_mode_places_walkers_again_so_every_walker_walks_the_whole_time() {
    // An open floor: walkers walk off its edge. In soak mode each is placed
    // again and walks on, so every tick of every walker is run.
    let mut soup = Soup::default();
    soup.grid((-3.0, -3.0), (3.0, 3.0), 0.0, 4);
    let bytes = soup_level(&soup, |f| {
        f.node(json!({"name": "Spawn", "translation": [0.0, 0.0, 0.0]}), true);
    });
    let level = load_bytes(&bytes, None, Path::new("floor.glb")).unwrap();
    let config = CheckConfig {
        walks: 4,
        ticks: 3_600,
        soak: true,
        ..Default::default()
    };
    let report = walk_level(&level, &config);
    assert!(report.passed(), "{report:#?}");
    assert_eq!(report.updates, 4 * 3_600, "{report:#?}");
    assert!((report.simulated_seconds - 4.0 * 60.0).abs() < 1e-3);
    assert!(report.walked_off > 4, "{report:#?}");
    assert_eq!(report.respawns, report.walked_off as u64, "{report:#?}");
    // Without soak, a walk ends where it walks off.
    let once = walk_level(&level, &CheckConfig { soak: false, ..config });
    assert!(once.updates < 4 * 3_600 && once.respawns == 0, "{once:#?}");
}

#[test]
fn walks_give_the_same_report_on_any_number_of_threads() {
    let soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let level = load_bytes(&soup_level(&soup, |_| {}), None, Path::new("room.glb")).unwrap();
    let run = |threads| {
        let mut r = walk_level(
            &level,
            &CheckConfig {
                walks: 6,
                ticks: 240,
                threads,
                ..Default::default()
            },
        );
        r.micros_per_update = 0.0;
        r
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(5));
    assert!(one.steps + one.jumps > 0, "{one:#?}");
}

#[test]
fn level_check_soak_flag_runs_the_time_asked_and_refuses_bad_values() {
    let dir = temp_dir("level-check-soak");
    let soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let file = dir.join("room.glb");
    std::fs::write(&file, soup_level(&soup, |_| {})).unwrap();
    let exe = env!("CARGO_BIN_EXE_level-check");
    let out = std::process::Command::new(exe)
        .arg(&file)
        .args(["--soak", "30", "--walks", "2", "--threads", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["soak"], json!(true));
    assert_eq!(v["updates"], json!(2 * 30 * 60));
    assert_eq!(v["non_finite"], json!(0));
    assert!((v["simulated_hours"].as_f64().unwrap() - 60.0 / 3600.0).abs() < 1e-6);
    assert!(v["load_peak_rss_mb"].as_f64().is_some_and(|mb| mb > 0.0));
    for (args, says) in [
        (&["--soak", "0"][..], "above 0"),
        (&["--soak", "nan"][..], "above 0"),
        (&["--soak", "-5"][..], "above 0"),
        (&["--soak", "1e9"][..], "at most"),
        (&["--soak", "ten"][..], "number of seconds"),
        (&["--soak", "10", "--ticks", "5"][..], "not both"),
        (&["--walks", "0"][..], "from 1"),
        (&["--ticks", "99999999999"][..], "from 1"),
        (&["--threads", "0"][..], "from 1"),
        (&["--seed"][..], "needs a value"),
        (&["--fast"][..], "unknown option"),
    ] {
        let out = std::process::Command::new(exe).arg(&file).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let not_utf8 = std::ffi::OsStr::from_bytes(b"\xff.glb");
        let out = std::process::Command::new(exe).arg(not_utf8).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not valid UTF-8"));
    }
    let help = std::process::Command::new(exe).arg("--help").output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--soak SECONDS"));
}
