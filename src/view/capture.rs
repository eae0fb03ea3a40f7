//! `--screenshot PATH --frames N`: save the window after N frames, then exit.

use crate::sim::launch::LaunchOptions;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Frames shown so far, and when the screenshot was asked for.
#[derive(Resource, Default, Debug)]
struct Frames {
    shown: u32,
    requested_at: Option<u32>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Frames>().add_systems(Update, screenshot);
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
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()));
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
