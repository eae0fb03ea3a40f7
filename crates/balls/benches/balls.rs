//! Balls per 60 Hz tick on the demo level, with their mutual impacts:
//! 100, 1,000 and 10,000 balls rained over the level (radius 5–15 cm,
//! thrown at up to 8 m/s), measured one second in, when they are bouncing
//! off the floor, the walls and each other. On one core, and with the
//! first sweeps of the tick spread over both cores (`threads: 2`).
//!
//!   cargo bench -p balls --bench balls

use balls::{Ball, BallConfig, BallWorld, MeshObstacles};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use std::path::Path;
use sweep::PlacedCollider;

fn rained(count: usize, obstacles: &MeshObstacles) -> BallWorld {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut world = BallWorld::new(BallConfig::default());
    for _ in 0..count {
        let position = Vec3::new(next() * 76.0 - 38.0, 1.0 + next() * 6.0, next() * 76.0 - 38.0);
        let velocity = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 16.0;
        world.balls.push(Ball::new(position, velocity, 0.05 + 0.1 * next()));
    }
    for _ in 0..60 {
        world.step(1.0 / 60.0, obstacles);
    }
    world
}

fn bench(c: &mut Criterion) {
    let level = level::load_bytes(&level::generate::playground_glb(), None, Path::new("playground.glb")).unwrap();
    let statics = level.statics.as_ref().expect("the demo level has static geometry");
    let placed = [PlacedCollider::fixed(statics)];
    let obstacles = MeshObstacles::new(&placed);
    let mut group = c.benchmark_group("balls tick (60 Hz, demo level)");
    for count in [100, 1_000, 10_000] {
        let world = rained(count, &obstacles);
        let report = world.clone().step(1.0 / 60.0, &obstacles);
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
                    |mut w| w.step(1.0 / 60.0, &obstacles),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
