//! Controller benchmarks: the full update (`Controller::tick`, all passes)
//! on generated levels (bumpy terrain with box buildings and flights of
//! stairs, `sweep::test_util::generated_level`) of 10k, 100k and 1M
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
//! of its start), a jump pressed about every 5 s. At the end of its cycle a player goes
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
//! cargo bench -p controller --bench controller              # everything, a few minutes on 2 cores
//! cargo bench -p controller --bench controller -- --test    # smoke run: every benchmark once
//! cargo bench -p controller --bench controller -- ours/     # only ours (all levels are still built)
//! CONTROLLER_BENCH_SIZES=10k,100k cargo bench -p controller --bench controller   # only these sizes
//! ```

#[path = "peer/rapier.rs"]
mod rapier_peer;

use controller::{CharacterState, Controller, ControllerConfig, Intent, TickReport, World};
use criterion::Criterion;
use glam::{Quat, Vec3};
use rapier_peer::{CAPSULE_HALF_SEGMENT, CAPSULE_RADIUS, RapierLevel, from_rapier, kinematic_controller, to_rapier};
use rapier3d::control::KinematicCharacterController;
use rapier3d::math::{Pose as RPose, Vector as RVec};
use rapier3d::parry::query::{ShapeCastOptions, ShapeCastStatus};
use rapier3d::prelude::{QueryPipeline, SharedShape};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};
use sweep::test_util::{Lcg, generated_level};
use sweep::{MeshCollider, PlacedCollider, sweep};

/// Level sizes (target triangles) and their names.
const SIZES: [(usize, &str); 3] = [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")];
/// Tick length, seconds (60 Hz).
const DT: f32 = 1.0 / 60.0;
/// Ticks in the scripted cycle (10 s).
const CYCLE: usize = 600;
/// Players of the cold benchmark.
const PLAYERS: usize = 1_000;
/// Rounds of all cold players in the printed figures.
const COLD_ROUNDS: usize = 20;
/// Seed of the script, spawns, headings and phases.
const SEED: u64 = 0xc011_011e;
/// The planned path of the script stays this close to its start, metres.
const PLAN_RADIUS: f32 = 6.0;
/// Highest point of the generated levels' terrain, metres.
const TERRAIN_TOP: f32 = 0.45;
/// The controllers compared, in the order of the summary's columns.
#[derive(Clone, Copy, PartialEq)]
enum Peer {
    Ours,
    RapierAutostep,
    RapierNoAutostep,
}

impl Peer {
    const ALL: [Peer; 3] = [Peer::Ours, Peer::RapierAutostep, Peer::RapierNoAutostep];

    fn name(self) -> &'static str {
        match self {
            Peer::Ours => "ours",
            Peer::RapierAutostep => "rapier/autostep",
            Peer::RapierNoAutostep => "rapier/no_autostep",
        }
    }
}

fn main() {
    let started = SystemTime::now();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .configure_from_args();
    let sizes = selected_sizes();
    let script = script(SEED);
    for &(n, label) in &sizes {
        bench_level(&mut c, n, label, &script);
    }
    c.final_summary();
    print_summary(&sizes, started);
}

/// The sizes to run: all, or those named in `CONTROLLER_BENCH_SIZES` (e.g. `10k,1M`).
fn selected_sizes() -> Vec<(usize, &'static str)> {
    let Ok(list) = std::env::var("CONTROLLER_BENCH_SIZES") else {
        return SIZES.to_vec();
    };
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            *SIZES
                .iter()
                .find(|(_, l)| l.eq_ignore_ascii_case(s))
                .unwrap_or_else(|| panic!("CONTROLLER_BENCH_SIZES: unknown size {s:?}, expected 10k, 100k or 1M"))
        })
        .collect()
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
    let world = World::new(&placed);
    let controller = Controller::new(ControllerConfig::default()).expect("default config is valid");
    let queries = level.queries();
    let capsule = SharedShape::capsule_y(CAPSULE_HALF_SEGMENT, CAPSULE_RADIUS);
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
        .map(|(s, &cursor)| OurPlayer::new(s.ours, &ControllerConfig::default(), cursor))
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

