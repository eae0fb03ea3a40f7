//! Who plays: the markers on the players' characters (every player, the
//! one this machine shows) and on the entity the controls write, and
//! where each player's body is when another is placed beside them.

use bevy::prelude::*;
use bevy_slidewalk::MovementState;
use slidewalk_play::PlacedBody;

/// Marks a player's character: the one player of a game on one machine,
/// each of the players of a game over the network.
#[derive(Component, Clone, Copy, Debug)]
pub struct Player {
    /// Its number among the players (0 on one machine; the network
    /// session's player handle).
    pub slot: usize,
}

/// Marks the player this machine shows: the camera, the HUD and the
/// overlays follow it.
#[derive(Component, Debug)]
pub struct LocalPlayer;

/// Marks the entity whose [`PlayerInput`](crate::sim::input::PlayerInput)
/// the keyboard, mouse and gamepad write: the local player itself on one
/// machine; over the network, an entity of its own, read once a tick into
/// the session's input.
#[derive(Component, Debug)]
pub struct Controlled;

/// Every player's body (its centre and radii) by slot, as players are
/// placed one after another in slot order (a spawn, respawns in one
/// tick): what the next one placed keeps apart from.
#[derive(Clone, Debug, Default)]
pub struct PlayerBodies(Vec<(usize, PlacedBody)>);

impl PlayerBodies {
    /// The bodies of `players` (slot, state) as they are now.
    pub fn of<'a>(players: impl IntoIterator<Item = (usize, &'a MovementState)>) -> Self {
        Self(players.into_iter().map(|(slot, state)| (slot, body(state))).collect())
    }

    /// Every body but the one of the player in `slot`.
    pub fn others(&self, slot: usize) -> Vec<PlacedBody> {
        self.0.iter().filter(|(s, _)| *s != slot).map(|&(_, b)| b).collect()
    }

    /// The player in `slot` is now as `state` says (placed: the next one
    /// placed keeps apart from it there).
    pub fn moved(&mut self, slot: usize, state: &MovementState) {
        self.0.retain(|(s, _)| *s != slot);
        self.0.push((slot, body(state)));
    }
}

/// A player's body as another's placing sees it.
fn body(state: &MovementState) -> PlacedBody {
    PlacedBody {
        centre: state.position,
        radii: state.radii,
    }
}
