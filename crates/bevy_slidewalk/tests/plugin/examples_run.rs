//! Every example run headless for a few seconds, and a glTF scene made
//! solid with one line and walked.

use super::*;

/// Runs an example's plugins headless for `seconds` with no input.
fn run_example(pacing: Pacing, seconds: f32, plugins: impl FnOnce(&mut App)) -> App {
    let mut app = app_at(pacing);
    app.add_plugins(bevy::input::InputPlugin)
        .init_asset::<StandardMaterial>();
    plugins(&mut app);
    run(&mut app, ticks(seconds as f64));
    app
}

fn the_player(app: &mut App) -> MovementState {
    let mut q = app.world_mut().query::<&MovementState>();
    *q.single(app.world()).unwrap()
}

/// Holds W (forward, as a player would) for `seconds`.
fn walk_forward(app: &mut App, seconds: f32) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::KeyW);
    run(app, ticks(seconds as f64));
}

#[test]
fn the_quick_start_walks_and_is_the_readme_s_and_the_crate_doc_s() {
    at_every_pacing(|pacing| {
        let mut app = run_example(pacing, 1.0, |app| {
            app.add_systems(Startup, examples::quick_start::setup)
                .add_systems(Update, (examples::quick_start::look, examples::quick_start::walk));
        });
        let from = the_player(&mut app).feet();
        assert!(the_player(&mut app).grounded() && from.y.abs() < 0.01, "{from:?}");
        // W for a second and a half: forward (-z) and up onto the step 6 m ahead.
        walk_forward(&mut app, 1.5);
        let p = the_player(&mut app);
        assert!(p.grounded(), "{:?}", p.feet());
        assert!(from.z - p.feet().z > 5.0, "walked forward from {from} to {}", p.feet());
        assert!((p.feet().y - 0.25).abs() < 0.01, "on the step: {:?}", p.feet());
    });
    // The READMEs show this very file (the crate's, and the repository's
    // when the crate is built in it); the crate doc includes it.
    let example = include_str!("../../examples/quick_start.rs");
    let shown = format!("```rust\n{example}```");
    let crate_readme = include_str!("../../README.md");
    assert!(
        crate_readme.contains(&shown),
        "the crate's README.md: not examples/quick_start.rs"
    );
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    if let Ok(readme) = std::fs::read_to_string(root) {
        assert!(
            readme.contains(&shown),
            "README.md's quick start is not examples/quick_start.rs"
        );
    }
}

#[test]
fn every_example_runs_headless() {
    at_every_pacing(|pacing| {
        // minimal: the player lands on the floor and walks forward on it with W.
        let mut app = run_example(pacing, 1.0, |app| {
            app.add_plugins(examples::minimal::first_person)
                .add_systems(Startup, examples::minimal::scene);
        });
        let from = the_player(&mut app).feet();
        assert!(the_player(&mut app).grounded() && from.y.abs() < 0.01, "{from:?}");
        walk_forward(&mut app, 0.5);
        let p = the_player(&mut app);
        assert!(p.grounded() && p.feet().y.abs() < 0.01, "{:?}", p.feet());
        assert!(from.z - p.feet().z > 1.0, "walked forward from {from} to {}", p.feet());
        // moving_platforms: three movers, the player on the floor.
        let mut app = run_example(pacing, 3.0, |app| {
            app.add_plugins((examples::moving_platforms::platforms, examples::minimal::first_person));
        });
        let p = the_player(&mut app);
        assert!(p.grounded());
        let world = app.world().resource::<CollisionWorld>();
        assert_eq!((0..world.len()).filter(|&i| world.is_mover(i)).count(), 3);
        // events: walking forward, the player steps up onto the metal plate and
        // its footsteps there say "metal".
        let mut app = run_example(pacing, 1.0, |app| {
            app.add_plugins((examples::minimal::first_person, examples::events::events))
                .add_systems(Startup, examples::minimal::scene);
            log::<Footstep>(app);
            log::<SteppedUp>(app);
        });
        assert!(the_player(&mut app).grounded());
        walk_forward(&mut app, 1.5);
        let tags: Vec<String> = logged::<Footstep>(&app)
            .iter()
            .map(|f| f.surface.tag.to_string())
            .collect();
        assert!(tags.iter().any(|t| t == "metal"), "footsteps on {tags:?}");
        // Stepped up onto the 0.2 m plate (over a tick or two, each reported).
        let steps = logged::<SteppedUp>(&app);
        let risen: f32 = steps.iter().map(|s| s.height).sum();
        assert!(!steps.is_empty() && risen <= 0.201, "{steps:?}");
    });
}

