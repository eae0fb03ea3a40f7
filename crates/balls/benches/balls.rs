//! Balls per 60 Hz tick on the demo level, with their mutual impacts:
//! 100, 1,000 and 10,000 balls rained over the level (radius 5–15 cm,
//! thrown at up to 8 m/s), measured one second in, when they are bouncing
//! off the floor, the walls and each other. On one core, and with the
//! first sweeps of the tick spread over both cores (`threads: 2`).
//! Then the magic room (`assets/levels/magic_room.glb`): 1,000 balls
//! against its exact planes and cylinders, and against their triangles.
//! Then the players: 1,000 balls on the demo level with two players'
//! capsules given as a pair and as a slice, and with eight as a slice.
//!
//!   cargo bench -p slidewalk_balls --bench balls

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use slidewalk_balls::{AnalyticSolids, Ball, BallConfig, BallSimulation, MeshSolids, MovingCapsule, Solids};
use slidewalk_sweep::PlacedCollider;
use std::path::Path;

/// `count` balls rained over `half` metres each side of the origin, from
/// 1–7 m up (where `clear` says there is room), then a second of ticks.
fn rained(count: usize, half: f32, clear: impl Fn(Vec3) -> bool, solids: &impl Solids) -> BallSimulation {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut world = BallSimulation::new(BallConfig::default());
    while world.balls.len() < count {
        let (x, y, z) = (next(), next(), next());
        let position = Vec3::new((x * 2.0 - 1.0) * half, 1.0 + y * 6.0, (z * 2.0 - 1.0) * half);
        let velocity = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 16.0;
        let radius = 0.05 + 0.1 * next();
        if clear(position) {
            world.balls.push(Ball::new(position, velocity, radius));
        }
    }
    for _ in 0..60 {
        world.step(1.0 / 60.0, solids);
    }
    world
}

fn bench(c: &mut Criterion) {
    let level = slidewalk_level::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb"))
        .unwrap();
    let statics = level.statics.as_ref().expect("the demo level has static geometry");
    let placed = [PlacedCollider::fixed(statics)];
    let solids = MeshSolids::new(&placed);
    let mut group = c.benchmark_group("balls tick (60 Hz, demo level)");
    for count in [100, 1_000, 10_000] {
        let world = rained(count, 38.0, |_| true, &solids);
        let report = world.clone().step(1.0 / 60.0, &solids);
        eprintln!(
            "{count} balls: {} impacts, {} pair tests, {} sweeps, {} capped, {} asleep in the measured tick",
            report.impacts.len(),
            report.pair_tests,
            report.sweeps,
            report.capped,
            world.balls.iter().filter(|b| b.asleep).count()
        );
        for threads in [1, 2] {
            let cores = if threads == 1 { "one core" } else { "both cores" };
            let mut world = world.clone();
            world.config.threads = threads;
            group.bench_function(format!("{count} balls, {cores}"), |b| {
                b.iter_batched(
                    || world.clone(),
                    // The world goes back out: criterion drops it untimed.
                    |mut w| (w.step(1.0 / 60.0, &solids), w),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();

    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/magic_room.glb");
    let room = slidewalk_level::load(path).unwrap();
    let shapes: Vec<_> = room.analytic.iter().map(|a| (a.shape, 1.0)).collect();
    let placed = [PlacedCollider::fixed(room.statics.as_ref().unwrap())];
    // Every triangle of the room belongs to a shape: the mesh is left out.
    assert!(room.static_analytic.iter().all(|&a| a));
    let exact = (AnalyticSolids::new(&shapes), MeshSolids::new(&placed).without(0));
    let meshed = MeshSolids::new(&placed);
    let mut group = c.benchmark_group("balls tick (60 Hz, magic room, 1,000 balls, one core)");
    let clear = |p: Vec3| shapes.iter().all(|(s, _)| s.signed_distance(p) > 0.2);
    let world = rained(1_000, 6.5, clear, &exact);
    group.bench_function("exact planes and cylinders", |b| {
        b.iter_batched(
            || world.clone(),
            |mut w| (w.step(1.0 / 60.0, &exact), w),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("their triangles", |b| {
        b.iter_batched(
            || world.clone(),
            |mut w| (w.step(1.0 / 60.0, &meshed), w),
            BatchSize::LargeInput,
        )
    });
    group.finish();
    players(c);
}

/// 1,000 balls on the demo level meeting players walking through them.
fn players(c: &mut Criterion) {
    let level = slidewalk_level::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb"))
        .unwrap();
    let placed = [PlacedCollider::fixed(level.statics.as_ref().unwrap())];
    let solids = MeshSolids::new(&placed);
    let world = rained(1_000, 38.0, |_| true, &solids);
    // Players spread over the rained square, each walking at 4 m/s.
    let capsules: Vec<MovingCapsule> = (0..8u32)
        .map(|k| {
            let angle = k as f32 * 0.785;
            let centre = Vec3::new(angle.cos() * 10.0 * (1 + k % 3) as f32, 0.9, angle.sin() * 10.0);
            let velocity = Vec3::new(-angle.sin(), 0.0, angle.cos()) * 4.0;
            MovingCapsule::around_ellipsoid(centre, Vec3::new(0.4, 0.9, 0.4), Vec3::Y, velocity, k)
        })
        .collect();
    let mut group = c.benchmark_group("balls tick (60 Hz, demo level, 1,000 balls, one core) with players");
    let pair = (&solids, (capsules[0], capsules[1]));
    let two = (&solids, &capsules[..2]);
    let eight = (&solids, &capsules[..]);
    group.bench_function("two as a pair", |b| {
        b.iter_batched(
            || world.clone(),
            |mut w| (w.step(1.0 / 60.0, &pair), w),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("two as a slice", |b| {
        b.iter_batched(
            || world.clone(),
            |mut w| (w.step(1.0 / 60.0, &two), w),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("eight as a slice", |b| {
        b.iter_batched(
            || world.clone(),
            |mut w| (w.step(1.0 / 60.0, &eight), w),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
