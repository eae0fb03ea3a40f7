//! The level checker's walks: random walkers driving the character
//! controller (walking, stepping, snapping, now and then jumping, crouching
//! and sprinting) through a level whose doors open and close on them and
//! whose lifts cycle with them aboard; every tick checked for penetration,
//! for the centre passing through a surface, for a non-finite state, for
//! being crushed and stuck. Walks run in parallel, one per core at a time;
//! in soak mode each walker keeps walking for the whole time (placed again
//! after anything that ends a walk).
//!
//! [`walk_level`] runs the walks and merges their findings; `walk` is one
//! walk tick by tick, `placement` where a walker starts, `coverage` how
//! much of the walkable surface was stood on, `report` what was found and
//! whether it passes; the doors and lifts run by [`crate::MoverSchedule`].

mod coverage;
mod placement;
mod report;
mod walk;

pub use report::{THIN_CHECK_TICKS, WalkReport};
pub use walk::penetration_tolerance;

use controller::{CharacterState, Controller, ControllerConfig};
use coverage::Coverage;
use glam::Vec3;
use level::{Level, spawn};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};
use sweep::{Aabb, Ellipsoid, PlacedCollider};

/// How the walks are run.
#[derive(Clone, Copy, Debug)]
pub struct CheckConfig {
    /// Number of walks (walkers).
    pub walks: u32,
    /// Ticks per walk (at `dt`).
    pub ticks: u32,
    /// Tick length, seconds.
    pub dt: f32,
    /// The walkers' controller (default: the game's defaults).
    pub controller: ControllerConfig,
    /// Seed of the walk generator. Walk `k` draws from its own generator
    /// seeded from this and `k`, so results do not depend on `threads`.
    pub seed: u64,
    /// Soak mode: a walker that walked off the level, fell through a
    /// surface, went non-finite or got stuck is counted and placed again, so
    /// every walker walks all its `ticks`; walkers that start at a door or
    /// lift are placed there again every 60 s (`SOAK_REVISIT_SECONDS`), so the
    /// movers keep meeting walkers all the time. Off: such a walk ends there.
    pub soak: bool,
    /// Threads running walks; 0 = one per core.
    pub threads: usize,
}

/// In soak mode, how often (simulated seconds) a walker that starts at a
/// door or lift is placed there again.
pub const SOAK_REVISIT_SECONDS: f32 = 60.0;

impl CheckConfig {
    /// `walks` walks of `ticks` ticks each, everything else as by default
    /// (a quick check; the default is 32 walks of 600 ticks).
    pub fn short(walks: u32, ticks: u32) -> Self {
        Self {
            walks,
            ticks,
            ..Self::default()
        }
    }
}

impl Default for CheckConfig {
    fn default() -> Self {
        Self {
            walks: 32,
            ticks: 600,
            dt: 1.0 / 60.0,
            controller: ControllerConfig::default(),
            seed: 1,
            soak: false,
            threads: 0,
        }
    }
}

/// What every walk shares: the level, the run's settings, the controller.
pub(crate) struct Course<'l> {
    level: &'l Level,
    config: &'l CheckConfig,
    controller: Controller,
    /// The whole level's box with the movers at rest (world frame, metres).
    bounds: Aabb,
    /// The standing walker's shape.
    standing: Ellipsoid,
    /// Cosine of the steepest walkable slope.
    walkable_cos: f32,
    /// Where the game starts a player on this level (centre), if anywhere.
    game_start: Option<Vec3>,
    /// The walkable static surface in cells.
    coverage: Coverage,
}

/// Runs random walks through `level` with the character controller, on
/// `config.threads` threads. The report does not depend on the thread count
/// (but for `micros_per_update`).
///
/// # Panics
/// If `config.controller` is not a valid configuration.
pub fn walk_level(level: &Level, config: &CheckConfig) -> WalkReport {
    let bounds = PlacedCollider::world_bounds_of(&level.placed_at_rest());
    let walkable_cos = config.controller.walkable_slope_deg.to_radians().cos();
    let game_start = spawn::start_point(level, config.controller.standing_radii, walkable_cos)
        .map(|s| CharacterState::standing_at(s.position, &config.controller).position);
    let course = Course {
        level,
        config,
        controller: Controller::new(config.controller).expect("valid controller config"),
        bounds,
        standing: Ellipsoid::new(config.controller.standing_radii).expect("valid radii"),
        walkable_cos,
        game_start,
        coverage: Coverage::of(level, walkable_cos),
    };
    let threads = match config.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, config.walks.max(1) as usize);
    let next = AtomicU32::new(0);
    let mut walks: Vec<(u32, WalkReport, f64, HashSet<[i32; 3]>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let walk = next.fetch_add(1, Ordering::Relaxed);
                        if walk >= config.walks {
                            return done;
                        }
                        let (report, seconds, visited) = course.walk(walk);
                        done.push((walk, report, seconds, visited));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a walk panicked"))
            .collect()
    });
    walks.sort_by_key(|(walk, ..)| *walk);
    let coverage = &course.coverage;
    let mut report = WalkReport {
        walks: config.walks,
        walkable_area_m2: coverage.area_m2,
        walkable_cells: coverage.cells.len() as u64,
        cell_m: coverage.cell,
        ..Default::default()
    };
    let mut timed = 0.0f64;
    let mut visited = HashSet::new();
    for (_, walk, seconds, cells) in walks {
        report.absorb(walk);
        timed += seconds;
        visited.extend(cells.into_iter().filter(|c| coverage.cells.contains(c)));
    }
    report.visited_cells = visited.len() as u64;
    report.simulated_seconds = report.updates as f64 * config.dt as f64;
    report.micros_per_update = if report.updates > 0 {
        timed * 1e6 / report.updates as f64
    } else {
        0.0
    };
    report
}
