//! The window: resizable (see `view::window_plugins`), F11 switches
//! borderless fullscreen on and off, and vsync follows the player's
//! settings (the panel). Losing focus gives the cursor back (`view::input`).

use crate::sim::tuning::CurrentSettings;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PresentMode, PrimaryWindow, WindowMode};

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
