//! `Crowd::step`: every agent's controller tick in parallel against the
//! level and the polytopes of the agents near it where the tick started;
//! then the check that no two agents end overlapping, and a stand-still
//! (in parallel too) of the few agents whose move it refuses. `step` calls
//! the phases in order: `run_moves`, `check_moves`, `stand_still` and
//! `hold`, `apply_moves`, `send_home`.

use crate::config::{CrowdConfig, CrowdError};
use crate::crowd::SHELLS;
use crate::crowd::{Agent, Crowd, CrowdSurroundings, Obstacle, Size, StepReport};
use crate::grid::{Grid, floor_to_i32};
use crate::parallel::fill;
use crate::scratch::{Clear, Move, Outcome, Scratch};
use crate::separation::{apart, espace_distance, espace_distance_lower_bound};
use controller::{CharacterState, Intent, Surroundings, validate_dt};
use glam::Vec3;
use std::time::Instant;
use sweep::{Aabb, Ellipsoid, PlacedCollider, Pose};

/// Agents, taken in the moves' order, whose level data is fetched together
/// before the first of them ticks ([`StepInputs::fetch_level_near`]).
const FETCH_BATCH: usize = 16;

/// The least gap the check demands between two agents' ellipsoids, in
/// the eSpace of each (a fraction of its radius): 0.1 mm on a 1 m radius.
/// The sweeps keep ten times that (the controller's skin) from the
/// polytopes, which are outside the ellipsoids.
pub const CLEARANCE: f64 = 1e-4;

/// How far around an agent its world takes in other agents (see [`StepInputs::reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Ahead,
    All,
}

/// What every thread reads during a step.
struct StepInputs<'a> {
    world: &'a CrowdSurroundings<'a>,
    sizes: &'a [Size],
    agents: &'a [Agent],
    /// Each agent's radii and size, side by side in little memory: what
    /// an agent's neighbours' searches read of it.
    radii: Vec<Vec3>,
    size_of: Vec<u8>,
    player: Option<PlacedCollider<'a>>,
    config: &'a CrowdConfig,
    dt: f32,
    /// Threads for the moves ([`CrowdConfig::threads_for`]).
    threads: usize,
    /// The largest half box of any size's polytope, metres.
    max_hull_half: Vec3,
    /// The largest radii of any size, metres.
    max_radii: Vec3,
    /// [`crate::crowd::shell_scales`].
    shells: [f32; SHELLS],
    /// 1 + [`crate::HullResolution::max_gap`].
    hull_reach: f32,
    /// The cell of the step's grids, metres.
    cell: Vec3,
    /// Boxes (metres) around what moves this tick besides the agents
    /// (see [`moving_boxes`]).
    moving: Vec<(Vec3, Vec3)>,
}

