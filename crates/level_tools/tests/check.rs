//! The level checker's walks on small levels written by hand: a closed room
//! passes with no penetration, an open floor reports walkers that walked off
//! its edge (not an error), and the command line reports and exits as documented.

#[path = "../../level/tests/fixture/mod.rs"]
mod fixture;

use fixture::*;
use serde_json::json;
use slidewalk_level::load_bytes;
use slidewalk_level_tools::{CheckConfig, walk_level};
use slidewalk_sweep::proxy::{ProxyShape, proxy_mesh};
use slidewalk_sweep::test_util::{Soup, stairs_room};
use std::path::Path;

fn soup_level(soup: &Soup, extra: impl FnOnce(&mut Fixture)) -> Vec<u8> {
    let mut f = Fixture::default();
    let m = f.triangle_mesh("room", &soup.positions, &soup.triangles);
    f.node(json!({"name": "Room", "mesh": m}), true);
    extra(&mut f);
    f.glb()
}

#[test]
fn props_marked_as_proxies_are_walked_against_their_proxies() {
    // A room with stairs and three finely tessellated balls on its floor,
    // each colliding as a proxy.
    let dir = temp_dir("proxies");
    let soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let bytes = soup_level(&soup, |f| {
        let mut ball = Soup::default();
        ball.uv_sphere(glam::Vec3::ZERO, 0.5, 45, 45);
        let m = f.triangle_mesh("ball", &ball.positions, &ball.triangles);
        for (k, shape) in ["sphere", "hull", "box"].into_iter().enumerate() {
            f.node(
                json!({"name": format!("Ball {k}"), "mesh": m, "translation": [k as f32 * 1.5 - 1.5, -1.5, 2.0],
                       "extras": {"proxy": shape}}),
                true,
            );
        }
    });
    std::fs::write(dir.join("balls.glb"), bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_level-check"))
        .arg(dir.join("balls.glb"))
        .args(["--walks", "8", "--ticks", "300", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut ball = Soup::default();
    ball.uv_sphere(glam::Vec3::ZERO, 0.5, 45, 45);
    let proxies: usize = [ProxyShape::Sphere, ProxyShape::Hull, ProxyShape::Box]
        .map(|shape| proxy_mesh(shape, &ball.positions).unwrap().triangles.len())
        .iter()
        .sum();
    assert_eq!(v["proxies"], json!(3));
    assert_eq!(v["proxied_triangles"], json!(3 * ball.triangles.len()));
    assert_eq!(v["proxy_triangles"], json!(proxies), "{v:#}");
    assert_eq!(
        v["static_triangles"].as_u64().unwrap() as usize,
        soup.triangles.len() + proxies
    );
    assert_eq!(v["passed"], json!(true), "{v:#}");
}

#[test]
fn a_closed_room_with_stairs_passes() {
    let soup = stairs_room(glam::Vec3::new(6.0, 2.0, 6.0));
    let level = load_bytes(&soup_level(&soup, |_| {}), None, Path::new("room.glb")).unwrap();
    let report = walk_level(&level, &CheckConfig::short(8, 300));
    assert!(report.passed(), "{report:#?}");
    // Walk 0 starts where the game starts a player on a level without a
    // spawn node: dropped from above, onto the roof, which it may walk off.
    assert!(report.first_start.unwrap().y > 2.0, "{report:#?}");
    assert!(report.walked_off <= 1, "{report:#?}");
    assert!(report.max_penetration <= 1e-4);
}

/// A 6 × 6 m floor with nothing around it, a spawn node at its middle.
fn open_floor_with_a_spawn() -> slidewalk_level::Level {
    let mut soup = Soup::default();
    soup.grid((-3.0, -3.0), (3.0, 3.0), 0.0, 4);
    let bytes = soup_level(&soup, |f| {
        f.node(json!({"name": "Spawn", "translation": [0.0, 0.0, 0.0]}), true);
    });
    load_bytes(&bytes, None, Path::new("floor.glb")).unwrap()
}

#[test]
fn walking_off_an_open_floor_is_reported_apart() {
    let level = open_floor_with_a_spawn();
    assert_eq!(level.spawns.len(), 1);
    let report = walk_level(&level, &CheckConfig::short(6, 600));
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
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../level/tests/data/trimesh_scene.glb");
    let level = slidewalk_level::load(path).unwrap();
    assert_eq!(level.report.mesh_instances, 9);
    assert!(level.spawns.is_empty() && level.movers.is_empty());
    let report = walk_level(&level, &CheckConfig::short(8, 300));
    assert!(
        report.passed() && report.stuck == 0 && report.walked_off == 0,
        "{report:#?}"
    );
}

#[test]
fn soak_mode_places_walkers_again_so_every_walker_walks_the_whole_time() {
    // An open floor: walkers walk off its edge. In soak mode each is placed
    // again and walks on, so every tick of every walker is run.
    let level = open_floor_with_a_spawn();
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

/// A level of the given triangles (one mesh, no spawn node).
fn triangles_level(name: &str, positions: &[[f32; 3]], indices: &[u32]) -> slidewalk_level::Level {
    let mut f = Fixture::default();
    let p = f.positions(positions);
    let i = f.indices(indices, 4);
    let m = f.mesh(name, &[(p, Some(i), TRIANGLES)]);
    f.node(json!({"name": name, "mesh": m}), true);
    load_bytes(&f.glb(), None, Path::new("made.glb")).unwrap()
}

/// Walks `level` and checks the first walk started where the game starts a player.
fn walks_from_the_games_start(
    level: &slidewalk_level::Level,
    config: &CheckConfig,
) -> slidewalk_level_tools::WalkReport {
    let report = walk_level(level, config);
    let c = &config.controller;
    let game = slidewalk_level::spawn::start_point(level, c.standing_radii, c.walkable_slope_deg.to_radians().cos())
        .expect("the game finds a place to stand");
    let centre = slidewalk_controller::CharacterState::standing_at(game.position, c).position;
    assert_eq!(report.first_start, Some(centre), "{report:#?}");
    report
}

#[test]
fn a_single_large_quad_is_walked_from_where_the_game_starts() {
    // Found by a user: level-check said PASS on this with 0 ticks walked.
    let level = triangles_level(
        "Ground",
        &[
            [-75.0, 0.0, -75.0],
            [75.0, 0.0, -75.0],
            [75.0, 0.0, 75.0],
            [-75.0, 0.0, 75.0],
        ],
        &[0, 2, 1, 0, 3, 2],
    );
    let config = CheckConfig {
        walks: 6,
        ticks: 300,
        ..Default::default()
    };
    let report = walks_from_the_games_start(&level, &config);
    assert_eq!(report.walks_started, 6, "{report:#?}");
    // Walks ending at the quad's edge are not counted as ticks walked.
    assert!(report.updates >= 1_000, "{report:#?}");
    assert!(report.passed() && !report.thin(), "{report:#?}");
    assert!((report.walkable_area_m2 - 150.0 * 150.0).abs() < 1.0, "{report:#?}");
    assert!(report.visited_cells > 6 && report.visited_share() < 0.1, "{report:#?}");
}

#[test]
fn a_block_in_the_void_is_walked_from_where_the_game_starts() {
    // A 2 m cube, nothing else: the only place to stand is its top.
    let p = [
        [-1.0, 0.0, -1.0],
        [1.0, 0.0, -1.0],
        [1.0, 0.0, 1.0],
        [-1.0, 0.0, 1.0],
        [-1.0, 2.0, -1.0],
        [1.0, 2.0, -1.0],
        [1.0, 2.0, 1.0],
        [-1.0, 2.0, 1.0],
    ];
    let i = [
        0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1, 1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0,
    ];
    let level = triangles_level("Block", &p, &i);
    let report = walks_from_the_games_start(
        &level,
        &CheckConfig {
            walks: 4,
            ticks: 300,
            ..Default::default()
        },
    );
    assert_eq!(report.walks_started, 4, "{report:#?}");
    assert!(report.updates > 0 && report.passed(), "{report:#?}");
    assert!(report.first_start.unwrap().y > 2.0, "{report:#?}");
}

#[test]
fn a_level_with_no_walkable_surface_fails_and_says_so() {
    // One wall, nothing to stand on.
    let level = triangles_level(
        "Wall",
        &[[-5.0, 0.0, 0.0], [5.0, 0.0, 0.0], [5.0, 4.0, 0.0], [-5.0, 4.0, 0.0]],
        &[0, 1, 2, 0, 2, 3],
    );
    let report = walk_level(&level, &CheckConfig::short(4, 60));
    assert_eq!((report.walks_started, report.updates), (0, 0), "{report:#?}");
    assert!(!report.passed());
    assert!(
        report.failure().unwrap().starts_with("no walkable surface"),
        "{report:#?}"
    );
    assert!(
        report.problems.iter().all(|p| p.contains("could not start")),
        "{report:#?}"
    );
}

#[test]
fn level_check_fails_a_level_it_could_not_walk_and_calls_a_short_pass_thin() {
    let dir = temp_dir("level-check-verdicts");
    let exe = env!("CARGO_BIN_EXE_level-check");
    let mut wall = Fixture::default();
    let p = wall.positions(&[[-5.0, 0.0, 0.0], [5.0, 0.0, 0.0], [5.0, 4.0, 0.0]]);
    let m = wall.mesh("wall", &[(p, None, TRIANGLES)]);
    wall.node(json!({"name": "Wall", "mesh": m}), true);
    std::fs::write(dir.join("wall.glb"), wall.glb()).unwrap();
    let out = std::process::Command::new(exe)
        .arg(dir.join("wall.glb"))
        .args(["--walks", "2", "--ticks", "30"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL: no walkable surface"), "{text}");
    assert!(text.contains("0 of 2 walks started"), "{text}");

    let mut floor = Fixture::default();
    let m = floor.square_mesh("floor");
    floor.node(json!({"name": "Floor", "mesh": m, "scale": [20.0, 1.0, 20.0]}), true);
    std::fs::write(dir.join("floor.glb"), floor.glb()).unwrap();
    let out = std::process::Command::new(exe)
        .arg(dir.join("floor.glb"))
        .args(["--walks", "2", "--ticks", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2 of 2 walks started, "), "{text}");
    assert!(text.contains("PASS (a thin check: only "), "{text}");
    let out = std::process::Command::new(exe)
        .arg(dir.join("floor.glb"))
        .args(["--walks", "2", "--ticks", "100", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["walks_started"].clone(), v["thin_check"].clone()),
        (json!(2), json!(true))
    );
    assert!(v["visited_share"].as_f64().unwrap() > 0.0, "{v}");
    assert!((v["walkable_area_m2"].as_f64().unwrap() - 1600.0).abs() < 1.0, "{v}");
}

#[test]
fn coverage_cells_of_a_long_sliver_grow_with_its_length() {
    // A 2 km by 1 cm strip: about 2,000 cells of 1 m, counted quickly
    // (cutting it into squares of its length would be 10⁶ pieces and more).
    let level = triangles_level(
        "Strip",
        &[
            [-1000.0, 0.0, 0.0],
            [1000.0, 0.0, 0.0],
            [1000.0, 0.0, 0.01],
            [-1000.0, 0.0, 0.01],
        ],
        &[0, 2, 1, 0, 3, 2],
    );
    let report = walk_level(&level, &CheckConfig::short(1, 1));
    assert!((2_000..=2_100).contains(&report.walkable_cells), "{report:#?}");
    assert!((report.walkable_area_m2 - 20.0).abs() < 0.01, "{report:#?}");
}

#[test]
fn penetration_is_judged_against_what_an_f32_position_can_resolve() {
    use glam::Vec3;
    let r = Vec3::new(0.4, 0.9, 0.4);
    // Near the origin: 1e-4 of the radius, as always.
    assert_eq!(
        slidewalk_level_tools::penetration_tolerance(Vec3::new(10.0, 2.0, -30.0), r),
        1e-4
    );
    // 3.6 km up (a map from another game walked there measured 1.1e-4):
    // a step of the position is 0.24 mm, 6e-4 of the radius.
    let far = slidewalk_level_tools::penetration_tolerance(Vec3::new(-79.7, 3596.3, -2230.3), r);
    assert!(far > 1.13e-4 && far < 3e-3, "{far}");
}

/// A closed 10 × 3 × 10 m room of 1 mm walls (a box seen from inside within
/// one seen from outside), its spawn node 1.5 m above the middle of the
/// floor: the standing shape (1.8 m tall) does not fit with its feet on the
/// node, its top would be 0.3 m into the ceiling.
fn room_with_a_spawn_under_the_ceiling() -> Vec<u8> {
    use glam::Vec3;
    let half = Vec3::new(5.0, 1.5, 5.0);
    let mut inside = Soup::default();
    inside.cuboid(-half, half);
    let mut outside = Soup::default();
    outside.cuboid(-half - Vec3::splat(0.001), half + Vec3::splat(0.001));
    inside.extend(&outside.flipped());
    // The floor at y = 0.
    let room = Soup {
        positions: inside.positions.iter().map(|p| *p + Vec3::Y * half.y).collect(),
        triangles: inside.triangles,
    };
    soup_level(&room, |f| {
        f.node(json!({"name": "Spawn", "translation": [0.0, 1.5, 0.0]}), true);
    })
}

#[test]
fn a_closed_room_whose_spawn_node_is_too_near_the_ceiling_is_walked_from_its_spawn() {
    let bytes = room_with_a_spawn_under_the_ceiling();
    let level = load_bytes(&bytes, None, Path::new("room.glb")).unwrap();
    assert_eq!(level.spawns.len(), 1);
    let report = walk_level(&level, &CheckConfig::short(8, 300));
    assert_eq!(report.walks_started, 8, "{report:#?}");
    assert!(report.passed() && !report.thin(), "{report:#?}");
    assert_eq!(report.walked_off, 0, "{report:#?}");
    // Walk 0 starts under the spawn node, inside the room.
    let start = report.first_start.unwrap();
    assert_eq!((start.x, start.z), (0.0, 0.0), "{report:#?}");
    assert!(start.y > 0.9 && start.y + 0.9 < 3.0, "{report:#?}");

    // The command line says so too.
    let dir = temp_dir("spawn-under-the-ceiling");
    std::fs::write(dir.join("room.glb"), &bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_level-check"))
        .arg(dir.join("room.glb"))
        .args(["--walks", "6", "--ticks", "200"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("6 of 6 walks started, ") && !text.contains("could not start"),
        "{text}"
    );
}

#[test]
fn the_games_spawn_and_level_checks_first_walk_at_spawn_0_are_the_same_point() {
    let room = load_bytes(&room_with_a_spawn_under_the_ceiling(), None, Path::new("room.glb")).unwrap();
    let playground =
        slidewalk_level::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb"))
            .unwrap();
    for level in [&room, &open_floor_with_a_spawn(), &playground] {
        assert!(!level.spawns.is_empty());
        let report = walks_from_the_games_start(level, &CheckConfig::short(1, 2));
        assert_eq!(report.walks_started, 1, "{report:#?}");
    }
}
