//! The fixed tick: its length, the order of its steps ([`SimSet`]), the
//! single-threaded executor it runs on, its wall-clock timing, and the
//! collision world's systems placed in it.

use super::launch::LaunchOptions;
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;
use std::time::Duration;

/// The order of one fixed tick: placing → the last tick's feedback →
/// input → doors and lifts → controller → crowd → balls → the rewind's
/// record.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimSet {
    /// A new level is in: the player to its spawn, the lifts' clock to 0.
    Place,
    /// What the last tick's outcome asks of this one (`feedback::Feedback`).
    Feedback,
    /// What the player (or the script) asks for this tick.
    Input,
    /// Doors and lifts take their pose for the end of the tick.
    Movers,
    /// The character controller moves the player.
    Player,
    /// The crowd's agents move (against the level, each other and the player).
    Crowd,
    /// The balls move (against the level, each other and the player).
    Balls,
    /// The tick goes into the rewind buffer.
    Record,
}

/// Wall-clock time of the last whole fixed tick (every simulation system).
#[derive(Resource, Debug, Default)]
pub struct SimTiming {
    started: Option<std::time::Instant>,
    /// Microseconds.
    pub last_micros: f32,
}

fn start_timing(mut timing: ResMut<SimTiming>) {
    timing.started = Some(std::time::Instant::now());
}

fn end_timing(mut timing: ResMut<SimTiming>) {
    if let Some(started) = timing.started.take() {
        timing.last_micros = started.elapsed().as_secs_f32() * 1e6;
    }
}

/// Runs these schedules' systems one after another on the calling thread.
pub fn run_on_one_thread(app: &mut App, labels: impl IntoIterator<Item = InternedScheduleLabel>) {
    for label in labels {
        app.edit_schedule(label, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
    }
}

/// The length of one fixed tick at `hz` ticks per second.
pub fn tick_length(hz: f32) -> Duration {
    Duration::from_secs_f64(1.0 / hz as f64)
}

/// The fixed tick rate from the [`LaunchOptions`], the order of the
/// tick's sets, one thread for the fixed schedules, the tick's timing, and
/// the collision world (its systems in [`SimSet::Player`]).
pub(super) fn plugin(app: &mut App) {
    let options = app
        .world()
        .get_resource::<LaunchOptions>()
        .map(|o| o.0.clone())
        .unwrap_or_default();
    app.insert_resource(Time::<Fixed>::from_duration(tick_length(options.tick_hz())));
    app.configure_sets(
        FixedUpdate,
        (
            SimSet::Place,
            SimSet::Feedback,
            SimSet::Input,
            SimSet::Movers,
            SimSet::Player,
            SimSet::Crowd,
            SimSet::Balls,
            SimSet::Record,
        )
            .chain(),
    );
    // A tick is a few microseconds of small systems: waking worker threads
    // for them costs far more (measured headless: 518 → 10 µs per tick).
    run_on_one_thread(
        app,
        [
            FixedFirst.intern(),
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            FixedLast.intern(),
        ],
    );
    app.init_resource::<SimTiming>().add_systems(
        FixedUpdate,
        (start_timing.before(SimSet::Place), end_timing.after(SimSet::Record)),
    );
    // The collision world and its characters: the level's geometry is
    // collider entities; doors and lifts move (SimSet::Movers) before it.
    // Over the network the session runs the ticks at its own pace: the
    // characters are drawn where each tick leaves them.
    let networked = app.world().contains_resource::<super::launch::NetPlayers>();
    app.add_plugins(bevy_slidewalk::SlidewalkPlugin {
        interpolate: !networked,
        ..default()
    })
    .configure_sets(
        FixedUpdate,
        (
            bevy_slidewalk::SlidewalkSystems::Prepare,
            bevy_slidewalk::SlidewalkSystems::Step,
        )
            .in_set(SimSet::Player),
    );
}