impl<'a> StepInputs<'a> {
    /// Gathers the step's arguments and what follows from them: the sizes'
    /// largest polytope and radii, the polytopes' scales, the grids' cell
    /// and what moves this tick besides the agents.
    fn new(
        world: &'a CrowdSurroundings<'a>,
        sizes: &'a [Size],
        agents: &'a [Agent],
        player: Option<PlacedCollider<'a>>,
        config: &'a CrowdConfig,
        dt: f32,
        threads: usize,
    ) -> Self {
        let max_hull_half = sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.hull_half));
        // Columns (cells of unbounded height: agents mostly stand on one
        // floor) two polytopes wide, so a query spans two or three across.
        let wide = 4.0 * max_hull_half.x.max(max_hull_half.z);
        Self {
            world,
            sizes,
            agents,
            radii: agents.iter().map(|a| a.state.radii).collect(),
            size_of: agents.iter().map(|a| a.size).collect(),
            player,
            config,
            dt,
            threads,
            max_hull_half,
            max_radii: sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.radii)),
            shells: crate::crowd::shell_scales(config),
            hull_reach: 1.0 + config.hull.max_gap(),
            cell: Vec3::new(wide, 1e6, wide),
            moving: moving_boxes(world, player, dt),
        }
    }

    /// Whether `agent` standing still would stay exactly where it is: on
    /// ground that does not move, nothing moving near, not squeezed last
    /// tick (its stand-still tick would find the ground where it is).
    fn at_rest(&self, agent: &Agent) -> bool {
        let level = self.world.colliders.len();
        let state = &agent.state;
        let r = state.radii + Vec3::splat(0.05);
        !agent.crushed
            && state
                .ground
                .is_some_and(|g| g.collider < level && g.velocity == Vec3::ZERO)
            && !self
                .moving
                .iter()
                .any(|(lo, hi)| (state.position - r).cmple(*hi).all() && (state.position + r).cmpge(*lo).all())
    }

    /// The box (metres) an agent's ellipsoid may sweep through this tick.
    /// Agents whose polytopes reach into it are put in its world.
    ///
    /// `Some(ahead)` (`Reach::Ahead`): where its walk is heading, the
    /// displacement [`StepInputs::ahead`], with a step up and a snap down
    /// along "up" and 2 cm around: the neighbours beside and behind a
    /// walker are left out (it sweeps fewer polytopes; a move that ends in
    /// one of them anyway is refused by the check and run again).
    /// `None` (`Reach::All`): every direction it could go, for standing still.
    fn reach(&self, state: &CharacterState, ahead: Option<Vec3>) -> (Vec3, Vec3) {
        let c = &self.config.controller;
        let dt = self.dt;
        let up = state.up;
        let rise = up.abs() * c.step_height.max(c.snap_distance);
        let fall = 0.5 * c.gravity.length() * dt * dt;
        let accel = c.ground_acceleration.max(c.air_acceleration) * dt;
        let v = state.world_velocity();
        let (from, to) = match ahead {
            None => {
                let h = Vec3::splat((v.length() + accel) * dt + fall + 0.01);
                (state.position - h, state.position + h)
            }
            Some(ahead) => {
                let (a, b) = (state.position, state.position + ahead);
                (a.min(b) - Vec3::splat(fall + 0.02), a.max(b) + Vec3::splat(fall + 0.02))
            }
        };
        (from - state.radii - rise, to + state.radii + rise)
    }

    /// Where agent `state`'s walk heads this tick (metres): its velocity
    /// moved towards the intent's by one tick of acceleration, plus its
    /// ground's motion, over `dt`.
    fn ahead(&self, state: &CharacterState, intent: &Intent) -> Vec3 {
        let c = &self.config.controller;
        let up = state.up;
        let accel = c.ground_acceleration.max(c.air_acceleration) * self.dt;
        let wish = intent.direction.reject_from(up).clamp_length_max(1.0) * c.walk_speed;
        let own = state.velocity.reject_from(up);
        let next = own + (wish - own).clamp_length_max(accel);
        let along = state.velocity.dot(up) * up;
        let ground = state.ground.map_or(Vec3::ZERO, |g| g.velocity);
        (next + along + ground) * self.dt
    }

    /// Which of another agent's polytopes (centred at `centre`, of size
    /// `radii`) agent `state` sweeps against: the circumscribed one, or,
    /// when the agent is already closer to the other's ellipsoid than that
    /// polytope reaches (pushed there by a door, or the other stepped
    /// towards it), the largest scaled-down one it is clear of — so no
    /// tick starts inside an agent's polytope (which would cost the
    /// controller a depenetration, and push the agents apart by the
    /// polytope's error). The exact check after the moves keeps the
    /// ellipsoids apart whichever polytope was swept.
    fn shell(&self, state: &CharacterState, centre: Vec3, radii: Vec3) -> usize {
        let d = (state.position - centre).length();
        if d > self.hull_reach * radii.max_element() + state.radii.max_element() + 1e-3 {
            return 0;
        }
        // The outer polytope when even a lower bound of the distance
        // leaves room for it (the same answer as the distance would give:
        // each step below is monotone), else the scale at which the
        // other's ellipsoid would touch this one.
        let scale_for = |touch: f64| touch as f32 * (1.0 - 1e-3) / self.hull_reach;
        if scale_for(espace_distance_lower_bound(centre, radii, state.position, state.radii)) >= self.shells[0] {
            return 0;
        }
        let fits = scale_for(espace_distance(centre, radii, state.position, state.radii));
        self.shells.iter().position(|&s| s <= fits).unwrap_or(SHELLS - 1)
    }

    /// Runs agent `i`'s controller tick from `state` against the level,
    /// the player and the polytopes of the other agents where `grid` holds
    /// them.
    ///
    /// A walk (`Reach::Ahead`) heading straight into a neighbour it is
    /// already closer to than that one's outer polytope reaches (the
    /// straight step, [`StepInputs::ahead`], ending less than
    /// [`CLEARANCE`] from the neighbour's ellipsoid) yields instead: its
    /// tick is not run and the check refuses it (it stands still). Such a
    /// tick sweeps a scaled-down polytope, which lets it into the
    /// neighbour, and the check would refuse it nearly always: in the jam
    /// a fifth of the moves were run only to be refused so.
    fn tick(
        &self,
        colliders: &mut Vec<PlacedCollider<'a>>,
        i: usize,
        state: &mut CharacterState,
        intent: &Intent,
        grid: &Grid,
        reach: Reach,
    ) -> Outcome {
        let size = &self.sizes[self.agents[i].size as usize];
        let ahead = (reach == Reach::Ahead).then(|| self.ahead(state, intent));
        let (lo, hi) = self.reach(state, ahead);
        colliders.clear();
        colliders.extend_from_slice(self.world.colliders);
        let touches = |c: Vec3, half: Vec3| (c - half).cmple(hi).all() && (c + half).cmpge(lo).all();
        if let Some(player) = self.player
            && touches(player.pose.translation, player.mesh.bounds().size() * 0.5)
        {
            colliders.push(player);
        }
        let mut hulls = 0;
        let straight = ahead.map(|d| state.position + d);
        let mut yields = false;
        if self.config.collide_agents {
            let m = self.max_hull_half;
            grid.for_each_in(lo - m, hi + m, |k, at| {
                let other = &self.sizes[self.size_of[k] as usize];
                if k != i && touches(at, other.hull_half) {
                    let shell = self.shell(state, at, other.radii);
                    yields = yields
                        || shell > 0 && straight.is_some_and(|to| !apart(to, state.radii, at, other.radii, CLEARANCE));
                    colliders.push(PlacedCollider::moving(
                        &other.hulls[shell],
                        Pose::from_translation(at),
                        Vec3::ZERO,
                        Vec3::ZERO,
                    ));
                    hulls += 1;
                }
            });
        }
        if yields {
            // Its tick is not run: no polytope is swept.
            return Outcome {
                yielded: true,
                ..Outcome::default()
            };
        }
        let level = self.world.colliders.len();
        let friction = |c: usize, t: u32| if c < level { (self.world.friction)(c, t) } else { 1.0 };
        // Nobody steps up onto another agent (its polytope's side is a
        // wall taller than any step): the level's colliders only.
        let level_only = |c: usize| c < level;
        let world = Surroundings::new(colliders)
            .with_friction(&friction)
            .with_step_up_onto(&level_only);
        match size.controller.tick(state, intent, &world, self.dt) {
            Ok(report) => Outcome {
                hulls,
                sweeps: report.sweeps,
                asleep: false,
                yielded: false,
                crushed: report.crushed,
                crushed_by: report
                    .crushed
                    .then(|| report.pushing_colliders().into_iter().find(|c| *c < level))
                    .flatten(),
            },
            // A state holding NaN (set from outside) is left alone.
            Err(_) => Outcome {
                hulls,
                ..Outcome::default()
            },
        }
    }

    /// How far (metres per axis) around agent `i`'s centre the check
    /// searches for others: its radii, the largest agent's, and 1 cm.
    fn check_reach(&self, i: usize) -> Vec3 {
        self.radii[i] + self.max_radii + Vec3::splat(0.01)
    }

    /// Whether agent `i`'s ellipsoid centred at `at` is apart from every
    /// other agent where `grid` holds them, and whether no agent `k` that
    /// `later(k)` accepts is within `wider` (metres per axis, when given)
    /// more of it: known only when that wider box touches no more cells
    /// of `grid` than the search does (else it answers no).
    fn apart_from_starts(
        &self,
        i: usize,
        at: Vec3,
        grid: &Grid,
        wider: Option<Vec3>,
        later: impl Fn(usize) -> bool,
    ) -> (bool, bool) {
        let mut alone = wider.is_some();
        let apart = self.apart_from_others(i, at, grid, |k| {
            alone = alone && !later(k);
            true
        });
        let m = self.check_reach(i);
        (
            apart,
            alone && wider.is_some_and(|w| grid.same_cells(at - m, at + m, w)),
        )
    }

    /// Whether agent `i`'s ellipsoid centred at `at` is apart from every
    /// other agent `k` (where `grid` holds it) that `consider(k)` accepts
    /// (asked of every other agent there, even once the answer is no).
    fn apart_from_others(&self, i: usize, at: Vec3, grid: &Grid, mut consider: impl FnMut(usize) -> bool) -> bool {
        let radii = self.radii[i];
        let m = self.check_reach(i);
        let mut ok = true;
        grid.for_each_in(at - m, at + m, |k, centre| {
            if k != i && consider(k) && ok {
                ok = apart(at, radii, centre, self.radii[k], CLEARANCE);
            }
        });
        ok
    }
}

