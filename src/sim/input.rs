//! What the input (keyboard and mouse, or a script) asks of the player: written by the view's input or the script,
//! read by the player's tick, the doors and the balls; over the network, how much of the controls' heading the
//! simulation has taken in ([`HeadingTakenIn`]), for the view.

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

/// Over the network, the heading of the controls' input (the [`Controlled`](crate::sim::player::Controlled)
/// entity's, radians) that the newest simulated tick has taken in: the input delay holds each turn back a few
/// ticks, so the view turns the camera by the rest at once and mouse look never waits for the network. `None`
/// on one machine (the controls are the player's own input) and when a script plays.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct HeadingTakenIn(pub Option<f32>);

impl HeadingTakenIn {
    /// The look to show, (heading, pitch) in radians: over the network the
    /// controls' turns since what was taken in, added to the `simulated`
    /// heading (which a rotating platform or a respawn also changes), and
    /// the controls' pitch; otherwise the simulated look.
    pub fn look(&self, simulated: &PlayerInput, controls: Option<&PlayerInput>) -> (f32, f32) {
        match (self.0, controls) {
            (Some(taken_in), Some(controls)) => (simulated.yaw + (controls.yaw - taken_in), controls.pitch),
            _ => (simulated.yaw, simulated.pitch),
        }
    }
}
