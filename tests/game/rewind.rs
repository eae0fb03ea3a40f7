//! The rewind: ticks saved from it replay to the same final state.

use super::*;

#[test]
fn ticks_saved_from_the_rewind_replay_to_the_same_final_state() {
    let dir = temp_dir("rewind");
    // Through the door (E), with a changed walk speed, then pause, step back
    // and save: the saved ticks start mid-walk, with the door moving.
    for (name, hz) in [("door_opened_with_e", 60.0), ("lift_up_and_off", 144.0)] {
        let options = Options {
            tick_hz: Some(hz),
            ..Options::default()
        };
        let original = script(name);
        let ticks = (original.seconds() * hz as f64).ceil() as u64;
        let mut app = headless::app(&options, original);
        app.update();
        assert_eq!(tune(&mut app, Tune::Value("walk_speed", 5.5)), None);
        // The script, then standing still until 11 s have passed.
        for _ in 0..ticks.max(11 * hz as u64) {
            app.update();
        }
        let history = &app.world().resource::<Rewind>().history;
        assert_eq!(history.len(), history.capacity(), "{name}: a full ring");
        assert!(history.len() as f32 >= 10.0 * hz, "{name}: 10 s kept");
        app.world_mut().write_message(RewindRequest::Pause(true));
        app.update();
        app.world_mut().write_message(RewindRequest::Step(-(hz as i64)));
        app.update();
        let rewind = app.world().resource::<Rewind>();
        assert!(rewind.paused);
        let viewed = rewind.shown().unwrap().clone();
        assert_eq!(viewed.tick + hz as u64, rewind.history.latest().unwrap().tick);
        // Paused: no ticks pass.
        let latest = rewind.history.latest().unwrap().tick;
        for _ in 0..5 {
            app.update();
        }
        assert_eq!(app.world().resource::<Rewind>().history.latest().unwrap().tick, latest);
        let file = dir.join(format!("{name}.json"));
        app.world_mut().write_message(RewindRequest::Save(file.clone()));
        app.update();
        // Replayed headless from the file, as `slidewalk --headless --script` does.
        let saved = Script::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(saved.tick_hz, Some(hz));
        assert_eq!(saved.controller.unwrap().walk_speed, 5.5);
        let saved_ticks = (saved.seconds() * hz as f64).round() as u64;
        let held = app.world().resource::<Rewind>().history.len() as u64;
        assert_eq!(saved_ticks, held - 1 - hz as u64, "{name}");
        let mut replay = headless::app(&Options::default(), saved);
        for _ in 0..saved_ticks + 1 {
            replay.update();
        }
        let summary = &replay.world().resource::<slidewalk::sim::player::RunStats>().summary;
        assert_eq!(summary.ticks, saved_ticks);
        assert!(summary.max_penetration <= 1e-4);
        let end = player(&mut replay).0;
        assert_eq!(
            end.position, viewed.after.player.position,
            "{name}: replay ended at {} instead of {}",
            end.position, viewed.after.player.position
        );
        assert_eq!(end.velocity, viewed.after.player.velocity);
        // Resuming goes on from the live state.
        app.world_mut().write_message(RewindRequest::Pause(false));
        app.update();
        app.update();
        let rewind = app.world().resource::<Rewind>();
        assert!(!rewind.paused && rewind.viewing.is_none());
        assert!(rewind.history.latest().unwrap().tick > latest);
    }
    std::fs::remove_dir_all(&dir).ok();
}