/// One cycle of input (`CYCLE` ticks, unit directions in the xz plane):
/// legs of random heading, 0.5–2 s long (one in ten standing still for
/// 0.5 s) for the first half, the same legs reversed and walked back for the
/// second, a jump pressed about every 5 s. The planned path (at walking speed, collisions
/// aside) stays within `PLAN_RADIUS` of the start, so started at any phase it
/// stays within twice that of the spawn.
fn script(seed: u64) -> Vec<Intent> {
    let mut rng = Lcg::new(seed);
    let step = ControllerConfig::default().walk_speed * DT;
    let half = CYCLE / 2;
    let mut legs: Vec<(usize, Vec3)> = Vec::new();
    let (mut ticks, mut at) = (0, Vec3::ZERO);
    while ticks < half {
        let still = rng.next_f32() < 0.1;
        let seconds = if still { 0.5 } else { rng.range(0.5, 2.0) };
        let mut len = ((seconds / DT).round() as usize).min(half - ticks);
        let mut direction = Vec3::ZERO;
        if !still {
            // A heading with room for at least half a second of walking.
            let room = |d: Vec3| {
                // How far along d before leaving the circle (|at| <= radius).
                let b = at.dot(d);
                -b + (b * b - at.length_squared() + PLAN_RADIUS * PLAN_RADIUS)
                    .max(0.0)
                    .sqrt()
            };
            let mut heading = rng.range(0.0, std::f32::consts::TAU);
            direction = Vec3::new(heading.cos(), 0.0, heading.sin());
            while room(direction) < 30.0 * step {
                heading = rng.range(0.0, std::f32::consts::TAU);
                direction = Vec3::new(heading.cos(), 0.0, heading.sin());
            }
            len = len.min((room(direction) / step) as usize);
        }
        at += direction * step * len as f32;
        legs.push((len, direction));
        ticks += len;
    }
    let out = legs.iter().copied();
    let back = legs.iter().rev().map(|&(len, d)| (len, -d));
    let mut intents: Vec<Intent> = out
        .chain(back)
        .flat_map(|(len, direction)| {
            std::iter::repeat_n(
                Intent {
                    direction,
                    ..Intent::default()
                },
                len,
            )
        })
        .collect();
    for intent in &mut intents {
        intent.jump = rng.next_f32() < DT / 5.0;
    }
    intents
}

/// Where a player is in the script: ticks into its cycle, the phase it
/// started the script at, and the turn of its headings.
#[derive(Clone, Copy)]
struct Cursor {
    tick: usize,
    phase: usize,
    turn: Quat,
}

impl Cursor {
    /// This tick's input, and whether a new cycle starts (the player goes
    /// back to its spawn first).
    fn next(&mut self, script: &[Intent]) -> (Intent, bool) {
        let restart = self.tick == script.len();
        if restart {
            self.tick = 0;
        }
        let mut intent = script[(self.tick + self.phase) % script.len()];
        intent.direction = self.turn * intent.direction;
        self.tick += 1;
        (intent, restart)
    }
}

/// A player of ours: spawn, state, place in the script.
#[derive(Clone)]
struct OurPlayer {
    spawn: CharacterState,
    state: CharacterState,
    cursor: Cursor,
}

impl OurPlayer {
    /// Standing with its centre at `centre`.
    fn new(centre: Vec3, config: &ControllerConfig, cursor: Cursor) -> Self {
        let spawn = CharacterState::standing_at(centre - Vec3::Y * config.standing_radii.y, config);
        Self {
            spawn,
            state: spawn,
            cursor,
        }
    }

    /// One update: the next input of the script, one `Controller::tick`.
    fn tick(&mut self, controller: &Controller, world: &World<'_>, script: &[Intent]) -> TickReport {
        let (intent, restart) = self.cursor.next(script);
        if restart {
            self.state = self.spawn;
        }
        controller
            .tick(&mut self.state, &intent, world, DT)
            .expect("valid tick")
    }
}

/// rapier's controller, its view of the level, the capsule, and the
/// speeds it is given (ours, from our config).
struct Rapier<'a> {
    kcc: &'a KinematicCharacterController,
    queries: &'a QueryPipeline<'a>,
    shape: &'a SharedShape,
    config: &'a ControllerConfig,
}

/// A player moved by rapier's controller: spawn, centre, the vertical speed
/// the caller keeps for it, place in the script.
#[derive(Clone)]
struct RapierPlayer {
    spawn: Vec3,
    position: Vec3,
    vertical_speed: f32,
    grounded: bool,
    cursor: Cursor,
}

/// What one rapier update did.
struct RapierReport {
    grounded: bool,
    jumped: bool,
    /// Shape-cast hits reported to the collision callback.
    hits: u32,
}

impl RapierPlayer {
    fn new(centre: Vec3, cursor: Cursor) -> Self {
        Self {
            spawn: centre,
            position: centre,
            vertical_speed: 0.0,
            grounded: false,
            cursor,
        }
    }

