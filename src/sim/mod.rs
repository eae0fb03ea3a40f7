//! The simulation: the fixed tick and the order of its steps
//! ([`schedule`]), the command line it was started with ([`launch`]), and
//! the plugins that move things — the level and its colliders, doors and
//! lifts, the player's controller, the level's sensors, the crowd of
//! agents, bouncing balls, scripted input, live tuning and settings, the
//! rewind buffer — in
//! `FixedUpdate`, with no renderer, so they run the same under
//! `MinimalPlugins` (headless runs, tests) and in the window. This module
//! only assembles them.

pub mod balls;
pub mod colliders;
pub mod crowd;
pub mod feedback;
pub mod input;
pub mod launch;
pub mod level;
pub mod movers;
pub mod player;
pub mod players;
pub mod rewind;
pub mod schedule;
pub mod script;
pub mod sensors;
pub mod tuning;

use bevy::prelude::*;

/// All simulation plugins: the fixed tick and its order first
/// ([`schedule`]), then what moves in it.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        schedule::plugin,
        crate::notices::plugin,
        level::plugin,
        movers::plugin,
        balls::plugin,
        crowd::plugin,
        feedback::plugin,
        player::plugin,
        script::plugin,
        sensors::plugin,
        tuning::plugin,
        rewind::plugin,
    ));
}
