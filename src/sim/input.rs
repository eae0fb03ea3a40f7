//! What the input (keyboard and mouse, or a script) asks of the player: written by the view's input or the script,
//! read by the player's tick, the doors and the balls.

use bevy::prelude::*;
use glam::Vec2;
use slidewalk_play::Buttons;

/// What the input (keyboard and mouse, or a script) asks of the player.
/// Presses are collected until the next tick uses them.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayerInput {
    /// [right, forward], each −1..1.
    pub movement: Vec2,
    /// Heading, radians (0 looks along −z, positive turns left).
    pub yaw: f32,
    /// Look up (+) or down (−), radians.
    pub pitch: f32,
    /// Buttons held.
    pub held: Buttons,
    /// Buttons pressed since the last tick.
    pub pressed: Buttons,
    /// Respawn was asked for (R).
    pub respawn: bool,
    /// Fly mode toggle was asked for (F).
    pub toggle_fly: bool,
}