#[test]
fn a_gltf_scene_made_solid_with_one_line_is_walked() {
    at_every_pacing(|pacing| {
        let mut app = App::new();
        let folder = examples::gltf_scene::demo_level()
            .parent()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin {
                file_path: folder,
                ..default()
            },
            MeshPlugin,
            TransformPlugin,
            bevy::input::InputPlugin,
            SlidewalkPlugin::default(),
        ));
        app.add_plugins((
            bevy::image::ImagePlugin::default(),
            bevy::world_serialization::WorldSerializationPlugin,
            bevy::gltf::GltfPlugin::default(),
        ))
        .init_asset::<StandardMaterial>()
        .insert_resource(examples::gltf_scene::SceneFile("playground.glb".into()))
        .add_plugins((examples::gltf_scene::solid_scene, examples::minimal::first_person));
        paced(&mut app, pacing);
        // Loading runs on Bevy's IO threads: up to 30 s on a busy machine (it
        // took over 3 s once while another process was using the disk).
        let mut waited = 0;
        while app.world().resource::<CollisionWorld>().is_empty() && waited < 6_000 {
            std::thread::sleep(Duration::from_millis(5));
            run(&mut app, 1);
            waited += 1;
        }
        let world = app.world().resource::<CollisionWorld>();
        assert!(
            world.entity_count() > 10,
            "the scene's meshes are solid: {}",
            world.entity_count()
        );
        run(&mut app, ticks(2.0));
        let p = the_player(&mut app);
        assert!(p.grounded(), "landed in the scene: {:?}", p.feet());
        let mut q = app.world_mut().query_filtered::<Entity, With<CharacterController>>();
        let e = q.single(app.world()).unwrap();
        // Forward, as a player would.
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(KeyCode::KeyW);
        let from = get(&app, e).feet();
        run(&mut app, ticks(1.0));
        let to = get(&app, e).feet();
        assert!((to - from).length() > 1.0, "walked from {from} to {to}");
        assert!(penetration(&app, e) < 1e-3);
    });
}

/// docs/plugin.md's "Headless" app, exactly: what a headless app adds to
/// walk a glTF scene.
#[test]
fn the_headless_app_the_docs_list_walks_a_gltf_scene() {
    at_every_pacing(|pacing| {
        let folder = examples::gltf_scene::demo_level()
            .parent()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin {
                file_path: folder,
                ..default()
            },
            MeshPlugin,
            SlidewalkPlugin::default(),
        ));
        app.add_plugins((
            bevy::image::ImagePlugin::default(),
            bevy::world_serialization::WorldSerializationPlugin,
            bevy::gltf::GltfPlugin::default(),
        ))
        .init_asset::<StandardMaterial>();
        paced(&mut app, pacing);
        let scene = app
            .world()
            .resource::<AssetServer>()
            .load(bevy::gltf::GltfAssetLabel::Scene(0).from_asset("playground.glb"));
        app.world_mut()
            .spawn((bevy::world_serialization::WorldAssetRoot(scene), SolidScene));
        // The demo level's spawn point, its floor at y = 0.
        let c = character(&mut app, Vec3::new(0.0, 0.5, 30.0));
        app.world_mut().get_mut::<CharacterController>(c).unwrap().active = false;
        let mut waited = 0;
        while {
            let world = app.world().resource::<CollisionWorld>();
            world.is_empty() || world.waiting_for_meshes() > 0
        } && waited < 6_000
        {
            std::thread::sleep(Duration::from_millis(5));
            run(&mut app, 1);
            waited += 1;
        }
        assert!(app.world().resource::<CollisionWorld>().entity_count() > 10);
        app.world_mut().get_mut::<CharacterController>(c).unwrap().active = true;
        run(&mut app, ticks(2.0));
        let body = get(&app, c);
        assert!(
            body.grounded() && body.feet().y.abs() < 0.05,
            "stands at {:?}",
            body.feet()
        );
    });
}

/// The messages logged on this thread while `f` runs.
fn logged_lines(f: impl FnOnce()) -> Vec<String> {
    use bevy::log::tracing::{self, field::Field, field::Visit};
    use bevy::log::tracing_subscriber::{Layer, layer::Context, layer::SubscriberExt, registry};
    use std::sync::{Arc, Mutex};
    struct Capture(Arc<Mutex<Vec<String>>>);
    struct Message(String);
    impl Visit for Message {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            if field.name() == "message" {
                self.0 = format!("{value:?}");
            }
        }
    }
    impl<S: tracing::Subscriber> Layer<S> for Capture {
        fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
            let mut message = Message(String::new());
            event.record(&mut message);
            self.0.lock().unwrap().push(message.0);
        }
    }
    let lines = Arc::new(Mutex::new(Vec::new()));
    tracing::subscriber::with_default(registry().with(Capture(lines.clone())), f);
    lines.lock().unwrap().clone()
}

