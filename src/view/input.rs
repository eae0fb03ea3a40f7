//! Keyboard and mouse → the player's input: WASD, mouse look with the
//! cursor grabbed (Esc releases it, a click grabs it again, losing focus
//! releases it), Space, Shift, Ctrl, E, Q (dash), R, F, the left button (held:
//! charge a ball, let go: throw it); Tab (panel), V (camera), G (grid
//! everywhere), P, ← and → (rewind), C (clear the balls), B (drop 50
//! balls); a level file dropped on the window is opened.
//! While the panel has the pointer or the keyboard, the game gets neither.
//! What the keyboard holds is also kept in [`KeyboardIntent`], for the
//! gamepad (`view::gamepad`, run after `read_keys`) to add its own to.

use crate::sim::balls::BallControl;
use crate::sim::input::PlayerInput;
use crate::sim::level::OpenLevel;
use crate::sim::player::Controlled;
use crate::sim::rewind::{Rewind, RewindRequest};
use crate::sim::script::ScriptRun;
use crate::sim::tuning::{CurrentSettings, Tune};
use bevy::ecs::system::SystemParam;
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, FileDragAndDrop, PrimaryWindow, WindowFocused};
use bevy_egui::input::EguiWantsInput;
use glam::Vec2;

/// Radians of turn per pixel of mouse motion.
const MOUSE_SENSITIVITY: f32 = 0.0022;

/// How far the look may tilt up or down, radians: just short of straight
/// up or down (the mouse's and the gamepad's).
pub(crate) const PITCH_LIMIT: f32 = std::f32::consts::FRAC_PI_2 - 0.01;

/// What the keyboard asks for this frame (zero while the panel has the
/// input): the gamepad's system adds its own to it. Presses go straight to
/// the player's input.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct KeyboardIntent {
    /// [right, forward], each −1..1.
    pub movement: Vec2,
    /// Buttons held.
    pub held: slidewalk_play::Buttons,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<KeyboardIntent>().add_systems(
        Update,
        (
            // The click that grabs the cursor is not a throw.
            read_keys.before(grab_cursor),
            grab_cursor,
            look,
            view_keys,
            ball_keys,
            open_dropped_files,
        ),
    );
}

/// Who else has the input: a script being watched (it drives the player)
/// or the panel (egui using the pointer or typing). Shared by the keyboard
/// and the gamepad.
#[derive(SystemParam)]
pub(crate) struct InputGate<'w> {
    egui: Option<Res<'w, EguiWantsInput>>,
    script: Option<Res<'w, ScriptRun>>,
}

impl InputGate<'_> {
    /// A script being watched drives the player.
    pub(crate) fn script_playing(&self) -> bool {
        self.script.as_ref().is_some_and(|s| !s.done)
    }

    /// The panel uses the pointer or the keyboard: the game gets neither.
    pub(crate) fn panel_has_input(&self) -> bool {
        let (pointer, typing) = panel_has_input(&self.egui);
        pointer || typing
    }
}

/// Whether egui (the panel) is using the pointer or typing.
fn panel_has_input(egui: &Option<Res<EguiWantsInput>>) -> (bool, bool) {
    egui.as_ref().map_or((false, false), |e| {
        (e.wants_any_pointer_input(), e.wants_any_keyboard_input())
    })
}

pub(crate) fn set_grab(cursor: &mut CursorOptions, grab: bool) {
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
    egui: Option<Res<EguiWantsInput>>,
    mut focus: MessageReader<WindowFocused>,
) {
    // A click on the panel is for the panel.
    if mouse.just_pressed(MouseButton::Left) && !panel_has_input(&egui).0 {
        set_grab(&mut cursor, true);
    }
    if keys.just_pressed(KeyCode::Escape) {
        set_grab(&mut cursor, false);
    }
    if focus.read().any(|f| !f.focused) {
        set_grab(&mut cursor, false);
    }
}