impl Crowd {
    /// Advances every agent by one tick of `dt` seconds.
    ///
    /// `world` holds the level's colliders at this tick's poses, doors and
    /// lifts with their velocities, as given to the player's controller
    /// (agents ride lifts and are pushed by doors the same way), and the
    /// player, an obstacle the agents walk around (its polytope, as another
    /// agent's). A player whose own world leaves the agents out pushes them
    /// when walking into them; with [`Crowd::polytopes_in`] in its world it
    /// collides with them.
    ///
    /// The steps (see the crate's documentation): every agent's tick in
    /// parallel against the level and the polytopes of the agents near it
    /// where they were before the tick; then, in parallel, every move is
    /// checked exactly against where the others started and where they
    /// ended; an agent whose move is refused stands still instead (checked
    /// the same way against where the others are now), or stays put.
    /// The outcome does not depend on the number of threads.
    pub fn step(&mut self, world: &CrowdSurroundings<'_>, dt: f32) -> Result<&StepReport, CrowdError> {
        validate_dt(dt).map_err(CrowdError::Dt)?;
        let started = Instant::now();
        let n = self.agents.len();
        let threads = self.config.threads_for(n);
        self.update_player_hull(world.player);
        let Crowd {
            config,
            sizes,
            agents,
            scratch,
            player_hull,
            report,
            fall_limit,
        } = self;
        let player = world.player.zip(player_hull.as_ref()).map(|(p, (_, hull))| {
            PlacedCollider::moving(hull, Pose::from_translation(p.centre), Vec3::ZERO, Vec3::ZERO)
        });
        let shared = StepInputs::new(world, sizes, agents, player, config, dt, threads);

        // 1. Every agent's tick, in parallel, against where the others start.
        let starts: Vec<Vec3> = agents.iter().map(|a| a.state.position).collect();
        shared.run_moves(&starts, scratch);
        let moved_at = Instant::now();

        // 2. The exact check of the moves against the starts and the kept ends.
        shared.check_moves(&starts, scratch);
        let checked = Instant::now();

        // 3. The refused agents stand still instead, or are held at their start.
        let (retried, stood_still, refused) = shared.stand_still(&starts, scratch);
        shared.hold(&refused, scratch);
        let cell = shared.cell;
        let retried_at = Instant::now();

        // Apply, note the blocked, bring back the fallen.
        let mut next = StepReport {
            agents: n,
            threads,
            retried,
            stood_still,
            held: refused.len(),
            ..StepReport::default()
        };
        let fallen = apply_moves(agents, scratch, config, dt, *fall_limit, &mut next);
        if retried > 0 && !fallen.is_empty() {
            // Where everyone is now, for the fallen going home (without
            // stand-stills the moves' ends are).
            scratch.end_grid.build(scratch.current.iter().copied(), cell);
        }
        next.returned_home = send_home(fallen, agents, sizes, world, scratch, config.collide_agents);
        let done = Instant::now();
        let micros = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e6;
        next.move_micros = micros(started, moved_at);
        next.check_micros = micros(moved_at, checked);
        next.retry_micros = micros(checked, retried_at);
        next.micros = micros(started, done);
        next.micros_per_agent = next.micros / n.max(1) as f64;
        *report = next;
        Ok(report)
    }

