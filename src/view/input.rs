//! Keyboard and mouse → the player's input: WASD, mouse look with the
//! cursor grabbed (Esc releases it, a click grabs it again, losing focus
//! releases it), Space, Shift, Ctrl, E, R, F; a level file dropped on the
//! window is opened.

use crate::sim::level::OpenLevel;
use crate::sim::player::{Player, PlayerInput};
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, FileDragAndDrop, PrimaryWindow, WindowFocused};
use glam::Vec2;

/// Radians of turn per pixel of mouse motion.
const MOUSE_SENSITIVITY: f32 = 0.0022;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (grab_cursor, read_keys, look, open_dropped_files));
}

fn set_grab(cursor: &mut CursorOptions, grab: bool) {
    cursor.grab_mode = if grab {
        CursorGrabMode::Locked
    } else {
        CursorGrabMode::None
    };
    cursor.visible = !grab;
}

fn grab_cursor(
    mut cursor: Single<&mut CursorOptions, With<PrimaryWindow>>,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut focus: MessageReader<WindowFocused>,
) {
    if mouse.just_pressed(MouseButton::Left) {
        set_grab(&mut cursor, true);
    }
    if keys.just_pressed(KeyCode::Escape) {
        set_grab(&mut cursor, false);
    }
    if focus.read().any(|f| !f.focused) {
        set_grab(&mut cursor, false);
    }
}

fn read_keys(keys: Res<ButtonInput<KeyCode>>, mut inputs: Query<&mut PlayerInput, With<Player>>) {
    let axis = |plus: KeyCode, minus: KeyCode| keys.pressed(plus) as i32 as f32 - keys.pressed(minus) as i32 as f32;
    let held = |a: KeyCode, b: KeyCode| keys.pressed(a) || keys.pressed(b);
    for mut input in &mut inputs {
        input.movement =
            Vec2::new(axis(KeyCode::KeyD, KeyCode::KeyA), axis(KeyCode::KeyW, KeyCode::KeyS)).clamp_length_max(1.0);
        input.held.jump = keys.pressed(KeyCode::Space);
        input.held.sprint = held(KeyCode::ShiftLeft, KeyCode::ShiftRight);
        input.held.crouch = held(KeyCode::ControlLeft, KeyCode::ControlRight);
        input.held.use_key = keys.pressed(KeyCode::KeyE);
        // Presses wait for the next tick (cleared by it).
        input.pressed.jump |= keys.just_pressed(KeyCode::Space);
        input.pressed.use_key |= keys.just_pressed(KeyCode::KeyE);
        input.respawn |= keys.just_pressed(KeyCode::KeyR);
        input.toggle_fly |= keys.just_pressed(KeyCode::KeyF);
    }
}

fn look(
    motion: Res<AccumulatedMouseMotion>,
    cursor: Single<&CursorOptions, With<PrimaryWindow>>,
    mut inputs: Query<&mut PlayerInput, With<Player>>,
) {
    if cursor.grab_mode == CursorGrabMode::None || motion.delta == Vec2::ZERO {
        return;
    }
    let limit = std::f32::consts::FRAC_PI_2 - 0.01;
    for mut input in &mut inputs {
        input.yaw -= motion.delta.x * MOUSE_SENSITIVITY;
        input.pitch = (input.pitch - motion.delta.y * MOUSE_SENSITIVITY).clamp(-limit, limit);
    }
}

fn open_dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut open: MessageWriter<OpenLevel>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            open.write(OpenLevel(path_buf.clone()));
        }
    }
}