    /// One update: the next input of the script, one `move_shape` with the
    /// walking velocity and the vertical speed (gravity added) as the
    /// desired translation.
    fn tick(&mut self, r: &Rapier<'_>, script: &[Intent]) -> RapierReport {
        let (intent, restart) = self.cursor.next(script);
        if restart {
            *self = Self::new(self.spawn, self.cursor);
        }
        let jumped = intent.jump && self.grounded;
        if jumped {
            self.vertical_speed = r.config.jump_speed();
        }
        self.vertical_speed = (self.vertical_speed + r.config.gravity.y * DT).max(-r.config.max_fall_speed);
        let desired = (intent.direction * r.config.walk_speed + Vec3::Y * self.vertical_speed) * DT;
        let mut hits = 0;
        let moved = r.kcc.move_shape(
            DT,
            r.queries,
            &**r.shape,
            &RPose::from_translation(to_rapier(self.position)),
            to_rapier(desired),
            |_| hits += 1,
        );
        let moved_by = from_rapier(moved.translation);
        self.position += moved_by;
        self.grounded = moved.grounded;
        if (self.grounded && self.vertical_speed < 0.0) || (desired.y > 0.0 && moved_by.y < 0.5 * desired.y) {
            // Standing, or a ceiling stopped the rise.
            self.vertical_speed = 0.0;
        }
        RapierReport {
            grounded: self.grounded,
            jumped,
            hits,
        }
    }
}

/// Where each body rests, dropped at the same point.
struct Spawn {
    /// Centre of our ellipsoid, metres.
    ours: Vec3,
    /// Centre of rapier's capsule, metres.
    rapier: Vec3,
}

