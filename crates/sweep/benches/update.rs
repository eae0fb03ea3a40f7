//! Collision-core benchmarks on generated levels (bumpy terrain with box
//! buildings and flights of stairs, `slidewalk_sweep::test_util::generated_level`) of
//! 10k, 100k and 1M triangles, and on a dense level (`dense`,
//! `slidewalk_sweep::test_util::dense_level` of 250k triangles: a floor crowded with
//! spheres of 3,960 triangles each, as modelling tools export props, so a
//! player's box holds hundreds of candidate triangles), and on that level
//! with every prop colliding as a sphere proxy (`dense-proxy`, 120
//! triangles a prop, `slidewalk_sweep::proxy`).
//!
//! One criterion group per level (`10k`, `100k`, `1M`, `dense`), each with:
//!
//! * `sweep_bvh`: one `slidewalk_sweep::sweep` of the player ellipsoid (radii 0.4, 0.9,
//!   0.4 m) through the BVH;
//! * `sweep_brute_force`: the same sweeps against every triangle with
//!   `sweep_unit_sphere_triangle` (10k and 100k only: at 1M one sweep takes
//!   milliseconds, so it is only timed a few times with `Instant` and printed);
//! * `update`: one character update, the move pass
//!   `collide_and_slide(motion)` then the gravity pass
//!   `collide_and_slide((0, -0.05, 0))` from where the move ended, with
//!   `SlideOptions::default()` for the move and `stop_on_ground` (walkable
//!   up to 50°) for the gravity pass, as the game's controller uses them;
//! * `sphere_sweep_bvh` and `sphere_parry3d`: a sphere of radius 0.5 m swept
//!   on the same moves by `slidewalk_sweep::sweep` and by parry3d's `cast_shapes`
//!   (`Ball` against a `TriMesh` of the same triangles), for the ratio.
//!
//! Every timing is **per call**: each criterion iteration takes the next move
//! of a fixed, seeded set of 256 (round-robin), so criterion's figures read
//! directly as time per sweep or per update (warm caches: the 256 moves'
//! neighbourhoods stay cached, as one player's does in a game). Moves start
//! where the body rests on the terrain, a roof or a step (found by a downward
//! sweep from above the level), so the centre is about 1 m above the surface
//! under it: 3/4 are walking ticks (0.1 m horizontal, one 60 Hz tick at
//! 6 m/s) from 1–5 mm above the ground (where the gravity pass leaves a
//! standing player, about one skin), 1/4 falling ticks (the same plus 0.2 m
//! down, 12 m/s) from 0.05–1 m above the ground.
//!
//! Printed once per size, outside the timings: build times of the collider
//! (`MeshCollider::build`, a few builds) and of parry's `TriMesh` (as many
//! builds), bytes per
//! triangle, BVH stats, broad-phase candidates per sweep (the triangles in
//! the leaves the swept *box* reaches, what the walk used to visit: the
//! eSpace walk visits fewer and rejects most of them cheaply), what the
//! moves hit, and agreement checks (every move against brute force up to
//! 300k triangles, ours against parry3d). At the end, a summary of
//! criterion's medians with the ratios. The builds use every core
//! (`MeshCollider::build`); the single-thread time is printed too.
//!
//! Run (from `crates/sweep`):
//!
//! ```text
//! cargo bench --bench update                 # everything, a few minutes on 2 cores
//! cargo bench --bench update -- --test       # smoke run: every benchmark once
//! cargo bench --bench update -- 10k/         # one group (all levels are still built)
//! SWEEP_BENCH_SIZES=10k,100k cargo bench --bench update   # build and run only these sizes
//! SWEEP_BENCH_SIZES=dense cargo bench --bench update       # the dense level only
//! SWEEP_BENCH_SIZES=1M,dense,dense-proxy cargo bench --bench update   # the proxies' gain
//! SWEEP_BENCH_SIZES=1M,dense cargo bench --bench update --features counts -- --test   # per-sweep work counts, no timing
//! ```

#[path = "update/checks.rs"]
mod checks;
#[path = "update/moves.rs"]
mod moves;
#[path = "update/summary.rs"]
mod summary;

