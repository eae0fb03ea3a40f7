//! The plugin through Bevy, headless (`MinimalPlugins`), with no game
//! code: stairs, platforms, doors, events, colliders changing at runtime,
//! bad input, a glTF scene, and every example run for a few seconds. One
//! test binary: each links Bevy.
//!
//! Every behaviour runs at the frame pacings a game meets ([`PACINGS`]):
//! one frame per fixed tick, two and four (a 120–240 Hz display on a 60 Hz
//! tick), and three ticks in one frame (a slow machine). Each test asserts
//! the same outcome at each; a failure names the pacings it failed at.
// The examples share `minimal.rs`'s first-person player, each including it.
#![allow(clippy::duplicate_mod)]

mod bodies;
mod colliders;
mod events;
mod examples_run;
mod feel;
mod filters;
mod hierarchy;
mod moves;
mod pacing;
mod reflect;
#[cfg(feature = "ggrs")]
mod rollback;
mod walking;
mod water_conveyor;

use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::{CollisionWorld, sweep};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

/// The examples, built into this binary and run headless.
#[allow(dead_code)]
mod examples {
    pub(crate) use super::quick_start_example as quick_start;
    #[cfg(feature = "ggrs")]
    pub(crate) use super::rollback_example as rollback;
    pub(crate) use super::{events_example as events, gltf_scene_example as gltf_scene};
    pub(crate) use super::{minimal_example as minimal, moving_platforms_example as moving_platforms};
}
#[path = "../../examples/events.rs"]
#[allow(dead_code)]
mod events_example;
#[path = "../../examples/gltf_scene.rs"]
#[allow(dead_code)]
mod gltf_scene_example;
#[path = "../../examples/minimal.rs"]
#[allow(dead_code)]
mod minimal_example;
#[path = "../../examples/moving_platforms.rs"]
#[allow(dead_code)]
mod moving_platforms_example;
#[path = "../../examples/quick_start.rs"]
#[allow(dead_code)]
mod quick_start_example;
#[cfg(feature = "ggrs")]
#[path = "../../examples/rollback.rs"]
#[allow(dead_code)]
mod rollback_example;

/// Ticks per second (nearly: see [`TICK`]).
const HZ: f64 = 60.0;

/// The fixed tick: 1/60 s rounded to a whole number of nanoseconds that
/// 2 and 4 divide, so that 2 or 4 frames add up to exactly one tick.
const TICK: Duration = Duration::from_nanos(16_666_668);

/// How frames fall on fixed ticks.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
enum Pacing {
    /// This many frames per tick, the tick in the last of them (a 144 Hz
    /// display on a 60 Hz tick runs 2 or 3).
    FramesPerTick(u32),
    /// This many ticks in each frame (a slow machine, a long frame).
    TicksPerFrame(u32),
}

/// The pacings every behaviour is checked at.
const PACINGS: [Pacing; 4] = [
    Pacing::FramesPerTick(1),
    Pacing::FramesPerTick(2),
    Pacing::FramesPerTick(4),
    Pacing::TicksPerFrame(3),
];

impl Pacing {
    /// Frames between two ticks (1 when a frame runs several).
    fn frames_per_tick(self) -> u32 {
        match self {
            Pacing::FramesPerTick(n) => n,
            Pacing::TicksPerFrame(_) => 1,
        }
    }
}

/// Runs `test` at every pacing of [`PACINGS`]; panics naming each pacing
/// it failed at, with its message.
fn at_every_pacing(test: impl Fn(Pacing)) {
    let failures: Vec<String> = PACINGS
        .into_iter()
        .filter_map(|pacing| {
            catch_unwind(AssertUnwindSafe(|| test(pacing))).err().map(|e| {
                let message = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                format!("at {pacing:?}: {message}")
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "failed at {} of {} pacings:\n{}",
        failures.len(),
        PACINGS.len(),
        failures.join("\n")
    );
}

/// A headless app at `pacing` (no TransformPlugin: the plugin brings its
/// colliders' transforms up to date itself).
fn app_at(pacing: Pacing) -> App {
    let mut app = headless_app();
    paced(&mut app, pacing);
    app
}

/// A headless app with the plugin and mesh assets, its time not yet set.
fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        MeshPlugin,
        SlidewalkPlugin::default(),
    ));
    app
}

/// Drives `app`'s time at `pacing` with the test's tick.
fn paced(app: &mut App, pacing: Pacing) {
    app.insert_resource(Time::<Fixed>::from_duration(TICK))
        .insert_resource(pacing)
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
}

