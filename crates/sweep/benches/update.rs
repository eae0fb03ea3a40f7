//! Collision-core benchmarks on generated levels (bumpy terrain with box
//! buildings and flights of stairs, `sweep::test_util::generated_level`) of
//! 10k, 100k and 1M triangles, and on a dense level (`dense`,
//! `sweep::test_util::dense_level` of 250k triangles: a floor crowded with
//! spheres of 3,960 triangles each, as modelling tools export props, so a
//! player's box holds hundreds of candidate triangles), and on that level
//! with every prop colliding as a sphere proxy (`dense-proxy`, 120
//! triangles a prop, `sweep::proxy`).
//!
//! One criterion group per level (`10k`, `100k`, `1M`, `dense`), each with:
//!
//! * `sweep_bvh`: one `sweep::sweep` of the player ellipsoid (radii 0.4, 0.9,
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
//!   on the same moves by `sweep::sweep` and by parry3d's `cast_shapes`
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

use bench_support::{LEVEL_SIZES, criterion_dir, criterion_median_ns, selected_levels};
use criterion::Criterion;
use glam::Vec3;
use parry3d::math::{Pose as PPose, Vector as PVec};
use parry3d::query::{ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, TriMesh};
use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime};
use sweep::proxy::ProxyShape;
use sweep::query::sphere_triangle::sweep_unit_sphere_triangle;
use sweep::test_util::{dense_level_with, generated_level};
use sweep::{
    Aabb, Ellipsoid, Ground, MeshCollider, PlacedCollider, SlideOptions, collide_and_slide, distance_to_triangle, sweep,
};

/// Largest level on which brute force is benchmarked with criterion.
const BRUTE_FORCE_MAX: usize = 100_000;
/// Largest level whose sweeps are all checked against brute force.
const BRUTE_FORCE_CHECK_MAX: usize = 300_000;
/// The dense level's size (triangles) and group name.
const DENSE: (usize, &str) = (250_000, "dense");
/// The dense level with every prop colliding as a sphere proxy
/// (`sweep::proxy`, 120 triangles instead of 3,960), as a level that marks
/// its props `"proxy": "sphere"` loads.
const DENSE_PROXY: (usize, &str) = (250_000, "dense-proxy");
/// Moves in the fixed set.
const MOVES: usize = 256;
/// Seed of the move set.
const SEED: u64 = 0x51_1de_a1c;
/// Horizontal motion of one walking tick: 6 m/s at 60 Hz.
const WALK_STEP: f32 = 0.1;
/// Extra downward motion of a falling tick: 12 m/s at 60 Hz.
const FALL_STEP: f32 = 0.2;
/// Share of falling ticks in the move set.
const FALLING_SHARE: f32 = 0.25;
/// Displacement of the gravity pass of a character update.
const GRAVITY_STEP: Vec3 = Vec3::new(0.0, -0.05, 0.0);

/// Options of the move pass (defaults) and of the gravity pass (defaults, and
/// stop on ground walkable up to 50°, as the game's controller does).
fn pass_options() -> (SlideOptions, SlideOptions) {
    let gravity = SlideOptions {
        stop_on_ground: Some(Ground::y_up(50f32.to_radians())),
        ..Default::default()
    };
    (SlideOptions::default(), gravity)
}
/// Player ellipsoid radii, metres.
const PLAYER_RADII: Vec3 = Vec3::new(0.4, 0.9, 0.4);
/// Sphere radius of the comparison with parry3d, metres.
const SPHERE_RADIUS: f32 = 0.5;

/// One sweep: start centre and motion, metres.
#[derive(Clone, Copy, Debug)]
struct Move {
    start: Vec3,
    motion: Vec3,
}

/// The benchmarked names, in the order of the summary columns.
const BENCHES: [&str; 5] = [
    "sweep_bvh",
    "sweep_brute_force",
    "update",
    "sphere_sweep_bvh",
    "sphere_parry3d",
];

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

