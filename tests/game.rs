//! The game's integration tests, through the real simulation plugins,
//! headless (one test binary: each links Bevy). Each plays a script from
//! `assets/scripts/` on the demo level at 30, 60 and 144 Hz and asserts the
//! final state, and that no tick penetrated anything. The panel's changes,
//! the rewind and the balls are driven by the messages the panel sends.

use bevy::prelude::*;
use play::{Options, Script, Summary};
use slidewalk::headless;
use slidewalk::sim::balls::{BallBlast, BallControl, BallPit, BallSettings};
use slidewalk::sim::input::Player;
use slidewalk::sim::player::CharacterController;
use slidewalk::sim::rewind::{Rewind, RewindRequest};
use slidewalk::sim::tuning::{Tune, TuningStatus};

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
                let mut config = *body.config_in_use();
                config.standing_radii.x = 0.55;
                config.standing_radii.z = 0.55;
                body.set_config(config).unwrap();
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

fn player(app: &mut App) -> CharacterController {
    let mut q = app.world_mut().query_filtered::<&CharacterController, With<Player>>();
    q.single(app.world()).unwrap().clone()
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
    assert!(player(&mut app).state.grounded());
    app
}

fn tune(app: &mut App, change: Tune) -> Option<String> {
    app.world_mut().write_message(change);
    app.update();
    app.world().resource::<TuningStatus>().refused.clone()
}

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
    assert_eq!(body.state.radii, Vec3::new(0.3, 0.7, 0.3));
    let ground = body.state.ground.expect("still standing");
    let height = body.state.position.y - ground.point.y;
    assert!((height - 0.7).abs() < 0.005, "centre {height} m above the ground");
    assert!(body.state.feet().y.abs() < 0.01);
    // In the corridor (1.2 m wide at z 2..10 by x 26): 0.7 m across does
    // not fit; refused with a message and nothing changes.
    let mut app = standing_app(&Options::default(), Vec3::new(26.0, 0.0, 6.0));
    let before = player(&mut app);
    let refused = tune(&mut app, Tune::Radii(Vec3::new(0.7, 0.9, 0.7))).expect("refused");
    assert!(refused.contains("do not fit"), "{refused}");
    let after = player(&mut app);
    assert_eq!(after.config_in_use(), before.config_in_use());
    assert_eq!(after.state.radii, before.state.radii);
}

#[test]
fn a_gravity_preset_makes_the_player_fall_the_new_way() {
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let start = player(&mut app).state.position;
    // "sideways": gravity along -x.
    assert_eq!(tune(&mut app, Tune::GravityPreset(3)), None);
    for _ in 0..30 {
        app.update();
    }
    let body = player(&mut app);
    assert_eq!(body.state.up, Vec3::X);
    let fallen = start.x - body.state.position.x;
    // Half a second of free fall at 9.81 m/s² is 1.2 m (less if it landed on a wall).
    assert!(fallen > 0.5, "fell {fallen} m along -x");
    // Earth again: "up" follows.
    assert_eq!(tune(&mut app, Tune::GravityPreset(0)), None);
    app.update();
    assert_eq!(player(&mut app).state.up, Vec3::Y);
}