use bench_support::{LEVEL_SIZES, selected_levels};
use checks::{SPHERE_RADIUS, brute_force_sweep, check_brute_force, check_parry};
use criterion::Criterion;
use glam::Vec3;
use moves::{GRAVITY_STEP, describe_moves, make_moves, pass_options};
use parry3d::math::{Pose as PPose, Vector as PVec};
use parry3d::query::{ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, TriMesh};
use slidewalk_sweep::proxy::ProxyShape;
use slidewalk_sweep::test_util::{dense_level_with, generated_level};
use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider, collide_and_slide, sweep};
use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime};
use summary::{BENCHES, ms, print_summary};

/// Largest level on which brute force is benchmarked with criterion.
const BRUTE_FORCE_MAX: usize = 100_000;
/// Largest level whose sweeps are all checked against brute force.
const BRUTE_FORCE_CHECK_MAX: usize = 300_000;
/// The dense level's size (triangles) and group name.
const DENSE: (usize, &str) = (250_000, "dense");
/// The dense level with every prop colliding as a sphere proxy
/// (`slidewalk_sweep::proxy`, 120 triangles instead of 3,960), as a level that marks
/// its props `"proxy": "sphere"` loads.
const DENSE_PROXY: (usize, &str) = (250_000, "dense-proxy");
/// Player ellipsoid radii, metres.
const PLAYER_RADII: Vec3 = Vec3::new(0.4, 0.9, 0.4);

fn main() {
    let started = SystemTime::now();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
        .configure_from_args();

    let player = Ellipsoid::new(PLAYER_RADII).unwrap();
    let sphere = Ellipsoid::sphere(SPHERE_RADIUS).unwrap();
    let known: Vec<(usize, &str)> = LEVEL_SIZES.iter().copied().chain([DENSE, DENSE_PROXY]).collect();
    let sizes = selected_levels("SWEEP_BENCH_SIZES", &known);
    for &(n, label) in &sizes {
        bench_level(&mut c, n, label, &player, &sphere);
    }
    c.final_summary();
    print_summary(&sizes, started);
}

