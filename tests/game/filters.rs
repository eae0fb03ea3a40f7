//! One-way platforms, collision layers and sensors on the demo level:
//! scripts up the one-way stack and down through it, into the kill zone,
//! onto the checkpoint, through the crowd barrier and against the grate,
//! each at 30, 60 and 144 Hz; and a checkpoint that a later fall into
//! the kill zone respawns the player at.

use super::*;
use slidewalk::sim::player::Player;

fn events(summary: &Summary) -> Vec<(&str, bool)> {
    summary.sensor_events.iter().map(|(n, e, _)| (n.as_str(), *e)).collect()
}

#[test]
fn up_the_one_way_stack_and_down_through_it() {
    for hz in RATES {
        let s = run("one_way_stack", hz);
        // Three jumps, each landing on the next platform (tops 0.8, 1.6,
        // 2.4 m), then two drops: to the middle one, then to the ground.
        assert_eq!(s.jumps, 3, "{hz} Hz: {s:?}");
        assert!(
            s.max_height > 2.45 && s.max_height < 2.75,
            "{hz} Hz: highest feet {}",
            s.max_height
        );
        let feet = s.final_position;
        assert!(s.grounded && feet.y.abs() < 0.01, "{hz} Hz: ended at {feet}");
        assert!((feet.x + 31.5).abs() < 0.1 && feet.z < 2.6, "{hz} Hz: ended at {feet}");
    }
}

#[test]
fn the_kill_zone_respawns_a_player_who_falls_out() {
    for hz in RATES {
        // Started in the air outside the level's walls: a fall of 25 m
        // into the kill zone, then back at the start (the script's spawn,
        // the same air), falling again.
        let s = run("kill_zone", hz);
        assert_eq!(s.respawns, 1, "{hz} Hz: {s:?}");
        assert_eq!(events(&s), vec![("kill", true), ("kill", false)], "{hz} Hz");
        let (_, _, entered) = s.sensor_events[0];
        let (_, _, left) = s.sensor_events[1];
        assert!(left > entered && left <= entered + 2, "{hz} Hz: {:?}", s.sensor_events);
        // Falling out is the kill zone's to say on this level.
        assert!(!s.fell_out);
        let feet = s.final_position;
        assert!(
            (feet.x - 50.0).abs() < 0.01 && (feet.z - 50.0).abs() < 0.01,
            "{hz} Hz: at {feet}"
        );
        assert!(feet.y > 3.0 && feet.y <= 5.01, "{hz} Hz: at {feet}");
    }
}

#[test]
fn a_checkpoint_moves_the_respawn_point() {
    for hz in RATES {
        let s = run("checkpoint", hz);
        assert_eq!(events(&s), vec![("checkpoint", true)], "{hz} Hz");
        let at = s.checkpoint.expect("a checkpoint reached");
        assert!((at - Vec3::new(-19.0, 4.2, -21.0)).length() < 0.01, "{hz} Hz: {at}");
    }
    // Reached, then out of the level: the kill zone sends the player back
    // to the checkpoint, not the spawn.
    let mut app = scripted_app(
        &Options::default(),
        r#"{"spawn": [-19.0, 4.2, -17.0], "steps": [{"for_s": 0.3, "yaw_deg": 0.0},
            {"for_s": 1.6, "move": [0.0, 0.5]}, {"for_s": 8.0, "move": [0.0, 0.0]}]}"#,
    );
    for _ in 0..150 {
        app.update();
    }
    let config = player_config(&mut app);
    let mut q = app.world_mut().query_filtered::<&mut MovementState, With<Player>>();
    q.single_mut(app.world_mut())
        .unwrap()
        .teleport_feet(Vec3::new(55.0, 2.0, 0.0), &config);
    for _ in 0..240 {
        app.update();
    }
    let feet = player(&mut app).feet();
    assert!(
        (feet - Vec3::new(-19.0, 4.2, -21.0)).length() < 0.05,
        "respawned at {feet}"
    );
    assert_never_penetrated(&app);
}

#[test]
fn the_player_walks_through_the_crowd_barrier_and_not_through_the_grate() {
    for hz in RATES {
        let s = run("barrier_and_grate", hz);
        let feet = s.final_position;
        // Through the barrier (z −9.85) into the ball room, then along +x
        // until the grate (x 22.12) holds the 0.4 m radius back.
        assert!(feet.z < -15.0 && feet.z > -17.0, "{hz} Hz: ended at {feet}");
        assert!(feet.x > 21.5 && feet.x < 21.75, "{hz} Hz: ended at {feet}");
        assert_eq!(events(&s), vec![("ball room", true)], "{hz} Hz");
    }
}
