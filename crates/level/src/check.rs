//! The level checker's walks: random walkers driving the character
//! controller (walking, stepping, snapping, now and then jumping, crouching
//! and sprinting) through a level whose doors open and close on them and
//! whose lifts cycle with them aboard; every tick checked for penetration,
//! for the centre passing through a surface, for a non-finite state, for
//! being crushed and stuck. Walks run in parallel, one per core at a time;
//! in soak mode each walker keeps walking for the whole time (placed again
//! after anything that ends a walk). Also how well each analytic collider's
//! triangles fit its exact shape.

use crate::conventions::DoorSpec;
use crate::level::{Level, MoverKind};
use crate::spawn;
use controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings};
use glam::Vec3;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;
use sweep::test_util::Lcg;
use sweep::{Aabb, AnalyticShape, Ellipsoid, PlacedCollider, Pose, segment_crosses_triangle};

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

/// What the walks found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// Walks run.
    pub walks: u32,
    /// Controller ticks run.
    pub updates: u64,
    /// Simulated time walked, summed over the walkers, seconds.
    pub simulated_seconds: f64,
    /// Times a walker was placed again after its walk ended (soak mode; the
    /// first placement of each walk is not counted).
    pub respawns: u64,
    /// Deepest penetration after any tick not reported crushed, eSpace
    /// units (fraction of the radius).
    pub max_penetration: f32,
    /// Ticks (not reported crushed) that ended penetrating by more than
    /// [`penetration_tolerance`] (1e-4 eSpace units near the origin).
    pub penetrating_passes: u64,
    /// Walks (soak: placements) whose centre passed through a triangle (fell through a surface).
    pub fell_through: u32,
    /// Ticks that ended with a non-finite (NaN or infinite) position or velocity.
    pub non_finite: u32,
    /// Walks (soak: placements) that could not move for 3 s although the
    /// walker tried a new direction every tick it was blocked.
    pub stuck: u32,
    /// Walks (soak: placements) that walked off an open edge of the level
    /// and fell out of it (not an error).
    pub walked_off: u32,
    /// Walks (soak: placements) in which a door or lift squeezed the walker
    /// (the controller reported it crushed; the door or lift then turned
    /// back). Not an error.
    pub crushed: u32,
    /// Deepest overlap after a tick reported crushed (a door or lift
    /// squeezing the walker against something, before it turned back),
    /// eSpace units. Not counted as penetration.
    pub max_squeeze: f32,
    /// Jumps taken (coverage).
    pub jumps: u64,
    /// Step-ups taken.
    pub steps: u64,
    /// Ticks standing on a moving door or lift.
    pub riding_ticks: u64,
    /// Mean time per controller tick (all passes), microseconds.
    pub micros_per_update: f64,
    /// Walks that started (found a free place to stand); the others are
    /// named in `problems`.
    pub walks_started: u32,
    /// Where walk 0 first stood (the character's centre, metres): on a
    /// level without spawn nodes (and walk 0 not sent to a door or lift),
    /// the place the game starts the player ([`spawn::start_point`]).
    pub first_start: Option<Vec3>,
    /// Area of the static surfaces a character can stand on (facing up
    /// within the walkable slope), square metres.
    pub walkable_area_m2: f64,
    /// Cells of the walkable static surfaces (cubes of `cell_m` on a side).
    pub walkable_cells: u64,
    /// Of those, the cells some walker stood in.
    pub visited_cells: u64,
    /// Side of a coverage cell, metres (1, coarser on levels of over a
    /// square kilometre of walkable surface).
    pub cell_m: f32,
    /// Where each problem happened (walk, tick, position), at most 20.
    pub problems: Vec<String>,
}

/// Most problems a report lists.
const MAX_PROBLEMS: usize = 20;

/// Fewest ticks walked for a pass not to be called a thin check.
pub const THIN_CHECK_TICKS: u64 = 1_000;

impl WalkReport {
    /// True when at least half the walks started and none penetrated, fell
    /// through, went non-finite or got stuck (see [`WalkReport::failure`]).
    pub fn passed(&self) -> bool {
        self.failure().is_none()
    }