    /// Makes the player's polytope (from `config.hull`) into `player_hull`
    /// when there is a player and the polytope held is not for its radii.
    fn update_player_hull(&mut self, player: Option<Obstacle>) {
        if let Some(p) = player
            && self.player_hull.as_ref().is_none_or(|(r, _)| *r != p.radii)
        {
            self.player_hull = self.config.hull.collider(p.radii).map(|h| (p.radii, h));
        }
    }
}

/// The phases of [`Crowd::step`], in the order it runs them.
impl<'a> StepInputs<'a> {
    /// Phase 1, the moves: builds `scratch.start_grid` over `starts`, puts
    /// the agents in the order of [`order_moves`] (writing `scratch.order`
    /// and `scratch.rank`),
    /// and runs every agent's [`StepInputs::move_agent`] in parallel into
    /// `scratch.moves`.
    fn run_moves(&self, starts: &[Vec3], scratch: &mut Scratch) {
        scratch.start_grid.build(starts.iter().copied(), self.cell);
        order_moves(starts, self.agents, scratch);
        let (order, start_grid) = (&scratch.order, &scratch.start_grid);
        let fetch = self.world.colliders.iter().any(|c| c.mesh.fetches_ahead());
        fill(self.threads, &mut scratch.moves, Vec::new, |colliders, w| {
            if fetch && w % FETCH_BATCH == 0 {
                let batch = &order[w..(w + FETCH_BATCH).min(order.len())];
                self.fetch_level_near(batch.iter().map(|&(_, i)| i as usize));
            }
            self.move_agent(colliders, order[w].1 as usize, start_grid)
        });
    }

    /// Starts loading the level's data near each of `agents` (where its
    /// tick can reach), for all of them together: on a level larger than
    /// the caches, their ticks then find it loaded instead of each waiting
    /// for the tree one level after another ([`PlacedCollider::fetch_near`]).
    fn fetch_level_near(&self, agents: impl Iterator<Item = usize>) {
        let boxes: Vec<Aabb> = agents
            .map(|i| {
                let (min, max) = self.reach(&self.agents[i].state, None);
                Aabb { min, max }
            })
            .collect();
        for collider in self.world.colliders {
            collider.fetch_near(&boxes);
        }
    }

    /// Agent `i`'s move in phase 1: its wander decides where it walks, then
    /// its controller ticks against the level, the player and the others'
    /// polytopes where they start (in `start_grid`), the neighbours ahead
    /// of it only. Reads the agent; returns its new state, wander and outcome.
    fn move_agent(&self, colliders: &mut Vec<PlacedCollider<'a>>, i: usize, start_grid: &Grid) -> Move {
        let agent = &self.agents[i];
        let mut wander = agent.wander;
        let intent = wander.decide(&self.config.wander, self.dt);
        let mut state = agent.state;
        // Asleep: standing still on ground that does not move, nothing
        // moving near, not squeezed last tick. Its tick would change
        // nothing (no motion, the snap finds the ground where it is):
        // skipped.
        let asleep = intent.direction == Vec3::ZERO && state.velocity == Vec3::ZERO && self.at_rest(agent);
        let outcome = if asleep {
            Outcome {
                asleep: true,
                ..Outcome::default()
            }
        } else {
            self.tick(colliders, i, &mut state, &intent, start_grid, Reach::Ahead)
        };
        Move { state, wander, outcome }
    }

