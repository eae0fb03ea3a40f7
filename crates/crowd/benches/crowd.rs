//! The crowd benchmark: one 60 Hz step of 10, 100, 1,000 and 10,000
//! agents on the demo level (`assets/levels/playground.glb`, 80 × 80 m:
//! 10,000 agents cover over half its floor, a jam) and on a generated level
//! of about a million triangles (`slidewalk_sweep::test_util::generated_level`,
//! 500 × 500 m of bumpy terrain with buildings and stairs), on one core and
//! on all cores. Agents are spawned over the whole level and walk for 2 s
//! before the step is measured (from the same state every iteration; the
//! doors and lifts posed as at that moment).
//!
//! Two brains: the default wander (legs of 1–5 s, one in seven a pause, a
//! wait of up to 1 s when blocked: in a jam many agents stand, and a
//! standing agent on still ground sleeps), and "all walking" (no pauses,
//! no waits: every agent ticks every step, the worst case), for 10,000.
//!
//! Printed: per configuration the median step, µs per agent update, agents
//! that fit in a 16.7 ms tick at that rate, bytes per agent, and what the
//! step did (asleep, polytopes swept, moves refused and retried, of them
//! yielded).
//!
//! ```text
//! cargo bench -p slidewalk_crowd --bench crowd                 # everything, a few minutes
//! cargo bench -p slidewalk_crowd --bench crowd -- --test       # smoke run
//! CROWD_BENCH_LEVELS=demo cargo bench -p slidewalk_crowd --bench crowd   # one level (demo or 1M)
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use bench_support::{criterion_dir, criterion_median_ns};
use common::Stage;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use slidewalk_crowd::{Crowd, CrowdConfig, CrowdSurroundings, WanderConfig};
use std::time::SystemTime;

const DT: f32 = 1.0 / 60.0;
const GROUP: &str = "crowd step (60 Hz)";

/// A crowd of `n` on `stage` after 2 s of walking.
fn walked(stage: &mut Stage, n: usize, wander: WanderConfig, threads: usize) -> Crowd {
    let mut crowd = Crowd::new(CrowdConfig {
        wander,
        threads,
        ..CrowdConfig::default()
    })
    .unwrap();
    {
        let colliders = stage.colliders(DT);
        let friction = |c: usize, t: u32| stage.level.friction(c, t);
        crowd.spawn(n, &CrowdSurroundings::new(&colliders).with_friction(&friction), 1);
    }
    for _ in 0..120 {
        stage.advance(DT);
        let crushing = {
            let colliders = stage.colliders(DT);
            let friction = |c: usize, t: u32| stage.level.friction(c, t);
            let world = CrowdSurroundings::new(&colliders).with_friction(&friction);
            crowd.step(&world, DT).unwrap().crushing_colliders.clone()
        };
        stage.turn_back(&crushing);
    }
    crowd
}

struct Row {
    id: String,
    agents: usize,
    bytes: f64,
    note: String,
}

fn bench(c: &mut Criterion) {
    let since = SystemTime::now();
    let levels = std::env::var("CROWD_BENCH_LEVELS").unwrap_or_else(|_| "demo,1M".into());
    let mut rows = Vec::new();
    let mut group = c.benchmark_group(GROUP);
    group.sample_size(10);
    for name in levels.split(',').map(str::trim) {
        let level = match name {
            "demo" => common::playground(),
            "1M" => common::generated(1_000_000),
            other => panic!("CROWD_BENCH_LEVELS: unknown level {other:?} (demo or 1M)"),
        };
        let mut stage = Stage::new(level);
        stage.advance(DT);
        let cases = [10, 100, 1_000, 10_000]
            .map(|n| (n, "wander", WanderConfig::default()))
            .into_iter()
            .chain([(10_000, "all walking", common::always_walking())]);
        for (n, brain, wander) in cases {
            let crowd = walked(&mut stage, n, wander, 0);
            let colliders = stage.colliders(DT);
            let friction = |c: usize, t: u32| stage.level.friction(c, t);
            let world = CrowdSurroundings::new(&colliders).with_friction(&friction);
            for threads in [1, 0] {
                let mut crowd = crowd.clone();
                crowd.set_threads(threads);
                let report = crowd.clone().step(&world, DT).unwrap().clone();
                let cores = if threads == 1 { "one core" } else { "all cores" };
                let id = format!("{name}/{brain}/{}/{cores}", crowd.len());
                group.bench_function(&id, |b| {
                    b.iter_batched(
                        || crowd.clone(),
                        // The crowd goes back out: criterion drops it untimed.
                        |mut c| {
                            c.step(&world, DT).unwrap();
                            c
                        },
                        BatchSize::LargeInput,
                    )
                });
                let per = |v: usize| v as f64 / report.agents.max(1) as f64;
                rows.push(Row {
                    id,
                    agents: crowd.len(),
                    bytes: crowd.bytes_per_agent(),
                    note: format!(
                        "{} threads, {:.0}% asleep, {:.2} polytopes/agent, {:.2} sweeps/agent, {:.1}% refused (retried; {:.1}% yielded); one step's phases: moves {:.0}, check {:.0}, retries {:.0} µs",
                        report.threads,
                        100.0 * per(report.asleep),
                        report.hulls_swept as f64 / report.agents.max(1) as f64,
                        report.sweeps as f64 / report.agents.max(1) as f64,
                        100.0 * per(report.retried),
                        100.0 * per(report.yielded),
                        report.move_micros,
                        report.check_micros,
                        report.retry_micros
                    ),
                });
            }
        }
    }
    group.finish();

    let Some(dir) = criterion_dir() else { return };
    eprintln!("\n{GROUP}: median step, µs per agent update, agents per 16.7 ms tick at that rate, bytes per agent");
    for row in rows {
        let Some(ns) = criterion_median_ns(&dir, GROUP, &row.id, since) else {
            continue;
        };
        let per_agent = ns / 1e3 / row.agents.max(1) as f64;
        eprintln!(
            "  {:<36} {:>9.0} µs  {:>6.2} µs/agent  {:>8.0} agents/tick  {:>5.0} B/agent  ({})",
            row.id,
            ns / 1e3,
            per_agent,
            16_667.0 / per_agent,
            row.bytes,
            row.note
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(std::time::Duration::from_secs(3)).warm_up_time(std::time::Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
