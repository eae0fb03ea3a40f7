//! `Crowd::step`: every agent's controller tick in parallel against the
//! level and the polytopes of the agents near it where the tick started;
//! then the check that no two agents end overlapping, and a sequential
//! stand-still of the few agents whose move it refuses.

use crate::config::CrowdError;
use crate::crowd::SHELLS;
use crate::crowd::{Agent, Crowd, CrowdWorld, Size, StepReport};
use crate::grid::Grid;
use crate::parallel::fill;
use crate::separation::{apart, espace_distance};
use crate::wander::Wander;
use controller::{CharacterState, Intent, Surroundings, validate_dt};
use glam::Vec3;
use std::time::Instant;
use sweep::{Ellipsoid, PlacedCollider, Pose};

/// The least gap the check demands between two agents' ellipsoids, in
/// the eSpace of each (a fraction of its radius): 0.1 mm on a 1 m radius.
/// The sweeps keep ten times that (the controller's skin) from the
/// polytopes, which are outside the ellipsoids.
pub const CLEARANCE: f64 = 1e-4;

/// One agent's tick as the parallel pass left it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Move {
    pub state: CharacterState,
    pub wander: Wander,
    pub outcome: Outcome,
}

/// What one controller tick reported.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Outcome {
    pub hulls: u32,
    pub sweeps: u32,
    pub asleep: bool,
    pub crushed: bool,
    /// A level collider that pushed it while it was crushed.
    pub crushed_by: Option<usize>,
}

/// How far around an agent its world takes in other agents (see [`StepInputs::reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Ahead,
    All,
}

/// What every thread reads during a step.
struct StepInputs<'a> {
    world: &'a CrowdWorld<'a>,
    sizes: &'a [Size],
    agents: &'a [Agent],
    player: Option<PlacedCollider<'a>>,
    config: &'a crate::CrowdConfig,
    dt: f32,
    /// The largest half box of any size's polytope, metres.
    max_hull_half: Vec3,
    /// The largest radii of any size, metres.
    max_radii: Vec3,
    /// [`crate::crowd::shell_scales`].
    shells: [f32; SHELLS],
    /// 1 + [`crate::HullResolution::max_gap`].
    hull_reach: f32,
}

impl<'a> StepInputs<'a> {
    /// The box (metres) an agent's ellipsoid may sweep through this tick.
    /// Agents whose polytopes reach into it are put in its world.
    ///
    /// `Reach::Ahead`: where its walk is heading, the displacement it will
    /// have (its velocity moved towards the intent's by one tick of
    /// acceleration, plus its ground's motion), with a step up and a snap
    /// down along "up" and 2 cm around: the neighbours beside and behind a
    /// walker are left out (it sweeps fewer polytopes; a move that ends in
    /// one of them anyway is refused by the check and run again).
    /// `Reach::All`: every direction it could go, for standing still.
    fn reach(&self, state: &CharacterState, intent: &Intent, reach: Reach) -> (Vec3, Vec3) {
        let c = &self.config.controller;
        let dt = self.dt;
        let up = state.up;
        let rise = up.abs() * c.step_height.max(c.snap_distance);
        let fall = 0.5 * c.gravity.length() * dt * dt;
        let accel = c.ground_acceleration.max(c.air_acceleration) * dt;
        let v = state.world_velocity();
        let (from, to) = match reach {
            Reach::All => {
                let h = Vec3::splat((v.length() + accel) * dt + fall + 0.01);
                (state.position - h, state.position + h)
            }
            Reach::Ahead => {
                let wish = intent.direction.reject_from(up).clamp_length_max(1.0) * c.walk_speed;
                let own = state.velocity.reject_from(up);
                let next = own + (wish - own).clamp_length_max(accel);
                let along = state.velocity.dot(up) * up;
                let ground = state.ground.map_or(Vec3::ZERO, |g| g.velocity);
                let moved = (next + along + ground) * dt;
                let (a, b) = (state.position, state.position + moved);
                (a.min(b) - Vec3::splat(fall + 0.02), a.max(b) + Vec3::splat(fall + 0.02))
            }
        };
        (from - state.radii - rise, to + state.radii + rise)
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
        // The scale at which the other's ellipsoid would touch this one.
        let touch = espace_distance(centre, radii, state.position, state.radii) as f32;
        let fits = touch * (1.0 - 1e-3) / self.hull_reach;
        self.shells.iter().position(|&s| s <= fits).unwrap_or(SHELLS - 1)
    }