/// `count` spawns: random points of the level, away from its edges by more
/// than the planned paths reach, where both
/// bodies, dropped from above the level, land (each at its own height, a
/// hair above the surface). The first (the warm player's) is on the
/// terrain, not on a roof or a flight of stairs.
fn find_spawns(
    mesh: &MeshCollider,
    placed: &[PlacedCollider<'_>],
    queries: &QueryPipeline<'_>,
    capsule: &SharedShape,
    count: usize,
) -> Vec<Spawn> {
    let ellipsoid = sweep::Ellipsoid::new(ControllerConfig::default().standing_radii).expect("valid radii");
    let bounds = mesh.bounds();
    let margin = Vec3::splat(2.0 * PLAN_RADIUS + 2.0);
    let (lo, hi) = (bounds.min + margin, bounds.max - margin);
    let top = bounds.max.y + 4.0;
    let drop = top - (bounds.min.y - 4.0);
    let cast = ShapeCastOptions {
        max_time_of_impact: drop,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let mut rng = Lcg::new(SEED);
    let mut spawns = Vec::with_capacity(count);
    let mut attempts = 0;
    while spawns.len() < count {
        attempts += 1;
        assert!(attempts < 100 * count, "could not place {count} spawns on the level");
        let high = Vec3::new(rng.range(lo.x, hi.x), top, rng.range(lo.z, hi.z));
        let ours = match sweep(&ellipsoid, high, Vec3::NEG_Y * drop, placed) {
            Some(hit) if !hit.started_embedded && hit.time > 0.0 => high + Vec3::NEG_Y * drop * hit.time,
            _ => continue,
        };
        let pose = RPose::from_translation(to_rapier(high));
        let rapier = match queries.cast_shape(&pose, -RVec::Y, &**capsule, cast) {
            Some((_, hit)) if hit.status != ShapeCastStatus::PenetratingOrWithinTargetDist => {
                high + Vec3::NEG_Y * hit.time_of_impact
            }
            _ => continue,
        };
        if spawns.is_empty() && ours.y > TERRAIN_TOP + ellipsoid.radii().y {
            continue;
        }
        spawns.push(Spawn {
            ours,
            rapier: rapier + Vec3::Y * 0.01,
        });
    }
    spawns
}

/// What players did over some updates.
#[derive(Default)]
struct Stats {
    updates: usize,
    sweeps: u64,
    contacts: u64,
    grounded: usize,
    stepped: usize,
    jumped: usize,
    /// Horizontal distance walked, metres (the jump back to the spawn not counted).
    walked: f64,
}

impl Stats {
    fn print(&self, peer: Peer, kind: &str, ticks: usize) {
        let n = self.updates as f64;
        let cycles = ticks as f64 / CYCLE as f64;
        let per_update = |v: u64| v as f64 / n;
        let pct = |v: usize| 100.0 * v as f64 / n;
        match peer {
            Peer::Ours => println!(
                "{:<18} {kind}: {:.2} sweeps per update, {:.2} contacts; grounded {:.0} %, stepped {:.1} %, {} jumps; \
                 {:.1} m walked per player-cycle",
                peer.name(),
                per_update(self.sweeps),
                per_update(self.contacts),
                pct(self.grounded),
                pct(self.stepped),
                self.jumped,
                self.walked / cycles
            ),
            _ => println!(
                "{:<18} {kind}: {:.2} shape-cast hits per update; grounded {:.0} %, {} jumps; \
                 {:.1} m walked per player-cycle",
                peer.name(),
                per_update(self.sweeps),
                pct(self.grounded),
                self.jumped,
                self.walked / cycles
            ),
        }
    }
}

/// `ticks` updates of copies of `players`, round-robin.
fn run_ours(
    controller: &Controller,
    world: &World<'_>,
    players: &[OurPlayer],
    script: &[Intent],
    ticks: usize,
) -> Stats {
    let mut players = players.to_vec();
    let mut stats = Stats::default();
    for i in 0..ticks {
        let k = players.len();
        let p = &mut players[i % k];
        let before = p.state.position;
        let report = p.tick(controller, world, script);
        let after = p.state.position;
        if p.cursor.tick != 1 {
            stats.walked += f64::from((after - before).with_y(0.0).length());
        }
        stats.updates += 1;
        stats.sweeps += u64::from(report.sweeps);
        stats.contacts += report.contacts.len() as u64;
        stats.grounded += usize::from(report.ground.is_some());
        stats.stepped += usize::from(report.stepped);
        stats.jumped += usize::from(report.jumped);
    }
    stats
}

/// `ticks` updates of copies of `players` by rapier's controller, round-robin.
fn run_rapier(r: &Rapier<'_>, players: &[RapierPlayer], script: &[Intent], ticks: usize) -> Stats {
    let mut players = players.to_vec();
    let mut stats = Stats::default();
    for i in 0..ticks {
        let k = players.len();
        let p = &mut players[i % k];
        let before = p.position;
        let report = p.tick(r, script);
        if p.cursor.tick != 1 {
            stats.walked += f64::from((p.position - before).with_y(0.0).length());
        }
        stats.updates += 1;
        stats.sweeps += u64::from(report.hits);
        stats.grounded += usize::from(report.grounded);
        stats.jumped += usize::from(report.jumped);
    }
    stats
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Where criterion writes its results (as criterion itself decides, short of
/// asking `cargo metadata`: the bench runs from `<target>/<profile>/deps`).
fn criterion_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(home.into());
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// Criterion's median (ns per iteration) of `update/<id>`, if measured by
/// this run (criterion turns the id's slashes into underscores on disk).
fn median_ns(dir: &Path, id: &str, since: SystemTime) -> Option<f64> {
    let path = dir
        .join("update")
        .join(id.replace('/', "_"))
        .join("new")
        .join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None; // left over from an earlier run
    }
    let json = std::fs::read_to_string(path).ok()?;
    let median = &json[json.find("\"median\"")?..];
    let value = &median[median.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

/// Prints the medians measured by this run side by side, with rapier's
/// time over ours.
fn print_summary(sizes: &[(usize, &str)], since: SystemTime) {
    let Some(dir) = criterion_dir() else { return };
    let cell = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |ns| format!("{:.2}", ns / 1e3));
    let ratio = |a: Option<f64>, b: Option<f64>| {
        a.zip(b)
            .map_or_else(|| "-".to_string(), |(a, b)| format!("{:.1}x", a / b))
    };
    let mut printed_header = false;
    for kind in ["warm", "cold"] {
        for &(_, label) in sizes {
            let [ours, auto, plain] =
                Peer::ALL.map(|p| median_ns(&dir, &format!("{}/{kind}/{label}", p.name()), since));
            if [ours, auto, plain].iter().all(Option::is_none) {
                continue; // smoke run (--test), listing, or filtered out
            }
            if !printed_header {
                println!(
                    "\nsummary: criterion medians, microseconds per update (from {})",
                    dir.display()
                );
                println!(
                    "{:>5} {:>6} {:>9} {:>16} {:>10} {:>19} {:>10}",
                    "", "level", "ours", "rapier autostep", "/ ours", "rapier no autostep", "/ ours"
                );
                printed_header = true;
            }
            println!(
                "{kind:>5} {label:>6} {:>9} {:>16} {:>10} {:>19} {:>10}",
                cell(ours),
                cell(auto),
                ratio(auto, ours),
                cell(plain),
                ratio(plain, ours)
            );
        }
    }
}
