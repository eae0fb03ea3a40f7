//! The level checker's walks: random characters walking a level with the
//! core's collide-and-slide plus a gravity pass, every tick checked for
//! penetration and for the centre passing through a surface.

use crate::level::Level;
use glam::Vec3;
use std::time::Instant;
use sweep::test_util::Lcg;
use sweep::{
    Aabb, Ellipsoid, Ground, PlacedCollider, SlideOptions, closest_point_on_triangle, collide_and_slide,
    segment_crosses_triangle,
};

/// How the walks are run.
#[derive(Clone, Copy, Debug)]
pub struct CheckConfig {
    /// Number of walks.
    pub walks: u32,
    /// Ticks per walk (at `dt`).
    pub ticks: u32,
    /// Tick length, seconds.
    pub dt: f32,
    /// The walker (default radii 0.4, 0.9, 0.4 m).
    pub ellipsoid: Ellipsoid,
    /// Walking speed, m/s.
    pub speed: f32,
    /// Gravity, m/s² (positive, pulls towards −y).
    pub gravity: f32,
    /// Seed of the walk generator.
    pub seed: u64,
}

impl Default for CheckConfig {
    fn default() -> Self {
        Self {
            walks: 32,
            ticks: 600,
            dt: 1.0 / 60.0,
            ellipsoid: Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).expect("valid radii"),
            speed: 4.0,
            gravity: 9.81,
            seed: 1,
        }
    }
}

/// What the walks found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// Walks run.
    pub walks: u32,
    /// Character updates (move pass + gravity pass) run.
    pub updates: u64,
    /// Deepest penetration seen after any pass, eSpace units (fraction of the radius).
    pub max_penetration: f32,
    /// Passes that ended penetrating by more than 1e-4 eSpace units.
    pub penetrating_passes: u64,
    /// Walks whose centre passed through a triangle (fell through a surface).
    pub fell_through: u32,
    /// Walks that could not move for 3 s although the walker tried a new
    /// direction every tick it was blocked.
    pub stuck: u32,
    /// Walks that walked off an open edge of the level and fell out of it (not an error).
    pub walked_off: u32,
    /// Mean time per character update (both passes), microseconds.
    pub micros_per_update: f64,
    /// Where each problem happened (walk, tick, position), at most 20.
    pub problems: Vec<String>,
}

impl WalkReport {
    /// True when no walk penetrated or fell through.
    pub fn passed(&self) -> bool {
        self.penetrating_passes == 0 && self.fell_through == 0
    }
}

