//! Phases 2 and 3 of the step: the exact check that no two agents end
//! overlapping, the stand-still of the agents whose move it refuses, and
//! holding the ones refused again where the tick started.

use crate::grid::Grid;
use crate::parallel::fill;
use crate::scratch::{Clear, Outcome, Scratch};
use crate::separation::apart;
use crate::step::inputs::{CLEARANCE, Reach, StepInputs, TickScratch};
use glam::Vec3;
use slidewalk_controller::{CharacterState, Intent};
use slidewalk_sweep::{Ellipsoid, PlacedCollider};

/// Phases 2 and 3 of [`crate::Crowd::step`], in the order it runs them.
impl<'a> StepInputs<'a> {
    /// Phase 2, the check: a move is kept when its end is apart from every
    /// other agent's start, and from the end of every kept move of a
    /// lower index. An agent that did not move needs neither: the starts
    /// are apart (the step keeps them so), and a kept move's end is apart
    /// from its start, which is its end. One that yielded (its tick not
    /// run, see [`StepInputs::tick`]) is refused.
    ///
    /// Reads `scratch.moves` and `scratch.start_grid`; writes
    /// `scratch.ends` and `scratch.yielded` (by agent), `scratch.keep`
    /// (all kept when agents do not collide),
    /// `scratch.clear` (apart from the starts) and `scratch.end_grid`
    /// (over the moves' ends).
    pub(super) fn check_moves(&self, starts: &[Vec3], scratch: &mut Scratch) {
        let n = starts.len();
        // Each move's end and whether it yielded, by agent, read from the
        // moves in their order (one pass along them, not a jump per agent).
        scratch.ends.clear();
        scratch.ends.resize(n, Vec3::ZERO);
        scratch.yielded.clear();
        scratch.yielded.resize(n, false);
        for (m, &(_, i)) in scratch.moves.iter().zip(&scratch.order) {
            scratch.ends[i as usize] = m.state.position;
            scratch.yielded[i as usize] = m.outcome.yielded;
        }
        scratch.keep.clear();
        scratch.keep.resize(n, true);
        if !self.config.collide_agents {
            return;
        }
        let (ends, yielded) = (&scratch.ends, &scratch.yielded);
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
                !yielded[i]
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
    /// Reads `scratch.keep` and `scratch.ends`; writes `scratch.current`
    /// (where every agent is now), `scratch.end_grid` (over it, before the
    /// stand-stills, when any refused agent ticks) and the kept stand-stills into
    /// `scratch.moves`. Returns how many were refused, how many of those
    /// stood still, and those refused again.
    pub(super) fn stand_still(&self, starts: &[Vec3], scratch: &mut Scratch) -> (usize, usize, Vec<usize>) {
        let n = starts.len();
        let rank = &scratch.rank;
        let mut stood_still = 0;
        scratch.current.clear();
        scratch
            .current
            .extend((0..n).map(|i| if scratch.keep[i] { scratch.ends[i] } else { starts[i] }));
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
        fill(threads, &mut tries, TickScratch::default, |tick, w| {
            let i = refused[w];
            let mut state = CharacterState {
                velocity: Vec3::ZERO,
                ..agents[i].state
            };
            let outcome = if at_rest[w] {
                Outcome::default()
            } else {
                self.tick(tick, i, &mut state, &Intent::default(), grid, Reach::All)
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
    pub(super) fn hold(&self, refused: &[usize], scratch: &mut Scratch) {
        let world = self.world;
        for &i in refused {
            let standing = CharacterState {
                velocity: Vec3::ZERO,
                ..self.agents[i].state
            };
            let e = Ellipsoid::new(standing.radii).expect("valid radii");
            let inside = |c: &PlacedCollider<'_>| {
                slidewalk_sweep::penetration_depth_with(
                    &e,
                    standing.position,
                    std::slice::from_ref(c),
                    world.layers,
                    (),
                ) > 1e-4
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
