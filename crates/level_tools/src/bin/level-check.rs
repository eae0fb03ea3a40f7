//! `level-check PATH [--walks N] [--ticks N | --soak SECONDS] [--seed N]
//! [--threads N] [--json]`: loads a glTF level, prints what it holds
//! (analytic colliders included, with how well their triangles fit them), how
//! long loading took and the peak memory it needed, how its collider is
//! built, and runs random walks driving the character controller (doors
//! cycling, lifts running) on every core. `--soak SECONDS` makes every walker
//! walk that long (simulated), placed again whenever its walk ends. Walks
//! start where the game would start a player (the level's spawn search).
//! Says which extensions were ignored, how many one-way, layered,
//! climbable and launch-pad static parts and sensors (by kind) the level
//! has, how many walks started, how
//! many ticks were walked and how much of the walkable surface was stood
//! on. The walkers meet the level as the player does (its layers).
//! Exits 1 when fewer than half the walks could start (or the level has no
//! walkable surface), a mesh was left out (Draco data that cannot be
//! decoded), or a walk penetrated geometry, fell through a surface,
//! went non-finite or got stuck; 2 when the file cannot be loaded (one line;
//! `--verbose` lists every problem) or an option is wrong.

#![recursion_limit = "256"]

use slidewalk_level::layers::PLAYER_LAYERS;
use slidewalk_level::{Level, SensorKind};
use slidewalk_level_tools::{CheckConfig, walk_level};
use slidewalk_sweep::CollisionLayers;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: level-check PATH [--walks N] [--ticks N | --soak SECONDS] [--seed N] [--threads N] [--json] [--verbose]";

/// Longest soak accepted, simulated seconds per walker (a day).
const MAX_SOAK_SECONDS: f64 = 86_400.0;