    /// Runs agent `i`'s controller tick from `state` against the level,
    /// the player and the polytopes of the other agents at `positions`
    /// (found in `grid`, built over positions that may since have moved by
    /// up to `slack` metres).
    #[allow(clippy::too_many_arguments)]
    fn tick(
        &self,
        colliders: &mut Vec<PlacedCollider<'a>>,
        i: usize,
        state: &mut CharacterState,
        intent: &Intent,
        positions: &[Vec3],
        grid: &Grid,
        slack: f32,
        reach: Reach,
    ) -> Outcome {
        let size = &self.sizes[self.agents[i].size as usize];
        let (lo, hi) = self.reach(state, intent, reach);
        colliders.clear();
        colliders.extend_from_slice(self.world.colliders);
        let touches = |c: Vec3, half: Vec3| (c - half).cmple(hi).all() && (c + half).cmpge(lo).all();
        if let Some(player) = self.player
            && touches(player.pose.translation, player.mesh.bounds().size() * 0.5)
        {
            colliders.push(player);
        }
        let mut hulls = 0;
        if self.config.collide_agents {
            let m = self.max_hull_half + Vec3::splat(slack);
            grid.for_each_in(lo - m, hi + m, |k| {
                let other = &self.sizes[self.agents[k].size as usize];
                if k != i && touches(positions[k], other.hull_half) {
                    let shell = self.shell(state, positions[k], other.radii);
                    colliders.push(PlacedCollider::moving(
                        &other.hulls[shell],
                        Pose::from_translation(positions[k]),
                        Vec3::ZERO,
                        Vec3::ZERO,
                    ));
                    hulls += 1;
                }
            });
        }
        let level = self.world.colliders.len();
        let friction = |c: usize, t: u32| if c < level { (self.world.friction)(c, t) } else { 1.0 };
        let world = Surroundings::new(colliders).with_friction(&friction);
        match size.controller.tick(state, intent, &world, self.dt) {
            Ok(report) => Outcome {
                hulls,
                sweeps: report.sweeps,
                asleep: false,
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

    /// Whether agent `i`'s ellipsoid centred at `at` is apart from every
    /// other agent `k` (at `positions[k]`) that `consider(k)` accepts.
    fn apart_from_others(
        &self,
        i: usize,
        at: Vec3,
        positions: &[Vec3],
        grid: &Grid,
        slack: f32,
        consider: impl Fn(usize) -> bool,
    ) -> bool {
        let radii = self.agents[i].state.radii;
        let m = radii + self.max_radii + Vec3::splat(slack + 0.01);
        let mut ok = true;
        grid.for_each_in(at - m, at + m, |k| {
            if ok && k != i && consider(k) {
                ok = apart(at, radii, positions[k], self.agents[k].state.radii, CLEARANCE);
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
    pub fn step(&mut self, world: &CrowdWorld<'_>, dt: f32) -> Result<&StepReport, CrowdError> {
        validate_dt(dt).map_err(CrowdError::Dt)?;
        let player = world.player;
        let started = Instant::now();
        let n = self.agents.len();
        let threads = self.config.threads_for(n);
        if let Some(p) = player
            && self.player_hull.as_ref().is_none_or(|(r, _)| *r != p.radii)
        {
            self.player_hull = self.config.hull.collider(p.radii).map(|h| (p.radii, h));
        }
        let Crowd {
            config,
            sizes,
            agents,
            scratch,
            player_hull,
            report,
            fall_limit,
        } = self;
        let player = player.zip(player_hull.as_ref()).map(|(p, (_, hull))| {
            PlacedCollider::moving(hull, Pose::from_translation(p.centre), Vec3::ZERO, Vec3::ZERO)
        });
        let shared = StepInputs {
            world,
            sizes,
            agents,
            player,
            config,
            dt,
            max_hull_half: sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.hull_half)),
            max_radii: sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.radii)),
            shells: crate::crowd::shell_scales(config),
            hull_reach: 1.0 + config.hull.max_gap(),
        };
        // Columns (cells of unbounded height: agents mostly stand on one
        // floor) two polytopes wide, so a query spans two or three across.
        let wide = 4.0 * shared.max_hull_half.x.max(shared.max_hull_half.z);
        let cell = Vec3::new(wide, 1e6, wide);

        // 1. Every agent's tick, in parallel, against where the others start.
        let starts: Vec<Vec3> = agents.iter().map(|a| a.state.position).collect();
        scratch.start_grid.build(starts.iter().copied(), cell);
        let start_grid = &scratch.start_grid;
        // What moves this tick besides the agents: doors and lifts, the player.
        let level = world.colliders.len();
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
        // The moves are run in the order of a Z-curve over the agents'
        // cells (2 m across x and z), so agents run one after another are
        // near each other and share the level's data in the caches; each
        // move's outcome does not depend on the order.
        let mut order: Vec<(u64, u32)> = starts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    z_order((p.x * 0.5).floor() as i32, (p.z * 0.5).floor() as i32),
                    i as u32,
                )
            })
            .collect();
        order.sort_unstable();
        // `moves` is in that order; `rank[i]` is agent i's place in it.
        scratch.rank.clear();
        scratch.rank.resize(n, 0);
        for (w, &(_, i)) in order.iter().enumerate() {
            scratch.rank[i as usize] = w as u32;
        }
        scratch.moves.clear();
        scratch.moves.extend(order.iter().map(|&(_, i)| {
            let a = &agents[i as usize];
            Move {
                state: a.state,
                wander: a.wander,
                outcome: Outcome::default(),
            }
        }));
        // Whether an agent standing still would stay exactly where it is:
        // on ground that does not move, nothing moving near, not squeezed
        // last tick (its stand-still tick would find the ground where it is).
        let at_rest = |agent: &Agent| {
            let state = &agent.state;
            let r = state.radii + Vec3::splat(0.05);
            !agent.crushed
                && state
                    .ground
                    .is_some_and(|g| g.collider < level && g.velocity == Vec3::ZERO)
                && !moving
                    .iter()
                    .any(|(lo, hi)| (state.position - r).cmple(*hi).all() && (state.position + r).cmpge(*lo).all())
        };
        fill(threads, &mut scratch.moves, Vec::new, |colliders, w| {
            let i = order[w].1 as usize;
            let agent = &agents[i];
            let mut wander = agent.wander;
            let intent = wander.decide(&config.wander, dt);
            let mut state = agent.state;
            // Asleep: standing still on ground that does not move, nothing
            // moving near, not squeezed last tick. Its tick would change
            // nothing (no motion, the snap finds the ground where it is):
            // skipped.
            let asleep = intent.direction == Vec3::ZERO && state.velocity == Vec3::ZERO && at_rest(agent);
            let outcome = if asleep {
                Outcome {
                    asleep: true,
                    ..Outcome::default()
                }
            } else {
                shared.tick(
                    colliders,
                    i,
                    &mut state,
                    &intent,
                    &starts,
                    start_grid,
                    0.0,
                    Reach::Ahead,
                )
            };
            Move { state, wander, outcome }
        });
        let rank = &scratch.rank;
        let moved_at = Instant::now();

        // 2. The check: a move is kept when its end is apart from every
        // other agent's start, and from the end of every kept move of a
        // lower index. An agent that did not move needs neither: the starts
        // are apart (the step keeps them so), and a kept move's end is apart
        // from its start, which is its end.
        let moves = &scratch.moves;
        scratch.keep.clear();
        scratch.keep.resize(n, true);
        if config.collide_agents {
            let ends: Vec<Vec3> = (0..n).map(|i| moves[rank[i] as usize].state.position).collect();
            let moved = |i: usize| ends[i] != starts[i];
            // The check costs well under a microsecond per agent that
            // moved: threads only pay for themselves for thousands.
            let movers = (0..n).filter(|&i| moved(i)).count();
            let check_threads = if movers >= 4096 { threads } else { 1 };
            scratch.clear.clear();
            scratch.clear.resize(n, true);
            fill(
                check_threads,
                &mut scratch.clear,
                || (),
                |_, i| !moved(i) || shared.apart_from_others(i, ends[i], &starts, start_grid, 0.0, |_| true),
            );
            scratch.end_grid.build(ends.iter().copied(), cell);
            let (clear, end_grid) = (&scratch.clear, &scratch.end_grid);
            fill(
                check_threads,
                &mut scratch.keep,
                || (),
                |_, i| {
                    !moved(i)
                        || clear[i]
                            && shared
                                .apart_from_others(i, ends[i], &ends, end_grid, 0.0, |k| k < i && clear[k] && moved(k))
                },
            );
        }
        let checked = Instant::now();

        // 3. The refused agents stand still instead (a tick with no
        // walking: their lift carries them, a door pushes them), in
        // parallel, against where every other agent is now (kept moves at
        // their ends, refused ones at their starts), kept by the same
        // check; what is still refused stays at its start. (Ticking them
        // again with their walk was kept one time in five in a jam, and cost
        // as much as the rest of the retry.)
        let (mut stood_still, mut held) = (0, 0);
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
        let slack = 0.0f32;
        let mut tries: Vec<(CharacterState, Outcome, bool)> = Vec::new();
        let mut try_grid = Grid::default();
        if !refused.is_empty() {
            scratch.end_grid.build(scratch.current.iter().copied(), cell);
            let (grid, current) = (&scratch.end_grid, &scratch.current);
            tries.clear();
            tries.resize(refused.len(), (agents[0].state, Outcome::default(), false));
            // A few hundred stand-stills cost less than starting a thread.
            let retry_threads = if refused.len() >= 1024 { threads } else { 1 };
            fill(retry_threads, &mut tries, Vec::new, |colliders, w| {
                let i = refused[w];
                let mut state = CharacterState {
                    velocity: Vec3::ZERO,
                    ..agents[i].state
                };
                // At rest, standing still changes nothing: no tick (in a
                // jam most refused agents stand on the floor).
                let outcome = if at_rest(&agents[i]) {
                    Outcome::default()
                } else {
                    shared.tick(
                        colliders,
                        i,
                        &mut state,
                        &Intent::default(),
                        current,
                        grid,
                        0.0,
                        Reach::All,
                    )
                };
                let clear = shared.apart_from_others(i, state.position, current, grid, 0.0, |_| true);
                (state, outcome, clear)
            });
            // Among the clear tries, the lower index wins.
            try_grid.build(tries.iter().map(|t| t.0.position), cell);
            let ends: Vec<Vec3> = tries.iter().map(|t| t.0.position).collect();
            let mut kept = vec![false; refused.len()];
            fill(
                retry_threads,
                &mut kept,
                || (),
                |_, w| {
                    let i = refused[w];
                    tries[w].2 && {
                        let mut ok = true;
                        let radii = agents[i].state.radii;
                        let m = radii + shared.max_radii + Vec3::splat(0.01);
                        try_grid.for_each_in(ends[w] - m, ends[w] + m, |v| {
                            if ok && v < w && tries[v].2 {
                                let k = refused[v];
                                ok = apart(ends[w], radii, ends[v], agents[k].state.radii, CLEARANCE);
                            }
                        });
                        ok
                    }
                },
            );
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
        for &i in &refused {
            // Left where it was: if a door or lift has moved into it
            // meanwhile, it is crushed by it (the game turns a door back).
            held += 1;
            let standing = CharacterState {
                velocity: Vec3::ZERO,
                ..agents[i].state
            };
            let e = Ellipsoid::new(standing.radii).expect("valid radii");
            let inside = |c: &PlacedCollider<'_>| {
                sweep::penetration_depth(&e, standing.position, std::slice::from_ref(c)) > 1e-4
            };
            let crushed_by = world
                .colliders
                .iter()
                .position(|c| inside(c) && (c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO));
            let m = &mut scratch.moves[rank[i] as usize];
            m.state = standing;
            m.outcome.crushed = crushed_by.is_some() || world.colliders.iter().any(inside);
            m.outcome.crushed_by = crushed_by;
        }
        if retried > 0 {
            scratch.end_grid.build(scratch.current.iter().copied(), cell);
        }
        let retried_at = Instant::now();

        // Apply, note the blocked, bring back the fallen.
        let c = &config.controller;
        let mut next = StepReport {
            agents: n,
            threads,
            retried,
            stood_still,
            held,
            ..StepReport::default()
        };
        let mut fallen = Vec::new();
        for (i, agent) in agents.iter_mut().enumerate() {
            let m = &scratch.moves[rank[i] as usize];
            let from = agent.state.position;
            agent.state = m.state;
            agent.wander = m.wander;
            agent.crushed = m.outcome.crushed;
            let walked = (agent.state.position - from).reject_from(agent.state.up).length();
            agent.wander.blocked = agent.wander.pace > 0.0
                && agent.state.grounded()
                && walked < 0.25 * agent.wander.pace * c.walk_speed * dt;
            next.asleep += m.outcome.asleep as usize;
            next.hulls_swept += m.outcome.hulls as u64;
            next.sweeps += m.outcome.sweeps as u64;
            next.crushed += m.outcome.crushed as usize;
            next.crushing_colliders.extend(m.outcome.crushed_by);
            if agent.state.position.y < *fall_limit || !agent.state.position.is_finite() {
                fallen.push(i);
            }
        }
        next.crushing_colliders.sort_unstable();
        next.crushing_colliders.dedup();
        // A fallen agent goes home when home is free of the level and of
        // every other agent (those sent home this step included).
        let mut sent: Vec<usize> = Vec::new();
        for i in fallen {
            let agent = &agents[i];
            let (home, radii) = (agent.home, agent.state.radii);
            let e = Ellipsoid::new(radii).expect("valid radii");
            let free = sweep::penetration_depth(&e, home, world.colliders) == 0.0
                && shared_apart(
                    agents,
                    sizes,
                    i,
                    home,
                    &scratch.current,
                    &scratch.end_grid,
                    slack,
                    config.collide_agents,
                )
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
        next.returned_home = sent.len();
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
}

/// Whether `home` is apart from every agent but `i` where they are now
/// (`current`, in `grid` give or take `slack` metres).
#[allow(clippy::too_many_arguments)]
fn shared_apart(
    agents: &[Agent],
    sizes: &[Size],
    i: usize,
    home: Vec3,
    current: &[Vec3],
    grid: &Grid,
    slack: f32,
    collide: bool,
) -> bool {
    if !collide {
        return true;
    }
    let radii = agents[i].state.radii;
    let max = sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.radii));
    let m = radii + max + Vec3::splat(slack + 0.01);
    let mut ok = true;
    grid.for_each_in(home - m, home + m, |k| {
        if ok && k != i {
            ok = apart(home, radii, current[k], agents[k].state.radii, CLEARANCE);
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
