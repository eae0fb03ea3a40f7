//! What every thread reads during a step ([`StepInputs`]), and what one
//! agent's tick needs of it: the box its walk may sweep, which of the
//! others' polytopes it sweeps against, the controller tick itself, and
//! the exact test that two agents end apart ([`CLEARANCE`]).

use crate::config::CrowdConfig;
use crate::crowd::{Agent, CrowdSurroundings, SHELLS, Size, shell_scales};
use crate::grid::Grid;
use crate::scratch::Outcome;
use crate::separation::{apart, espace_distance, espace_distance_lower_bound};
use crate::step::far::{fastest_push, level_boxes, tick_margin};
use glam::Vec3;
use slidewalk_controller::{CharacterState, Intent, Surroundings, TickReport};
use slidewalk_sweep::{PlacedCollider, Pose};

/// The least gap the check demands between two agents' ellipsoids, in
/// the eSpace of each (a fraction of its radius): 0.1 mm on a 1 m radius.
/// The sweeps keep ten times that (the controller's skin) from the
/// polytopes, which are outside the ellipsoids.
pub const CLEARANCE: f64 = 1e-4;

/// How far around an agent its world takes in other agents (see [`StepInputs::reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reach {
    Ahead,
    All,
}

/// What one thread keeps from agent to agent while it ticks them: the
/// agent's world (the level's colliders, then the player and the
/// neighbours' polytopes) and the controller's report, both reused (the
/// report's contact list is not allocated again for every tick).
#[derive(Default)]
pub(super) struct TickScratch<'a> {
    colliders: Vec<PlacedCollider<'a>>,
    report: TickReport,
}

/// What every thread reads during a step.
pub(super) struct StepInputs<'a> {
    pub(super) world: &'a CrowdSurroundings<'a>,
    pub(super) sizes: &'a [Size],
    pub(super) agents: &'a [Agent],
    /// Each agent's radii and size, side by side in little memory: what
    /// an agent's neighbours' searches read of it.
    pub(super) radii: Vec<Vec3>,
    pub(super) size_of: Vec<u8>,
    pub(super) player: Option<PlacedCollider<'a>>,
    pub(super) config: &'a CrowdConfig,
    pub(super) dt: f32,
    /// Threads for the moves ([`CrowdConfig::threads_for`]).
    pub(super) threads: usize,
    /// The largest half box of any size's polytope, metres.
    pub(super) max_hull_half: Vec3,
    /// The largest radii of any size, metres.
    pub(super) max_radii: Vec3,
    /// [`crate::crowd::shell_scales`].
    pub(super) shells: [f32; SHELLS],
    /// 1 + [`crate::HullResolution::max_gap`].
    pub(super) hull_reach: f32,
    /// The cell of the step's grids, metres.
    pub(super) cell: Vec3,
    /// Boxes (metres) around what moves this tick besides the agents
    /// (see [`moving_boxes`]).
    pub(super) moving: Vec<(Vec3, Vec3)>,
    /// Each level collider's world box (metres), or the whole of space for
    /// one that moves: an agent farther from it than a tick can take it
    /// meets it with no layers ([`StepInputs::pass_over_far_level`]).
    pub(super) level_boxes: Vec<(Vec3, Vec3)>,
    /// How far beyond its radii and its velocity's travel one tick can
    /// take an agent or what its controller looks at, metres: [`tick_margin`]
    /// and the farthest a door or lift pushes it ([`fastest_push`]).
    pub(super) tick_margin: f32,
}

impl<'a> StepInputs<'a> {
    /// Gathers the step's arguments and what follows from them: the sizes'
    /// largest polytope and radii, the polytopes' scales, the grids' cell
    /// and what moves this tick besides the agents.
    pub(super) fn new(
        world: &'a CrowdSurroundings<'a>,
        sizes: &'a [Size],
        agents: &'a [Agent],
        player: Option<PlacedCollider<'a>>,
        config: &'a CrowdConfig,
        dt: f32,
        threads: usize,
    ) -> Self {
        let max_hull_half = sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.hull_half));
        let max_radii = sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.radii));
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
            max_radii,
            shells: shell_scales(config),
            hull_reach: 1.0 + config.hull.max_gap(),
            cell: Vec3::new(wide, 1e6, wide),
            moving: moving_boxes(world, player, dt),
            level_boxes: level_boxes(world.colliders),
            tick_margin: tick_margin(&config.controller, max_radii, dt) + fastest_push(world.colliders, dt),
        }
    }

    /// Whether `agent` standing still would stay exactly where it is: on
    /// ground that does not move, nothing moving near, not squeezed last
    /// tick (its stand-still tick would find the ground where it is).
    pub(super) fn at_rest(&self, agent: &Agent) -> bool {
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
    pub(super) fn reach(&self, state: &CharacterState, ahead: Option<Vec3>) -> (Vec3, Vec3) {
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
    pub(super) fn tick(
        &self,
        scratch: &mut TickScratch<'a>,
        i: usize,
        state: &mut CharacterState,
        intent: &Intent,
        grid: &Grid,
        reach: Reach,
    ) -> Outcome {
        let size = &self.sizes[self.agents[i].size as usize];
        let ahead = (reach == Reach::Ahead).then(|| self.ahead(state, intent));
        let (lo, hi) = self.reach(state, ahead);
        let TickScratch { colliders, report } = scratch;
        // The level's colliders first, in their places (the controller
        // knows the ground by index; the thread's last agent left them
        // there, their layers set below).
        let level = self.world.colliders.len();
        if colliders.len() < level {
            colliders.clear();
            colliders.extend_from_slice(self.world.colliders);
        }
        colliders.truncate(level);
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
        self.pass_over_far_level(state, &mut colliders[..level]);
        let friction = |c: usize, t: u32| if c < level { (self.world.friction)(c, t) } else { 1.0 };
        // Nobody steps up onto another agent (its polytope's side is a
        // wall taller than any step): the level's colliders only.
        let level_only = |c: usize| c < level;
        let world = Surroundings::new(colliders)
            .with_friction(&friction)
            .with_step_up_onto(&level_only)
            .with_layers(self.world.layers);
        match size.controller.tick_into(state, intent, &world, self.dt, report) {
            Ok(()) => Outcome {
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
    pub(super) fn check_reach(&self, i: usize) -> Vec3 {
        self.radii[i] + self.max_radii + Vec3::splat(0.01)
    }

    /// Whether agent `i`'s ellipsoid centred at `at` is apart from every
    /// other agent where `grid` holds them, and whether no agent `k` that
    /// `later(k)` accepts is within `wider` (metres per axis, when given)
    /// more of it: known only when that wider box touches no more cells
    /// of `grid` than the search does (else it answers no).
    pub(super) fn apart_from_starts(
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
    pub(super) fn apart_from_others(
        &self,
        i: usize,
        at: Vec3,
        grid: &Grid,
        mut consider: impl FnMut(usize) -> bool,
    ) -> bool {
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