/// The fixed move set, the same candidate positions and motions for each
/// body, each body resting at its own height there (found by a downward sweep
/// from above the level). A candidate is kept only when every body lands.
fn make_moves<const N: usize>(mesh: &MeshCollider, bodies: [&Ellipsoid; N]) -> [Vec<Move>; N] {
    let world = [PlacedCollider::fixed(mesh)];
    let bounds = mesh.bounds();
    let top = bounds.max.y + 4.0;
    let fall = Vec3::new(0.0, bounds.min.y - 4.0 - top, 0.0);
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut moves: [Vec<Move>; N] = std::array::from_fn(|_| Vec::with_capacity(MOVES));
    let mut attempts = 0;
    while moves[0].len() < MOVES {
        attempts += 1;
        assert!(attempts < 100 * MOVES, "could not place {MOVES} moves on the level");
        let x = bounds.min.x + 1.0 + (bounds.max.x - bounds.min.x - 2.0) * rng.f32();
        let z = bounds.min.z + 1.0 + (bounds.max.z - bounds.min.z - 2.0) * rng.f32();
        let angle = rng.f32() * std::f32::consts::TAU;
        let falling = rng.f32() < FALLING_SHARE;
        let u = rng.f32();
        let walk = Vec3::new(angle.cos(), 0.0, angle.sin()) * WALK_STEP;
        let (lift, motion) = if falling {
            (0.05 + 0.95 * u, walk - Vec3::Y * FALL_STEP)
        } else {
            (0.001 + 0.004 * u, walk)
        };
        let high = Vec3::new(x, top, z);
        let landed: Vec<Option<Vec3>> = bodies
            .iter()
            .map(|body| match sweep(body, high, fall, &world) {
                Some(hit) if !hit.started_embedded && hit.time > 0.0 => Some(high + fall * hit.time),
                _ => None,
            })
            .collect();
        if landed.iter().all(Option::is_some) {
            for (list, rest) in moves.iter_mut().zip(landed) {
                list.push(Move {
                    start: rest.unwrap() + Vec3::Y * lift,
                    motion,
                });
            }
        }
    }
    moves
}

/// Prints what the player's moves meet: broad-phase candidates per sweep,
/// hits, and what a character update does.
fn describe_moves(mesh: &MeshCollider, player: &Ellipsoid, moves: &[Move], world: &[PlacedCollider<'_>]) {
    let r = player.radii();
    let (mut candidates, mut most, mut hits) = (0usize, 0usize, 0usize);
    for m in moves {
        // The same box `sweep` asks the BVH for.
        let query = Aabb::from_corners(m.start, m.start + m.motion).expand(r * 1.001 + Vec3::splat(1e-6));
        let mut k = 0;
        mesh.query(&query, |_| k += 1);
        candidates += k;
        most = most.max(k);
        hits += usize::from(sweep(player, m.start, m.motion, world).is_some());
    }
    let (options, gravity_options) = pass_options();
    let (mut contacts, mut sweeps, mut blocked, mut depenetrated, mut unresolved) = (0, 0, 0, 0, 0);
    sweep::counts::take();
    for m in moves {
        let walked = collide_and_slide(player, m.start, m.motion, world, &options);
        let fell = collide_and_slide(player, walked.position, GRAVITY_STEP, world, &gravity_options);
        for step in [&walked, &fell] {
            contacts += step.contacts.len();
            sweeps += step.iterations;
            blocked += usize::from(step.blocked);
            depenetrated += usize::from(step.depenetration != Vec3::ZERO);
            unresolved += usize::from(step.unresolved_overlap);
        }
    }
    let work = sweep::counts::take();
    let n = moves.len() as f64;
    if work.walks > 0 {
        // Only with `--features counts`.
        let per = |x: u64| x as f64 / work.walks as f64;
        println!(
            "per sweep of the updates: {:.1} wide nodes opened, {:.1} boxes entered, {:.1} candidate triangles, \
             {:.2} exact tests",
            per(work.nodes),
            per(work.entered),
            per(work.candidates),
            per(work.exact)
        );
    }
    println!(
        "player moves: {MOVES}, {hits} sweeps hit something; broad phase: {:.1} candidate triangles per sweep (max {most})",
        candidates as f64 / n
    );
    println!(
        "updates: {:.2} contacts and {:.2} sweeps per update (move + gravity pass); of {} passes {blocked} blocked, \
         {depenetrated} depenetrated, {unresolved} left overlapping",
        contacts as f64 / n,
        f64::from(sweeps) / n,
        2 * moves.len()
    );
}

/// Sweeps the ellipsoid against every triangle: what `sweep` does without
/// the broad phase. Returns the time and slot of the earliest hit.
fn brute_force_sweep(
    ellipsoid: &Ellipsoid,
    triangles: &[[Vec3; 3]],
    start: Vec3,
    motion: Vec3,
) -> Option<(f32, usize)> {
    // eSpace exactly as `sweep` maps it (reciprocal radii), so the two agree bit for bit.
    let inv_r = ellipsoid.radii().recip();
    let v = motion * inv_r;
    let mut best = None;
    let mut best_t = 1.0f32;
    for (slot, tri) in triangles.iter().enumerate() {
        let tri = tri.map(|p| (p - start) * inv_r);
        if let Some(hit) = sweep_unit_sphere_triangle(v, tri, best_t)
            && (best.is_none() || hit.t < best_t)
        {
            best_t = hit.t;
            best = Some((hit.t, slot));
        }
    }
    best
}

/// The BVH must find exactly the brute-force earliest times.
fn check_brute_force(triangles: &[[Vec3; 3]], player: &Ellipsoid, moves: &[Move], world: &[PlacedCollider<'_>]) {
    let mismatches: Vec<String> = moves
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let bvh = sweep(player, m.start, m.motion, world).map(|h| h.time);
            let brute = brute_force_sweep(player, triangles, m.start, m.motion).map(|(t, _)| t);
            (bvh != brute).then(|| format!("move {i}: bvh {bvh:?}, brute force {brute:?}"))
        })
        .collect();
    if mismatches.is_empty() {
        println!("BVH vs brute force: same earliest time on all {} moves", moves.len());
    } else {
        println!(
            "BVH vs brute force: {} MISMATCHES, first: {}",
            mismatches.len(),
            mismatches[0]
        );
    }
}