#[test]
fn invalid_panel_values_are_refused_and_never_reach_the_controller() {
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let before = *player(&mut app).config_in_use();
    for (change, says) in [
        (Tune::Value("walk_speed", f64::NAN), "must be a number"),
        (Tune::Value("walk_speed", 0.0), "between"),
        (Tune::Value("jump_height", -1.0), "between"),
        (Tune::Value("sprint_speed", 1e12), "between"),
        (Tune::Radii(Vec3::new(0.4, f32::INFINITY, 0.4)), "radii"),
        (Tune::Gravity(Vec3::ZERO, 9.81), "direction"),
        (Tune::Gravity(Vec3::NEG_Y, -2.0), "between"),
    ] {
        let refused = tune(&mut app, change.clone()).unwrap_or_else(|| panic!("{change:?} accepted"));
        assert!(refused.contains(says), "{change:?}: {refused}");
        assert_eq!(*player(&mut app).config_in_use(), before, "{change:?}");
    }
    // A good value clears the message.
    assert_eq!(tune(&mut app, Tune::Value("walk_speed", 5.0)), None);
    assert_eq!(player(&mut app).config_in_use().walk_speed, 5.0);
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
    assert_eq!(tune(&mut app, Tune::Overlay(play::Overlay::Contacts, true)), None);
    assert!(file.exists());
    drop(app);
    let mut app = standing_app(&options, Vec3::new(0.0, 0.0, 4.0));
    let config = *player(&mut app).config_in_use();
    assert_eq!(config.walk_speed, 6.5);
    assert_eq!(config.gravity, Vec3::new(0.0, -1.62, 0.0));
    let settings = &app.world().resource::<slidewalk::sim::tuning::CurrentSettings>().0;
    assert!(settings.shows(play::Overlay::Contacts));
    // A broken file: a warning on screen, the defaults, the game goes on.
    std::fs::write(&file, "{ not json").unwrap();
    let mut app = standing_app(&options, Vec3::new(0.0, 0.0, 4.0));
    assert_eq!(player(&mut app).config_in_use().walk_speed, 4.5);
    let notices = app.world().resource::<slidewalk::notices::Notices>();
    assert!(
        notices.0.iter().any(|n| n.error && n.text.contains("settings.json")),
        "{notices:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

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
        let end = player(&mut replay).state;
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

/// The grid's rules on a headless app: a level mesh, a textured one and
/// one outside the level (an overlay's), with the material assets the
/// renderer would hold.
fn grid_app() -> (App, [Entity; 3]) {
    use slidewalk::view::grid::{GridMaterial, rules_plugin};
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    app.init_resource::<Assets<StandardMaterial>>()
        .init_resource::<Assets<GridMaterial>>()
        .init_resource::<slidewalk::view::errors::ShaderFailure>();
    // Plugin functions called as such: the app has already run.
    rules_plugin(&mut app);
    let generation = app.world().resource::<slidewalk::sim::level::CurrentLevel>().generation;
    let mut standard = app.world_mut().resource_mut::<Assets<StandardMaterial>>();
    let plain = standard.add(StandardMaterial::default());
    let textured = standard.add(StandardMaterial {
        base_color_texture: Some(Handle::default()),
        ..default()
    });
    let overlay = standard.add(StandardMaterial::default());
    let world = app.world_mut();
    let scene = world.spawn(slidewalk::view::scene::LevelScene::new(generation)).id();
    let node = world.spawn(ChildOf(scene)).id();
    let plain = world.spawn((MeshMaterial3d(plain), ChildOf(node))).id();
    let textured = world.spawn((MeshMaterial3d(textured), ChildOf(node))).id();
    let overlay = world.spawn(MeshMaterial3d(overlay)).id();
    app.update();
    app.update();
    (app, [plain, textured, overlay])
}

fn has_grid(app: &App, entity: Entity) -> bool {
    let e = app.world().entity(entity);
    let grid = e.contains::<MeshMaterial3d<slidewalk::view::grid::GridMaterial>>();
    assert_ne!(
        grid,
        e.contains::<MeshMaterial3d<StandardMaterial>>(),
        "one material, not both or none"
    );
    grid
}

fn grid_uniforms(app: &App) -> Vec<slidewalk::view::grid::GridUniform> {
    let materials = app.world().resource::<Assets<slidewalk::view::grid::GridMaterial>>();
    materials.iter().map(|(_, m)| m.extension.uniform).collect()
}

#[test]
fn untextured_level_meshes_get_the_grid_textured_ones_on_request_and_none_after_a_shader_failure() {
    let (mut app, [plain, textured, overlay]) = grid_app();
    assert!(has_grid(&app, plain));
    assert!(!has_grid(&app, textured), "a textured material keeps its look");
    assert!(!has_grid(&app, overlay), "only the level's meshes");
    assert_eq!(tune(&mut app, Tune::GridEverywhere(true)), None);
    app.update();
    assert!(has_grid(&app, plain) && has_grid(&app, textured));
    assert!(!has_grid(&app, overlay));
    assert_eq!(tune(&mut app, Tune::GridEverywhere(false)), None);
    app.update();
    assert!(!has_grid(&app, textured));
    // The shader failed to compile: everything back to its own material.
    app.world_mut()
        .resource_mut::<slidewalk::view::errors::ShaderFailure>()
        .0 = Some("bad".into());
    app.update();
    assert!(!has_grid(&app, plain) && !has_grid(&app, textured));
}

#[test]
fn the_grid_tint_follows_the_walkable_limit_and_gravity_live() {
    let (mut app, _) = grid_app();
    let default = play::Settings::default().controller.walkable_slope_deg;
    let uniforms = grid_uniforms(&app);
    assert!(!uniforms.is_empty());
    for u in &uniforms {
        assert!((u.cos_walkable - default.to_radians().cos()).abs() < 1e-6, "{u:?}");
        assert_eq!(u.up, Vec3::Y);
    }
    assert_eq!(tune(&mut app, Tune::Value("walkable_slope_deg", 30.0)), None);
    app.update();
    for u in grid_uniforms(&app) {
        assert!((u.cos_walkable - 30f32.to_radians().cos()).abs() < 1e-6, "{u:?}");
    }
    // "Sideways" gravity: up is +x on the next tick, and so is the grid's.
    assert_eq!(tune(&mut app, Tune::GravityPreset(3)), None);
    for _ in 0..3 {
        app.update();
    }
    for u in grid_uniforms(&app) {
        assert_eq!(u.up, Vec3::X);
    }
}

#[test]
fn logged_errors_reach_the_screen_and_a_shader_error_switches_the_grid_off() {
    use slidewalk::view::errors::{ErrorLog, LoggedError, ShaderFailure};
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let (sender, log) = ErrorLog::channel();
    app.insert_resource(log);
    slidewalk::view::errors::plugin(&mut app);
    sender
        .send(LoggedError {
            target: "wgpu_core::device".into(),
            message: "device lost".into(),
        })
        .unwrap();
    app.update();
    assert!(app.world().resource::<ShaderFailure>().0.is_none());
    sender
        .send(LoggedError {
            target: "bevy_render::render_resource::pipeline_cache".into(),
            message: "failed to process shader error:\nerror: no definition in scope for identifier: `x`\n    \
                      ┌─ embedded://slidewalk/grid.wgsl:110:52\n    │"
                .into(),
        })
        .unwrap();
    app.update();
    assert!(app.world().resource::<ShaderFailure>().0.is_some());
    let notices = &app.world().resource::<slidewalk::notices::Notices>().0;
    assert!(
        notices.iter().any(|n| n.error && n.text == "device lost"),
        "{notices:?}"
    );
    let shader = notices
        .iter()
        .find(|n| n.text.starts_with("a shader failed to compile"))
        .expect("the shader error on screen");
    assert!(
        shader.error && shader.text.contains("+- embedded://slidewalk/grid.wgsl:110:52"),
        "{shader:?}"
    );
    assert!(
        !shader.text.contains('│'),
        "egui's fonts have no box glyphs: {shader:?}"
    );
    // Another error with a backtrace: its first line only. Bevy's glTF
    // loader refusing the level: left to the level's drawing to say.
    for (target, message) in [
        (
            "bevy_asset::server",
            "Failed to load asset 'x.png': no such file\n   1: backtrace line",
        ),
        (
            "bevy_asset::server",
            "Failed to load asset 'disk://a.gltf' with asset loader 'bevy_gltf::loader::GltfLoader': invalid glTF",
        ),
    ] {
        sender
            .send(LoggedError {
                target: target.into(),
                message: message.into(),
            })
            .unwrap();
    }
    app.update();
    let notices = &app.world().resource::<slidewalk::notices::Notices>().0;
    assert!(
        notices
            .iter()
            .any(|n| n.text == "Failed to load asset 'x.png': no such file (more in the log)"),
        "{notices:?}"
    );
    assert!(!notices.iter().any(|n| n.text.contains("GltfLoader")), "{notices:?}");
}

#[test]
fn a_level_bevy_cannot_draw_is_drawn_from_its_collision_geometry_with_the_grid() {
    use bevy::ecs::system::RunSystemOnce;
    use slidewalk::view::scene::{LevelScene, MoverVisual, spawn_collision_drawing};
    let (mut app, _) = grid_app();
    app.init_resource::<Assets<Mesh>>();
    let generation = app.world().resource::<slidewalk::sim::level::CurrentLevel>().generation;
    let scene = app.world_mut().spawn(LevelScene::new(generation)).id();
    app.world_mut()
        .run_system_once(
            move |current: Res<slidewalk::sim::level::CurrentLevel>,
                  mut meshes: ResMut<Assets<Mesh>>,
                  mut materials: ResMut<Assets<StandardMaterial>>,
                  mut commands: Commands| {
                let level = current.level.as_ref().expect("the demo level is open");
                spawn_collision_drawing(level, scene, &mut meshes, &mut materials, &mut commands);
            },
        )
        .unwrap();
    app.update();
    app.update();
    let level = app
        .world()
        .resource::<slidewalk::sim::level::CurrentLevel>()
        .level
        .clone()
        .unwrap();
    let mut parts = app
        .world_mut()
        .query_filtered::<(Entity, &Mesh3d, Option<&MoverVisual>, &ChildOf), With<Mesh3d>>();
    let parts: Vec<(Entity, Handle<Mesh>, Option<usize>)> = parts
        .iter(app.world())
        .filter(|(.., parent)| parent.parent() == scene)
        .map(|(e, mesh, visual, _)| (e, mesh.0.clone(), visual.map(|v| v.0)))
        .collect();
    // The statics and every door and lift, each moving with its body.
    assert_eq!(parts.len(), 1 + level.movers.len());
    let meshes = app.world().resource::<Assets<Mesh>>();
    let triangles = |handle: &Handle<Mesh>| meshes.get(handle).unwrap().count_vertices() / 3;
    for (entity, mesh, mover) in &parts {
        let expected = match mover {
            Some(i) => level.movers[*i].collider.len(),
            None => level.statics.as_ref().unwrap().len(),
        };
        assert_eq!(triangles(mesh), expected);
        assert!(has_grid(&app, *entity), "the fallback drawing gets the grid");
    }
}

fn ball_pit(app: &App) -> &BallPit {
    app.world().resource::<BallPit>()
}

fn ball_control(app: &mut App, control: BallControl) {
    app.world_mut().write_message(control);
    app.update();
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

#[test]
fn ball_settings_are_checked_the_cap_removes_the_oldest_and_clear_empties_the_room() {
    // The demo level's ball room.
    let mut app = standing_app(&Options::default(), Vec3::new(16.0, 0.0, -12.0));
    let small = BallSettings {
        max_balls: 5,
        ..BallSettings::default()
    };
    ball_control(&mut app, BallControl::Settings(small));
    ball_control(&mut app, BallControl::Rain(8));
    assert_eq!(ball_pit(&app).world.balls.len(), 5);
    assert_eq!(ball_pit(&app).thrown, 8);
    for (bad, says) in [
        (
            BallSettings {
                radius: f32::NAN,
                ..small
            },
            "balls: ball radius must be from 0.02 to 1 m, got NaN",
        ),
        (BallSettings { radius: 0.0, ..small }, "got 0"),
        (
            BallSettings {
                throw_speed: -1.0,
                ..small
            },
            "throw speed must be from 1 to 100 m/s, got -1",
        ),
        (
            BallSettings {
                restitution: 1.5,
                ..small
            },
            "restitution must be from 0 to 1, got 1.5",
        ),
        (
            BallSettings {
                friction: f32::INFINITY,
                ..small
            },
            "friction must be from 0 to 1, got inf",
        ),
        (
            BallSettings { max_balls: 0, ..small },
            "max balls must be from 1 to 20,000, got 0",
        ),
    ] {
        ball_control(&mut app, BallControl::Settings(bad));
        assert_eq!(ball_pit(&app).settings, small, "{bad:?} accepted");
        let notices = app.world().resource::<slidewalk::notices::Notices>();
        assert!(
            notices.0.iter().any(|n| n.error && n.text.contains(says)),
            "{bad:?}: {notices:?}"
        );
    }
    ball_control(&mut app, BallControl::Clear);
    assert!(ball_pit(&app).world.balls.is_empty());
}

#[test]
fn walking_into_a_ball_kicks_it_ahead_and_a_rain_of_balls_never_pushes_the_player_into_a_wall() {
    // A ball resting 2 m ahead in the ball room; the player walks into it.
    let options = Options {
        spawn: Some(Vec3::new(16.0, 0.0, -12.0)),
        ..Options::default()
    };
    let mut app = scripted_app(
        &options,
        r#"{"steps": [{"for_s": 0.3, "yaw_deg": 0}, {"for_s": 1.2, "move": [0, 1]}]}"#,
    );
    {
        let mut pit = app.world_mut().resource_mut::<BallPit>();
        pit.world
            .balls
            .push(balls::Ball::new(Vec3::new(16.0, 0.151, -14.0), Vec3::ZERO, 0.15));
        pit.previous.push(Vec3::new(16.0, 0.151, -14.0));
    }
    let summary = headless::play_out(&mut app, 100);
    assert!(summary.max_penetration <= 1e-4, "{summary:?}");
    let ball = ball_pit(&app).world.balls[0];
    let feet = summary.final_position;
    assert!(
        ball.position.z < feet.z - 0.5,
        "the ball at {} is not ahead of the player at {feet}",
        ball.position
    );
    // The player's kick sent it off faster than a walk.
    assert!(ball.position.z < -14.0 - 2.0, "the ball only reached {}", ball.position);

    // A rain of balls on a player standing in the room's corner.
    let corner = Vec3::new(10.5, 0.0, -21.5);
    let mut app = standing_app(&Options::default(), corner);
    ball_control(&mut app, BallControl::Rain(300));
    for _ in 0..180 {
        app.update();
    }
    assert_never_penetrated(&app);
    let body = player(&mut app);
    assert!(body.state.feet().y.abs() < 0.05, "{:?}", body.state.feet());
    let pit = ball_pit(&app);
    assert!(
        pit.world
            .balls
            .iter()
            .all(|b| b.position.is_finite() && b.velocity.is_finite()),
        "a ball went to NaN"
    );
    // The ones that came down in the room are on its floor, not in its walls.
    for b in &pit.world.balls {
        if (10.0..22.0).contains(&b.position.x) && (-22.0..-10.0).contains(&b.position.z) && b.position.y < 2.0 {
            let clear = (b.position.x - 10.0)
                .min(22.0 - b.position.x)
                .min(b.position.z + 22.0)
                .min(-10.0 - b.position.z);
            assert!(clear >= b.radius - 1e-3, "a ball in a wall at {}", b.position);
        }
    }
}

#[test]
fn a_scripted_throw_in_the_magic_room_meets_the_exact_pillar_and_comes_to_rest_on_the_floor() {
    // Feet 0.0752 m right of the pillar's axis, looking along −z at it: a
    // 15 cm ball flying straight at it meets the cylinder (radius 1) 3.75°
    // round from its front, half way between two of its mesh's 48 vertices,
    // where the exact shape stands 2.1 mm proud of the facet the player meets.
    let options = magic_room_options();
    let mut app = headless::app(&options, script("magic_room_throw"));
    app.update();
    let mut cursor = app.world().resource::<Messages<BallBlast>>().get_cursor();
    let mut blasts = Vec::new();
    for _ in 0..(12.5 * 60.0) as usize {
        app.update();
        let messages = app.world().resource::<Messages<BallBlast>>();
        blasts.extend(cursor.read(messages).copied());
    }
    let pit = ball_pit(&app);
    assert_eq!(pit.thrown, 1);
    let first = blasts.first().expect("the ball hit something hard");
    let angle = 3.75f32.to_radians();
    let on_pillar = Vec3::new(angle.sin(), first.point.y, angle.cos());
    assert!(
        (first.point - on_pillar).length() < 1e-4,
        "the first impact at {} is not on the exact pillar at {on_pillar}",
        first.point
    );
    assert!((1.0..2.0).contains(&first.point.y), "{}", first.point);
    // A fully charged throw (20 m/s), met 3.75° off square.
    assert!((first.speed - 20.0 * angle.cos()).abs() < 0.1, "{first:?}");
    // Twelve seconds on, it lies still on the floor, inside the room and
    // clear of the pillar and the logs.
    let ball = pit.world.balls[0];
    assert!(ball.asleep, "{ball:?}");
    assert!((ball.position.y - ball.radius).abs() < 1e-3, "{ball:?}");
    let shapes = level_shapes(&app);
    let clear = shapes
        .iter()
        .map(|s| s.signed_distance(ball.position))
        .fold(f32::INFINITY, f32::min);
    assert!(clear >= ball.radius - 1e-3, "{ball:?} is {clear} m from a shape");
    assert_never_penetrated(&app);
}

/// Options that open the magic room (`assets/levels/magic_room.glb`).
fn magic_room_options() -> Options {
    let magic_room = format!("{}/assets/levels/magic_room.glb", env!("CARGO_MANIFEST_DIR"));
    Options {
        level: Some(magic_room.into()),
        ..Options::default()
    }
}

/// The player never ended a tick inside anything so far.
fn assert_never_penetrated(app: &App) {
    let summary = &app.world().resource::<slidewalk::sim::player::RunStats>().summary;
    assert!(summary.max_penetration <= 1e-4, "{summary:?}");
}

/// The current level's analytic shapes.
fn level_shapes(app: &App) -> Vec<sweep::AnalyticShape> {
    let current = app.world().resource::<slidewalk::sim::level::CurrentLevel>();
    let level = current.level.as_ref().expect("a level is in");
    assert_eq!(level.analytic.len(), 8);
    level.analytic.iter().map(|a| a.shape).collect()
}

#[test]
fn balls_dropped_beside_the_magic_room_s_pillar_start_outside_it_and_stay_out() {
    // The drop's cloud (6 m up, up to 2 m across) reaches over the pillar
    // (radius 1, 8 m tall) beside the player: those drops stop short of it.
    let options = magic_room_options();
    let mut app = standing_app(&options, Vec3::new(1.6, 0.0, 0.0));
    ball_control(&mut app, BallControl::Rain(40));
    let shapes = level_shapes(&app);
    let clearance = |app: &App| {
        ball_pit(app)
            .world
            .balls
            .iter()
            .map(|b| {
                let d = shapes
                    .iter()
                    .map(|s| s.signed_distance(b.position))
                    .fold(f32::INFINITY, f32::min);
                d - b.radius
            })
            .fold(f32::INFINITY, f32::min)
    };
    let dropped = ball_pit(&app).world.balls.len();
    assert!(dropped >= 30, "only {dropped} of 40 dropped");
    assert!(
        clearance(&app) >= -1e-3,
        "a ball starts {} m inside a shape",
        -clearance(&app)
    );
    for _ in 0..120 {
        app.update();
        assert!(
            clearance(&app) >= -1e-3,
            "a ball is {} m inside a shape",
            -clearance(&app)
        );
    }
    assert_never_penetrated(&app);
}

/// The deepest any ball is inside the level's colliders (at their poses
/// for the end of the last tick), metres.
fn deepest_ball(app: &mut App) -> f32 {
    let mut state: bevy::ecs::system::SystemState<slidewalk::sim::colliders::Colliders> =
        bevy::ecs::system::SystemState::new(app.world_mut());
    let colliders = state.get(app.world()).expect("the colliders");
    let placed = colliders.placed();
    let pit = app.world().resource::<BallPit>();
    pit.world
        .balls
        .iter()
        .map(|b| {
            let sphere = sweep::Ellipsoid::sphere(b.radius).unwrap();
            sweep::penetration_depth(&sphere, b.position, &placed) * b.radius
        })
        .fold(0.0, f32::max)
}

#[test]
fn balls_riding_the_lift_under_its_upper_floor_never_end_a_tick_inside_it() {
    // Standing on the lift (it rises 3 m to the upper floor and back), 200
    // balls dropped on the player: they ride up in a jammed pile, fall off
    // its sides, and those under it when it comes down are pushed out or,
    // crushed, burst.
    let mut app = standing_app(&Options::default(), Vec3::new(-14.75, 0.2, -21.0));
    ball_control(&mut app, BallControl::Rain(200));
    let mut deepest = 0.0f32;
    for _ in 0..20 * 60 {
        app.update();
        let d = deepest_ball(&mut app);
        deepest = deepest.max(d);
    }
    assert!(deepest < 1e-3, "a ball was {deepest} m inside the level");
    assert!(
        ball_pit(&app).world.balls.len() > 100,
        "the balls burst instead of riding"
    );
    assert_never_penetrated(&app);
}

fn crowd_sim(app: &App) -> &slidewalk::sim::crowd::CrowdSim {
    app.world().resource::<slidewalk::sim::crowd::CrowdSim>()
}

fn crowd_control(app: &mut App, control: slidewalk::sim::crowd::CrowdControl) {
    app.world_mut().write_message(control);
    app.update();
}

#[test]
fn a_crowd_spawned_from_the_panel_wanders_around_the_walking_player_never_into_it_the_level_or_each_other() {
    use slidewalk::sim::crowd::CrowdControl;
    // The player stands on the start pad for a second, then walks ahead
    // into the crowd; the panel's button asks for 100 agents around it,
    // then 100 more.
    let options = Options {
        spawn: Some(Vec3::new(0.0, 0.0, 30.0)),
        ..Options::default()
    };
    let mut app = scripted_app(
        &options,
        r#"{"steps": [{"for_s": 1.0, "yaw_deg": 0}, {"for_s": 600, "move": [0, 1]}]}"#,
    );
    crowd_control(&mut app, CrowdControl::Spawn(100));
    crowd_control(&mut app, CrowdControl::Spawn(100));
    let sim = crowd_sim(&app);
    let placed = sim.crowd.len();
    assert!(placed >= 180, "only {placed} of 200 agents placed");
    let starts: Vec<Vec3> = sim.crowd.agents().iter().map(|a| a.position()).collect();
    let statics = {
        let current = app.world().resource::<slidewalk::sim::level::CurrentLevel>();
        current.level.clone().unwrap()
    };
    let level = [sweep::PlacedCollider::fixed(statics.statics.as_ref().unwrap())];
    let mut nearest = f64::INFINITY;
    for second in 0..5 {
        for _ in 0..60 {
            app.update();
            // Every tick: the player and the agents never overlap (the gap
            // is in the agent's eSpace: a fraction of its radii).
            let body = player(&mut app);
            for (i, a) in crowd_sim(&app).crowd.agents().iter().enumerate() {
                let gap =
                    crowd::separation::espace_distance(a.position(), a.radii(), body.state.position, body.state.radii)
                        - 1.0;
                nearest = nearest.min(gap);
                assert!(gap >= 0.0, "second {second}: agent {i} inside the player ({gap})");
            }
        }
        let body = player(&mut app);
        let sim = crowd_sim(&app);
        let sim_agents = sim.crowd.agents();
        assert_eq!(sim_agents.len(), placed);
        for (i, a) in sim_agents.iter().enumerate() {
            assert!(a.position().is_finite(), "agent {i} went non-finite");
            let e = sweep::Ellipsoid::new(a.radii()).unwrap();
            let depth = sweep::penetration_depth(&e, a.position(), &level);
            assert!(
                depth <= 1e-4,
                "second {second}: agent {i} {depth} into the level at {}",
                a.position()
            );
            assert!(
                crowd::separation::apart(a.position(), a.radii(), body.state.position, body.state.radii, 0.0),
                "second {second}: agent {i} inside the player"
            );
            for (j, b) in sim_agents.iter().enumerate().skip(i + 1) {
                assert!(
                    crowd::separation::apart(a.position(), a.radii(), b.position(), b.radii(), 0.0),
                    "second {second}: agents {i} and {j} overlap at {} and {}",
                    a.position(),
                    b.position()
                );
            }
        }
    }
    let body = player(&mut app);
    assert!(
        body.state.position.z < 27.0,
        "the player did not walk into the crowd: {}",
        body.state.position
    );
    let sim = crowd_sim(&app);
    let walked = sim
        .crowd
        .agents()
        .iter()
        .zip(&starts)
        .filter(|(a, s)| (a.position() - **s).length() > 1.0)
        .count();
    assert!(walked > placed / 2, "only {walked} of {placed} agents wandered off");
    // It came close to agents (the test met the case it is about).
    assert!(nearest < 0.5, "the player never came near an agent: {nearest}");
    // The panel's readout: what the last step cost, for how many.
    let last = sim.last_step();
    assert_eq!(last.agents, placed);
    assert!(last.micros > 0.0 && last.micros_per_agent > 0.0, "{last:?}");
    assert_never_penetrated(&app);
    crowd_control(&mut app, CrowdControl::Clear);
    assert!(crowd_sim(&app).crowd.is_empty());
}

#[test]
fn a_big_spawn_is_spread_over_ticks_and_a_clear_stops_it() {
    use slidewalk::sim::crowd::CrowdControl;
    use slidewalk::sim::crowd::SPAWN_CHUNK;
    let mut app = scripted_app(&Options::default(), r#"{"steps": [{"for_s": 600}]}"#);
    // With no time to spare, one chunk a tick; none are lost on the way,
    // and the spawn ends with all of them on the demo level.
    app.world_mut()
        .resource_mut::<slidewalk::sim::crowd::CrowdSim>()
        .spawn_budget = std::time::Duration::ZERO;
    let asked = 29 * SPAWN_CHUNK / 2;
    crowd_control(&mut app, CrowdControl::Spawn(asked));
    for tick in 1..=16 {
        let sim = crowd_sim(&app);
        assert_eq!(
            (sim.crowd.len(), sim.spawning()),
            (
                (tick * SPAWN_CHUNK).min(asked),
                asked.saturating_sub(tick * SPAWN_CHUNK)
            ),
            "after {tick} ticks"
        );
        app.update();
    }
    // A clear during a spawn stops it.
    crowd_control(&mut app, CrowdControl::Spawn(3_000));
    crowd_control(&mut app, CrowdControl::Clear);
    app.update();
    let sim = crowd_sim(&app);
    assert_eq!((sim.crowd.len(), sim.spawning()), (0, 0));
}

#[test]
fn the_lift_coming_down_on_the_player_under_it_turns_back_and_never_presses_it_into_the_floor() {
    // The player walks under the raised lift of the demo level and stands
    // there; the lift comes down on it, turns back, waits up there and
    // comes down again.
    let options = Options {
        spawn: Some(Vec3::new(-14.75, 0.0, -17.0)),
        ..Options::default()
    };
    let mut app = scripted_app(
        &options,
        r#"{"steps": [{"for_s": 5.0, "yaw_deg": 0}, {"for_s": 0.9, "move": [0, 1]}, {"for_s": 60, "move": [0, 0]}]}"#,
    );
    let lift_y = |app: &mut App| {
        let mut q = app.world_mut().query::<&slidewalk::sim::level::MoverBody>();
        q.iter(app.world())
            .find(|m| m.lift_s.is_some())
            .unwrap()
            .pose
            .translation
            .y
    };
    let (mut squeezes, mut lowest_over_head) = (0, f32::INFINITY);
    let mut turned_back = false;
    let mut last_y = lift_y(&mut app);
    for tick in 0..20 * 60 {
        app.update();
        let body = player(&mut app);
        let y = lift_y(&mut app);
        let report = &app.world().resource::<slidewalk::sim::player::RunStats>().summary;
        let under = (body.state.position.x + 14.75).abs() < 1.2 && (body.state.position.z + 21.0).abs() < 1.2;
        if tick > 6 * 60 {
            assert!(
                under,
                "tick {tick}: the player left the lift's shaft: {}",
                body.state.position
            );
            // Feet on the floor, never pressed into it.
            assert!(
                body.state.feet().y > -1e-3,
                "tick {tick}: feet at {}",
                body.state.feet()
            );
            lowest_over_head = lowest_over_head.min(y - (body.state.position.y + body.state.radii.y));
            if y > last_y && last_y < 3.0 {
                turned_back = true;
            }
        }
        squeezes = report.crushed_ticks;
        last_y = y;
    }
    assert!(squeezes > 0, "the lift never came down on the player");
    assert!(turned_back, "the lift never turned back");
    // The deck's underside never went more than a few ticks' travel (1.5 m/s) into the head.
    assert!(
        lowest_over_head > -0.1,
        "the deck came {lowest_over_head} m into the player's head"
    );
}

#[test]
fn every_surface_keeps_its_friction_as_collider_entities() {
    // The level's statics, doors and lifts are the plugin's colliders,
    // numbered as the plugin numbers them: what the game's systems read
    // through `Colliders` (and hand to the crowd and the balls) must be
    // the level's own friction for every triangle.
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let level = app
        .world()
        .resource::<slidewalk::sim::level::CurrentLevel>()
        .level
        .clone()
        .expect("a level is open");
    let mut state = bevy::ecs::system::SystemState::<(
        slidewalk::sim::colliders::Colliders,
        Res<bevy_slidewalk::CollisionWorld>,
        Query<Entity, With<slidewalk::sim::level::LevelStatics>>,
        Query<(Entity, &slidewalk::sim::level::MoverBody)>,
    )>::new(app.world_mut());
    let (colliders, world, statics, movers) = state.get(app.world()).unwrap();
    let statics = statics.single().unwrap();
    let index = world.index_of(statics).unwrap();
    let friction_of = |surface: u16| level.surfaces[surface as usize].friction;
    let mut seen_ice = false;
    for (t, &surface) in level.static_surfaces.iter().enumerate() {
        // Merged or not, the index's triangle numbering starts at the statics' own.
        let Some((entity, local)) = world.locate(index, t as u32).filter(|_| !world.is_merged(statics)) else {
            continue;
        };
        assert_eq!((entity, local), (statics, t as u32));
        assert_eq!(
            colliders.friction(index, t as u32),
            friction_of(surface),
            "static triangle {t}"
        );
        seen_ice |= friction_of(surface) < 0.5;
    }
    assert!(seen_ice, "the demo level has ice");
    for (entity, body) in &movers {
        let i = world.index_of(entity).unwrap();
        let expected = friction_of(level.movers[body.index].surface);
        if !world.is_merged(entity) {
            assert_eq!(colliders.friction(i, 0), expected, "mover {}", body.index);
            assert_eq!(colliders.mover_of(i), Some(body.index));
        }
    }
}
