//! The level checker's walks: random walkers driving the character
//! controller (walking, stepping, snapping, now and then jumping, crouching
//! and sprinting) through a level whose doors open and close on them and
//! whose lifts cycle with them aboard; every tick checked for penetration,
//! for the centre passing through a surface, for a non-finite state, for
//! being crushed and stuck. Walks run in parallel, one per core at a time;
//! in soak mode each walker keeps walking for the whole time (placed again
//! after anything that ends a walk).
//!
//! [`walk_level`] runs the walks and merges their findings; `config` is
//! how they are run, `course` what they share, `walk` one walk tick by
//! tick, `placement` where a walker starts, `coverage` how much of the
//! walkable surface was stood on, `report` what was found and whether it
//! passes; the doors and lifts run by [`crate::MoverSchedule`].

mod config;
mod course;
mod coverage;
mod placement;
mod report;
mod walk;

pub use config::{CheckConfig, SOAK_REVISIT_SECONDS};
pub use report::{THIN_CHECK_TICKS, WalkReport};
pub use walk::penetration_tolerance;

use course::Course;
use slidewalk_level::Level;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};

/// Runs random walks through `level` with the character controller, on
/// `config.threads` threads. The report does not depend on the thread count
/// (but for `micros_per_update`).
///
/// # Panics
/// If `config.controller` is not a valid configuration.
pub fn walk_level(level: &Level, config: &CheckConfig) -> WalkReport {
    let course = Course::new(level, config);
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
