//! Scripts: a script (JSON, see `slidewalk_play::Script`) played one fixed tick at a
//! time into the player's input (headless runs, tests, or watched in the
//! window) from the state it says it starts from, and `--record FILE`,
//! which writes what the player does as a script that replays headless.

use super::input::PlayerInput;
use super::launch::LaunchOptions;
use super::level::CurrentLevel;
use super::level::MoverBody;
use super::movers::{LevelClock, SqueezingMovers, pose_of};
use super::player::LocalPlayer;
use super::schedule::SimSet;
use crate::notices::Notices;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementState};
use slidewalk_level::MoverKind;
use slidewalk_play::{Recorder, Script, ScriptPlayer, Start};

/// Reads a script file; the error names the file and what is wrong.
pub fn read_script(path: &std::path::Path) -> Result<Script, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read script {}: {e}", path.display()))?;
    Script::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A script that says where it was made (level, spawn, tick rate) is
/// played there, unless the command line says otherwise.
pub fn options_for_script(options: &slidewalk_play::Options, script: &Script) -> slidewalk_play::Options {
    let mut o = options.clone();
    if o.level.is_none() {
        o.level = script.level.as_ref().map(std::path::PathBuf::from);
    }
    if o.spawn.is_none() {
        o.spawn = script.spawn;
    }
    if o.tick_hz.is_none() {
        o.tick_hz = script.tick_hz;
    }
    o
}

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

/// The doors' and lifts' side of the simulation state.
#[derive(SystemParam)]
struct MoverState<'w, 's> {
    clock: ResMut<'w, LevelClock>,
    squeezed: ResMut<'w, SqueezingMovers>,
    bodies: Query<'w, 's, &'static mut MoverBody>,
}

/// Puts the simulation in the state a script starts from: its controller
/// settings, the player's state, the lifts' clock, the doors.
fn start_script(
    script: &Script,
    current: &CurrentLevel,
    body: &mut CharacterController,
    state: &mut MovementState,
    input: &mut PlayerInput,
    movers: &mut MoverState,
    notices: &mut Notices,
) {
    if let Some(config) = script.controller {
        // Taken in by the plugin at this tick's step (the state below is
        // already shaped for it).
        match config.validate() {
            Ok(()) => body.config = config,
            Err(e) => notices.error(format!("the script's controller settings: {e}")),
        }
    }
    let Some(start) = &script.start else {
        // From the spawn, shaped by the script's settings (a script plays
        // on one machine: no other player is in the way).
        current.respawn(body, state, input, &[]);
        return;
    };
    let Start {
        state: saved,
        clock_s,
        doors,
        lifts,
        squeezed: squeezers,
        ..
    } = start;
    **state = *saved;
    body.active = true;
    movers.clock.seconds = *clock_s;
    movers.squeezed.0 = squeezers.clone();
    let Some(level) = &current.level else { return };
    for mut m in movers.bodies.iter_mut() {
        let Some(mover) = level.movers.get(m.index) else {
            continue;
        };
        if matches!(mover.kind, MoverKind::Door(_)) {
            m.door = Some(doors.get(m.index).copied().flatten().unwrap_or_default());
        } else {
            m.lift_s = Some(lifts.get(m.index).copied().flatten().unwrap_or(*clock_s));
        }
        let pose = pose_of(mover, m.door, m.lift_s.unwrap_or(*clock_s));
        m.pose = pose;
        m.previous = pose;
    }
}

fn feed_script(
    run: Option<ResMut<ScriptRun>>,
    time: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    mut movers: MoverState,
    mut notices: ResMut<Notices>,
    mut players: Query<(&mut CharacterController, &mut MovementState, &mut PlayerInput), With<LocalPlayer>>,
) {
    let Some(mut run) = run else { return };
    if current.level.is_none() || run.done {
        return;
    }
    let dt = time.timestep().as_secs_f32();
    let run = &mut *run;
    if run.player.is_none() {
        for (mut body, mut state, mut input) in &mut players {
            start_script(
                &run.script,
                &current,
                &mut body,
                &mut state,
                &mut input,
                &mut movers,
                &mut notices,
            );
        }
    }
    let player = run
        .player
        .get_or_insert_with(|| ScriptPlayer::new(&run.script, dt, current.spawn.yaw));
    let Some(tick) = player.next() else {
        run.done = true;
        for (_, _, mut input) in &mut players {
            *input = PlayerInput {
                yaw: input.yaw,
                ..PlayerInput::default()
            };
        }
        return;
    };
    for (_, _, mut input) in &mut players {
        input.movement = tick.movement;
        input.yaw = tick.yaw;
        input.pitch = tick.pitch;
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
    inputs: Query<&PlayerInput, With<LocalPlayer>>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    let Some(path) = options.as_ref().and_then(|o| o.0.record.clone()) else {
        return;
    };
    let Some(input) = inputs.iter().next() else { return };
    let dt = time.timestep().as_secs_f32();
    // A tap between two ticks counts as held for one tick, so it replays.
    let held = slidewalk_play::Buttons {
        jump: input.held.jump || input.pressed.jump,
        use_key: input.held.use_key || input.pressed.use_key,
        throw: input.held.throw || input.pressed.throw,
        drop: input.held.drop || input.pressed.drop,
        dash: input.held.dash || input.pressed.dash,
        ..input.held
    };
    let Some(mut recording) = recording else {
        if current.level.is_some() {
            let level = current.path.as_ref().map(|p| p.display().to_string());
            let mut recorder = Recorder::new(dt, level, Some(current.spawn.position));
            recorder.record(input.movement, input.yaw, input.pitch, held);
            commands.insert_resource(Recording {
                recorder,
                path,
                ticks: 1,
            });
        }
        return;
    };
    recording.recorder.record(input.movement, input.yaw, input.pitch, held);
    recording.ticks += 1;
    let per_second = (1.0 / dt as f64).round().max(1.0) as u64;
    if recording.ticks % per_second == 0
        && let Err(e) = std::fs::write(&recording.path, recording.recorder.script().to_json())
    {
        // On screen (once: the same notice is not repeated), the game goes on.
        notices.error(format!("cannot write the recording {}: {e}", recording.path.display()));
    }
}