/// Builds one level (once), prints its figures and runs its criterion group.
fn bench_level(c: &mut Criterion, n: usize, label: &str, player: &Ellipsoid, sphere: &Ellipsoid) {
    println!("\n=== level {label} ===");
    let t = Instant::now();
    let soup = if label == DENSE.1 {
        dense_level_with(n, None)
    } else if label == DENSE_PROXY.1 {
        dense_level_with(n, Some(ProxyShape::Sphere))
    } else {
        generated_level(n)
    };
    println!("generated in {:.0} ms", ms(t.elapsed()));

    // Collider build, a few times (the last one is kept).
    let builds = if n >= 1_000_000 { 2 } else { 3 };
    let mut times = Vec::new();
    let mut mesh = None;
    for _ in 0..builds {
        drop(mesh.take());
        let t = Instant::now();
        mesh = Some(MeshCollider::build(&soup.positions, &soup.triangles).expect("generated level builds"));
        times.push(ms(t.elapsed()));
    }
    let mesh = mesh.unwrap();
    let t = Instant::now();
    drop(MeshCollider::build_with_threads(&soup.positions, &soup.triangles, 1).expect("generated level builds"));
    let single = ms(t.elapsed());
    let report = mesh.report();
    let stats = mesh.bvh_stats();
    println!(
        "triangles: {} kept of {} ({} non-finite, {} degenerate rejected)",
        report.triangles, report.input_triangles, report.rejected_non_finite, report.rejected_degenerate
    );
    println!(
        "MeshCollider::build: min {:.1} ms over {builds} builds ({}) on {} threads; {single:.1} ms on one",
        times.iter().copied().fold(f64::INFINITY, f64::min),
        times.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>().join(", "),
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    );
    println!(
        "memory: {} bytes = {:.1} bytes per triangle; BVH: {} nodes, {} leaves, depth {}, largest leaf {}",
        mesh.memory_bytes(),
        mesh.memory_bytes() as f64 / mesh.len() as f64,
        stats.nodes,
        stats.leaves,
        stats.depth,
        stats.max_leaf
    );

    // parry3d's mesh of the same triangles, built as many times (the input
    // copies made outside the timing; the last mesh is kept).
    let vertices: Vec<PVec> = soup.positions.iter().map(|p| PVec::from_array(p.to_array())).collect();
    let mut parry_times = Vec::new();
    let mut trimesh = None;
    for _ in 0..builds {
        drop(trimesh.take());
        let (vertices, indices) = (vertices.clone(), soup.triangles.clone());
        let t = Instant::now();
        trimesh = Some(TriMesh::new(vertices, indices).expect("parry3d accepts the level"));
        parry_times.push(ms(t.elapsed()));
    }
    let trimesh = trimesh.unwrap();
    println!(
        "parry3d TriMesh::new: min {:.1} ms over {builds} builds ({})",
        parry_times.iter().copied().fold(f64::INFINITY, f64::min),
        parry_times
            .iter()
            .map(|t| format!("{t:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    drop(soup);

    let world = [PlacedCollider::fixed(&mesh)];
    // The triangles in slot order, flat, for brute force.
    let triangles: Vec<[Vec3; 3]> = mesh.triangles().collect();
    let [player_moves, sphere_moves] = make_moves(&mesh, [player, sphere]);
    describe_moves(&mesh, player, &player_moves, &world);

    // Agreement and slow sizes, outside criterion.
    let brute = n <= BRUTE_FORCE_MAX;
    if n <= BRUTE_FORCE_CHECK_MAX {
        check_brute_force(&triangles, player, &player_moves, &world);
    }
    if !brute {
        let k = 16;
        let t = Instant::now();
        for m in &player_moves[..k] {
            black_box(brute_force_sweep(player, &triangles, m.start, m.motion));
        }
        println!(
            "brute force skipped in criterion at {label} (too slow): {:.2} ms per sweep (Instant, {k} sweeps)",
            ms(t.elapsed()) / k as f64
        );
    }
    let parry_moves: Vec<(PPose, PVec)> = sphere_moves
        .iter()
        .map(|m| {
            (
                PPose::from_translation(PVec::from_array(m.start.to_array())),
                PVec::from_array(m.motion.to_array()),
            )
        })
        .collect();
    let ball = Ball::new(SPHERE_RADIUS);
    let cast_options = ShapeCastOptions::with_max_time_of_impact(1.0);
    let parry_cast = |pose: &PPose, vel: PVec| {
        cast_shapes(pose, vel, &ball, &PPose::identity(), PVec::ZERO, &trimesh, cast_options)
            .expect("parry3d supports ball against trimesh")
            .map(|hit| hit.time_of_impact)
    };
    check_parry(&mesh, sphere, &sphere_moves, &world, &parry_moves, parry_cast);

    // The timings.
    let (options, gravity_options) = pass_options();
    let mut group = c.benchmark_group(label);
    group.bench_function(BENCHES[0], |b| {
        let mut next = round_robin(&player_moves);
        b.iter(|| {
            let m = next();
            sweep(player, black_box(m.start), black_box(m.motion), &world)
        })
    });
    if brute {
        group.bench_function(BENCHES[1], |b| {
            let mut next = round_robin(&player_moves);
            b.iter(|| {
                let m = next();
                brute_force_sweep(player, &triangles, black_box(m.start), black_box(m.motion))
            })
        });
    }
    group.bench_function(BENCHES[2], |b| {
        let mut next = round_robin(&player_moves);
        b.iter(|| {
            let m = next();
            let walked = collide_and_slide(player, black_box(m.start), black_box(m.motion), &world, &options);
            collide_and_slide(player, walked.position, GRAVITY_STEP, &world, &gravity_options)
        })
    });
    group.bench_function(BENCHES[3], |b| {
        let mut next = round_robin(&sphere_moves);
        b.iter(|| {
            let m = next();
            sweep(sphere, black_box(m.start), black_box(m.motion), &world)
        })
    });
    group.bench_function(BENCHES[4], |b| {
        let mut next = round_robin(&parry_moves);
        b.iter(|| {
            let (pose, vel) = next();
            parry_cast(black_box(pose), black_box(*vel))
        })
    });
    group.finish();
}

/// Cycles through `items` forever.
fn round_robin<'a, T>(items: &'a [T]) -> impl FnMut() -> &'a T {
    let mut i = 0;
    move || {
        let item = &items[i];
        i = (i + 1) % items.len();
        item
    }
}