/// Compares our sphere sweep with parry3d's cast on the same moves. Where
/// either reports a hit, the true gap at that time (centre to nearest
/// triangle, minus the radius) says how exact it is: 0 is touching.
fn check_parry(
    mesh: &MeshCollider,
    sphere: &Ellipsoid,
    moves: &[Move],
    world: &[PlacedCollider<'_>],
    parry_moves: &[(PPose, PVec)],
    parry_cast: impl Fn(&PPose, PVec) -> Option<f32>,
) {
    let radius = sphere.radii().x;
    let gap = |centre: Vec3| {
        let mut d = f32::INFINITY;
        mesh.query(
            &Aabb::from_corners(centre, centre).expand(Vec3::splat(2.0 * radius)),
            |slot| {
                d = d.min(distance_to_triangle(centre, mesh.triangle(slot)));
            },
        );
        d - radius
    };
    let (mut both, mut only_ours, mut only_parry) = (0, 0, 0);
    let (mut worst_ours, mut worst_parry, mut worst_along) = (0.0f32, 0.0f32, 0.0f32);
    for (m, (pose, vel)) in moves.iter().zip(parry_moves) {
        let ours = sweep(sphere, m.start, m.motion, world).map(|h| h.time);
        let parry = parry_cast(pose, *vel);
        match (ours, parry) {
            (Some(a), Some(b)) => {
                both += 1;
                worst_along = worst_along.max((a - b).abs() * m.motion.length());
            }
            (Some(_), None) => only_ours += 1,
            (None, Some(_)) => only_parry += 1,
            (None, None) => {}
        }
        if let Some(t) = ours {
            worst_ours = worst_ours.max(gap(m.start + m.motion * t).abs());
        }
        if let Some(t) = parry {
            worst_parry = worst_parry.max(gap(m.start + m.motion * t).abs());
        }
    }
    println!(
        "sphere r={SPHERE_RADIUS} vs parry3d: {both} hit in both, {only_ours} only ours, {only_parry} only parry3d; \
         largest |gap| at the reported time: ours {:.4} mm, parry3d {:.4} mm; \
         largest difference along the motion {:.3} mm",
        worst_ours * 1e3,
        worst_parry * 1e3,
        worst_along * 1e3
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Prints the medians measured by this run side by side, with the ratios.
fn print_summary(sizes: &[(usize, &str)], since: SystemTime) {
    let Some(dir) = criterion_dir() else { return };
    let rows: Vec<(&str, [Option<f64>; 5])> = sizes
        .iter()
        .map(|&(_, label)| (label, BENCHES.map(|b| criterion_median_ns(&dir, label, b, since))))
        .collect();
    if rows.iter().all(|(_, cells)| cells.iter().all(Option::is_none)) {
        return; // smoke run (--test), listing, or everything filtered out
    }
    let us = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |ns| format!("{:.3}", ns / 1e3));
    let ratio = |a: Option<f64>, b: Option<f64>| {
        a.zip(b)
            .map_or_else(|| "-".to_string(), |(a, b)| format!("{:.1}x", a / b))
    };
    println!(
        "\nsummary: criterion medians, microseconds per call (from {})",
        dir.display()
    );
    println!(
        "{:>11} {:>11} {:>13} {:>11} {:>10} {:>14} {:>13} {:>13}",
        "level", "sweep_bvh", "brute_force", "brute/bvh", "update", "sphere_bvh", "parry3d", "parry/ours"
    );
    for (label, [bvh, brute, update, sphere, parry]) in rows {
        println!(
            "{:>11} {:>11} {:>13} {:>11} {:>10} {:>14} {:>13} {:>13}",
            label,
            us(bvh),
            us(brute),
            ratio(brute, bvh),
            us(update),
            us(sphere),
            us(parry),
            ratio(parry, sphere)
        );
    }
}
