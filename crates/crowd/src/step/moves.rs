//! Phase 1 of the step, the moves: every agent's controller tick, in
//! parallel, against where the others start, run in the order of a
//! Z-curve over the agents' cells, with the level's data near a batch of
//! them fetched together.

use crate::crowd::Agent;
use crate::grid::{Grid, floor_to_i32};
use crate::parallel::fill;
use crate::scratch::{Move, Outcome, Scratch};
use crate::step::inputs::{Reach, StepInputs, TickScratch};
use glam::Vec3;
use slidewalk_sweep::Aabb;

/// Agents, taken in the moves' order, whose level data is fetched together
/// before the first of them ticks ([`StepInputs::fetch_level_near`]).
const FETCH_BATCH: usize = 16;

/// Phase 1 of [`crate::Crowd::step`].
impl<'a> StepInputs<'a> {
    /// Phase 1, the moves: builds `scratch.start_grid` over `starts`, puts
    /// the agents in the order of [`order_moves`] (writing `scratch.order`
    /// and `scratch.rank`),
    /// and runs every agent's [`StepInputs::move_agent`] in parallel into
    /// `scratch.moves`.
    pub(super) fn run_moves(&self, starts: &[Vec3], scratch: &mut Scratch) {
        scratch.start_grid.build(starts.iter().copied(), self.cell);
        order_moves(starts, self.agents, scratch);
        let (order, start_grid) = (&scratch.order, &scratch.start_grid);
        let fetch = self.world.colliders.iter().any(|c| c.mesh.fetches_ahead());
        fill(self.threads, &mut scratch.moves, TickScratch::default, |tick, w| {
            if fetch && w % FETCH_BATCH == 0 {
                let batch = &order[w..(w + FETCH_BATCH).min(order.len())];
                self.fetch_level_near(batch.iter().map(|&(_, i)| i as usize));
            }
            self.move_agent(tick, order[w].1 as usize, start_grid)
        });
    }

    /// Starts loading the level's data near each of `agents` (where its
    /// tick can reach), for all of them together: on a level larger than
    /// the caches, their ticks then find it loaded instead of each waiting
    /// for the tree one level after another ([`slidewalk_sweep::PlacedCollider::fetch_near`]).
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
    fn move_agent(&self, tick: &mut TickScratch<'a>, i: usize, start_grid: &Grid) -> Move {
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
            self.tick(tick, i, &mut state, &intent, start_grid, Reach::Ahead)
        };
        Move { state, wander, outcome }
    }
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