fn main() -> ExitCode {
    // Arguments as OS strings: a file name that is not UTF-8 is an error, not a panic.
    let args: Vec<String> = match std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("argument {a:?} is not valid UTF-8"))
        })
        .collect()
    {
        Ok(args) => args,
        Err(message) => {
            eprintln!("level-check: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (path, config, json, verbose) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) if message == "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("level-check: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let level = match slidewalk_level::load(&path) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("level-check: {e}");
            let details = e.details();
            if verbose {
                for detail in details {
                    eprintln!("  {detail}");
                }
            } else if details.len() > 1 {
                eprintln!("level-check: --verbose lists all {} problems", details.len());
            }
            return ExitCode::from(2);
        }
    };
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let load_peak_rss_mb = peak_rss_mb();
    let build_ms = rebuild_ms(&level);
    let started = Instant::now();
    let walks = walk_level(&level, &config);
    let walk_seconds = started.elapsed().as_secs_f64();
    // Meshes that do not collide: what was walked is part of the level only.
    let failure = match level.report.undecoded_meshes.len() {
        0 => walks.failure(),
        n => Some(format!(
            "{n} meshes do not collide (their Draco data cannot be decoded, see the notices): \
             the walks covered part of the level"
        )),
    };
    let fits = slidewalk_level_tools::analytic_fit(&level);
    let count = |kind: &str| fits.iter().filter(|f| f.kind == kind).count();
    let statics = level.statics.as_ref();
    let stats = statics.map(|s| s.bvh_stats());
    let sensors = |kind: fn(&SensorKind) -> bool| level.sensors.iter().filter(|s| kind(&s.kind)).count();
    let summary = serde_json::json!({
        "file": path,
        "triangles_read": level.report.triangles,
        "static_triangles": statics.map_or(0, |s| s.len()),
        "rejected_degenerate": level.report.statics.rejected_degenerate + level.report.mover_rejected_degenerate
            + level.report.part_rejected_degenerate,
        "rejected_non_finite": level.report.statics.rejected_non_finite + level.report.mover_rejected_non_finite
            + level.report.part_rejected_non_finite,
        "nocollide_triangles": level.report.nocollide_triangles,
        "proxies": level.report.proxies,
        "proxied_triangles": level.report.proxied_triangles,
        "proxy_triangles": level.report.proxy_triangles,
        "skipped_point_and_line_primitives": level.report.skipped_primitives,
        "mesh_instances": level.report.mesh_instances,
        "spawns": level.spawns.len(),
        "movers": level.movers.iter().map(|m| serde_json::json!({
            "name": m.name,
            "kind": match m.kind { slidewalk_level::MoverKind::Door(_) => "door", slidewalk_level::MoverKind::Lift(_) => "lift" },
            "triangles": m.collider.len(),
            "climbable": m.climbable,
        })).collect::<Vec<_>>(),
        "static_parts": level.parts.len(),
        "one_way_parts": level.parts.iter().filter(|p| p.one_way.is_some()).count(),
        "layered_parts": level.parts.iter().filter(|p| p.layers != CollisionLayers::ALL).count(),
        "parts_the_player_passes": level.parts.iter().filter(|p| !PLAYER_LAYERS.interacts_with(p.layers)).count(),
        "part_triangles": level.parts.iter().map(|p| p.collider.len()).sum::<usize>(),
        "climbable_parts": level.parts.iter().filter(|p| p.climbable).count(),
        "launch_pads": level.parts.iter().filter(|p| p.launch.is_some()).count(),
        "launch_pad_list": level.parts.iter().filter_map(|p| p.launch.map(|v| serde_json::json!({
            "name": p.name,
            "launch_m_per_s": [v.x, v.y, v.z],
        }))).collect::<Vec<_>>(),
        "climbable_movers": level.movers.iter().filter(|m| m.climbable).count(),
        "one_way_movers": level.movers.iter().filter(|m| m.one_way.is_some()).count(),
        "layered_movers": level.movers.iter().filter(|m| m.layers != CollisionLayers::ALL).count(),
        "sensors": level.sensors.len(),
        "kill_sensors": sensors(|k| *k == SensorKind::Kill),
        "checkpoint_sensors": sensors(|k| *k == SensorKind::Checkpoint),
        "named_sensors": sensors(|k| matches!(k, SensorKind::Named(_))),
        "sensor_list": level.sensors.iter().map(|s| serde_json::json!({
            "name": s.name,
            "kind": s.kind.word(),
            "triangles": s.collider.len(),
        })).collect::<Vec<_>>(),
        "analytic_planes": count("plane"),
        "analytic_cylinders": count("cylinder"),
        "analytic": fits.iter().map(|f| serde_json::json!({
            "name": f.name,
            "kind": f.kind,
            "triangles": f.triangles,
            "max_vertex_distance_m": f.max_vertex_distance,
        })).collect::<Vec<_>>(),
        "bvh_nodes": stats.map_or(0, |s| s.nodes),
        "bvh_depth": stats.map_or(0, |s| s.depth),
        "bvh_max_leaf": stats.map_or(0, |s| s.max_leaf),
        "bytes_per_triangle": statics.map_or(0.0, |s| s.memory_bytes() as f64 / s.len() as f64),
        "load_ms": load_ms,
        "load_peak_rss_mb": load_peak_rss_mb,
        "bvh_build_ms": build_ms,
        "notices": level.report.notices,
        "soak": config.soak,
        "walks": walks.walks,
        "walks_started": walks.walks_started,
        "updates": walks.updates,
        "walkable_area_m2": walks.walkable_area_m2,
        "coverage_cell_m": walks.cell_m,
        "walkable_cells": walks.walkable_cells,
        "visited_cells": walks.visited_cells,
        "visited_share": walks.visited_share(),
        "simulated_hours": walks.simulated_seconds / 3600.0,
        "respawns": walks.respawns,
        "walk_wall_seconds": walk_seconds,
        "max_penetration": walks.max_penetration,
        "penetrating_passes": walks.penetrating_passes,
        "fell_through": walks.fell_through,
        "non_finite": walks.non_finite,
        "stuck": walks.stuck,
        "walked_off_open_edge": walks.walked_off,
        "crushed": walks.crushed,
        "max_squeeze": walks.max_squeeze,
        "jumps": walks.jumps,
        "step_ups": walks.steps,
        "riding_ticks": walks.riding_ticks,
        "micros_per_update": walks.micros_per_update,
        "problems": walks.problems,
        "passed": failure.is_none(),
        "failure": failure,
        "thin_check": walks.thin(),
    });
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary).expect("JSON of plain values")
        );
    } else {
        print_text(&summary);
    }
    if summary["passed"] == serde_json::Value::Bool(true) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn parse(args: &[String]) -> Result<(String, CheckConfig, bool, bool), String> {
    let mut config = CheckConfig::default();
    let (mut path, mut json, mut verbose, mut ticks, mut soak) = (None, false, false, None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--walks" => config.walks = count(arg, value(arg)?, 1, 1_000_000)? as u32,
            "--ticks" => ticks = Some(count(arg, value(arg)?, 1, u32::MAX as u64)? as u32),
            "--seed" => config.seed = count(arg, value(arg)?, 0, u64::MAX)?,
            "--threads" => config.threads = count(arg, value(arg)?, 1, 1024)? as usize,
            "--soak" => {
                let v = value(arg)?;
                let seconds: f64 = v
                    .parse()
                    .map_err(|_| format!("--soak needs a number of seconds, got {v:?}"))?;
                if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SOAK_SECONDS) {
                    return Err(format!(
                        "--soak needs seconds above 0 and at most {MAX_SOAK_SECONDS}, got {v:?}"
                    ));
                }
                soak = Some(seconds);
            }
            "--json" => json = true,
            "--verbose" => verbose = true,
            "-h" | "--help" => return Err("help".into()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file if path.is_none() => path = Some(file.to_owned()),
            extra => return Err(format!("unexpected argument {extra:?}")),
        }
    }
    match (ticks, soak) {
        (Some(_), Some(_)) => return Err("give --ticks or --soak, not both".into()),
        (Some(ticks), None) => config.ticks = ticks,
        (None, Some(seconds)) => {
            config.soak = true;
            config.ticks = (seconds / config.dt as f64).ceil() as u32;
        }
        (None, None) => {}
    }
    Ok((path.ok_or("no level file given")?, config, json, verbose))
}

