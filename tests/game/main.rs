//! The game's integration tests, through the real simulation plugins,
//! headless (one test binary: each links Bevy). Each plays a script from
//! `assets/scripts/` on the demo level at 30, 60 and 144 Hz and asserts the
//! final state, and that no tick penetrated anything. The panel's changes,
//! the rewind and the balls are driven by the messages the panel sends.
//!
//! By subject: `walks`, `tuning`, `rewind`, `drawing`, `bouncing_balls`,
//! `agents`, `colliders`, `filters`, `gamepad`, `moves`, `feel`, `players`,
//! `netplay`, `netlook`, `hostile`; the helpers they share are here and in `synctest`.

mod agents;
mod bouncing_balls;
mod colliders;
mod drawing;
mod feel;
mod filters;
mod gamepad;
mod hostile;
mod moves;
mod netlook;
mod netplay;
mod players;
mod rewind;
mod synctest;
mod tuning;
mod walks;

use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, ControllerConfig, MovementState};
use slidewalk::headless;
use slidewalk::sim::balls::{BallBlast, BallControl, BallPit, BallSettings};
use slidewalk::sim::player::Player;
use slidewalk::sim::rewind::{Rewind, RewindRequest};
use slidewalk::sim::tuning::{Tune, TuningStatus};
use slidewalk_play::{Options, Script, Summary};

const RATES: [f32; 3] = [30.0, 60.0, 144.0];

fn script(name: &str) -> Script {
    let path = format!("{}/assets/scripts/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Script::parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn run_with(name: &str, hz: f32, setup: impl Fn(&mut App)) -> Summary {
    let options = Options {
        tick_hz: Some(hz),
        ..Options::default()
    };
    let script = script(name);
    let ticks = (script.seconds() * hz as f64).ceil() as u64;
    let mut app = headless::app(&options, script);
    app.update();
    setup(&mut app);
    let summary = headless::play_out(&mut app, ticks + 2);
    assert!(
        summary.max_penetration <= 1e-4,
        "{name} at {hz} Hz: penetrated by {}",
        summary.max_penetration
    );
    assert!(!summary.fell_out, "{name} at {hz} Hz: fell out");
    assert!(
        summary.ticks + 2 >= ticks,
        "{name} at {hz} Hz: only {} ticks",
        summary.ticks
    );
    summary
}

fn run(name: &str, hz: f32) -> Summary {
    run_with(name, hz, |_| {})
}

fn player(app: &mut App) -> MovementState {
    let mut q = app.world_mut().query_filtered::<&MovementState, With<Player>>();
    *q.single(app.world()).unwrap()
}

/// The player's controller config (the plugin puts a refused change back).
fn player_config(app: &mut App) -> ControllerConfig {
    let mut q = app.world_mut().query_filtered::<&CharacterController, With<Player>>();
    q.single(app.world()).unwrap().config
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("slidewalk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A headless app on the demo level, the player standing at `spawn` after half a second.
fn standing_app(options: &Options, spawn: Vec3) -> App {
    let idle = Script::parse(r#"{"steps": [{"for_s": 600}]}"#).unwrap();
    let options = Options {
        spawn: Some(spawn),
        ..options.clone()
    };
    let mut app = headless::app(&options, idle);
    for _ in 0..31 {
        app.update();
    }
    assert!(player(&mut app).grounded());
    app
}

fn tune(app: &mut App, change: Tune) -> Option<String> {
    app.world_mut().write_message(change);
    app.update();
    app.world().resource::<TuningStatus>().refused.clone()
}

/// A headless app playing `script` (JSON text), its level in and its
/// first ticks played.
fn scripted_app(options: &Options, script: &str) -> App {
    let mut app = headless::app(options, Script::parse(script).unwrap());
    for _ in 0..3 {
        app.update();
    }
    app
}

/// The player never ended a tick inside anything so far.
fn assert_never_penetrated(app: &App) {
    let summary = &app.world().resource::<slidewalk::sim::player::RunStats>().summary;
    assert!(summary.max_penetration <= 1e-4, "{summary:?}");
}
