//! The level checker's walks: random walkers driving the character
//! controller (walking, stepping, snapping, now and then jumping, crouching
//! and sprinting) through a level whose doors open and close on them and
//! whose lifts cycle with them aboard; every tick checked for penetration,
//! for the centre passing through a surface, for being crushed and stuck.
//! Also how well each analytic collider's triangles fit its exact shape.

use crate::conventions::DoorSpec;
use crate::level::{Level, MoverKind};
use controller::{CharacterState, Controller, ControllerConfig, Intent, World};
use glam::Vec3;
use std::time::Instant;
use sweep::test_util::Lcg;
use sweep::{Aabb, AnalyticShape, Ellipsoid, PlacedCollider, Pose, segment_crosses_triangle};

/// How the walks are run.
#[derive(Clone, Copy, Debug)]
pub struct CheckConfig {
    /// Number of walks.
    pub walks: u32,
    /// Ticks per walk (at `dt`).
    pub ticks: u32,
    /// Tick length, seconds.
    pub dt: f32,
    /// The walkers' controller (default: the game's defaults).
    pub controller: ControllerConfig,
    /// Seed of the walk generator.
    pub seed: u64,
}

impl Default for CheckConfig {
    fn default() -> Self {
        Self {
            walks: 32,
            ticks: 600,
            dt: 1.0 / 60.0,
            controller: ControllerConfig::default(),
            seed: 1,
        }
    }
}

/// What the walks found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// Walks run.
    pub walks: u32,
    /// Controller ticks run.
    pub updates: u64,
    /// Deepest penetration after any tick not reported crushed, eSpace
    /// units (fraction of the radius).
    pub max_penetration: f32,
    /// Ticks (not reported crushed) that ended penetrating by more than 1e-4 eSpace units.
    pub penetrating_passes: u64,
    /// Walks whose centre passed through a triangle (fell through a surface).
    pub fell_through: u32,
    /// Walks that could not move for 3 s although the walker tried a new
    /// direction every tick it was blocked.
    pub stuck: u32,
    /// Walks that walked off an open edge of the level and fell out of it (not an error).
    pub walked_off: u32,
    /// Walks in which a door or lift squeezed the walker (the controller
    /// reported it crushed; the door then turned back). Not an error.
    pub crushed: u32,
    /// Jumps, step-ups and ticks spent riding a moving collider (coverage).
    pub jumps: u64,
    /// Step-ups taken.
    pub steps: u64,
    /// Ticks standing on a moving door or lift.
    pub riding_ticks: u64,
    /// Mean time per controller tick (all passes), microseconds.
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

/// A door driven by the checker: it opens and closes again and again
/// (waiting 2 s at each end), and turns back when it squeezes a walker.
#[derive(Clone, Copy, Debug)]
struct DoorCycle {
    openness: f32,
    opening: bool,
    wait: f32,
}

impl DoorCycle {
    fn advance(&mut self, spec: &DoorSpec, dt: f32) {
        if self.wait > 0.0 {
            self.wait -= dt;
            return;
        }
        let step = dt / spec.open_seconds.max(1e-3);
        self.openness = (self.openness + if self.opening { step } else { -step }).clamp(0.0, 1.0);
        if self.openness == 0.0 || self.openness == 1.0 {
            self.opening = self.openness == 0.0;
            self.wait = 2.0;
        }
    }
}

/// Where every mover is at time `t` given the doors' state.
fn mover_poses(level: &Level, doors: &[DoorCycle], t: f64) -> Vec<Pose> {
    level
        .movers
        .iter()
        .zip(doors)
        .map(|(m, door)| match m.kind {
            MoverKind::Door(_) => m.pose_at(door.openness),
            MoverKind::Lift(lift) => m.pose_at(lift.openness_at(t)),
        })
        .collect()
}

/// The level's colliders at `now` (statics first, then movers in order,
/// see [`Level::friction`]) with their motion since `before` as velocities.
fn placed<'l>(level: &'l Level, now: &[Pose], before: &[Pose], dt: f32) -> Vec<PlacedCollider<'l>> {
    let mut world: Vec<PlacedCollider<'l>> = level.statics.iter().map(PlacedCollider::fixed).collect();
    world.extend(
        level
            .movers
            .iter()
            .zip(now.iter().zip(before))
            .map(|(m, (now, before))| PlacedCollider::from_poses(&m.collider, *before, *now, dt)),
    );
    world
}