    /// Why the check failed, in one line; `None` when it passed.
    pub fn failure(&self) -> Option<String> {
        if self.walkable_area_m2 == 0.0 && self.walks_started == 0 {
            return Some(
                "no walkable surface: no static triangle faces up within the walkable slope, \
                 so no walk could start"
                    .into(),
            );
        }
        if self.walks_started == 0 {
            return Some(format!(
                "no walk started: none of the {} walks found a free place to stand",
                self.walks
            ));
        }
        if 2 * self.walks_started < self.walks {
            return Some(format!(
                "only {} of {} walks started (fewer than half found a free place to stand)",
                self.walks_started, self.walks
            ));
        }
        let mut found = Vec::new();
        if self.penetrating_passes > 0 {
            found.push(format!("{} ticks ended inside geometry", self.penetrating_passes));
        }
        if self.fell_through > 0 {
            found.push(format!("{} walks fell through a surface", self.fell_through));
        }
        if self.non_finite > 0 {
            found.push(format!("{} ticks went non-finite", self.non_finite));
        }
        if self.stuck > 0 {
            found.push(format!("{} walks got stuck", self.stuck));
        }
        (!found.is_empty()).then(|| found.join(", "))
    }

    /// A pass on fewer than [`THIN_CHECK_TICKS`] ticks walked.
    pub fn thin(&self) -> bool {
        self.passed() && self.updates < THIN_CHECK_TICKS
    }

    /// Share of the walkable static surface some walker stood on, 0 … 1.
    pub fn visited_share(&self) -> f64 {
        if self.walkable_cells == 0 {
            0.0
        } else {
            self.visited_cells as f64 / self.walkable_cells as f64
        }
    }

    fn note(&mut self, text: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(text);
        }
    }

    /// Adds another walk's findings (walks merged in walk order).
    fn absorb(&mut self, other: WalkReport) {
        self.walks_started += other.walks_started;
        self.first_start = self.first_start.or(other.first_start);
        self.updates += other.updates;
        self.respawns += other.respawns;
        self.max_penetration = self.max_penetration.max(other.max_penetration);
        self.max_squeeze = self.max_squeeze.max(other.max_squeeze);
        self.penetrating_passes += other.penetrating_passes;
        self.fell_through += other.fell_through;
        self.non_finite += other.non_finite;
        self.stuck += other.stuck;
        self.walked_off += other.walked_off;
        self.crushed += other.crushed;
        self.jumps += other.jumps;
        self.steps += other.steps;
        self.riding_ticks += other.riding_ticks;
        for p in other.problems {
            self.note(p);
        }
    }
}

/// A door or lift driven by the checker: a door opens and closes again and
/// again (waiting 2 s at each end), a lift runs its schedule; each turns
/// back when it squeezes a walker, as the game's do.
#[derive(Clone, Copy, Debug)]
struct MoverCycle {
    /// A door's openness, 0 … 1.
    openness: f32,
    opening: bool,
    /// Seconds a door waits before moving on.
    wait: f32,
    /// A lift's time on its schedule, seconds.
    lift_s: f64,
}

impl MoverCycle {
    const START: Self = Self {
        openness: 0.0,
        opening: true,
        wait: 1.0,
        lift_s: 0.0,
    };

    fn advance(&mut self, kind: &MoverKind, dt: f32) {
        match kind {
            MoverKind::Door(spec) => self.advance_door(spec, dt),
            MoverKind::Lift(_) => self.lift_s += dt as f64,
        }
    }

    /// It squeezed a walker: back the way it came.
    fn turn_back(&mut self, kind: &MoverKind) {
        match kind {
            MoverKind::Door(_) => {
                self.opening = !self.opening;
                self.wait = 0.0;
            }
            MoverKind::Lift(lift) => self.lift_s = lift.turned_back(self.lift_s),
        }
    }

