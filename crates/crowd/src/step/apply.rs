//! The end of the step: the agents take their moves (and note when they
//! were blocked), and the ones that fell out of the level go back home
//! when home is free.

use crate::config::CrowdConfig;
use crate::crowd::{Agent, CrowdSurroundings, Size, StepReport};
use crate::grid::Grid;
use crate::scratch::Scratch;
use crate::separation::apart;
use crate::step::inputs::CLEARANCE;
use glam::Vec3;
use slidewalk_controller::CharacterState;
use slidewalk_sweep::Ellipsoid;

/// Applying the step: every agent takes its state, wander and crushed
/// flag from `scratch.moves`, and is noted blocked (for its wander) when
/// it walked less than a quarter of its pace on the ground. Adds the
/// moves' counts and crushing colliders into `next`; returns the agents
/// that fell below `fall_limit` or whose position is not finite.
pub(super) fn apply_moves(
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
