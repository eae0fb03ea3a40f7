//! The one place where the simulation's data flows back across a tick:
//! what a tick's outcome asks of the next one. Everything else in a tick
//! flows one way (input → intent → controller → sweep → transform).
//!
//! Written after the tick's steps — the balls' pushes on the player
//! (SimSet::Balls), the doors and lifts that squeezed the player or an
//! agent (SimSet::Player, SimSet::Crowd), the turn a rotating platform gave
//! the player (SimSet::Player), a kill zone the player entered
//! (SimSet::Player, `sensors`) — and applied once, at the start of the next
//! tick (SimSet::Feedback): one tick's lag, the time it takes a push or a
//! squeeze to be felt. (Which sensors the player is in is state, kept on
//! the sensors' entities and read by the next tick's doors.)

use super::input::PlayerInput;
use super::level::CurrentLevel;
use super::movers::SqueezingMovers;
use super::players::{Player, PlayerBodies};
use super::schedule::SimSet;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementIntent, MovementState};
use glam::Vec3;

/// What this tick's outcome asks of the next tick, for the level.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Feedback {
    /// Doors and lifts (indices in the level) that squeezed a player or
    /// an agent: the next tick turns them back.
    pub squeezing_movers: Vec<usize>,
}

/// What this tick's outcome asks of a player's next tick.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerFeedback {
    /// Velocity the balls gave the player, m/s: the next tick adds it as a
    /// knockback (the intent's impulse: swept like any motion, off the
    /// ground while it carries the player up).
    pub ball_push: Vec3,
    /// The player's turn about "up" given by a rotating platform, radians:
    /// the next tick adds it to the player's heading.
    pub heading_turn: f32,
    /// The player entered a kill zone: the next tick starts at the
    /// respawn point (the last checkpoint's, else the level's spawn).
    pub killed: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Feedback>()
        .add_systems(FixedUpdate, apply_feedback.in_set(SimSet::Feedback));
}

/// The last tick's feedback, taken and applied: to each player's intent
/// and heading (in slot order: players killed in one tick respawn one
/// after another, each apart from the others), and to the movers' list of
/// what squeezed.
fn apply_feedback(
    mut feedback: ResMut<Feedback>,
    mut squeezing: ResMut<SqueezingMovers>,
    current: Res<CurrentLevel>,
    mut players: Query<(
        &Player,
        &mut PlayerFeedback,
        &mut PlayerInput,
        &mut MovementIntent,
        &CharacterController,
        &mut MovementState,
    )>,
) {
    if !feedback.squeezing_movers.is_empty() {
        squeezing.0.extend(std::mem::take(&mut feedback.squeezing_movers));
    }
    let mut bodies = PlayerBodies::of(players.iter().map(|p| (p.0.slot, p.5)));
    let mut in_order: Vec<_> = players.iter_mut().collect();
    in_order.sort_by_key(|p| p.0.slot);
    for (player, mut own, mut input, mut intent, body, mut state) in in_order {
        if *own == PlayerFeedback::default() {
            continue;
        }
        let PlayerFeedback {
            ball_push,
            heading_turn,
            killed,
        } = std::mem::take(&mut *own);
        input.yaw += heading_turn;
        intent.impulse += ball_push;
        if killed {
            current.respawn(body, &mut state, &mut input, &bodies.others(player.slot));
            bodies.moved(player.slot, &state);
            intent.impulse = Vec3::ZERO;
        }
    }
}
