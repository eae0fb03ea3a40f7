//! The end of the step: the agents take their moves (and note when they
//! were blocked), and the ones that fell out of the level go back home
//! when home is free.

use crate::config::CrowdConfig;
use crate::crowd::{Agent, CrowdSurroundings, Size, StepReport};
use crate::grid::Grid;
use crate::parallel::update;
use crate::scratch::Scratch;
use crate::separation::apart;
use crate::step::inputs::CLEARANCE;
use glam::Vec3;
use slidewalk_controller::CharacterState;
use slidewalk_sweep::Ellipsoid;

/// Applying the step: every agent takes its state, wander and crushed
/// flag from `scratch.moves`, and is noted blocked (for its wander) when
/// it walked less than a quarter of its pace on the ground, on `threads`
/// (each agent by itself). Adds the moves' counts and crushing colliders
/// into `next`; returns the agents that fell below `fall_limit` or whose
/// position is not finite, by index.
pub(super) fn apply_moves(
    agents: &mut [Agent],
    scratch: &Scratch,
    config: &CrowdConfig,
    (dt, threads): (f32, usize),
    fall_limit: f32,
    next: &mut StepReport,
) -> Vec<usize> {
    let c = &config.controller;
    let (moves, rank) = (&scratch.moves, &scratch.rank);
    update(
        threads,
        agents,
        || (),
        |_, i, agent| {
            let m = &moves[rank[i] as usize];
            let from = agent.state.position;
            agent.state = m.state;
            agent.wander = m.wander;
            agent.crushed = m.outcome.crushed;
            let walked = (agent.state.position - from).reject_from(agent.state.up).length();
            agent.wander.blocked = agent.wander.pace > 0.0
                && agent.state.grounded()
                && walked < 0.25 * agent.wander.pace * c.walk_speed * dt;
        },
    );
    // The counts, in the moves' order (sums, and the colliders sorted).
    let mut fallen = Vec::new();
    for (m, &(_, i)) in moves.iter().zip(&scratch.order) {
        next.asleep += m.outcome.asleep as usize;
        next.yielded += m.outcome.yielded as usize;
        next.hulls_swept += m.outcome.hulls as u64;
        next.sweeps += m.outcome.sweeps as u64;
        next.crushed += m.outcome.crushed as usize;
        next.crushing_colliders.extend(m.outcome.crushed_by);
        let at = m.state.position;
        if at.y < fall_limit || !at.is_finite() {
            fallen.push(i as usize);
        }
    }
    next.crushing_colliders.sort_unstable();
    next.crushing_colliders.dedup();
    fallen.sort_unstable();
    fallen
}

/// Bringing back the fallen: a fallen agent goes home (standing there
/// with no velocity and no ground) when home is free of the level's
/// colliders and of every other agent where it is now (`scratch.current`
/// in `scratch.end_grid`, when agents `collide`), those sent home this
/// step included. Writes their states; returns how many went home.
pub(super) fn send_home(
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
        let free = slidewalk_sweep::penetration_depth_with(&e, home, world.colliders, world.layers, ()) == 0.0
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
