//! `--screenshot PATH --frames N` (save the window after N frames, then
//! exit) and `--record FILE` (write what the player does as a script that
//! replays headless).

use crate::sim::level::CurrentLevel;
use crate::sim::player::{Player, PlayerInput};
use crate::sim::{LaunchOptions, SimSet};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use play::Recorder;

/// Frames shown so far, and when the screenshot was asked for.
#[derive(Resource, Default, Debug)]
struct Frames {
    shown: u32,
    requested_at: Option<u32>,
}

/// The recording in progress.
#[derive(Resource, Debug)]
struct Recording {
    recorder: Recorder,
    path: std::path::PathBuf,
    ticks: u64,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Frames>()
        .add_systems(Update, screenshot)
        .add_systems(FixedUpdate, record.after(SimSet::Input).before(SimSet::Player));
}

fn screenshot(
    options: Res<LaunchOptions>,
    mut frames: ResMut<Frames>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = &options.0.screenshot else { return };
    frames.shown += 1;
    if frames.shown == 1 {
        info!("first frame");
    }
    match frames.requested_at {
        None if frames.shown >= options.0.frames => {
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
            frames.requested_at = Some(frames.shown);
            info!("screenshot: {}", path.display());
        }
        // Give the capture a few frames to reach the disk, then leave.
        Some(at) if frames.shown > at + 10 => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

fn record(
    options: Res<LaunchOptions>,
    current: Res<CurrentLevel>,
    time: Res<Time<Fixed>>,
    recording: Option<ResMut<Recording>>,
    inputs: Query<&PlayerInput, With<Player>>,
    mut commands: Commands,
) {
    let Some(path) = &options.0.record else { return };
    let Some(input) = inputs.iter().next() else { return };
    let Some(mut recording) = recording else {
        if current.level.is_some() {
            let level = current.path.as_ref().map(|p| p.display().to_string());
            commands.insert_resource(Recording {
                recorder: Recorder::new(time.timestep().as_secs_f32(), level, Some(current.spawn.position)),
                path: path.clone(),
                ticks: 0,
            });
        }
        return;
    };
    recording.recorder.record(input.movement, input.yaw, input.held);
    recording.ticks += 1;
    // Written every second, so the file is there whenever the game is closed.
    if recording.ticks % (1.0 / time.timestep().as_secs_f64()).round().max(1.0) as u64 == 0
        && let Err(e) = std::fs::write(&recording.path, recording.recorder.script().to_json())
    {
        warn!("cannot write the recording {}: {e}", recording.path.display());
    }
}