/// Fixed ticks run so far.
fn ticks_run(app: &App) -> u128 {
    app.world().resource::<Time<Fixed>>().elapsed().as_nanos() / TICK.as_nanos()
}

/// Runs frames at the app's pacing until `ticks` more fixed ticks have
/// run (the last frame of a slow pacing runs only what is left), calling
/// `each_frame` after each frame.
fn run_frames(app: &mut App, ticks: usize, mut each_frame: impl FnMut(&mut App)) {
    // As `App::run` does before the first update: plugins finish their setup.
    if app.plugins_state() != bevy::app::PluginsState::Cleaned {
        app.finish();
        app.cleanup();
    }
    let pacing = *app.world().resource::<Pacing>();
    let target = ticks_run(app) + ticks as u128;
    while ticks_run(app) < target {
        let frame = match pacing {
            Pacing::FramesPerTick(n) => TICK / n,
            Pacing::TicksPerFrame(n) => TICK * (n as u128).min(target - ticks_run(app)) as u32,
        };
        app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
        app.update();
        each_frame(app);
    }
}

/// Runs frames until `ticks` more fixed ticks have run.
fn run(app: &mut App, ticks: usize) {
    run_frames(app, ticks, |_| {});
}

/// Runs `n` frames of the app's pacing (whatever ticks fall in them).
fn frames(app: &mut App, n: u32) {
    let pacing = *app.world().resource::<Pacing>();
    let frame = match pacing {
        Pacing::FramesPerTick(k) => TICK / k,
        Pacing::TicksPerFrame(k) => TICK * k,
    };
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    for _ in 0..n {
        app.update();
    }
}

/// Seconds as a number of ticks.
fn ticks(seconds: f64) -> usize {
    (seconds * HZ) as usize
}

/// A solid box from Bevy's `Cuboid`, centred at `at`.
fn solid_box(app: &mut App, size: Vec3, at: Vec3) -> Entity {
    let mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::from_size(size));
    app.world_mut()
        .spawn((Mesh3d(mesh), Transform::from_translation(at), SlidewalkCollider::mesh()))
        .id()
}

/// A 40 m floor with its top at y = 0.
fn floor(app: &mut App) -> Entity {
    solid_box(app, Vec3::new(40.0, 1.0, 40.0), Vec3::new(0.0, -0.5, 0.0))
}

/// A character whose feet are at `feet`.
fn character(app: &mut App, feet: Vec3) -> Entity {
    let c = CharacterController::default();
    app.world_mut().spawn((c.transform_at_feet(feet), c)).id()
}

fn get(app: &App, e: Entity) -> MovementState {
    *app.world().get::<MovementState>(e).unwrap()
}

fn config(app: &App, e: Entity) -> ControllerConfig {
    app.world().get::<CharacterController>(e).unwrap().config
}

fn report(app: &App, e: Entity) -> MovementReport {
    app.world().get::<MovementReport>(e).unwrap().clone()
}

/// The character's intent, to change it.
fn intent(app: &mut App, e: Entity) -> Mut<'_, MovementIntent> {
    app.world_mut().get_mut::<MovementIntent>(e).unwrap()
}

fn walk(app: &mut App, e: Entity, direction: Vec3) {
    app.world_mut().get_mut::<MovementIntent>(e).unwrap().direction = direction;
}

/// How deep the character is inside any collider, metres.
fn penetration(app: &App, e: Entity) -> f32 {
    let c = get(app, e);
    let world = app.world().resource::<CollisionWorld>();
    let ellipsoid = sweep::Ellipsoid::new(c.radii).unwrap();
    sweep::penetration_depth(&ellipsoid, c.position, &world.placed())
}

/// Every message of type `M` written, in order.
#[derive(Resource)]
struct Log<M>(Vec<M>);

fn log<M: Message + Clone>(app: &mut App) {
    app.insert_resource(Log::<M>(Vec::new())).add_systems(
        PostUpdate,
        |mut r: MessageReader<M>, mut log: ResMut<Log<M>>| {
            log.0.extend(r.read().cloned());
        },
    );
}

fn logged<M: Message + Clone>(app: &App) -> Vec<M> {
    app.world().resource::<Log<M>>().0.clone()
}

/// A pose (translation, rotation) by time, seconds.
type Motion = fn(f32) -> (Vec3, Quat);

/// How a test platform moves.
#[derive(Component, Clone, Copy)]
struct Moving(Motion);

fn move_platforms(time: Res<Time>, mut platforms: Query<(&Moving, &mut Transform)>) {
    for (m, mut transform) in &mut platforms {
        let (translation, rotation) = (m.0)(time.elapsed_secs());
        transform.translation = translation;
        transform.rotation = rotation;
    }
}
