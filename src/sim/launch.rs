//! The command line the game was started with, as a resource the
//! simulation's plugins read (the tick rate, the level, the spawn, …),
//! and the players of a network game it met.

use bevy::prelude::*;
use slidewalk_play::Options;

/// The command line the game was started with.
#[derive(Resource, Clone, Debug)]
pub struct LaunchOptions(pub Options);

/// The players of a game over the network: how many, and which of them
/// this machine plays (inserted before the simulation's plugins; absent,
/// one player on one machine).
#[derive(Resource, Clone, Copy, Debug)]
pub struct NetPlayers {
    /// Players in the session.
    pub count: usize,
    /// This machine's player's slot.
    pub local: usize,
}

/// Whether the game runs on one machine (no network session): local-only
/// actions (a rewind, live tuning, opening another level) need it.
pub fn on_one_machine(net: Option<Res<NetPlayers>>) -> bool {
    net.is_none()
}
