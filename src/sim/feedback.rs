//! The one place where the simulation's data flows back across a tick:
//! what a tick's outcome asks of the next one. Everything else in a tick
//! flows one way (input → intent → controller → sweep → transform).
//!
//! Written after the tick's steps — the balls' pushes on the player
//! (SimSet::Balls), the doors and lifts that squeezed the player or an
//! agent (SimSet::Player, SimSet::Crowd), the turn a rotating platform gave
//! the player (SimSet::Player) — and applied once, at the start of the next
//! tick (SimSet::Feedback): one tick's lag, the time it takes a push or a
//! squeeze to be felt.

use super::input::PlayerInput;
use super::movers::SqueezingMovers;
use super::schedule::SimSet;
use bevy::prelude::*;
use bevy_slidewalk::MovementIntent;
use glam::Vec3;

/// What this tick's outcome asks of the next tick.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Feedback {
    /// Velocity the balls gave the player, m/s: the next tick adds it to
    /// the player's motion (the intent's impulse, swept like any motion).
    pub ball_push: Vec3,
    /// Doors and lifts (indices in the level) that squeezed the player or
    /// an agent: the next tick turns them back.
    pub squeezing_movers: Vec<usize>,
    /// The player's turn about "up" given by a rotating platform, radians:
    /// the next tick adds it to the player's heading.
    pub heading_turn: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Feedback>()
        .add_systems(FixedUpdate, apply_feedback.in_set(SimSet::Feedback));
}

/// The last tick's feedback, taken and applied: to the player's intent and
/// heading, and to the movers' list of what squeezed.
fn apply_feedback(
    mut feedback: ResMut<Feedback>,
    mut squeezing: ResMut<SqueezingMovers>,
    // The player is the character with a player's input.
    mut players: Query<(&mut PlayerInput, &mut MovementIntent)>,
) {
    if *feedback == Feedback::default() {
        return;
    }
    let Feedback {
        ball_push,
        squeezing_movers,
        heading_turn,
    } = std::mem::take(&mut *feedback);
    squeezing.0.extend(squeezing_movers);
    for (mut input, mut intent) in &mut players {
        input.yaw += heading_turn;
        intent.impulse += ball_push;
    }
}