/// A whole number option's value, checked to lie in `min..=max`.
fn count(name: &str, v: &str, min: u64, max: u64) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(_) => Err(format!("{name} needs a whole number from {min} to {max}, got {v}")),
        Err(_) => Err(format!("{name} needs a whole number, got {v:?}")),
    }
}

/// The process's peak resident memory so far, MiB (Linux: `VmHWM` in
/// `/proc/self/status`); `None` where that cannot be read.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Milliseconds to build the static collider again from its triangles (best of 3).
fn rebuild_ms(level: &Level) -> f64 {
    let Some(statics) = &level.statics else { return 0.0 };
    (0..3)
        .map(|_| {
            let t = Instant::now();
            let _ = slidewalk_sweep::MeshCollider::from_triangles(&statics.triangles().collect::<Vec<_>>());
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn print_text(s: &serde_json::Value) {
    println!("level      {}", s["file"].as_str().unwrap_or(""));
    println!(
        "triangles  {} read, {} static, {} rejected as degenerate, {} as non-finite, {} no-collide",
        s["triangles_read"],
        s["static_triangles"],
        s["rejected_degenerate"],
        s["rejected_non_finite"],
        s["nocollide_triangles"]
    );
    println!(
        "nodes      {} mesh instances, {} spawn points, {} point/line primitives skipped",
        s["mesh_instances"], s["spawns"], s["skipped_point_and_line_primitives"]
    );
    if s["proxies"].as_u64().is_some_and(|n| n > 0) {
        println!(
            "proxies    {} meshes collide as proxies: {} triangles read collide as {}",
            s["proxies"], s["proxied_triangles"], s["proxy_triangles"]
        );
    }
    if s["static_parts"].as_u64().is_some_and(|n| n > 0) {
        println!(
            "parts      {} static parts ({} triangles): {} one-way, {} with layers ({} the player passes through), {} climbable, {} launch pads",
            s["static_parts"],
            s["part_triangles"],
            s["one_way_parts"],
            s["layered_parts"],
            s["parts_the_player_passes"],
            s["climbable_parts"],
            s["launch_pads"]
        );
        for v in s["launch_pad_list"].as_array().into_iter().flatten() {
            let speed = &v["launch_m_per_s"];
            println!(
                "  launch pad {:?} ({}, {}, {}) m/s",
                v["name"].as_str().unwrap_or(""),
                speed[0],
                speed[1],
                speed[2]
            );
        }
    }
    if s["sensors"].as_u64().is_some_and(|n| n > 0) {
        println!(
            "sensors    {} ({} kill, {} checkpoint, {} named; not solid)",
            s["sensors"], s["kill_sensors"], s["checkpoint_sensors"], s["named_sensors"]
        );
        for v in s["sensor_list"].as_array().into_iter().flatten() {
            println!(
                "  {} {:?} ({} triangles)",
                v["kind"].as_str().unwrap_or(""),
                v["name"].as_str().unwrap_or(""),
                v["triangles"]
            );
        }
    }
    for m in s["movers"].as_array().into_iter().flatten() {
        println!(
            "mover      {} {:?} ({} triangles{})",
            m["kind"].as_str().unwrap_or(""),
            m["name"].as_str().unwrap_or(""),
            m["triangles"],
            if m["climbable"].as_bool() == Some(true) {
                ", climbable"
            } else {
                ""
            }
        );
    }
    println!(
        "analytic   {} planes, {} cylinders (exact shapes for balls; their triangles stay for the player)",
        s["analytic_planes"], s["analytic_cylinders"]
    );
    for a in s["analytic"].as_array().into_iter().flatten() {
        println!(
            "  {} {:?} ({} triangles, vertices within {:.1e} m of the shape)",
            a["kind"].as_str().unwrap_or(""),
            a["name"].as_str().unwrap_or(""),
            a["triangles"],
            a["max_vertex_distance_m"].as_f64().unwrap_or(0.0)
        );
    }
    println!(
        "bvh        {} nodes, depth {}, largest leaf {}, {:.1} bytes/triangle, built in {:.2} ms (load {:.1} ms, peak memory {:.0} MiB)",
        s["bvh_nodes"],
        s["bvh_depth"],
        s["bvh_max_leaf"],
        s["bytes_per_triangle"].as_f64().unwrap_or(0.0),
        s["bvh_build_ms"].as_f64().unwrap_or(0.0),
        s["load_ms"].as_f64().unwrap_or(0.0),
        s["load_peak_rss_mb"].as_f64().unwrap_or(f64::NAN)
    );
    for n in s["notices"].as_array().into_iter().flatten() {
        println!("notice     {}", n.as_str().unwrap_or(""));
    }
    println!(
        "walks      {} of {} walks started{}, {} controller ticks ({:.2} simulated hours, {} respawns), {:.2} µs/tick (all passes), {:.1} s",
        s["walks_started"],
        s["walks"],
        if s["soak"].as_bool() == Some(true) {
            " (soak)"
        } else {
            ""
        },
        s["updates"],
        s["simulated_hours"].as_f64().unwrap_or(0.0),
        s["respawns"],
        s["micros_per_update"].as_f64().unwrap_or(0.0),
        s["walk_wall_seconds"].as_f64().unwrap_or(0.0)
    );
    println!(
        "findings   max penetration {:.2e} of the radius ({} ticks), {} fell through, {} non-finite, {} stuck, {} walked off an open edge, {} crushed by a mover (squeezed {:.2e} of the radius at most)",
        s["max_penetration"].as_f64().unwrap_or(0.0),
        s["penetrating_passes"],
        s["fell_through"],
        s["non_finite"],
        s["stuck"],
        s["walked_off_open_edge"],
        s["crushed"],
        s["max_squeeze"].as_f64().unwrap_or(0.0)
    );
    println!(
        "coverage   stood on {:.0}% of the {:.0} m² walkable static surface ({} of {} cells of {:.1} m), {} jumps, {} step-ups, {} ticks riding a door or lift",
        100.0 * s["visited_share"].as_f64().unwrap_or(0.0),
        s["walkable_area_m2"].as_f64().unwrap_or(0.0),
        s["visited_cells"],
        s["walkable_cells"],
        s["coverage_cell_m"].as_f64().unwrap_or(1.0),
        s["jumps"],
        s["step_ups"],
        s["riding_ticks"]
    );
    for p in s["problems"].as_array().into_iter().flatten() {
        println!("  {}", p.as_str().unwrap_or(""));
    }
    if s["passed"].as_bool() == Some(true) {
        if s["thin_check"].as_bool() == Some(true) {
            println!(
                "PASS (a thin check: only {} ticks walked; give more --walks or --ticks)",
                s["updates"]
            );
        } else {
            println!("PASS");
        }
    } else {
        println!("FAIL: {}", s["failure"].as_str().unwrap_or(""));
    }
}