    fn advance_door(&mut self, spec: &DoorSpec, dt: f32) {
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

/// Where every mover is, given their cycles.
fn mover_poses(level: &Level, cycles: &[MoverCycle]) -> Vec<Pose> {
    level
        .movers
        .iter()
        .zip(cycles)
        .map(|(m, cycle)| match m.kind {
            MoverKind::Door(_) => m.pose_at(cycle.openness),
            MoverKind::Lift(lift) => m.pose_at(lift.openness_at(cycle.lift_s)),
        })
        .collect()
}

/// What every walk shares: the level, the run's settings, the controller.
struct Course<'l> {
    level: &'l Level,
    config: &'l CheckConfig,
    controller: Controller,
    /// The movers' poses at rest.
    rest: Vec<Pose>,
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

/// The walkable static surface as a set of cells (cubes of `cell` metres),
/// so how much of it walkers stood on can be counted.
struct Coverage {
    cell: f32,
    area_m2: f64,
    cells: HashSet<[i32; 3]>,
}

/// Most cells the coverage count holds; a larger walkable surface gets larger cells.
const MAX_COVERAGE_CELLS: f64 = 1e6;

impl Coverage {
    fn of(level: &Level, walkable_cos: f32) -> Self {
        let walkable: Vec<[Vec3; 3]> = level
            .statics
            .iter()
            .flat_map(|s| s.triangles())
            .filter(|t| spawn::is_walkable(*t, walkable_cos))
            .collect();
        let area_m2: f64 = walkable
            .iter()
            .map(|t| 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).length() as f64)
            .sum();
        let cell = (area_m2 / MAX_COVERAGE_CELLS).sqrt().max(1.0) as f32;
        let mut coverage = Coverage {
            cell,
            area_m2,
            cells: HashSet::new(),
        };
        // Each triangle cut in halves across its longest edge until no edge
        // is over half a cell: its pieces' corners and centres mark the
        // cells it touches (pieces grow with its area and perimeter, so a
        // long sliver costs its length, not its length squared).
        let mut pieces = Vec::new();
        for t in walkable {
            pieces.push(t);
            while let Some(t) = pieces.pop() {
                let edges = [(0, 1, 2), (1, 2, 0), (2, 0, 1)].map(|(a, b, c)| ((t[a] - t[b]).length(), a, b, c));
                let (longest, a, b, c) = edges.into_iter().fold(edges[0], |m, e| if e.0 > m.0 { e } else { m });
                if longest <= cell / 2.0 || !longest.is_finite() {
                    for p in [t[0], t[1], t[2], (t[0] + t[1] + t[2]) / 3.0] {
                        coverage.cells.insert(coverage.key(p));
                    }
                    continue;
                }
                let mid = (t[a] + t[b]) / 2.0;
                pieces.push([t[a], mid, t[c]]);
                pieces.push([mid, t[b], t[c]]);
            }
        }
        coverage
    }

    fn key(&self, p: Vec3) -> [i32; 3] {
        (p / self.cell).floor().as_ivec3().to_array()
    }
}

/// Runs random walks through `level` with the character controller, on
/// `config.threads` threads. The report does not depend on the thread count
/// (but for `micros_per_update`).
///
/// # Panics
/// If `config.controller` is not a valid configuration.
pub fn walk_level(level: &Level, config: &CheckConfig) -> WalkReport {
    let rest: Vec<Pose> = level.movers.iter().map(|m| m.rest).collect();
    let bounds = PlacedCollider::world_bounds_of(&level.placed_at_rest());
    let walkable_cos = config.controller.walkable_slope_deg.to_radians().cos();
    let game_start = spawn::start_point(level, config.controller.standing_radii, walkable_cos)
        .map(|s| CharacterState::standing_at(s.position, &config.controller).position);
    let course = Course {
        level,
        config,
        controller: Controller::new(config.controller).expect("valid controller config"),
        rest,
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

/// One walker's state while placed.
struct Walker {
    state: CharacterState,
    /// Walking direction, radians about +Y from −Z.
    heading: f32,
    /// Crouching time left, seconds.
    crouch_left: f32,
    sprint: bool,
    /// Tick and position of the last time it moved more than 1 cm.
    still_since: (u32, Vec3),
    /// The last tick moved less than a tenth of its walking step.
    blocked: bool,
    /// Reported crushed since it was placed.
    crushed: bool,
    /// Tick it was placed at.
    placed_at: u32,
}

/// What ended a walker's placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    WalkedOff,
    FellThrough,
    NonFinite,
    Stuck,
}

impl Course<'_> {
    /// Walk number `walk`: its findings, the seconds spent in controller
    /// ticks and the coverage cells it stood in.
    fn walk(&self, walk: u32) -> (WalkReport, f64, HashSet<[i32; 3]>) {
        let (level, config) = (self.level, self.config);
        let mut rng = Lcg::new(config.seed ^ u64::from(walk).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut report = WalkReport {
            walks: 1,
            ..Default::default()
        };
        let mut timed = 0.0f64;
        let mut cycles = vec![MoverCycle::START; level.movers.len()];
        let mut poses = self.rest.clone();
        let revisit_ticks = (SOAK_REVISIT_SECONDS / config.dt).round().max(1.0) as u32;
        let at_a_mover = !level.movers.is_empty() && walk % 3 == 2;
        let mut walker: Option<Walker> = None;
        let mut placements = 0u64;
        let mut visited = HashSet::new();
        for tick in 0..config.ticks {
            let before = std::mem::take(&mut poses);
            for (cycle, m) in cycles.iter_mut().zip(&level.movers) {
                cycle.advance(&m.kind, config.dt);
            }
            poses = mover_poses(level, &cycles);
            let colliders = level.placed(&poses, &before, config.dt);
            if config.soak && at_a_mover && walker.as_ref().is_some_and(|w| tick - w.placed_at >= revisit_ticks) {
                walker = None;
            }
            let w = match &mut walker {
                Some(w) => w,
                None => {
                    let Some(start) = self.spawn_point(&colliders, &poses, walk, placements == 0, &mut rng) else {
                        let place = self.start_place(walk);
                        report.note(if placements == 0 {
                            format!("walk {walk}: could not start: no free place to stand {place}")
                        } else {
                            format!(
                                "walk {walk} tick {tick}: could not be placed again: no free place to stand {place}"
                            )
                        });
                        break;
                    };
                    if placements == 0 {
                        report.walks_started += 1;
                        if walk == 0 {
                            report.first_start = Some(start);
                        }
                    }
                    report.respawns += (placements > 0) as u64;
                    placements += 1;
                    let r = self.standing.radii();
                    let mut state = CharacterState::standing_at(start - Vec3::Y * r.y, &config.controller);
                    state.position = start;
                    walker.insert(Walker {
                        state,
                        heading: rng.range(0.0, std::f32::consts::TAU),
                        crouch_left: 0.0,
                        sprint: false,
                        still_since: (tick, start),
                        blocked: false,
                        crushed: false,
                        placed_at: tick,
                    })
                }
            };
            let (ended, seconds) = self.tick(w, walk, tick, &colliders, &mut cycles, &mut rng, &mut report);
            timed += seconds;
            report.updates += 1;
            if let Some(g) = w.state.ground
                && g.collider < level.statics.is_some() as usize
            {
                visited.insert(self.coverage.key(g.point));
            }
            match ended {
                None => {}
                Some(ended) => {
                    match ended {
                        Ended::WalkedOff => report.walked_off += 1,
                        Ended::FellThrough => report.fell_through += 1,
                        Ended::NonFinite => report.non_finite += 1,
                        Ended::Stuck => report.stuck += 1,
                    }
                    walker = None;
                    if !config.soak {
                        break;
                    }
                }
            }
        }
        (report, timed, visited)
    }

    /// One controller tick of a placed walker, checked: what ended its
    /// placement, if anything, and the seconds spent in the controller.
    #[allow(clippy::too_many_arguments)]
    fn tick(
        &self,
        w: &mut Walker,
        walk: u32,
        tick: u32,
        colliders: &[PlacedCollider<'_>],
        cycles: &mut [MoverCycle],
        rng: &mut Lcg,
        report: &mut WalkReport,
    ) -> (Option<Ended>, f64) {
        let (level, config) = (self.level, self.config);
        let friction = |collider: usize, triangle: u32| level.friction(collider, triangle);
        let world = Surroundings::new(colliders).with_friction(&friction);
        // A new heading now and then, and whenever the last tick was
        // blocked (a bumping walker), and often a jump when blocked, so
        // "stuck" means no direction or jump got it out; now and then a
        // jump, a crouch, a sprint.
        if w.blocked || rng.next_f32() < config.dt / 1.5 {
            w.heading = rng.range(0.0, std::f32::consts::TAU);
            w.sprint = rng.next_f32() < 0.3;
        }
        if w.crouch_left <= 0.0 && rng.next_f32() < config.dt / 8.0 {
            w.crouch_left = rng.range(0.5, 3.0);
        }
        w.crouch_left -= config.dt;
        let intent = Intent {
            direction: Vec3::new(w.heading.sin(), 0.0, -w.heading.cos()),
            jump: rng.next_f32() < if w.blocked { 0.2 } else { config.dt / 4.0 },
            crouch: w.crouch_left > 0.0,
            sprint: w.sprint,
        };
        let from = w.state.position;
        let started = Instant::now();
        let tick_report = self.controller.tick(&mut w.state, &intent, &world, config.dt);
        let seconds = started.elapsed().as_secs_f64();
        let tick_report = match tick_report {
            Ok(report) => report,
            Err(e) => {
                // Only a state gone bad gets here (the dt is checked): count it as non-finite.
                report.note(format!("walk {walk} tick {tick}: the controller refused the tick: {e}"));
                return (Some(Ended::NonFinite), seconds);
            }
        };
        let state = &w.state;
        report.jumps += tick_report.jumped as u64;
        report.steps += tick_report.stepped as u64;
        if let Some(g) = state.ground
            && g.collider >= level.statics.is_some() as usize
        {
            report.riding_ticks += 1;
        }
        if !(state.position.is_finite() && state.velocity.is_finite()) {
            report.note(format!(
                "walk {walk} tick {tick}: non-finite state (position {}, velocity {})",
                state.position, state.velocity
            ));
            return (Some(Ended::NonFinite), seconds);
        }
        let moved = (state.position - from).length();
        w.blocked = moved < 0.1 * config.controller.walk_speed * config.dt && state.grounded();
        let e = Ellipsoid::new(state.radii).expect("valid radii");
        if tick_report.crushed {
            // The game turns the squeezing door or lift back; so does the checker.
            let depth = sweep::penetration_depth(&e, state.position, colliders);
            report.max_squeeze = report.max_squeeze.max(depth);
            if !w.crushed {
                w.crushed = true;
                report.crushed += 1;
                report.note(format!(
                    "walk {walk} tick {tick}: crushed at {} (not an error)",
                    state.position
                ));
            }
            for collider in tick_report.pushing_colliders() {
                if let Some(i) = collider.checked_sub(level.statics.is_some() as usize)
                    && let (Some(cycle), Some(m)) = (cycles.get_mut(i), level.movers.get(i))
                {
                    cycle.turn_back(&m.kind);
                }
            }
        } else {
            let depth = sweep::penetration_depth(&e, state.position, colliders);
            report.max_penetration = report.max_penetration.max(depth);
            if depth > penetration_tolerance(state.position, state.radii) {
                report.penetrating_passes += 1;
                report.note(format!(
                    "walk {walk} tick {tick}: penetrating by {depth:.2e} of the radius at {}",
                    state.position
                ));
            }
        }
        if crosses_surface(colliders, from, state.position) {
            report.note(format!(
                "walk {walk} tick {tick}: centre passed through a surface from {from} to {}",
                state.position
            ));
            return (Some(Ended::FellThrough), seconds);
        }
        if state.position.y < self.bounds.min.y - 2.0 * self.standing.radii().y {
            return (Some(Ended::WalkedOff), seconds);
        }
        if (state.position - w.still_since.1).length() > 0.01 {
            w.still_since = (tick, state.position);
        } else if (tick - w.still_since.0) as f32 * config.dt > 3.0 {
            report.note(format!("walk {walk} tick {tick}: stuck at {}", state.position));
            return (Some(Ended::Stuck), seconds);
        }
        (None, seconds)
    }

    /// Where walk `walk` starts, in words: near which door or lift, at
    /// which spawn node, or anywhere on the level.
    fn start_place(&self, walk: u32) -> String {
        let level = self.level;
        if !level.movers.is_empty() && walk % 3 == 2 {
            let m = &level.movers[(walk / 3) as usize % level.movers.len()];
            let kind = match m.kind {
                MoverKind::Door(_) => "door",
                MoverKind::Lift(_) => "lift",
            };
            format!("near {kind} {:?}", m.name)
        } else if !level.spawns.is_empty() {
            format!("at spawn point {}", walk as usize % level.spawns.len())
        } else {
            "on the level".into()
        }
    }

    /// A free centre: at a spawn point (feet on it) with a small random
    /// offset, or, for levels without spawns, where the game starts the
    /// player (walk 0's first placement) or dropped onto a random walkable
    /// surface. Every third walk starts at a door or a lift (where it is
    /// now, `poses`), so they meet walkers.
    fn spawn_point(
        &self,
        world: &[PlacedCollider<'_>],
        poses: &[Pose],
        walk: u32,
        first: bool,
        rng: &mut Lcg,
    ) -> Option<Vec3> {
        let (level, e, bounds, walkable) = (self.level, &self.standing, self.bounds, self.walkable_cos);
        let r = e.radii();
        let mover = (!level.movers.is_empty() && walk % 3 == 2).then(|| {
            let k = (walk / 3) as usize % level.movers.len();
            let (m, pose) = (&level.movers[k], poses[k]);
            pose.transform_aabb(m.collider.bounds())
        });
        let free = |centre: Vec3| sweep::penetration_depth(e, centre, world) == 0.0;
        let standing = |feet: Vec3| CharacterState::standing_at(feet, &self.config.controller).position;
        if mover.is_none()
            && level.spawns.is_empty()
            && walk == 0
            && first
            && let Some(start) = self.game_start.filter(|c| free(*c))
        {
            return Some(start);
        }
        for attempt in 0..200 {
            let candidate = if let Some(near) = mover {
                // Drop onto what is below a point near the mover (its deck,
                // the floor beside it): from just above it, or every other
                // try from within its height (a door in a wall under a low
                // ceiling has no free space above it).
                let spread = Vec3::new(1.5, 0.0, 1.5) * (attempt.min(20) as f32 / 20.0);
                let above = near.max.y + r.y + 0.05;
                let y = if attempt % 2 == 0 {
                    above
                } else {
                    rng.range((near.min.y + r.y + 0.05).min(above), above)
                };
                let top = rng.in_box(near.center() - spread, near.center() + spread).with_y(y);
                spawn::drop_onto(e, top, bounds, world, walkable).map(standing)
            } else if !level.spawns.is_empty() {
                let spawn = level.spawns[walk as usize % level.spawns.len()];
                let jitter = if attempt == 0 {
                    Vec3::ZERO
                } else {
                    Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0))
                };
                Some(standing(spawn.position + jitter))
            } else {
                // Drop from a random point inside or above the level's
                // bounds (rooms are often closed) onto the first walkable
                // surface below: the game's drop, from anywhere.
                let top = rng.in_box(bounds.min, bounds.max + Vec3::Y * (r.y + 0.1));
                spawn::drop_onto(e, top, bounds, world, walkable).map(standing)
            };
            if let Some(p) = candidate
                && free(p)
            {
                return Some(p);
            }
        }
        None
    }
}

/// The deepest overlap a tick may end with and not count as penetrating,
/// eSpace units: 1e-4, or where the character is so far from the origin
/// that its `f32` position cannot resolve that, two steps of that
/// resolution (at 3.6 km a step is 0.24 mm, 6e-4 of a 0.4 m radius: a map
/// of a 33 km² scene walked 3.6 km up measured 1.1e-4 there).
pub fn penetration_tolerance(position: Vec3, radii: Vec3) -> f32 {
    let step = position.abs().max_element() * f32::EPSILON;
    1e-4f32.max(2.0 * step / radii.min_element())
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
