//! Scripts: a script (JSON, see `play::Script`) played one fixed tick at a
//! time into the player's input (headless runs, tests), and `--record FILE`,
//! which writes what the player does as a script that replays headless.

use super::LaunchOptions;
use super::SimSet;
use super::level::CurrentLevel;
use super::player::{Player, PlayerInput};
use bevy::prelude::*;
use play::{Recorder, Script, ScriptPlayer};

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
    app.add_systems(FixedUpdate, feed_script.in_set(SimSet::Input))
        .add_systems(FixedUpdate, record.after(SimSet::Input).before(SimSet::Movers));
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

/// The recording in progress.
#[derive(Resource, Debug)]
pub struct Recording {
    recorder: Recorder,
    path: std::path::PathBuf,
    ticks: u64,
}

impl Recording {
    /// The script recorded so far.
    pub fn script(&self) -> &Script {
        self.recorder.script()
    }
}

/// Records this tick's input (with `--record FILE`), written to the file every second.
fn record(
    options: Option<Res<LaunchOptions>>,
    current: Res<CurrentLevel>,
    time: Res<Time<Fixed>>,
    recording: Option<ResMut<Recording>>,
    inputs: Query<&PlayerInput, With<Player>>,
    mut commands: Commands,
) {
    let Some(path) = options.as_ref().and_then(|o| o.0.record.clone()) else {
        return;
    };
    let Some(input) = inputs.iter().next() else { return };
    let dt = time.timestep().as_secs_f32();
    // A tap between two ticks counts as held for one tick, so it replays.
    let held = play::Buttons {
        jump: input.held.jump || input.pressed.jump,
        use_key: input.held.use_key || input.pressed.use_key,
        ..input.held
    };
    let Some(mut recording) = recording else {
        if current.level.is_some() {
            let level = current.path.as_ref().map(|p| p.display().to_string());
            let mut recorder = Recorder::new(dt, level, Some(current.spawn.position));
            recorder.record(input.movement, input.yaw, held);
            commands.insert_resource(Recording {
                recorder,
                path,
                ticks: 1,
            });
        }
        return;
    };
    recording.recorder.record(input.movement, input.yaw, held);
    recording.ticks += 1;
    let per_second = (1.0 / dt as f64).round().max(1.0) as u64;
    if recording.ticks % per_second == 0
        && let Err(e) = std::fs::write(&recording.path, recording.recorder.script().to_json())
    {
        warn!("cannot write the recording {}: {e}", recording.path.display());
    }
}