    /// Phase 2, the check: a move is kept when its end is apart from every
    /// other agent's start, and from the end of every kept move of a
    /// lower index. An agent that did not move needs neither: the starts
    /// are apart (the step keeps them so), and a kept move's end is apart
    /// from its start, which is its end. One that yielded (its tick not
    /// run, see [`StepInputs::tick`]) is refused.
    ///
    /// Reads `scratch.moves` and `scratch.start_grid`; writes
    /// `scratch.keep` (all kept when agents do not collide),
    /// `scratch.clear` (apart from the starts) and `scratch.end_grid`
    /// (over the moves' ends).
    fn check_moves(&self, starts: &[Vec3], scratch: &mut Scratch) {
        let n = starts.len();
        let (moves, rank) = (&scratch.moves, &scratch.rank);
        scratch.keep.clear();
        scratch.keep.resize(n, true);
        if !self.config.collide_agents {
            return;
        }
        let yielded = |i: usize| moves[rank[i] as usize].outcome.yielded;
        let ends: Vec<Vec3> = (0..n).map(|i| moves[rank[i] as usize].state.position).collect();
        let moved = |i: usize| ends[i] != starts[i];
        // The check costs well under a microsecond per agent that
        // moved: threads only pay for themselves for thousands.
        let movers = (0..n).filter(|&i| moved(i)).count();
        let check_threads = if movers >= 4096 { self.threads } else { 1 };
        // An end near agent i's end has its start near it too, no farther
        // than the farthest move of the step (and a margin for rounding,
        // relative to the coordinates): where the first pass's search of
        // the starts would take in those too (the wider box is in the
        // same cells), it learns which agents have no other mover near,
        // and the second pass need not search the ends for them.
        let (moved_most, farthest) = (0..n).fold((Vec3::ZERO, 0.0f32), |(d, f), i| {
            (
                d.max((ends[i] - starts[i]).abs()),
                f.max(ends[i].abs().max(starts[i].abs()).max_element()),
            )
        });
        let wider = moved_most + Vec3::splat(0.01 + 1e-5 * farthest);
        let wider = wider.is_finite().then_some(wider);
        scratch.clear.clear();
        scratch.clear.resize(n, Clear::default());
        let start_grid = &scratch.start_grid;
        fill(
            check_threads,
            &mut scratch.clear,
            || (),
            |_, i| {
                if !moved(i) {
                    return Clear {
                        apart: true,
                        alone: true,
                    };
                }
                let (apart, alone) = self.apart_from_starts(i, ends[i], start_grid, wider, |k| k < i && moved(k));
                Clear { apart, alone }
            },
        );
        scratch.end_grid.build(ends.iter().copied(), self.cell);
        let (clear, end_grid) = (&scratch.clear, &scratch.end_grid);
        fill(
            check_threads,
            &mut scratch.keep,
            || (),
            |_, i| {
                !yielded(i)
                    && (!moved(i)
                        || clear[i].apart
                            && (clear[i].alone
                                || self
                                    .apart_from_others(i, ends[i], end_grid, |k| k < i && clear[k].apart && moved(k))))
            },
        );
    }

    /// Phase 3, standing still: the agents whose move the check refused
    /// stand still instead (a tick with no walking: their lift carries
    /// them, a door pushes them), in parallel, against where every other
    /// agent is now (kept moves at their ends, refused ones at their
    /// starts), kept by the same check ([`StepInputs::try_standing`],
    /// [`StepInputs::keep_tries`]). (Ticking them again with their walk
    /// was kept one time in five in a jam, and cost as much as the rest of
    /// the retry.)
    ///
    /// A stand-still that ends where the agent started (at rest, most of
    /// them in a jam) is kept without a check: its start is apart from
    /// every other start, and every kept move's end and every other kept
    /// stand-still is apart from it (each was checked against the starts,
    /// or against where everyone is now, which holds it at its start). So
    /// the check looks only at the stand-stills that moved, and when none
    /// ticks, the grid over where everyone is now is not built.
    ///
    /// Reads `scratch.keep`; writes `scratch.current` (where every agent is
    /// now), `scratch.end_grid` (over it, before the stand-stills, when
    /// any refused agent ticks) and the kept stand-stills into
    /// `scratch.moves`. Returns how many were refused, how many of those
    /// stood still, and those refused again.
    fn stand_still(&self, starts: &[Vec3], scratch: &mut Scratch) -> (usize, usize, Vec<usize>) {
        let n = starts.len();
        let rank = &scratch.rank;
        let mut stood_still = 0;
        scratch.current.clear();
        scratch.current.extend((0..n).map(|i| {
            if scratch.keep[i] {
                scratch.moves[rank[i] as usize].state.position
            } else {
                starts[i]
            }
        }));
        let mut refused: Vec<usize> = (0..n).filter(|&i| !scratch.keep[i]).collect();
        let retried = refused.len();
        if !refused.is_empty() {
            let at_rest: Vec<bool> = refused.iter().map(|&i| self.at_rest(&self.agents[i])).collect();
            if at_rest.contains(&false) {
                scratch.end_grid.build(scratch.current.iter().copied(), self.cell);
            }
            // A few hundred stand-stills cost less than starting a thread.
            let retry_threads = if refused.len() >= 1024 { self.threads } else { 1 };
            let tries = self.try_standing(&refused, &at_rest, retry_threads, &scratch.end_grid);
            let kept = self.keep_tries(&refused, retry_threads, &tries);
            for (w, &i) in refused.iter().enumerate() {
                if kept[w] {
                    let (state, outcome, _) = tries[w];
                    stood_still += 1;
                    scratch.current[i] = state.position;
                    let m = &mut scratch.moves[rank[i] as usize];
                    m.state = state;
                    m.outcome.crushed = outcome.crushed;
                    m.outcome.crushed_by = outcome.crushed_by;
                    m.outcome.sweeps += outcome.sweeps;
                    m.outcome.hulls += outcome.hulls;
                }
            }
            let mut w = 0;
            refused.retain(|_| {
                w += 1;
                !kept[w - 1]
            });
        }
        (retried, stood_still, refused)
    }

