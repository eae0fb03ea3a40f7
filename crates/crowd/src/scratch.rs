//! The step's working data: one agent's move as the parallel pass left it
//! ([`Move`], [`Outcome`]), what the check found of it ([`Clear`]), and the
//! buffers a [`crate::Crowd`] keeps from step to step ([`Scratch`]).

use crate::grid::Grid;
use crate::wander::Wander;
use glam::Vec3;
use slidewalk_controller::CharacterState;

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
    /// Its tick was not run: heading straight into a neighbour it was
    /// already closer to than that one's outer polytope reaches (see
    /// `StepInputs::tick`); the check refuses it.
    pub yielded: bool,
}

/// What the check's first pass found of one agent's move.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clear {
    /// Its end is apart from every other agent's start.
    pub apart: bool,
    /// No other mover of a lower index is near enough to end near it.
    pub alone: bool,
}

/// Buffers kept from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub start_grid: Grid,
    pub end_grid: Grid,
    /// The moves, in the order they are run.
    pub moves: Vec<Move>,
    /// That order: (Z-curve key, agent), sorted; the next step's sort
    /// starts from it.
    pub order: Vec<(u64, u32)>,
    /// Each agent's place in `moves`.
    pub rank: Vec<u32>,
    /// Each agent's move's end (metres) and whether it yielded, by agent.
    pub ends: Vec<Vec3>,
    pub yielded: Vec<bool>,
    /// The check's first pass, per agent.
    pub clear: Vec<Clear>,
    pub keep: Vec<bool>,
    pub current: Vec<Vec3>,
}