/// Runs random walks through `level` (doors and lifts at rest).
pub fn walk_level(level: &Level, config: &CheckConfig) -> WalkReport {
    let mut world: Vec<PlacedCollider<'_>> = level.statics.iter().map(PlacedCollider::fixed).collect();
    world.extend(
        level
            .movers
            .iter()
            .map(|m| PlacedCollider::moving(&m.collider, m.rest, Vec3::ZERO, Vec3::ZERO)),
    );
    let bounds = world.iter().fold(Aabb::EMPTY, |b, c| {
        b.union(Aabb::from_points(
            c.mesh.bounds().corners().map(|p| c.pose.transform_point(p)),
        ))
    });
    let e = &config.ellipsoid;
    let r = e.radii();
    let options = SlideOptions::default();
    // The gravity pass stops on walkable ground (up to 50°), as a controller's would.
    let ground = Ground::y_up(50f32.to_radians());
    let gravity_options = SlideOptions {
        stop_on_ground: Some(ground),
        ..options
    };
    let mut rng = Lcg::new(config.seed);
    let mut report = WalkReport {
        walks: config.walks,
        ..Default::default()
    };
    let mut timed = 0.0f64;
    let note = |report: &mut WalkReport, text: String| {
        if report.problems.len() < 20 {
            report.problems.push(text);
        }
    };
    for walk in 0..config.walks {
        let Some(mut pos) = spawn_point(level, &world, e, &bounds, walk, &mut rng) else {
            note(&mut report, format!("walk {walk}: no free spawn point found"));
            continue;
        };
        let mut vy = 0.0f32;
        let mut heading = rng.range(0.0, std::f32::consts::TAU);
        let mut still_since = (0u32, pos);
        let (mut fell, mut stuck, mut blocked) = (false, false, false);
        for tick in 0..config.ticks {
            // New heading now and then, and whenever the last step was blocked
            // (a bumping walker), so "stuck" means no direction got it out.
            if blocked || rng.next_f32() < config.dt / 1.5 {
                heading = rng.range(0.0, std::f32::consts::TAU);
            }
            let walk_motion = Vec3::new(heading.sin(), 0.0, -heading.cos()) * config.speed * config.dt;
            // Fall under gravity, capped at a terminal speed of 50 m/s.
            vy = (vy - config.gravity * config.dt).max(-50.0);
            let started = Instant::now();
            let moved = collide_and_slide(e, pos, walk_motion, &world, &options);
            let fallen = collide_and_slide(
                e,
                moved.position,
                Vec3::new(0.0, vy * config.dt, 0.0),
                &world,
                &gravity_options,
            );
            timed += started.elapsed().as_secs_f64();
            blocked = (moved.position - pos).length() < 0.1 * walk_motion.length();
            report.updates += 1;
            if fallen.ground_contacts(&ground).next().is_some() {
                vy = 0.0;
            }
            for (from, to) in [(pos, moved.position), (moved.position, fallen.position)] {
                let depth = penetration(&world, e, to);
                report.max_penetration = report.max_penetration.max(depth);
                if depth > 1e-4 {
                    report.penetrating_passes += 1;
                    note(
                        &mut report,
                        format!("walk {walk} tick {tick}: penetrating by {depth:.2e} of the radius at {to}"),
                    );
                }
                if !fell && crosses_surface(&world, from, to) {
                    fell = true;
                    note(
                        &mut report,
                        format!("walk {walk} tick {tick}: centre passed through a surface from {from} to {to}"),
                    );
                }
            }
            pos = fallen.position;
            if pos.y < bounds.min.y - 2.0 * r.y {
                report.walked_off += 1;
                break;
            }
            if (pos - still_since.1).length() > 0.01 {
                still_since = (tick, pos);
            } else if !stuck && (tick - still_since.0) as f32 * config.dt > 3.0 {
                stuck = true;
                note(&mut report, format!("walk {walk} tick {tick}: stuck at {pos}"));
            }
        }
        report.fell_through += fell as u32;
        report.stuck += stuck as u32;
    }
    report.micros_per_update = if report.updates > 0 {
        timed * 1e6 / report.updates as f64
    } else {
        0.0
    };
    report
}

/// A free centre: at a spawn point (feet on it) with a small random offset,
/// or, for levels without spawns, standing on a random upward-facing surface.
fn spawn_point(
    level: &Level,
    world: &[PlacedCollider<'_>],
    e: &Ellipsoid,
    bounds: &Aabb,
    walk: u32,
    rng: &mut Lcg,
) -> Option<Vec3> {
    let r = e.radii();
    for attempt in 0..200 {
        let candidate = if !level.spawns.is_empty() {
            let spawn = level.spawns[walk as usize % level.spawns.len()];
            let jitter = if attempt == 0 {
                Vec3::ZERO
            } else {
                Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0))
            };
            Some(spawn.position + jitter + Vec3::Y * (r.y + 0.02))
        } else {
            // Drop from a random point inside the level's bounds (rooms are
            // often closed) onto the first upward-facing surface below.
            let top = rng.in_box(bounds.min, bounds.max);
            let drop = Vec3::new(0.0, bounds.min.y - top.y - r.y, 0.0);
            sweep::sweep(e, top, drop, world)
                .filter(|hit| hit.normal.y > 0.5 && !hit.started_embedded)
                .map(|hit| top + drop * hit.time + Vec3::Y * 0.02)
        };
        if let Some(p) = candidate
            && penetration(world, e, p) == 0.0
        {
            return Some(p);
        }
    }
    None
}

/// How deep (eSpace units) an ellipsoid at `centre` penetrates the nearest triangle (0 if none).
fn penetration(world: &[PlacedCollider<'_>], e: &Ellipsoid, centre: Vec3) -> f32 {
    let r = e.radii();
    let query = Aabb::from_corners(centre - r * 1.01, centre + r * 1.01);
    let mut min = f32::INFINITY;
    for c in world {
        c.query_world(&query, |_, tri| {
            let [a, b, cc] = tri.map(|p| (p - centre) / r);
            min = min.min(closest_point_on_triangle(Vec3::ZERO, a, b, cc).length());
        });
    }
    (1.0 - min).max(0.0)
}

/// Whether the segment `from → to` passes through any triangle.
fn crosses_surface(world: &[PlacedCollider<'_>], from: Vec3, to: Vec3) -> bool {
    let query = Aabb::from_corners(from, to);
    let mut crossed = false;
    for c in world {
        c.query_world(&query, |_, tri| {
            crossed |= segment_crosses_triangle(from, to, tri).is_some()
        });
    }
    crossed
}