    /// The stand-stills of phase 3, on `threads`: each agent of `refused`
    /// ticks with no walking and no velocity (no tick when `at_rest`, by
    /// place: in a jam most refused agents stand on the floor) against the others
    /// where they are now (in `grid`, built when any of them ticks).
    /// Returns, by place in `refused`, its state, the tick's outcome, and
    /// whether it ends apart from the others (at its start it is, see
    /// [`StepInputs::stand_still`]).
    fn try_standing(
        &self,
        refused: &[usize],
        at_rest: &[bool],
        threads: usize,
        grid: &Grid,
    ) -> Vec<(CharacterState, Outcome, bool)> {
        let agents = self.agents;
        let mut tries = vec![(agents[0].state, Outcome::default(), false); refused.len()];
        fill(threads, &mut tries, Vec::new, |colliders, w| {
            let i = refused[w];
            let mut state = CharacterState {
                velocity: Vec3::ZERO,
                ..agents[i].state
            };
            let outcome = if at_rest[w] {
                Outcome::default()
            } else {
                self.tick(colliders, i, &mut state, &Intent::default(), grid, Reach::All)
            };
            let clear =
                state.position == agents[i].state.position || self.apart_from_others(i, state.position, grid, |_| true);
            (state, outcome, clear)
        });
        tries
    }

    /// Which of phase 3's `tries` (by place in `refused`) are kept, on
    /// `threads`: a clear one apart from every clear one of a lower place
    /// (among the clear tries, the lower index wins). Only the tries that
    /// moved are compared (one at its start is apart from every other
    /// try, see [`StepInputs::stand_still`]).
    fn keep_tries(&self, refused: &[usize], threads: usize, tries: &[(CharacterState, Outcome, bool)]) -> Vec<bool> {
        let at_start = |w: usize| tries[w].0.position == self.agents[refused[w]].state.position;
        // The places of the tries that moved, and a grid over their ends.
        let moved: Vec<usize> = (0..tries.len()).filter(|&w| !at_start(w)).collect();
        let ends: Vec<Vec3> = moved.iter().map(|&w| tries[w].0.position).collect();
        let mut try_grid = Grid::default();
        if !moved.is_empty() {
            try_grid.build(ends.iter().copied(), self.cell);
        }
        let mut kept = vec![false; refused.len()];
        fill(
            threads,
            &mut kept,
            || (),
            |_, w| {
                let i = refused[w];
                tries[w].2
                    && (at_start(w) || {
                        let mut ok = true;
                        let (end, radii) = (tries[w].0.position, self.radii[i]);
                        let m = self.check_reach(i);
                        try_grid.for_each_in(end - m, end + m, |j, other| {
                            let v = moved[j];
                            if ok && v < w && tries[v].2 {
                                ok = apart(end, radii, other, self.radii[refused[v]], CLEARANCE);
                            }
                        });
                        ok
                    })
            },
        );
        kept
    }

    /// The end of phase 3: each agent of `refused` (refused again) is left
    /// where it was, with no velocity; if a door or lift has moved into it
    /// meanwhile, it is crushed by it (the game turns a door back), and
    /// crushed too inside any other level collider. Reads the level's
    /// colliders; writes those agents' `scratch.moves`.
    fn hold(&self, refused: &[usize], scratch: &mut Scratch) {
        let world = self.world;
        for &i in refused {
            let standing = CharacterState {
                velocity: Vec3::ZERO,
                ..self.agents[i].state
            };
            let e = Ellipsoid::new(standing.radii).expect("valid radii");
            let inside = |c: &PlacedCollider<'_>| {
                sweep::penetration_depth(&e, standing.position, std::slice::from_ref(c)) > 1e-4
            };
            let crushed_by = world
                .colliders
                .iter()
                .position(|c| inside(c) && (c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO));
            let m = &mut scratch.moves[scratch.rank[i] as usize];
            m.state = standing;
            m.outcome.crushed = crushed_by.is_some() || world.colliders.iter().any(inside);
            m.outcome.crushed_by = crushed_by;
        }
    }
}

/// Boxes (metres) around what moves this tick besides the agents: the
/// level's doors and lifts (their bounds grown by their travel in `dt`
/// and 10 cm) and the player's polytope (10 cm around). Reads `world`'s
/// colliders and `player`.
fn moving_boxes(world: &CrowdSurroundings<'_>, player: Option<PlacedCollider<'_>>, dt: f32) -> Vec<(Vec3, Vec3)> {
    let mut moving: Vec<(Vec3, Vec3)> = world
        .colliders
        .iter()
        .filter(|c| c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO)
        .map(|c| {
            let b = c.world_bounds();
            let m = Vec3::splat(c.linear_velocity.length() * dt + 0.1);
            (b.min - m, b.max + m)
        })
        .collect();
    if let Some(p) = player {
        let half = p.mesh.bounds().size() * 0.5 + Vec3::splat(0.1);
        moving.push((p.pose.translation - half, p.pose.translation + half));
    }
    moving
}

