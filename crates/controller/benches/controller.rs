//! Controller benchmarks: the full update (`Controller::tick`, all passes)
//! on generated levels (bumpy terrain with box buildings and flights of
//! stairs, `slidewalk_sweep::test_util::generated_level`) of 10k, 100k and 1M
//! triangles, one core, beside rapier3d's `KinematicCharacterController`
//! moving a capsule on the same triangles with the same input.
//!
//! Criterion ids, in one group `update`:
//!
//! * `ours/warm/<level>`: one player walking a scripted path, one tick per
//!   iteration (its neighbourhood stays cached, as one player's does in a
//!   game);
//! * `ours/cold/<level>`: 1,000 players spread over the level, updated
//!   round-robin, one tick of the next player per iteration (a server's
//!   worth of players: on the larger levels the caches hold little of each
//!   one's neighbourhood);
//! * `rapier/autostep/{warm,cold}/<level>` and
//!   `rapier/no_autostep/{warm,cold}/<level>`: `move_shape` of a capsule
//!   (radius 0.4 m, 1.8 m tall, as our ellipsoid 0.4, 0.9, 0.4 m) against a
//!   trimesh collider of the same triangles in rapier's BVH broad phase,
//!   with `max_slope_climb_angle` and `min_slope_slide_angle` 45°,
//!   `snap_to_ground` 0.4 m, and autostep (`max_height` 0.35 m, `min_width`
//!   0.2 m, dynamic bodies excluded) or none.
//!
//! The input: a scripted cycle of 10 s at 60 Hz, walking at 4.5 m/s on
//! headings held up to 2 s (one leg in ten standing still for 0.5 s), the
//! legs of the first half walked back in reverse in the second (so the
//! planned path, collisions aside, closes at the spawn; it stays within 6 m
//! of its start), a jump pressed about every 5 s and held 0.5 s. At the end of its cycle a player goes
//! back to its spawn. The cold players walk the same cycle turned by a
//! heading of their own and started at a phase of their own. Spawns are
//! found by dropping each body from above the level (a random point at
//! least 14 m from its edges): the terrain, a roof or a step (the warm
//! player's: the terrain).
//!
//! Our player runs `ControllerConfig::default()` (walk 4.5 m/s, step 0.35 m,
//! walkable 45°, snap 0.4 m, jump 1 m). rapier's controller handles no
//! velocity or gravity: as in rapier's examples the caller adds gravity to
//! the desired translation, here a vertical speed gaining −9.81 m/s² · dt per
//! tick (zeroed when grounded, set to the same jump speed as ours when a
//! jump is pressed on the ground), plus the walking velocity (reached at
//! once, in the air too; ours accelerates at 40 m/s² on the ground, 8 m/s²
//! in the air).
//!
//! Printed once per level, outside the timings: build times, then per
//! controller over one warm cycle and 20 rounds of the cold players: sweeps
//! per update (ours: `TickReport::sweeps`, the collide-and-slide iterations
//! of the passes taken; rapier: shape-cast hits reported to the collision
//! callback), how often grounded, stepping and jumping, and the distance
//! walked against the distance asked. At the end, a summary of criterion's
//! medians (microseconds per update).
//!
//! Run (from the workspace root):
//!
//! ```text
//! cargo bench -p slidewalk_controller --bench controller              # everything, a few minutes on 2 cores
//! cargo bench -p slidewalk_controller --bench controller -- --test    # smoke run: every benchmark once
//! cargo bench -p slidewalk_controller --bench controller -- ours/     # only ours (all levels are still built)
//! CONTROLLER_BENCH_SIZES=10k,100k cargo bench -p slidewalk_controller --bench controller   # only these sizes
//! CONTROLLER_BENCH_MOVES=on cargo bench -p slidewalk_controller --bench controller -- ours/   # our player with every move on
//! ```
//!
//! With `CONTROLLER_BENCH_MOVES=on` our player runs
//! `ControllerConfig::default().with_every_move()` (the demo game's
//! moves: a tap jumps 0.4 m, air jump, dash, wall slide and jump, mantle,
//! climb) on the same script, under the same ids.
//!
//! The helpers live in `benches/support/` (script, players and spawns,
//! printed figures) and the rapier peer, shared with the behaviour table
//! example, in `benches/peer/rapier.rs`; neither is a bench target of its
//! own (Cargo only picks up `benches/*.rs` and `benches/*/main.rs`).

#[path = "peer/rapier.rs"]
mod rapier_peer;
mod support;

use bench_support::selected_sizes;
use criterion::Criterion;
use glam::Quat;
use rapier_peer::{Rapier, RapierLevel, capsule, kinematic_controller};
use slidewalk_controller::{Controller, ControllerConfig, Intent, Surroundings};
use slidewalk_sweep::test_util::{Lcg, generated_level};
use slidewalk_sweep::{MeshCollider, PlacedCollider};
use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime};
use support::players::{OurPlayer, RapierPlayer, find_spawns};
use support::script::{Cursor, script};
use support::stats::{print_summary, run_ours, run_rapier};
use support::{COLD_ROUNDS, CYCLE, DT, PLAYERS, Peer, SEED, ms};