/// A headless app that lacks what a scene or a mesh needs is told which
/// plugin to add, in one line each, and keeps running.
#[test]
fn a_headless_app_missing_a_plugin_is_told_which() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), SlidewalkPlugin::default()));
    paced(&mut app, Pacing::FramesPerTick(1));
    let lines = logged_lines(|| {
        app.world_mut().spawn(SolidScene);
    });
    for plugin in ["ImagePlugin", "WorldSerializationPlugin", "MeshPlugin"] {
        let naming: Vec<&String> = lines.iter().filter(|l| l.contains(plugin)).collect();
        assert_eq!(naming.len(), 1, "one line names {plugin}: {lines:?}");
    }
    // A mesh collider without mesh assets: refused with the reason.
    let mesh = app
        .world_mut()
        .spawn((Mesh3d(Handle::default()), SlidewalkCollider::mesh()))
        .id();
    run(&mut app, 2);
    let problem = app
        .world()
        .resource::<CollisionWorld>()
        .problem(mesh)
        .map(str::to_owned);
    assert!(
        problem.as_deref().is_some_and(|p| p.contains("MeshPlugin")),
        "{problem:?}"
    );
}

/// The `rollback` example in its `--synctest` mode, headless: two
/// characters (the keyboard's, holding W, and the scripted one) for 300
/// ticks, each simulated again 7 ticks later, with no checksum mismatch.
#[cfg(feature = "ggrs")]
#[test]
fn the_rollback_example_runs_its_sync_test_without_a_mismatch() {
    use bevy_slidewalk::bevy_ggrs::{RollbackFrameCount, SyncTestMismatch};
    use examples::rollback::{MoverClock, Player, game, sync_test};
    #[derive(Resource, Default)]
    struct Mismatches(usize);
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        MeshPlugin,
        bevy::input::InputPlugin,
    ))
    .init_asset::<StandardMaterial>()
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(16_666_667)))
    .init_resource::<Mismatches>()
    .add_observer(|_: On<SyncTestMismatch>, mut m: ResMut<Mismatches>| m.0 += 1)
    .add_plugins(game);
    sync_test(&mut app);
    let feet = |app: &mut App| {
        let mut q = app.world_mut().query::<(&Player, &MovementState)>();
        let mut feet: Vec<(usize, Vec3)> = q.iter(app.world()).map(|(p, s)| (p.0, s.feet())).collect();
        feet.sort_by_key(|f| f.0);
        feet.into_iter().map(|f| f.1).collect::<Vec<_>>()
    };
    app.update();
    let from = feet(&mut app);
    assert_eq!(from.len(), 2, "one character per player");
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::KeyW);
    // A mismatch stops the session's frames: bounded by updates.
    for _ in 0..400 {
        if app.world().resource::<RollbackFrameCount>().0 >= 300 {
            break;
        }
        app.update();
    }
    assert_eq!(app.world().resource::<Mismatches>().0, 0, "sync test mismatches");
    assert!(app.world().resource::<RollbackFrameCount>().0 >= 300, "ticks run");
    assert!(app.world().resource::<MoverClock>().0 >= 300, "the movers' clock");
    let to = feet(&mut app);
    for (handle, (a, b)) in from.iter().zip(&to).enumerate() {
        assert!(a.distance(*b) > 3.0, "player {handle} walked from {a} to {b}");
    }
    // W walks away from the camera (towards -z): over the ferry's track.
    assert!(
        from[0].z - to[0].z > 3.0,
        "player 0 walked from {} to {}",
        from[0],
        to[0]
    );
}

/// The `rollback` example's command line: each mistake is refused in a
/// line (the example exits with status 2), a port in use too.
#[cfg(feature = "ggrs")]
#[test]
fn the_rollback_example_refuses_a_bad_command_line() {
    use examples::rollback::{Mode, p2p_session};
    let parse = |line: &str| Mode::parse(line.split_whitespace().map(str::to_owned));
    assert_eq!(parse("--synctest"), Ok(Mode::SyncTest));
    let peer = "127.0.0.1:7001".parse().unwrap();
    assert_eq!(
        parse("--local-port 7000 --players local 127.0.0.1:7001"),
        Ok(Mode::P2P {
            local_port: 7000,
            players: vec![None, Some(peer)]
        })
    );
    for bad in [
        "--local-port 7000 --players local nowhere:7001",
        "--local-port 70000 --players local 127.0.0.1:7001",
        "--local-port --players local 127.0.0.1:7001",
        "--players local 127.0.0.1:7001",
        "--local-port 7000 --players local",
        "--local-port 7000 --players 127.0.0.1:7001 127.0.0.1:7002",
        "--synctest --local-port 7000",
        "--frobnicate",
    ] {
        let refused = parse(bad);
        assert!(refused.as_ref().is_err_and(|e| !e.contains('\n')), "{bad}: {refused:?}");
    }
    let taken = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let refused = p2p_session(port, &[None, Some(peer)]).err();
    assert!(
        refused.is_some_and(|e| e.contains(&port.to_string())),
        "port {port} in use"
    );
}