/// The order phase 1 runs the moves in: a Z-curve over the agents' cells
/// (2 m across x and z) at `starts`, so agents run one after another are
/// near each other and share the level's data in the caches; each move's
/// outcome does not depend on the order. Writes the sorted (key, agent)
/// pairs to `scratch.order`, `scratch.rank` (agent i's place in that
/// order) and sizes `scratch.moves` (phase 1 fills every one).
///
/// The sort starts from the last step's order: agents move little in a
/// tick, so it is nearly sorted already (the stable sort merges its runs).
/// The pairs are all different, so the result is the same whatever the
/// start.
fn order_moves(starts: &[Vec3], agents: &[Agent], scratch: &mut Scratch) {
    let n = agents.len();
    let order = &mut scratch.order;
    if order.len() != n {
        order.clear();
        order.extend((0..n as u32).map(|i| (0, i)));
    }
    for (key, i) in order.iter_mut() {
        let p = starts[*i as usize];
        *key = z_order(floor_to_i32(p.x * 0.5), floor_to_i32(p.z * 0.5));
    }
    order.sort();
    scratch.rank.clear();
    scratch.rank.resize(n, 0);
    for (w, &(_, i)) in order.iter().enumerate() {
        scratch.rank[i as usize] = w as u32;
    }
    // As many moves as agents (fewer after a clear or a removal: a longer
    // buffer would run moves for agents that are gone).
    scratch.moves.truncate(n);
    if scratch.moves.len() < n
        && let Some(a) = agents.first()
    {
        let placeholder = Move {
            state: a.state,
            wander: a.wander,
            outcome: Outcome::default(),
        };
        scratch.moves.resize(n, placeholder);
    }
}

/// Applying the step: every agent takes its state, wander and crushed
/// flag from `scratch.moves`, and is noted blocked (for its wander) when
/// it walked less than a quarter of its pace on the ground. Adds the
/// moves' counts and crushing colliders into `next`; returns the agents
/// that fell below `fall_limit` or whose position is not finite.
fn apply_moves(
    agents: &mut [Agent],
    scratch: &Scratch,
    config: &CrowdConfig,
    dt: f32,
    fall_limit: f32,
    next: &mut StepReport,
) -> Vec<usize> {
    let c = &config.controller;
    let mut fallen = Vec::new();
    for (i, agent) in agents.iter_mut().enumerate() {
        let m = &scratch.moves[scratch.rank[i] as usize];
        let from = agent.state.position;
        agent.state = m.state;
        agent.wander = m.wander;
        agent.crushed = m.outcome.crushed;
        let walked = (agent.state.position - from).reject_from(agent.state.up).length();
        agent.wander.blocked =
            agent.wander.pace > 0.0 && agent.state.grounded() && walked < 0.25 * agent.wander.pace * c.walk_speed * dt;
        next.asleep += m.outcome.asleep as usize;
        next.yielded += m.outcome.yielded as usize;
        next.hulls_swept += m.outcome.hulls as u64;
        next.sweeps += m.outcome.sweeps as u64;
        next.crushed += m.outcome.crushed as usize;
        next.crushing_colliders.extend(m.outcome.crushed_by);
        if agent.state.position.y < fall_limit || !agent.state.position.is_finite() {
            fallen.push(i);
        }
    }
    next.crushing_colliders.sort_unstable();
    next.crushing_colliders.dedup();
    fallen
}

/// Bringing back the fallen: a fallen agent goes home (standing there
/// with no velocity and no ground) when home is free of the level's
/// colliders and of every other agent where it is now (`scratch.current`
/// in `scratch.end_grid`, when agents `collide`), those sent home this
/// step included. Writes their states; returns how many went home.
fn send_home(
    fallen: Vec<usize>,
    agents: &mut [Agent],
    sizes: &[Size],
    world: &CrowdSurroundings<'_>,
    scratch: &Scratch,
    collide: bool,
) -> usize {
    let mut sent: Vec<usize> = Vec::new();
    for i in fallen {
        let agent = &agents[i];
        let (home, radii) = (agent.home, agent.state.radii);
        let e = Ellipsoid::new(radii).expect("valid radii");
        let free = sweep::penetration_depth(&e, home, world.colliders) == 0.0
            && shared_apart(agents, sizes, i, home, &scratch.end_grid, collide)
            && sent
                .iter()
                .all(|&k| apart(home, radii, agents[k].state.position, agents[k].state.radii, CLEARANCE));
        if free {
            let a = &mut agents[i];
            a.state = CharacterState {
                position: home,
                velocity: Vec3::ZERO,
                ground: None,
                ..a.state
            };
            sent.push(i);
        }
    }
    sent.len()
}

