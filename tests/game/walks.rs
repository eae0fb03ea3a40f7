//! Scripted walks of the demo level at 30, 60 and 144 Hz: stairs, the ledge, ramps, the door, the lift, the fall, the corridor, the low ceiling, a recording replayed.

use super::*;

#[test]
fn both_flights_of_stairs_are_climbed() {
    for hz in RATES {
        let s = run("stairs_015", hz);
        assert!(
            (s.final_position.y - 1.2).abs() < 0.02 && s.grounded,
            "0.15 m stairs at {hz} Hz: {s:?}"
        );
        let s = run("stairs_030", hz);
        assert!(
            (s.final_position.y - 1.5).abs() < 0.02 && s.grounded,
            "0.30 m stairs at {hz} Hz: {s:?}"
        );
    }
}

#[test]
fn the_ledge_blocks_without_a_jump_and_is_climbed_with_one() {
    for hz in RATES {
        let s = run("ledge_070_blocks", hz);
        assert!(s.max_height < 0.05 && s.final_position.z > 24.0, "{hz} Hz: {s:?}");
        let s = run("ledge_070_jump", hz);
        assert!(
            (s.final_position.y - 0.7).abs() < 0.02 && s.jumps == 1,
            "{hz} Hz: {s:?}"
        );
    }
}

#[test]
fn the_30_degree_ramp_is_climbed_and_the_55_degree_one_is_not() {
    for hz in RATES {
        let s = run("ramp_30", hz);
        assert!((s.final_position.y - 2.5).abs() < 0.02, "30° at {hz} Hz: {s:?}");
        let s = run("ramp_55", hz);
        assert!(s.max_height < 0.3 && s.final_position.y < 0.05, "55° at {hz} Hz: {s:?}");
    }
}

#[test]
fn the_door_blocks_when_closed_and_lets_through_when_opened_with_e() {
    for hz in RATES {
        let s = run("door_closed_blocks", hz);
        assert!(s.final_position.z > -14.0, "closed door at {hz} Hz: {s:?}");
        let s = run("door_opened_with_e", hz);
        assert!(s.final_position.z < -16.0, "opened door at {hz} Hz: {s:?}");
        // Standing in the doorway, E closes the door onto the player: it is
        // pushed out of the leaf's way (or the door turns back), never into it.
        let s = run("door_closes_onto_player", hz);
        let moved = (s.final_position - Vec3::new(0.0, 0.0, -14.3)).length();
        assert!(
            s.grounded && moved > 0.3,
            "door closed onto the player at {hz} Hz: {s:?}"
        );
    }
}

#[test]
fn the_lift_is_ridden_up_and_down() {
    for hz in RATES {
        let s = run("lift_up_and_off", hz);
        assert!(
            (s.final_position.y - 4.2).abs() < 0.02 && s.final_position.x < -16.5,
            "{hz} Hz: {s:?}"
        );
        // A whole cycle, reversing at the top while standing on it.
        let s = run("lift_round_trip", hz);
        assert!((s.max_height - 4.2).abs() < 0.02, "{hz} Hz: {s:?}");
        assert!((s.final_position.y - 0.2).abs() < 0.02, "{hz} Hz: {s:?}");
        // In the air only while settling from the spawn (a few millimetres).
        assert!((s.airborne_ticks as f32) / hz < 0.05, "{hz} Hz: left the lift: {s:?}");
    }
}

#[test]
fn the_fall_from_the_2_5_m_ledge_lands() {
    for hz in RATES {
        let s = run("fall_from_2_5m", hz);
        assert!(
            s.grounded && s.final_position.y.abs() < 0.02 && s.final_position.z < -1.0,
            "{hz} Hz: {s:?}"
        );
        assert!(s.airborne_ticks as f32 / hz > 0.5, "{hz} Hz: not a real fall: {s:?}");
    }
}

#[test]
fn the_corridor_passes_the_default_ellipsoid_and_blocks_a_widened_one() {
    for hz in RATES {
        let s = run("corridor", hz);
        assert!(s.final_position.z < 1.5, "default at {hz} Hz: {s:?}");
        let s = run_with("corridor", hz, |app| {
            let mut q = app
                .world_mut()
                .query_filtered::<&mut CharacterController, With<Player>>();
            for mut body in q.iter_mut(app.world_mut()) {
                body.config.standing_radii.x = 0.55;
                body.config.standing_radii.z = 0.55;
            }
        });
        assert!(s.final_position.z > 9.5, "widened at {hz} Hz: {s:?}");
    }
}

#[test]
fn crouching_passes_the_low_ceiling() {
    for hz in RATES {
        let s = run("low_ceiling_standing", hz);
        assert!(s.final_position.z > 8.0, "standing at {hz} Hz: {s:?}");
        let s = run("low_ceiling_crouched", hz);
        assert!(s.final_position.z < 3.0 && s.grounded, "crouched at {hz} Hz: {s:?}");
    }
}

#[test]
fn a_recorded_walk_replays_to_the_same_place() {
    let dir = std::env::temp_dir().join(format!("slidewalk-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("walk.json");
    let options = Options {
        record: Some(file.clone()),
        ..Options::default()
    };
    let original = script("ledge_070_jump");
    let ticks = (original.seconds() * 60.0).ceil() as u64;
    let mut app = headless::app(&options, original);
    let played = headless::play_out(&mut app, ticks + 2);
    // The file is written every second; the resource has it all.
    let recorded = app
        .world()
        .resource::<slidewalk::sim::script::Recording>()
        .script()
        .clone();
    assert!(file.exists(), "no recording written");
    let replay = Script::parse(&recorded.to_json()).unwrap();
    assert!(replay.spawn.is_some() && replay.level.is_some());
    let mut app = headless::app(&Options::default(), replay);
    let replayed = headless::play_out(&mut app, ticks + 2);
    assert!(
        (played.final_position - replayed.final_position).length() < 1e-4,
        "{:?} vs {:?}",
        played.final_position,
        replayed.final_position
    );
    assert_eq!(played.jumps, replayed.jumps);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_spawn_inside_the_ledge_starts_on_top_of_it_and_says_so() {
    // `--spawn` inside the 0.7 m ledge (x −21…−17, z 21…24): on top of it, not crushed inside.
    let mut app = standing_app(&Options::default(), Vec3::new(-19.0, 0.1, 22.5));
    let body = player(&mut app);
    let feet = body.position.y - body.radii.y;
    assert!((feet - 0.7).abs() < 0.05, "feet at {feet}");
    assert_never_penetrated(&app);
    let notices = app.world().resource::<slidewalk::notices::Notices>();
    assert!(
        notices
            .0
            .iter()
            .any(|n| n.text.contains("is inside the level's geometry; starting on top of it")),
        "{notices:?}"
    );
}
