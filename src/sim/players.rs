//! Who plays: the markers on the players' characters (every player, the
//! one this machine shows) and on the entity the controls write.

use bevy::prelude::*;

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

/// Marks the entity whose [`PlayerInput`] the keyboard, mouse and gamepad
/// write: the local player itself on one machine; over the network, an
/// entity of its own, read once a tick into the session's input.
#[derive(Component, Debug)]
pub struct Controlled;
