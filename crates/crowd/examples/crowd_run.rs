//! Runs a crowd headless and prints what its steps cost: for trying sizes
//! and for profiling (`perf record -g` on this binary).
//!
//! ```text
//! cargo run -p slidewalk_crowd --release --example crowd_run -- [playground|1M|<triangles>] [agents] [ticks] [threads] [apart|through]
//! ```
//! Defaults: playground 10000 300 0 apart (0 threads: one per core;
//! `through`: agent–agent collision off). `CROWD_BRAIN=walk`: nobody
//! pauses or waits when blocked (every agent walks every tick: the worst
//! case; by default many stand, and standing agents sleep). The last line
//! is a digest of every agent's final position, bit for bit: an
//! optimisation must leave it as it was.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Stage;
use slidewalk_crowd::{Crowd, CrowdConfig, CrowdSurroundings};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let which = arg(0, "playground");
    let agents: usize = arg(1, "10000").parse().expect("agents: a number");
    let ticks: usize = arg(2, "300").parse().expect("ticks: a number");
    let threads: usize = arg(3, "0").parse().expect("threads: a number");
    let collide = arg(4, "apart") != "through";
    let built = Instant::now();
    let level = match which.as_str() {
        "playground" => common::playground(),
        "1M" => common::generated(1_000_000),
        n => common::generated(n.parse().expect("a level: playground, 1M or a triangle count")),
    };
    let mut stage = Stage::new(level);
    eprintln!("level {which}: {:.1} s to build", built.elapsed().as_secs_f64());
    let dt = 1.0 / 60.0;
    let walk = std::env::var("CROWD_BRAIN").is_ok_and(|b| b == "walk");
    let mut crowd = Crowd::new(CrowdConfig {
        threads,
        collide_agents: collide,
        wander: if walk {
            common::always_walking()
        } else {
            Default::default()
        },
        ..CrowdConfig::default()
    })
    .expect("valid config");
    stage.advance(dt);
    let spawned = Instant::now();
    {
        let colliders = stage.colliders(dt);
        let friction = |c: usize, t: u32| stage.level.friction(c, t);
        let placed = crowd.spawn(agents, &CrowdSurroundings::new(&colliders).with_friction(&friction), 1);
        eprintln!(
            "spawned {placed} of {agents} in {:.2} s",
            spawned.elapsed().as_secs_f64()
        );
    }
    let mut sum = slidewalk_crowd::StepReport::default();
    let mut cpu_start = 0.0;
    let mut worst: f64 = 0.0;
    for tick in 0..ticks {
        if tick == ticks / 5 {
            cpu_start = cpu_seconds();
        }
        stage.advance(dt);
        let crushing = {
            let colliders = stage.colliders(dt);
            let friction = |c: usize, t: u32| stage.level.friction(c, t);
            let world = CrowdSurroundings::new(&colliders).with_friction(&friction);
            let r = crowd.step(&world, dt).expect("valid dt").clone();
            if tick >= ticks / 5 {
                worst = worst.max(r.micros);
                sum.micros += r.micros;
                sum.move_micros += r.move_micros;
                sum.check_micros += r.check_micros;
                sum.retry_micros += r.retry_micros;
                sum.retried += r.retried;
                sum.yielded += r.yielded;
                sum.stood_still += r.stood_still;
                sum.held += r.held;
                sum.crushed += r.crushed;
                sum.hulls_swept += r.hulls_swept;
                sum.asleep += r.asleep;
                sum.sweeps += r.sweeps;
                sum.returned_home += r.returned_home;
                sum.agents = r.agents;
                sum.threads = r.threads;
            }
            r.crushing_colliders
        };
        stage.turn_back(&crushing);
    }
    let cpu = cpu_seconds() - cpu_start;
    let measured = (ticks - ticks / 5).max(1) as f64;
    let n = sum.agents.max(1) as f64;
    println!(
        "{which}: {} agents, {} threads, {} ticks: step {:.0} µs (worst {:.0}), {:.2} µs/agent; move {:.0} µs, check {:.0} µs, retry {:.0} µs",
        sum.agents,
        sum.threads,
        measured,
        sum.micros / measured,
        worst,
        sum.micros / measured / n,
        sum.move_micros / measured,
        sum.check_micros / measured,
        sum.retry_micros / measured
    );
    println!(
        "  per agent and tick: {:.2} asleep, {:.2} polytopes swept, {:.2} sweeps; per tick: {:.1} retried ({:.1} yielded), {:.1} stood still, {:.2} held, {:.2} crushed, {:.2} returned home; {:.0} bytes/agent",
        sum.asleep as f64 / measured / n,
        sum.hulls_swept as f64 / measured / n,
        sum.sweeps as f64 / measured / n,
        sum.retried as f64 / measured,
        sum.yielded as f64 / measured,
        sum.stood_still as f64 / measured,
        sum.held as f64 / measured,
        sum.crushed as f64 / measured,
        sum.returned_home as f64 / measured,
        crowd.bytes_per_agent()
    );
    println!(
        "  CPU time (all threads, this process): {:.2} µs per agent update",
        cpu * 1e6 / measured / n
    );
    // Every agent's position, bit for bit: a change that should not change
    // a result (an optimisation) must leave this as it was.
    let digest = crowd.agents().iter().fold(0xcbf2_9ce4_8422_2325u64, |h, a| {
        a.position()
            .to_array()
            .iter()
            .fold(h, |h, c| (h ^ u64::from(c.to_bits())).wrapping_mul(0x0100_0000_01b3))
    });
    println!("  positions at the end: digest {digest:016x}");
}

/// User + system CPU seconds of this process so far (Linux `/proc`; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')').map_or(0, |i| i + 2)..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11).and_then(|u| u.parse().ok()).unwrap_or(0.0)
        + fields.get(12).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}
