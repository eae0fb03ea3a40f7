//! The tuning panel (egui, Tab shows or hides it): first what the mission
//! names — the ellipsoid's radii, gravity with presets, the overlays — then
//! the view, the crowd, every controller tunable with its unit and a hover
//! explanation, the rewind (opened while paused), live readouts with
//! rolling plots, and the bouncing balls (size, bounce, friction, throw,
//! cap, tick time), the long sections collapsed until opened.
//! The panel only sends [`Tune`](crate::sim::tuning::Tune) and
//! [`RewindRequest`](crate::sim::rewind::RewindRequest) messages; the
//! simulation checks and applies them, and a refusal is shown here.
//!
//! * `draw`: the panel's window and its sections in order;
//! * `state`: everything the panel reads;
//! * `controller`: the ellipsoid, gravity and the controller's tunables;
//! * `display`: the overlays and how the game looks;
//! * `rewind`: pausing, stepping, viewing and saving the ticks held;
//! * `readouts`: the tick shown, in numbers and rolling plots;
//! * `balls`: the bouncing balls' settings and buttons;
//! * `gamepad`: the gamepad's look settings and the one connected (a
//!   small window of its own beside the panel).
//!
//! (The crowd's section is `view::crowd`'s.)

mod balls;
mod controller;
mod display;
mod draw;
mod gamepad;
mod readouts;
mod rewind;
mod state;

use bevy::prelude::*;

/// The panel's plugins.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((rewind::plugin, draw::plugin, gamepad::plugin));
}
