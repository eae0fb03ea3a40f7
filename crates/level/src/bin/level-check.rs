//! `level-check PATH [--walks N] [--ticks N] [--seed N] [--json]`: loads a glTF
//! level, prints what it holds (analytic colliders included, with how well
//! their triangles fit them) and how its collider is built, and runs random
//! walks driving the character controller (doors cycling, lifts running). Exits 1 when a walk penetrated
//! geometry or fell through a surface, 2 when the file cannot be loaded.

use level::{CheckConfig, Level, walk_level};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: level-check PATH [--walks N] [--ticks N] [--seed N] [--json]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, config, json) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("level-check: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let level = match level::load(&path) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("level-check: {e}");
            return ExitCode::from(2);
        }
    };
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let build_ms = rebuild_ms(&level);
    let walks = walk_level(&level, &config);
    let fits = level::analytic_fit(&level);
    let count = |kind: &str| fits.iter().filter(|f| f.kind == kind).count();
    let statics = level.statics.as_ref();
    let stats = statics.map(|s| s.bvh_stats());
    let summary = serde_json::json!({
        "file": path,
        "triangles_read": level.report.triangles,
        "static_triangles": statics.map_or(0, |s| s.len()),
        "rejected_degenerate": level.report.statics.rejected_degenerate + level.report.mover_rejected_degenerate,
        "rejected_non_finite": level.report.statics.rejected_non_finite + level.report.mover_rejected_non_finite,
        "nocollide_triangles": level.report.nocollide_triangles,
        "skipped_point_and_line_primitives": level.report.skipped_primitives,
        "mesh_instances": level.report.mesh_instances,
        "spawns": level.spawns.len(),
        "movers": level.movers.iter().map(|m| serde_json::json!({
            "name": m.name,
            "kind": match m.kind { level::MoverKind::Door(_) => "door", level::MoverKind::Lift(_) => "lift" },
            "triangles": m.collider.len(),
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
        "bvh_build_ms": build_ms,
        "walks": walks.walks,
        "updates": walks.updates,
        "max_penetration": walks.max_penetration,
        "penetrating_passes": walks.penetrating_passes,
        "fell_through": walks.fell_through,
        "stuck": walks.stuck,
        "walked_off_open_edge": walks.walked_off,
        "crushed": walks.crushed,
        "jumps": walks.jumps,
        "step_ups": walks.steps,
        "riding_ticks": walks.riding_ticks,
        "micros_per_update": walks.micros_per_update,
        "problems": walks.problems,
        "passed": walks.passed(),
    });
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary).expect("JSON of plain values")
        );
    } else {
        print_text(&summary);
    }
    if walks.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn parse(args: &[String]) -> Result<(String, CheckConfig, bool), String> {
    let mut config = CheckConfig::default();
    let (mut path, mut json) = (None, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or(format!("{name} needs a number"))?;
            v.parse().map_err(|_| format!("{name} needs a whole number, got {v:?}"))
        };
        match arg.as_str() {
            "--walks" => config.walks = number("--walks")? as u32,
            "--ticks" => config.ticks = number("--ticks")? as u32,
            "--seed" => config.seed = number("--seed")?,
            "--json" => json = true,
            "-h" | "--help" => return Err("help".into()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file if path.is_none() => path = Some(file.to_owned()),
            extra => return Err(format!("unexpected argument {extra:?}")),
        }
    }
    Ok((path.ok_or("no level file given")?, config, json))
}

/// Milliseconds to build the static collider again from its triangles (best of 3).
fn rebuild_ms(level: &Level) -> f64 {
    let Some(statics) = &level.statics else { return 0.0 };
    (0..3)
        .map(|_| {
            let t = Instant::now();
            let _ = sweep::MeshCollider::from_triangles(statics.triangles());
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
    for m in s["movers"].as_array().into_iter().flatten() {
        println!(
            "mover      {} {:?} ({} triangles)",
            m["kind"].as_str().unwrap_or(""),
            m["name"].as_str().unwrap_or(""),
            m["triangles"]
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
        "bvh        {} nodes, depth {}, largest leaf {}, {:.1} bytes/triangle, built in {:.2} ms (load {:.1} ms)",
        s["bvh_nodes"],
        s["bvh_depth"],
        s["bvh_max_leaf"],
        s["bytes_per_triangle"].as_f64().unwrap_or(0.0),
        s["bvh_build_ms"].as_f64().unwrap_or(0.0),
        s["load_ms"].as_f64().unwrap_or(0.0)
    );
    println!(
        "walks      {} walks, {} controller ticks, {:.2} µs/tick (all passes)",
        s["walks"],
        s["updates"],
        s["micros_per_update"].as_f64().unwrap_or(0.0)
    );
    println!(
        "findings   max penetration {:.2e} of the radius ({} ticks), {} fell through, {} stuck, {} walked off an open edge, {} crushed by a mover",
        s["max_penetration"].as_f64().unwrap_or(0.0),
        s["penetrating_passes"],
        s["fell_through"],
        s["stuck"],
        s["walked_off_open_edge"],
        s["crushed"]
    );
    println!(
        "coverage   {} jumps, {} step-ups, {} ticks riding a door or lift",
        s["jumps"], s["step_ups"], s["riding_ticks"]
    );
    for p in s["problems"].as_array().into_iter().flatten() {
        println!("  {}", p.as_str().unwrap_or(""));
    }
    println!(
        "{}",
        if s["passed"].as_bool() == Some(true) {
            "PASS"
        } else {
            "FAIL"
        }
    );
}