fn main() {
    let started = SystemTime::now();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .configure_from_args();
    let sizes = selected_sizes("CONTROLLER_BENCH_SIZES");
    let script = script(SEED);
    for &(n, label) in &sizes {
        bench_level(&mut c, n, label, &script);
    }
    c.final_summary();
    print_summary(&sizes, started);
}

/// Our player's configuration: the default, or with every move on
/// (`CONTROLLER_BENCH_MOVES=on`).
fn our_config() -> ControllerConfig {
    let moves = std::env::var("CONTROLLER_BENCH_MOVES").is_ok_and(|v| v == "on");
    if moves {
        println!("our player: every move on");
        ControllerConfig::default().with_every_move()
    } else {
        ControllerConfig::default()
    }
}

/// Builds one level (once) for both controllers, prints what the players
/// do there and runs its benchmarks.
fn bench_level(c: &mut Criterion, n: usize, label: &str, script: &[Intent]) {
    println!("\n=== level {label} ===");
    let t = Instant::now();
    let soup = generated_level(n);
    println!("generated in {:.0} ms", ms(t.elapsed()));
    let t = Instant::now();
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).expect("generated level builds");
    println!(
        "{} triangles; MeshCollider::build {:.1} ms",
        mesh.len(),
        ms(t.elapsed())
    );
    let t = Instant::now();
    let level = RapierLevel::new(&soup);
    println!("rapier trimesh collider and broad phase: {:.1} ms", ms(t.elapsed()));
    drop(soup);

    let placed = [PlacedCollider::fixed(&mesh)];
    let world = Surroundings::new(&placed);
    let config = our_config();
    let controller = Controller::new(config).expect("the bench's config is valid");
    let queries = level.queries();
    let capsule = capsule();
    let kccs = [kinematic_controller(true), kinematic_controller(false)];
    let rapier = |peer: Peer| Rapier {
        kcc: &kccs[usize::from(peer == Peer::RapierNoAutostep)],
        queries: &queries,
        shape: &capsule,
        config: controller.config(),
    };

    let t = Instant::now();
    let spawns = find_spawns(&mesh, &placed, &queries, &capsule, PLAYERS);
    println!("{} spawns found in {:.0} ms", spawns.len(), ms(t.elapsed()));
    let mut rng = Lcg::new(SEED ^ n as u64);
    let cursors: Vec<Cursor> = (0..PLAYERS)
        .map(|i| Cursor {
            tick: 0,
            phase: if i == 0 {
                0
            } else {
                (rng.next_f32() * CYCLE as f32) as usize
            },
            turn: if i == 0 {
                Quat::IDENTITY
            } else {
                Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU))
            },
        })
        .collect();
    let ours: Vec<OurPlayer> = spawns
        .iter()
        .zip(&cursors)
        .map(|(s, &cursor)| OurPlayer::new(s.ours, &config, cursor))
        .collect();
    let theirs: Vec<RapierPlayer> = spawns
        .iter()
        .zip(&cursors)
        .map(|(s, &cursor)| RapierPlayer::new(s.rapier, cursor))
        .collect();

    // What the players do, outside the timings.
    let asked_per_cycle =
        script.iter().map(|i| i.direction.length()).sum::<f32>() * controller.config().walk_speed * DT;
    println!(
        "script: {CYCLE} ticks per cycle, {:.1} m asked per cycle, {} jumps pressed",
        asked_per_cycle,
        script.iter().filter(|i| i.jump).count()
    );
    for peer in Peer::ALL {
        for (kind, players, ticks) in [("warm", 1, CYCLE), ("cold", PLAYERS, COLD_ROUNDS * PLAYERS)] {
            let stats = match peer {
                Peer::Ours => run_ours(&controller, &world, &ours[..players], script, ticks),
                _ => run_rapier(&rapier(peer), &theirs[..players], script, ticks),
            };
            stats.print(peer, kind, ticks);
        }
    }

    // The timings.
    let mut group = c.benchmark_group("update");
    for kind in ["warm", "cold"] {
        let players = if kind == "warm" { 1 } else { PLAYERS };
        let mut mine = ours[..players].to_vec();
        let mut next = 0;
        group.bench_function(format!("ours/{kind}/{label}"), |b| {
            b.iter(|| {
                let p = &mut mine[next];
                next = (next + 1) % players;
                p.tick(&controller, black_box(&world), script)
            })
        });
        for peer in [Peer::RapierAutostep, Peer::RapierNoAutostep] {
            let r = rapier(peer);
            let mut bodies = theirs[..players].to_vec();
            let mut next = 0;
            group.bench_function(format!("{}/{kind}/{label}", peer.name()), |b| {
                b.iter(|| {
                    let p = &mut bodies[next];
                    next = (next + 1) % players;
                    p.tick(black_box(&r), script)
                })
            });
        }
    }
    group.finish();
}
