//! The panel's changes: new radii, gravity presets, switches, refused values, settings saved and restored.

use super::*;

#[test]
fn new_radii_from_the_panel_reach_the_sweeps_or_are_refused_in_the_corridor() {
    // In the open: the ellipsoid shrinks, the feet stay on the floor, and
    // the centre now rests one new y radius above the ground contact.
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    assert_eq!(tune(&mut app, Tune::Radii(Vec3::new(0.3, 0.7, 0.3))), None);
    for _ in 0..10 {
        app.update();
    }
    let body = player(&mut app);
    assert_eq!(body.radii, Vec3::new(0.3, 0.7, 0.3));
    let ground = body.ground.expect("still standing");
    let height = body.position.y - ground.point.y;
    assert!((height - 0.7).abs() < 0.005, "centre {height} m above the ground");
    assert!(body.feet().y.abs() < 0.01);
    // In the corridor (1.2 m wide at z 2..10 by x 26): 0.7 m across does
    // not fit; refused with a message and nothing changes.
    let mut app = standing_app(&Options::default(), Vec3::new(26.0, 0.0, 6.0));
    let (before, config_before) = (player(&mut app), player_config(&mut app));
    let refused = tune(&mut app, Tune::Radii(Vec3::new(0.7, 0.9, 0.7))).expect("refused");
    assert!(refused.contains("do not fit"), "{refused}");
    let after = player(&mut app);
    assert_eq!(player_config(&mut app), config_before);
    assert_eq!(after.radii, before.radii);
}

#[test]
fn a_gravity_preset_makes_the_player_fall_the_new_way() {
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let start = player(&mut app).position;
    // "sideways": gravity along -x.
    assert_eq!(tune(&mut app, Tune::GravityPreset(3)), None);
    for _ in 0..30 {
        app.update();
    }
    let body = player(&mut app);
    assert_eq!(body.up, Vec3::X);
    let fallen = start.x - body.position.x;
    // Half a second of free fall at 9.81 m/s² is 1.2 m (less if it landed on a wall).
    assert!(fallen > 0.5, "fell {fallen} m along -x");
    // Earth again: "up" follows.
    assert_eq!(tune(&mut app, Tune::GravityPreset(0)), None);
    app.update();
    assert_eq!(player(&mut app).up, Vec3::Y);
}

#[test]
fn invalid_panel_values_are_refused_and_never_reach_the_controller() {
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let before = player_config(&mut app);
    for (change, says) in [
        (Tune::Value("walk_speed", f64::NAN), "must be a number"),
        (Tune::Value("walk_speed", 0.0), "between"),
        (Tune::Value("jump_height", -1.0), "between"),
        (Tune::Value("sprint_speed", 1e12), "between"),
        (Tune::Radii(Vec3::new(0.4, f32::INFINITY, 0.4)), "radii"),
        (Tune::Gravity(Vec3::ZERO, 9.81), "direction"),
        (Tune::Gravity(Vec3::NEG_Y, -2.0), "between"),
        (Tune::Switch("auto_jump", true), "no switch"),
    ] {
        let refused = tune(&mut app, change.clone()).unwrap_or_else(|| panic!("{change:?} accepted"));
        assert!(refused.contains(says), "{change:?}: {refused}");
        assert_eq!(player_config(&mut app), before, "{change:?}");
    }
    // A good value clears the message.
    assert_eq!(tune(&mut app, Tune::Value("walk_speed", 5.0)), None);
    assert_eq!(player_config(&mut app).walk_speed, 5.0);
}

#[test]
fn settings_changed_in_the_panel_are_saved_and_restored_at_the_next_start() {
    let dir = temp_dir("settings");
    let file = dir.join("settings.json");
    let options = Options {
        settings: Some(file.clone()),
        ..Options::default()
    };
    let mut app = standing_app(&options, Vec3::new(0.0, 0.0, 4.0));
    assert_eq!(tune(&mut app, Tune::Value("walk_speed", 6.5)), None);
    assert_eq!(tune(&mut app, Tune::GravityPreset(1)), None);
    // The switches and the platform momentum, from the game's defaults.
    assert_eq!(tune(&mut app, Tune::Switch("ledge_grab", false)), None);
    assert_eq!(tune(&mut app, Tune::Switch("pushed_mass_slows", false)), None);
    assert_eq!(
        tune(
            &mut app,
            Tune::PlatformMomentum(slidewalk_controller::PlatformMomentum::Horizontal)
        ),
        None
    );
    assert_eq!(
        tune(&mut app, Tune::Overlay(slidewalk_play::Overlay::Contacts, true)),
        None
    );
    assert!(file.exists());
    drop(app);
    let mut app = standing_app(&options, Vec3::new(0.0, 0.0, 4.0));
    let config = player_config(&mut app);
    assert_eq!(config.walk_speed, 6.5);
    assert_eq!(config.gravity, Vec3::new(0.0, -1.62, 0.0));
    assert!(!config.ledge_grab && !config.pushed_mass_slows);
    assert_eq!(
        config.platform_momentum,
        slidewalk_controller::PlatformMomentum::Horizontal
    );
    let settings = &app.world().resource::<slidewalk::sim::tuning::CurrentSettings>().0;
    assert!(settings.shows(slidewalk_play::Overlay::Contacts));
    // A broken file: a warning on screen, the defaults, the game goes on.
    std::fs::write(&file, "{ not json").unwrap();
    let mut app = standing_app(&options, Vec3::new(0.0, 0.0, 4.0));
    assert_eq!(player_config(&mut app).walk_speed, 4.5);
    let notices = app.world().resource::<slidewalk::notices::Notices>();
    assert!(
        notices.0.iter().any(|n| n.error && n.text.contains("settings.json")),
        "{notices:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
