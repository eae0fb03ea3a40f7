//! The sync-test app the network tests share: the demo level under a ggrs
//! sync-test session, every player local and on a script.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::bevy_ggrs::Session;
use bevy_slidewalk::bevy_ggrs::ggrs::{PlayerType, SessionBuilder};
use slidewalk::net::input::NetScript;
use slidewalk::net::{NetConfig, PendingSession};
use slidewalk::sim;
use slidewalk::sim::launch::{LaunchOptions, NetPlayers};
use slidewalk::sim::schedule::{run_on_one_thread, tick_length};
use slidewalk_play::{Options, Script};

/// The demo level at 60 Hz with one player on each of `scripts`, spawned
/// at `spawn`, under a sync-test session that simulates every tick again
/// `check_distance` ticks later and compares checksums. `setup` adds the
/// test's own resources, systems and observers before the game's plugins.
pub fn sync_test_app(spawn: Vec3, scripts: Vec<Script>, check_distance: usize, setup: impl FnOnce(&mut App)) -> App {
    let hz = 60.0;
    let players = scripts.len();
    let options = Options {
        tick_hz: Some(hz),
        spawn: Some(spawn),
        ..Options::default()
    };
    let tick = tick_length(hz);
    let scripts = NetScript::new(scripts, tick.as_secs_f32());
    let mut session = SessionBuilder::<NetConfig>::new()
        .with_num_players(players)
        .unwrap()
        .with_max_prediction_window(check_distance + 1)
        .with_check_distance(check_distance);
    for i in 0..players {
        session = session.add_player(PlayerType::Local, i).unwrap();
    }
    let session = session.start_synctest_session().unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LaunchOptions(options))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick))
        .insert_resource(NetPlayers {
            count: players,
            local: 0,
        })
        .insert_resource(PendingSession(None))
        .insert_resource(scripts);
    setup(&mut app);
    app.add_plugins((sim::plugin, slidewalk::net::plugin));
    run_on_one_thread(&mut app, [PreUpdate.intern(), Update.intern()]);
    app.finish();
    app.cleanup();
    // The level opens in the first update; the session starts after it.
    app.update();
    app.insert_resource(Session::SyncTest(session));
    app
}
