//! A gamepad → the player's input, through Bevy's gamepad support (gilrs):
//! the left stick walks, the right stick looks, south (A / ✕) jumps, east
//! (B / ○) crouches, west (X / □) dashes, north (Y / △) opens or closes a
//! door, the right trigger charges a ball and throws it when let go, the
//! left trigger (or a left-stick click) sprints, the d-pad's down drops
//! through a one-way platform, select respawns, start opens or closes the
//! panel. Every connected gamepad counts, on top of what the keyboard
//! holds ([`KeyboardIntent`]); while the panel has the pointer or the
//! keyboard, the gamepad moves nothing (start still works). A gamepad
//! plugged in or out says so on screen.
//!
//! Nothing here needs a window: the game's tests drive a synthetic gamepad
//! headless.

use super::input::{InputGate, KeyboardIntent, PITCH_LIMIT, read_keys, set_grab};
use crate::notices::Notices;
use crate::sim::input::PlayerInput;
use crate::sim::player::Controlled;
use crate::sim::rewind::Rewind;
use crate::sim::tuning::{CurrentSettings, Tune};
use bevy::input::gamepad::{GamepadConnection, GamepadConnectionEvent};
use bevy::prelude::*;
use bevy::window::{CursorOptions, PrimaryWindow};
use glam::Vec2;
use slidewalk_play::Buttons;

/// A stick pushed less than this far (0..1, radially) counts as centred;
/// beyond it the push is rescaled to start from 0, so the walk and the
/// look start gently instead of jumping to 15 %.
pub const STICK_DEAD_ZONE: f32 = 0.15;

/// Radians per second of turn (and of tilt up or down) with the right
/// stick at full tilt and the sensitivity at 1 (the panel's "gamepad look
/// sensitivity" multiplies it).
pub const LOOK_RATE: f32 = 3.0;

/// The gamepad's systems (Bevy's `InputPlugin` reads the gamepads; the
/// game's window adds gilrs, which finds them).
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            // Adds to what the keyboard wrote this frame.
            read_gamepad.after(read_keys),
            panel_button,
            announce_connections,
        ),
    );
}

/// `v` with the radial dead zone `dead` (0..1) taken out: 0 inside it,
/// rescaled to 0..1 beyond it, the direction kept, never longer than 1.
pub fn radial_dead_zone(v: Vec2, dead: f32) -> Vec2 {
    let length = v.length();
    if !length.is_finite() || length <= dead {
        return Vec2::ZERO;
    }
    let scaled = ((length - dead) / (1.0 - dead)).min(1.0);
    v * (scaled / length)
}

/// What the gamepads ask for this frame, all of them together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PadIntent {
    /// Left stick: [right, forward], at most 1 long.
    movement: Vec2,
    /// Right stick: [right, up], at most 1 long.
    look: Vec2,
    held: Buttons,
    pressed: Buttons,
    respawn: bool,
}

fn pad_intent(pads: Query<&Gamepad>) -> PadIntent {
    let mut intent = PadIntent::default();
    for pad in &pads {
        intent.movement += radial_dead_zone(pad.left_stick(), STICK_DEAD_ZONE);
        intent.look += radial_dead_zone(pad.right_stick(), STICK_DEAD_ZONE);
        let buttons = |is: fn(&Gamepad, GamepadButton) -> bool| Buttons {
            jump: is(pad, GamepadButton::South),
            crouch: is(pad, GamepadButton::East),
            sprint: is(pad, GamepadButton::LeftTrigger2) || is(pad, GamepadButton::LeftThumb),
            use_key: is(pad, GamepadButton::North),
            throw: is(pad, GamepadButton::RightTrigger2),
            drop: is(pad, GamepadButton::DPadDown),
            dash: is(pad, GamepadButton::West),
        };
        intent.held |= buttons(Gamepad::pressed);
        intent.pressed |= buttons(Gamepad::just_pressed);
        intent.respawn |= pad.just_pressed(GamepadButton::Select);
    }
    intent.movement = intent.movement.clamp_length_max(1.0);
    intent.look = intent.look.clamp_length_max(1.0);
    intent
}

/// The gamepads → the player's input: movement and buttons held added to
/// the keyboard's, presses collected for the next tick, the right stick
/// turning the view by [`LOOK_RATE`] × sensitivity × the frame's time.
fn read_gamepad(
    gamepads: Query<&Gamepad>,
    time: Res<Time>,
    settings: Res<CurrentSettings>,
    keyboard: Option<Res<KeyboardIntent>>,
    gate: InputGate,
    rewind: Res<Rewind>,
    mut inputs: Query<&mut PlayerInput, With<Controlled>>,
) {
    // A script being watched drives the player.
    if gate.script_playing() {
        return;
    }
    let keyboard = keyboard.map_or_else(KeyboardIntent::default, |k| *k);
    let pad = if gate.panel_has_input() {
        PadIntent::default()
    } else {
        pad_intent(gamepads)
    };
    let s = &settings.0;
    let turn = LOOK_RATE * s.gamepad_sensitivity * time.delta_secs();
    let up = if s.gamepad_invert_y { -pad.look.y } else { pad.look.y };
    for mut input in &mut inputs {
        // Written whole every frame: the keyboard's part is this frame's.
        input.movement = (keyboard.movement + pad.movement).clamp_length_max(1.0);
        input.held = keyboard.held | pad.held;
        // Presses wait for the next tick (cleared by it).
        input.pressed |= pad.pressed;
        input.respawn |= pad.respawn;
        // Paused, the view shows the tick picked; the live heading waits.
        if !rewind.paused && pad.look != Vec2::ZERO {
            input.yaw -= pad.look.x * turn;
            input.pitch = (input.pitch + up * turn).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        }
    }
}

/// Start opens or closes the panel, as Tab does (opening it frees the
/// mouse, if there is a window).
fn panel_button(
    gamepads: Query<&Gamepad>,
    settings: Res<CurrentSettings>,
    cursor: Option<Single<&mut CursorOptions, With<PrimaryWindow>>>,
    mut tune: MessageWriter<Tune>,
) {
    if !gamepads.iter().any(|g| g.just_pressed(GamepadButton::Start)) {
        return;
    }
    let open = !settings.0.panel_open;
    tune.write(Tune::PanelOpen(open));
    if open && let Some(mut cursor) = cursor {
        set_grab(&mut cursor, false);
    }
}

/// "gamepad connected: NAME" / "gamepad disconnected: NAME" on screen.
fn announce_connections(
    mut connections: MessageReader<GamepadConnectionEvent>,
    names: Query<&Name>,
    mut notices: ResMut<Notices>,
) {
    for event in connections.read() {
        match &event.connection {
            GamepadConnection::Connected { name, .. } => notices.info(format!("gamepad connected: {name}")),
            GamepadConnection::Disconnected => match names.get(event.gamepad) {
                Ok(name) => notices.info(format!("gamepad disconnected: {name}")),
                Err(_) => notices.info("gamepad disconnected"),
            },
        }
    }
}
