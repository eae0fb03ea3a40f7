//! Headless runs: the simulation plugins under `MinimalPlugins`, a script
//! played as fast as the machine goes, and one JSON summary on stdout.

use crate::sim;
use crate::sim::launch::LaunchOptions;
use crate::sim::player::RunStats;
use crate::sim::schedule::{run_on_one_thread, tick_length};
use crate::sim::script::{ScriptRun, options_for_script, read_script};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use slidewalk_play::{Options, Script, Summary};
use std::time::Instant;

/// A headless app: the simulation only, time advancing by exactly one
/// fixed tick per `update`, playing `script`.
pub fn app(options: &Options, script: Script) -> App {
    let options = options_for_script(options, &script);
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LaunchOptions(options.clone()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick_length(options.tick_hz())))
        .insert_resource(ScriptRun::new(script))
        .add_plugins(sim::plugin);
    finish_headless(&mut app);
    app
}

/// The frame schedules on one thread too (the simulation plugin already
/// runs the fixed ones so): headless, a frame is one tick of a few
/// microseconds. Then the plugins' setup is finished, as `App::run` does.
pub fn finish_headless(app: &mut App) {
    run_on_one_thread(
        app,
        [
            First.intern(),
            PreUpdate.intern(),
            RunFixedMainLoop.intern(),
            Update.intern(),
            PostUpdate.intern(),
            Last.intern(),
        ],
    );
    app.finish();
    app.cleanup();
}

/// Runs `app` until its script is done (or `max_ticks`), returns the summary.
pub fn play_out(app: &mut App, max_ticks: u64) -> Summary {
    // The first update opens the level (not timed); ticks start with the next.
    app.update();
    let started = Instant::now();
    for _ in 0..max_ticks + 1 {
        app.update();
        if app.world().resource::<ScriptRun>().done {
            break;
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let stats = app.world().resource::<RunStats>();
    let mut summary = stats.summary.clone();
    let per_tick = |seconds: f64| {
        if summary.ticks > 0 {
            seconds * 1e6 / summary.ticks as f64
        } else {
            0.0
        }
    };
    summary.micros_per_tick = per_tick(wall);
    summary.player_micros_per_tick = per_tick(stats.seconds);
    let crowd = app.world().resource::<sim::crowd::CrowdSim>();
    summary.crowd_agents = crowd.crowd.len();
    summary.crowd_micros_per_step = crowd.mean_step_micros();
    summary.checksum = Some(format!("{:016x}", crate::net::rollback::state_digest(app.world_mut())));
    summary
}

/// `slidewalk --headless`: reads the script, runs it, prints the summary.
/// Errors (unreadable script or level) are printed and give exit status 2.
pub fn run(options: &Options) -> Result<Summary, String> {
    let path = options.script.as_ref().ok_or("--headless needs --script FILE")?;
    let script = read_script(path)?;
    // No screen to warn on: a settings file given must be read whole.
    if let Some(settings) = &options.settings {
        slidewalk_play::Settings::read(settings)?;
    }
    let options = options_for_script(options, &script);
    let level_path = options.level.clone().unwrap_or_else(sim::level::demo_level_path);
    // Fail early and clearly when the level cannot be read; say what of it was ignored.
    let level = slidewalk_level::load(&level_path).map_err(|e| e.to_string())?;
    for notice in &level.report.notices {
        eprintln!("slidewalk: {}: {notice}", level_path.display());
    }
    if let Some(at) = options.spawn
        && let (_, Some((text, _))) =
            slidewalk_play::place_asked_spawn(&level, &slidewalk_controller::ControllerConfig::default(), at)
    {
        eprintln!("slidewalk: {}: {text}", level_path.display());
    }
    let ticks = (script.seconds() * options.tick_hz() as f64).ceil() as u64;
    let mut app = app(&options, script);
    Ok(play_out(&mut app, ticks + 2))
}
