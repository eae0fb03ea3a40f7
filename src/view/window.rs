//! The window: Bevy's default plugins with it ([`window_plugins`], also
//! the `disk` asset source and logged errors passed to the screen),
//! resizable, F11 switches borderless fullscreen on and off, and vsync
//! follows the player's settings (the panel). Losing focus gives the
//! cursor back (`view::input`).

use super::errors;
use crate::sim::tuning::CurrentSettings;
use bevy::asset::io::AssetSourceBuilder;
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PresentMode, PrimaryWindow, WindowMode};

/// The asset source that reads any file on disk by its absolute path
/// (`disk://home/me/level.glb`), so `--level` and dropped files need not
/// be under `assets/`.
pub const DISK_SOURCE: &str = "disk";

/// Bevy's default plugins with a resizable window titled "slidewalk"
/// (vsync on until the settings say otherwise), logged errors passed to
/// the screen, and the `disk` asset source.
pub fn window_plugins(app: &mut App) {
    app.register_asset_source(DISK_SOURCE, AssetSourceBuilder::platform_default("/", None));
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "slidewalk".into(),
                    resizable: true,
                    present_mode: present_mode(true),
                    ..default()
                }),
                ..default()
            })
            .set(LogPlugin {
                custom_layer: errors::capture_layer,
                ..default()
            }),
    );
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (fullscreen_key, follow_vsync));
}

/// The present mode for a vsync setting (`Auto*` fall back to what the
/// platform has).
pub fn present_mode(vsync: bool) -> PresentMode {
    if vsync {
        PresentMode::AutoVsync
    } else {
        PresentMode::AutoNoVsync
    }
}

fn fullscreen_key(keys: Res<ButtonInput<KeyCode>>, mut window: Single<&mut Window, With<PrimaryWindow>>) {
    if keys.just_pressed(KeyCode::F11) {
        window.mode = match window.mode {
            WindowMode::Windowed => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
            _ => WindowMode::Windowed,
        };
    }
}

fn follow_vsync(settings: Res<CurrentSettings>, mut window: Single<&mut Window, With<PrimaryWindow>>) {
    let mode = present_mode(settings.0.vsync);
    if window.present_mode != mode {
        window.present_mode = mode;
    }
}
