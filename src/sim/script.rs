//! Scripted input: a script (JSON, see `play::Script`) played one fixed
//! tick at a time into the player's input, for headless runs and tests.

use super::SimSet;
use super::level::CurrentLevel;
use super::player::{Player, PlayerInput};
use bevy::prelude::*;
use play::{Script, ScriptPlayer};

/// A script being played.
#[derive(Resource, Debug)]
pub struct ScriptRun {
    script: Script,
    player: Option<ScriptPlayer>,
    /// Every step has been played.
    pub done: bool,
}

impl ScriptRun {
    /// Plays `script` from the first tick after the level is in.
    pub fn new(script: Script) -> Self {
        Self {
            script,
            player: None,
            done: false,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FixedUpdate, feed_script.in_set(SimSet::Input));
}

fn feed_script(
    run: Option<ResMut<ScriptRun>>,
    time: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    mut inputs: Query<&mut PlayerInput, With<Player>>,
) {
    let Some(mut run) = run else { return };
    if current.level.is_none() || run.done {
        return;
    }
    let dt = time.timestep().as_secs_f32();
    let run = &mut *run;
    let player = run
        .player
        .get_or_insert_with(|| ScriptPlayer::new(&run.script, dt, current.spawn.yaw));
    let Some(tick) = player.next() else {
        run.done = true;
        for mut input in &mut inputs {
            *input = PlayerInput {
                yaw: input.yaw,
                ..PlayerInput::default()
            };
        }
        return;
    };
    for mut input in &mut inputs {
        input.movement = tick.movement;
        input.yaw = tick.yaw;
        input.held = tick.held;
        input.pressed = tick.pressed;
    }
}