/// Whether `home` is apart from every agent but `i` where they are now
/// (where `grid` holds them).
fn shared_apart(agents: &[Agent], sizes: &[Size], i: usize, home: Vec3, grid: &Grid, collide: bool) -> bool {
    if !collide {
        return true;
    }
    let radii = agents[i].state.radii;
    let max = sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.radii));
    let m = radii + max + Vec3::splat(0.01);
    let mut ok = true;
    grid.for_each_in(home - m, home + m, |k, at| {
        if ok && k != i {
            ok = apart(home, radii, at, agents[k].state.radii, CLEARANCE);
        }
    });
    ok
}

/// Interleaves the bits of two cell coordinates (a Z-order curve), so
/// cells near each other mostly get keys near each other.
fn z_order(x: i32, z: i32) -> u64 {
    fn spread(v: u32) -> u64 {
        let mut v = v as u64;
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        (v | (v << 1)) & 0x5555_5555_5555_5555
    }
    // Offset so that negative cells sort before positive ones.
    spread((x as u32) ^ 0x8000_0000) | (spread((z as u32) ^ 0x8000_0000) << 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wander::{AgentRng, Wander};
    use sweep::MeshCollider;
    use sweep::test_util::Soup;

    /// Two agents of the smallest size on a floor, `gap` metres apart
    /// across: the first walks at full speed along `heading` (0: towards
    /// −z, where the second stands; π: away), the second stands still.
    fn pair(floor: &MeshCollider, gap: f32, heading: f32) -> (Crowd, Vec<PlacedCollider<'_>>) {
        let config = CrowdConfig::default();
        let radii = config.sizes[0];
        let controller = config.controller_for(0);
        let mut crowd = Crowd::new(config.clone()).unwrap();
        let placed = vec![PlacedCollider::fixed(floor)];
        let feet = [Vec3::ZERO, Vec3::new(0.0, 0.0, -(2.0 * radii.x + gap))];
        for (k, feet) in feet.into_iter().enumerate() {
            let mut state = CharacterState::standing_at(feet, &controller);
            state.ground = None;
            let mut wander = Wander::new(AgentRng::new(1, k as u64), &config.wander);
            (wander.heading, wander.leg_left, wander.pace) = (heading, 100.0, if k == 0 { 1.0 } else { 0.0 });
            crowd.agents.push(Agent {
                state,
                size: 0,
                wander,
                home: state.position,
                crushed: false,
            });
        }
        (crowd, placed)
    }

    #[test]
    fn an_agent_walking_into_a_neighbour_it_is_closer_to_than_the_polytope_reaches_yields() {
        let mut soup = Soup::default();
        soup.cuboid(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0));
        let floor = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let dt = 1.0 / 60.0;
        // Settle both onto the floor, standing.
        let (mut crowd, placed) = pair(&floor, 0.02, 0.0);
        let world = CrowdSurroundings::new(&placed);
        let walk_speed = crowd.config.controller.walk_speed;
        let settle = |crowd: &mut Crowd| {
            let pace = crowd.agents[0].wander.pace;
            crowd.agents[0].wander.pace = 0.0;
            for _ in 0..30 {
                crowd.step(&world, dt).unwrap();
            }
            crowd.agents[0].wander.pace = pace;
            crowd.agents[0].wander.leg_left = 100.0;
        };
        settle(&mut crowd);
        // Walking at full speed towards the other, 2 cm away: yields.
        let start = crowd.agents[0].state.position;
        crowd.agents[0].state.velocity = Vec3::new(0.0, 0.0, -walk_speed);
        let report = crowd.step(&world, dt).unwrap().clone();
        assert_eq!((report.yielded, report.retried), (1, 1), "{report:?}");
        // Its tick did not run, so it swept no polytope (the other is asleep).
        assert_eq!((report.hulls_swept, report.asleep), (0, 1), "{report:?}");
        assert_eq!(crowd.agents[0].state.position, start);
        assert_eq!(crowd.agents[0].state.velocity, Vec3::ZERO);
        // Walking away from it: its tick runs, and it moves.
        let (mut crowd, placed) = pair(&floor, 0.02, std::f32::consts::PI);
        let world = CrowdSurroundings::new(&placed);
        settle(&mut crowd);
        let start = crowd.agents[0].state.position;
        crowd.agents[0].state.velocity = Vec3::new(0.0, 0.0, walk_speed);
        let report = crowd.step(&world, dt).unwrap().clone();
        assert_eq!((report.yielded, report.retried), (0, 0), "{report:?}");
        assert!(crowd.agents[0].state.position.z > start.z + 0.5 * walk_speed * dt);
        // Towards it from 30 cm: farther than its polytope reaches, so it
        // walks (the polytope stops it short).
        let (mut crowd, placed) = pair(&floor, 0.3, 0.0);
        let world = CrowdSurroundings::new(&placed);
        settle(&mut crowd);
        let start = crowd.agents[0].state.position;
        crowd.agents[0].state.velocity = Vec3::new(0.0, 0.0, -walk_speed);
        let report = crowd.step(&world, dt).unwrap().clone();
        assert_eq!(report.yielded, 0, "{report:?}");
        assert!(crowd.agents[0].state.position.z < start.z - 0.5 * walk_speed * dt);
    }
}
