//! A gamepad drives the player: a synthetic one (Bevy's connection message
//! gives an entity the `Gamepad` component, raw axis and button messages
//! move its sticks and press its buttons, as gilrs would) walks, turns,
//! jumps, dashes, slides (crouch while sprinting), opens the panel, adds
//! to the keyboard, and says on screen when it comes and goes. Headless:
//! the gamepad's systems need no window; time advances one tick per
//! update, so nothing depends on timing.

use super::*;
use bevy::input::InputPlugin;
use bevy::input::gamepad::{
    GamepadConnection, GamepadConnectionEvent, RawGamepadAxisChangedEvent, RawGamepadButtonChangedEvent,
    RawGamepadEvent,
};
use slidewalk::notices::Notices;
use slidewalk::sim::input::PlayerInput;
use slidewalk::sim::tuning::CurrentSettings;
use slidewalk::view::gamepad::{LOOK_RATE, STICK_DEAD_ZONE, radial_dead_zone};
use slidewalk::view::input::KeyboardIntent;
use slidewalk_play::{Buttons, heading_direction};

/// Seconds of one update (the default 60 Hz tick).
const DT: f32 = 1.0 / 60.0;

/// The demo level headless with Bevy's input and the game's gamepad
/// systems, the player standing at (0, 0, 4) once a short script is done
/// (a script being played drives the player; after it, the input does).
fn gamepad_app() -> App {
    let script = Script::parse(r#"{"steps": [{"for_s": 0.1}]}"#).unwrap();
    let options = Options {
        spawn: Some(Vec3::new(0.0, 0.0, 4.0)),
        ..Options::default()
    };
    let mut app = headless::app(&options, script);
    // The headless app is finished: build the plugins in directly.
    InputPlugin.build(&mut app);
    slidewalk::view::gamepad::plugin(&mut app);
    for _ in 0..31 {
        app.update();
    }
    assert!(app.world().resource::<slidewalk::sim::script::ScriptRun>().done);
    assert!(player(&mut app).grounded());
    app
}

/// Plugs in a gamepad called `name`, as gilrs does.
fn connect(app: &mut App, name: &str) -> Entity {
    let pad = app.world_mut().spawn_empty().id();
    let connection = GamepadConnection::Connected {
        name: name.into(),
        vendor_id: None,
        product_id: None,
    };
    app.world_mut()
        .write_message(GamepadConnectionEvent::new(pad, connection));
    app.update();
    assert!(app.world().get::<Gamepad>(pad).is_some());
    pad
}

fn stick(app: &mut App, pad: Entity, axis: GamepadAxis, value: f32) {
    app.world_mut()
        .write_message(RawGamepadEvent::Axis(RawGamepadAxisChangedEvent::new(pad, axis, value)));
}

fn button(app: &mut App, pad: Entity, button: GamepadButton, value: f32) {
    app.world_mut()
        .write_message(RawGamepadEvent::Button(RawGamepadButtonChangedEvent::new(
            pad, button, value,
        )));
}

fn input(app: &mut App) -> PlayerInput {
    let mut q = app.world_mut().query_filtered::<&PlayerInput, With<Player>>();
    *q.single(app.world()).unwrap()
}

fn notices(app: &App) -> Vec<String> {
    app.world()
        .resource::<Notices>()
        .0
        .iter()
        .map(|n| n.text.clone())
        .collect()
}

#[test]
fn the_left_stick_walks_the_player_forward_and_a_small_push_does_not() {
    let mut app = gamepad_app();
    let pad = connect(&mut app, "Test Pad");
    let yaw = input(&mut app).yaw;
    let start = player(&mut app).position;
    // Inside the dead zone: nothing.
    stick(&mut app, pad, GamepadAxis::LeftStickY, STICK_DEAD_ZONE * 0.8);
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(input(&mut app).movement, Vec2::ZERO);
    assert!((player(&mut app).position - start).length() < 1e-3);
    // Full forward for half a second.
    stick(&mut app, pad, GamepadAxis::LeftStickY, 1.0);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(input(&mut app).movement, Vec2::new(0.0, 1.0));
    let moved = player(&mut app).position - start;
    let forward = heading_direction(yaw, Vec3::Y);
    assert!(moved.dot(forward) > 1.0, "walked {moved} along {forward}");
    assert!(moved.cross(forward).length() < 0.05, "walked {moved}, sideways");
    // Let go: the player stops.
    stick(&mut app, pad, GamepadAxis::LeftStickY, 0.0);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(input(&mut app).movement, Vec2::ZERO);
    let body = player(&mut app);
    assert!(body.velocity.length() < 0.05, "still moving at {}", body.velocity);
    assert_never_penetrated(&app);
}

#[test]
fn the_right_stick_turns_and_tilts_the_view_at_its_rate_and_sensitivity() {
    let mut app = gamepad_app();
    let pad = connect(&mut app, "Test Pad");
    let before = input(&mut app);
    // Full right for 10 updates: turns right (yaw goes down) by 10 × rate × dt.
    stick(&mut app, pad, GamepadAxis::RightStickX, 1.0);
    for _ in 0..10 {
        app.update();
    }
    stick(&mut app, pad, GamepadAxis::RightStickX, 0.0);
    app.update();
    let turned = input(&mut app).yaw - before.yaw;
    let expected = -10.0 * LOOK_RATE * DT;
    assert!((turned - expected).abs() < 1e-4, "turned {turned}, expected {expected}");
    // Pushed up: looks up; inverted (from the panel) at twice the
    // sensitivity: looks down twice as fast; never past straight down.
    let pitch = input(&mut app).pitch;
    stick(&mut app, pad, GamepadAxis::RightStickY, 1.0);
    app.update();
    let up = input(&mut app).pitch - pitch;
    assert!((up - LOOK_RATE * DT).abs() < 1e-5, "tilted {up}");
    assert_eq!(tune(&mut app, Tune::GamepadInvertY(true)), None);
    assert_eq!(tune(&mut app, Tune::GamepadSensitivity(2.0)), None);
    let settings = &app.world().resource::<CurrentSettings>().0;
    assert!(settings.gamepad_invert_y && settings.gamepad_sensitivity == 2.0);
    let pitch = input(&mut app).pitch;
    app.update();
    let down = input(&mut app).pitch - pitch;
    assert!((down + 2.0 * LOOK_RATE * DT).abs() < 1e-5, "tilted {down}");
    for _ in 0..120 {
        app.update();
    }
    let pitch = input(&mut app).pitch;
    assert!(pitch > -std::f32::consts::FRAC_PI_2 && pitch < -1.5, "pitch {pitch}");
    // The sensitivity stays within its range.
    assert_eq!(tune(&mut app, Tune::GamepadSensitivity(1e9)), None);
    assert_eq!(app.world().resource::<CurrentSettings>().0.gamepad_sensitivity, 5.0);
}

#[test]
fn the_south_button_jumps_once_and_west_dashes() {
    let mut app = gamepad_app();
    let pad = connect(&mut app, "Test Pad");
    let start = player(&mut app).position;
    button(&mut app, pad, GamepadButton::South, 1.0);
    app.update();
    let i = input(&mut app);
    assert!(i.held.jump && i.pressed.jump, "{i:?}");
    let mut highest = start.y;
    for _ in 0..12 {
        app.update();
        highest = highest.max(player(&mut app).position.y);
    }
    // Held: no second press.
    assert!(!input(&mut app).pressed.jump);
    assert!(!player(&mut app).grounded());
    assert!(highest > start.y + 0.3, "rose to {highest} from {}", start.y);
    button(&mut app, pad, GamepadButton::South, 0.0);
    for _ in 0..90 {
        app.update();
    }
    assert!(player(&mut app).grounded());
    assert!(!input(&mut app).held.jump);
    // West: the dash, held and pressed (the controller's to use).
    button(&mut app, pad, GamepadButton::West, 1.0);
    app.update();
    let i = input(&mut app);
    assert_eq!(
        i.held,
        Buttons {
            dash: true,
            ..Buttons::default()
        }
    );
    assert!(i.pressed.dash);
    button(&mut app, pad, GamepadButton::West, 0.0);
    app.update();
    assert!(!input(&mut app).held.dash);
    // The next tick took the press: the player dashed once.
    let dashes = app
        .world()
        .resource::<slidewalk::sim::player::RunStats>()
        .summary
        .dashes;
    assert_eq!(dashes, 1);
    assert_never_penetrated(&app);
}

#[test]
fn east_while_sprinting_slides_with_no_binding_of_its_own() {
    let mut app = gamepad_app();
    let pad = connect(&mut app, "Test Pad");
    // Sprint forward (the left trigger) for half a second: past the
    // game's slide speed of 5 m/s.
    stick(&mut app, pad, GamepadAxis::LeftStickY, 1.0);
    button(&mut app, pad, GamepadButton::LeftTrigger2, 1.0);
    for _ in 0..30 {
        app.update();
    }
    let speed = player(&mut app).velocity.length();
    assert!(speed > 5.0, "sprinting at {speed} m/s");
    // East (crouch, as Ctrl) while still sprinting: a crouch-slide.
    button(&mut app, pad, GamepadButton::East, 1.0);
    for _ in 0..3 {
        app.update();
    }
    let i = input(&mut app);
    assert!(i.held.crouch && i.held.sprint, "{i:?}");
    let summary = &app.world().resource::<slidewalk::sim::player::RunStats>().summary;
    assert_eq!(summary.slides, 1, "{summary:?}");
    let body = player(&mut app);
    assert!(body.crouched && body.moves.slide().is_some(), "{body:?}");
    assert_never_penetrated(&app);
}

#[test]
fn the_gamepad_adds_to_the_keyboard_and_start_opens_the_panel() {
    let mut app = gamepad_app();
    let pad = connect(&mut app, "Test Pad");
    // The keyboard holds D and Shift, the gamepad pushes forward and holds
    // the left trigger (sprint) and east (crouch).
    app.insert_resource(KeyboardIntent {
        movement: Vec2::new(1.0, 0.0),
        held: Buttons {
            sprint: true,
            ..Buttons::default()
        },
    });
    stick(&mut app, pad, GamepadAxis::LeftStickY, 1.0);
    button(&mut app, pad, GamepadButton::LeftTrigger2, 1.0);
    button(&mut app, pad, GamepadButton::East, 1.0);
    app.update();
    let i = input(&mut app);
    assert!((i.movement - Vec2::new(1.0, 1.0).normalize()).length() < 1e-6, "{i:?}");
    assert_eq!(
        i.held,
        Buttons {
            sprint: true,
            crouch: true,
            ..Buttons::default()
        }
    );
    // The keyboard lets go: the gamepad's alone, every frame anew (nothing piles up).
    app.insert_resource(KeyboardIntent::default());
    for _ in 0..3 {
        app.update();
    }
    let i = input(&mut app);
    assert_eq!(i.movement, Vec2::new(0.0, 1.0));
    assert!(i.held.sprint && i.held.crouch && !i.held.jump);
    // Start: the panel opens, and closes again.
    assert!(!app.world().resource::<CurrentSettings>().0.panel_open);
    button(&mut app, pad, GamepadButton::Start, 1.0);
    app.update();
    app.update();
    assert!(app.world().resource::<CurrentSettings>().0.panel_open);
    button(&mut app, pad, GamepadButton::Start, 0.0);
    app.update();
    button(&mut app, pad, GamepadButton::Start, 1.0);
    app.update();
    app.update();
    assert!(!app.world().resource::<CurrentSettings>().0.panel_open);
}

#[test]
fn a_gamepad_plugged_in_or_out_says_so_on_screen() {
    let mut app = gamepad_app();
    let pad = connect(&mut app, "Test Pad");
    app.update();
    assert!(
        notices(&app).contains(&"gamepad connected: Test Pad".to_string()),
        "{:?}",
        notices(&app)
    );
    stick(&mut app, pad, GamepadAxis::LeftStickY, 1.0);
    app.update();
    assert_eq!(input(&mut app).movement, Vec2::new(0.0, 1.0));
    app.world_mut()
        .write_message(GamepadConnectionEvent::new(pad, GamepadConnection::Disconnected));
    app.update();
    app.update();
    assert!(app.world().get::<Gamepad>(pad).is_none());
    assert!(
        notices(&app).contains(&"gamepad disconnected: Test Pad".to_string()),
        "{:?}",
        notices(&app)
    );
    // Unplugged mid-push: the player is let go.
    assert_eq!(input(&mut app).movement, Vec2::ZERO);
}

#[test]
fn the_stick_dead_zone_is_round_and_the_push_beyond_it_starts_from_zero() {
    assert_eq!(radial_dead_zone(Vec2::new(0.1, 0.1), 0.15), Vec2::ZERO);
    assert_eq!(radial_dead_zone(Vec2::new(0.0, 0.15), 0.15), Vec2::ZERO);
    assert!((radial_dead_zone(Vec2::Y, 0.15) - Vec2::Y).length() < 1e-6);
    let half = radial_dead_zone(Vec2::new(0.575, 0.0), 0.15);
    assert!((half.x - 0.5).abs() < 1e-6 && half.y == 0.0, "{half}");
    let corner = radial_dead_zone(Vec2::new(1.0, 1.0), 0.15);
    assert!((corner.length() - 1.0).abs() < 1e-6 && (corner.x - corner.y).abs() < 1e-6);
    assert_eq!(radial_dead_zone(Vec2::new(f32::NAN, 0.0), 0.15), Vec2::ZERO);
}