/// The keyboard and the left mouse button → the player's input (and
/// [`KeyboardIntent`]).
pub(crate) fn read_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Single<&CursorOptions, With<PrimaryWindow>>,
    mut throw_armed: Local<bool>,
    gate: InputGate,
    mut intent: ResMut<KeyboardIntent>,
    mut inputs: Query<&mut PlayerInput, With<Controlled>>,
) {
    // A script being watched drives the player.
    if gate.script_playing() {
        return;
    }
    // A throw starts with a press while the cursor is grabbed (playing).
    if mouse.just_pressed(MouseButton::Left) {
        *throw_armed = cursor.grab_mode != CursorGrabMode::None;
    }
    let throwing = *throw_armed && mouse.pressed(MouseButton::Left);
    if gate.panel_has_input() {
        *intent = KeyboardIntent::default();
        for mut input in &mut inputs {
            input.movement = Vec2::ZERO;
            input.held = slidewalk_play::Buttons::default();
        }
        return;
    }
    let axis = |plus: KeyCode, minus: KeyCode| keys.pressed(plus) as i32 as f32 - keys.pressed(minus) as i32 as f32;
    let held = |a: KeyCode, b: KeyCode| keys.pressed(a) || keys.pressed(b);
    *intent = KeyboardIntent {
        movement: Vec2::new(axis(KeyCode::KeyD, KeyCode::KeyA), axis(KeyCode::KeyW, KeyCode::KeyS))
            .clamp_length_max(1.0),
        held: slidewalk_play::Buttons {
            jump: keys.pressed(KeyCode::Space),
            sprint: held(KeyCode::ShiftLeft, KeyCode::ShiftRight),
            crouch: held(KeyCode::ControlLeft, KeyCode::ControlRight),
            use_key: keys.pressed(KeyCode::KeyE),
            drop: keys.pressed(KeyCode::KeyX),
            throw: throwing,
            dash: keys.pressed(KeyCode::KeyQ),
        },
    };
    for mut input in &mut inputs {
        input.movement = intent.movement;
        input.held = intent.held;
        input.pressed.throw |= throwing && mouse.just_pressed(MouseButton::Left);
        // Presses wait for the next tick (cleared by it).
        input.pressed.jump |= keys.just_pressed(KeyCode::Space);
        input.pressed.use_key |= keys.just_pressed(KeyCode::KeyE);
        input.pressed.drop |= keys.just_pressed(KeyCode::KeyX);
        input.pressed.dash |= keys.just_pressed(KeyCode::KeyQ);
        input.respawn |= keys.just_pressed(KeyCode::KeyR);
        input.toggle_fly |= keys.just_pressed(KeyCode::KeyF);
    }
}

fn look(
    motion: Res<AccumulatedMouseMotion>,
    cursor: Single<&CursorOptions, With<PrimaryWindow>>,
    rewind: Res<Rewind>,
    mut inputs: Query<&mut PlayerInput, With<Controlled>>,
) {
    // Paused, the view shows the tick picked; the live heading waits.
    if cursor.grab_mode == CursorGrabMode::None || motion.delta == Vec2::ZERO || rewind.paused {
        return;
    }
    for mut input in &mut inputs {
        input.yaw -= motion.delta.x * MOUSE_SENSITIVITY;
        input.pitch = (input.pitch - motion.delta.y * MOUSE_SENSITIVITY).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }
}

/// C clears the balls, B drops 50 onto the player's head.
fn ball_keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui: Option<Res<EguiWantsInput>>,
    mut balls: MessageWriter<BallControl>,
) {
    if panel_has_input(&egui).1 {
        return;
    }
    if keys.just_pressed(KeyCode::KeyC) {
        balls.write(BallControl::Clear);
    }
    if keys.just_pressed(KeyCode::KeyB) {
        balls.write(BallControl::Rain(50));
    }
}

/// Tab: the panel (opening it frees the mouse); V: the camera; G: the grid
/// on textured materials; P, ←, →: the rewind.
fn view_keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui: Option<Res<EguiWantsInput>>,
    settings: Res<CurrentSettings>,
    rewind: Res<Rewind>,
    mut cursor: Single<&mut CursorOptions, With<PrimaryWindow>>,
    mut tune: MessageWriter<Tune>,
    mut requests: MessageWriter<RewindRequest>,
) {
    if panel_has_input(&egui).1 {
        return;
    }
    if keys.just_pressed(KeyCode::Tab) {
        let open = !settings.0.panel_open;
        tune.write(Tune::PanelOpen(open));
        if open {
            set_grab(&mut cursor, false);
        }
    }
    if keys.just_pressed(KeyCode::KeyV) {
        tune.write(Tune::ThirdPerson(!settings.0.third_person));
    }
    if keys.just_pressed(KeyCode::KeyG) {
        tune.write(Tune::GridEverywhere(!settings.0.grid_everywhere));
    }
    if keys.just_pressed(KeyCode::KeyP) {
        requests.write(RewindRequest::Pause(!rewind.paused));
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        requests.write(RewindRequest::Step(-1));
    }
    if keys.just_pressed(KeyCode::ArrowRight) {
        requests.write(RewindRequest::Step(1));
    }
}

fn open_dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut open: MessageWriter<OpenLevel>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            open.write(OpenLevel(path_buf.clone()));
        }
    }
}
