//! Helpers of the controller benchmark (`benches/controller.rs`): its
//! constants, the controllers compared, and the modules for the input
//! script, the players and their spawns, and the printed figures.

pub mod players;
pub mod script;
pub mod stats;

use std::time::Duration;

/// Tick length, seconds (60 Hz).
pub const DT: f32 = 1.0 / 60.0;
/// Ticks in the scripted cycle (10 s).
pub const CYCLE: usize = 600;
/// Players of the cold benchmark.
pub const PLAYERS: usize = 1_000;
/// Rounds of all cold players in the printed figures.
pub const COLD_ROUNDS: usize = 20;
/// Seed of the script, spawns, headings and phases.
pub const SEED: u64 = 0xc011_011e;
/// The planned path of the script stays this close to its start, metres.
pub const PLAN_RADIUS: f32 = 6.0;
/// Highest point of the generated levels' terrain, metres.
pub const TERRAIN_TOP: f32 = 0.45;

/// The controllers compared, in the order of the summary's columns.
#[derive(Clone, Copy, PartialEq)]
pub enum Peer {
    Ours,
    RapierAutostep,
    RapierNoAutostep,
}

impl Peer {
    pub const ALL: [Peer; 3] = [Peer::Ours, Peer::RapierAutostep, Peer::RapierNoAutostep];

    pub fn name(self) -> &'static str {
        match self {
            Peer::Ours => "ours",
            Peer::RapierAutostep => "rapier/autostep",
            Peer::RapierNoAutostep => "rapier/no_autostep",
        }
    }
}

/// A duration in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