/// Runs random walks through `level` with the character controller.
///
/// # Panics
/// If `config.controller` is not a valid configuration.
pub fn walk_level(level: &Level, config: &CheckConfig) -> WalkReport {
    let controller = Controller::new(config.controller).expect("valid controller config");
    let rest: Vec<Pose> = level.movers.iter().map(|m| m.rest).collect();
    let world_at_rest = placed(level, &rest, &rest, config.dt);
    let bounds = world_at_rest.iter().fold(Aabb::EMPTY, |b, c| {
        b.union(Aabb::from_points(
            c.mesh.bounds().corners().map(|p| c.pose.transform_point(p)),
        ))
    });
    let standing = Ellipsoid::new(config.controller.standing_radii).expect("valid radii");
    let r = standing.radii();
    let friction = |collider: usize, triangle: u32| level.friction(collider, triangle);
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
        let Some(start) = spawn_point(level, &world_at_rest, &standing, &bounds, walk, &mut rng) else {
            note(&mut report, format!("walk {walk}: no free spawn point found"));
            continue;
        };
        let mut state = CharacterState::standing_at(start - Vec3::Y * r.y, &config.controller);
        state.position = start;
        let mut doors = vec![
            DoorCycle {
                openness: 0.0,
                opening: true,
                wait: 1.0,
            };
            level.movers.len()
        ];
        let mut poses = rest.clone();
        let mut heading = rng.range(0.0, std::f32::consts::TAU);
        let (mut crouch_left, mut sprint) = (0.0f32, false);
        let mut still_since = (0u32, state.position);
        let (mut fell, mut stuck, mut crushed, mut blocked) = (false, false, false, false);
        for tick in 0..config.ticks {
            let t = (tick + 1) as f64 * config.dt as f64;
            let before = std::mem::take(&mut poses);
            for (door, m) in doors.iter_mut().zip(&level.movers) {
                if let MoverKind::Door(spec) = m.kind {
                    door.advance(&spec, config.dt);
                }
            }
            poses = mover_poses(level, &doors, t);
            let colliders = placed(level, &poses, &before, config.dt);
            let world = World::new(&colliders).with_friction(&friction);

            // A new heading now and then, and whenever the last tick was
            // blocked (a bumping walker), so "stuck" means no direction got
            // it out; now and then a jump, a crouch, a sprint.
            if blocked || rng.next_f32() < config.dt / 1.5 {
                heading = rng.range(0.0, std::f32::consts::TAU);
                sprint = rng.next_f32() < 0.3;
            }
            if crouch_left <= 0.0 && rng.next_f32() < config.dt / 8.0 {
                crouch_left = rng.range(0.5, 3.0);
            }
            crouch_left -= config.dt;
            let intent = Intent {
                direction: Vec3::new(heading.sin(), 0.0, -heading.cos()),
                jump: rng.next_f32() < config.dt / 4.0,
                crouch: crouch_left > 0.0,
                sprint,
            };
            let from = state.position;
            let started = Instant::now();
            let tick_report = controller
                .tick(&mut state, &intent, &world, config.dt)
                .expect("valid tick");
            timed += started.elapsed().as_secs_f64();
            report.updates += 1;
            report.jumps += tick_report.jumped as u64;
            report.steps += tick_report.stepped as u64;
            if let Some(g) = state.ground
                && g.collider >= level.statics.is_some() as usize
            {
                report.riding_ticks += 1;
            }
            let moved = (state.position - from).length();
            blocked = moved < 0.1 * config.controller.walk_speed * config.dt && state.grounded();
            let e = Ellipsoid::new(state.radii).expect("valid radii");
            if tick_report.crushed {
                // The game turns the squeezing door back; so does the checker.
                if !crushed {
                    crushed = true;
                    note(
                        &mut report,
                        format!("walk {walk} tick {tick}: crushed at {} (not an error)", state.position),
                    );
                }
                for ct in tick_report.contacts.iter().filter(|c| c.contact.depenetration) {
                    if let Some(i) = ct.contact.collider.checked_sub(level.statics.is_some() as usize)
                        && let Some(door) = doors.get_mut(i)
                    {
                        door.opening = !door.opening;
                        door.wait = 0.0;
                    }
                }
            } else {
                let depth = sweep::penetration_depth(&e, state.position, &colliders);
                report.max_penetration = report.max_penetration.max(depth);
                if depth > 1e-4 {
                    report.penetrating_passes += 1;
                    note(
                        &mut report,
                        format!(
                            "walk {walk} tick {tick}: penetrating by {depth:.2e} of the radius at {}",
                            state.position
                        ),
                    );
                }
            }
            if !fell && !state.position.is_finite() {
                fell = true;
                note(&mut report, format!("walk {walk} tick {tick}: non-finite position"));
                break;
            }
            if !fell && crosses_surface(&colliders, from, state.position) {
                fell = true;
                note(
                    &mut report,
                    format!(
                        "walk {walk} tick {tick}: centre passed through a surface from {from} to {}",
                        state.position
                    ),
                );
            }
            if state.position.y < bounds.min.y - 2.0 * r.y {
                report.walked_off += 1;
                break;
            }
            if (state.position - still_since.1).length() > 0.01 {
                still_since = (tick, state.position);
            } else if !stuck && (tick - still_since.0) as f32 * config.dt > 3.0 {
                stuck = true;
                note(
                    &mut report,
                    format!("walk {walk} tick {tick}: stuck at {}", state.position),
                );
            }
        }
        report.fell_through += fell as u32;
        report.stuck += stuck as u32;
        report.crushed += crushed as u32;
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
    // Every third walk starts at a door or a lift, so they meet walkers.
    let mover = (!level.movers.is_empty() && walk % 3 == 2).then(|| {
        let m = &level.movers[(walk / 3) as usize % level.movers.len()];
        Aabb::from_points(m.collider.bounds().corners().map(|p| m.rest.transform_point(p)))
    });
    for attempt in 0..200 {
        let candidate = if let Some(near) = mover {
            // Drop onto what is below a point near the mover (its deck, the floor beside it).
            let spread = Vec3::new(1.5, 0.0, 1.5) * (attempt.min(20) as f32 / 20.0);
            let top = rng
                .in_box(near.center() - spread, near.center() + spread)
                .with_y(near.max.y + r.y + 0.05);
            let drop = Vec3::new(0.0, bounds.min.y - top.y - r.y, 0.0);
            sweep::sweep(e, top, drop, world)
                .filter(|hit| hit.normal.y > 0.5 && !hit.started_embedded)
                .map(|hit| top + drop * hit.time + Vec3::Y * 0.02)
        } else if !level.spawns.is_empty() {
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
            && sweep::penetration_depth(e, p, world) == 0.0
        {
            return Some(p);
        }
    }
    None
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

/// How an analytic collider's triangles (what the player collides with and
/// what is drawn) fit its exact shape (what balls meet).
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyticFit {
    /// The node's name.
    pub name: String,
    /// `"plane"` or `"cylinder"`.
    pub kind: &'static str,
    /// Its triangles kept in the static collider.
    pub triangles: usize,
    /// Farthest any corner of those triangles is from the shape's surface,
    /// metres: 0 for a quad on the plane or a tessellated cylinder whose
    /// vertices are on the circle (its faces are then inside by the sagitta).
    pub max_vertex_distance: f32,
}

/// The fit of each of the level's analytic colliders, in [`Level::analytic`] order.
pub fn analytic_fit(level: &Level) -> Vec<AnalyticFit> {
    let mut fits: Vec<AnalyticFit> = level
        .analytic
        .iter()
        .map(|a| AnalyticFit {
            name: a.name.clone(),
            kind: match a.shape {
                AnalyticShape::Plane(_) => "plane",
                AnalyticShape::Cylinder(_) => "cylinder",
            },
            triangles: 0,
            max_vertex_distance: 0.0,
        })
        .collect();
    let Some(statics) = &level.statics else { return fits };
    for slot in 0..statics.len() {
        let triangle = statics.input_index(slot);
        // The analytic nodes' triangle ranges are in increasing order.
        let k = level.analytic.partition_point(|a| a.triangles.end <= triangle);
        let Some(a) = level.analytic.get(k).filter(|a| a.triangles.contains(&triangle)) else {
            continue;
        };
        let fit = &mut fits[k];
        fit.triangles += 1;
        for corner in statics.triangle(slot) {
            fit.max_vertex_distance = fit.max_vertex_distance.max(a.shape.signed_distance(corner).abs());
        }
    }
    fits
}
