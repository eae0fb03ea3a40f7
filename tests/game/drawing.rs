//! The level's drawing without a renderer: the grid's rules, errors on screen, the collision-geometry drawing of a level Bevy cannot draw.

use super::*;

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
    let default = slidewalk_play::Settings::default().controller.walkable_slope_deg;
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

/// F3 in first person: the eye is inside the ellipsoid, so its outlines
/// are not drawn (each would be a line across the whole view); the
/// velocity arrows are, and none passes near the eye.
#[test]
fn the_ellipsoid_overlay_draws_no_line_across_the_first_person_view() {
    use slidewalk::view::overlays::ellipsoid_overlay;
    let (centre, radii, up) = (Vec3::new(1.0, 0.9, 2.0), Vec3::new(0.4, 0.9, 0.4), Vec3::Y);
    let eye = slidewalk::sim::player::eye(centre, radii, up);
    let (intended, actual) = (Vec3::new(0.0, 0.0, -6.0), Vec3::new(0.5, -3.0, -5.0));
    let first = ellipsoid_overlay(centre, false, intended, actual);
    assert!(!first.outlines, "no outline seen from inside");
    assert_eq!(first.arrows.len(), 2, "both velocities drawn");
    for (from, to, _) in &first.arrows {
        // The closest point of the arrow to the eye.
        let along = (*to - *from).normalize();
        let t = (eye - *from).dot(along).clamp(0.0, from.distance(*to));
        let closest = *from + along * t;
        assert!(
            closest.distance(eye) > 0.3,
            "an arrow passes {} m from the eye",
            closest.distance(eye)
        );
    }
    let behind = ellipsoid_overlay(centre, true, intended, actual);
    assert!(behind.outlines && behind.arrows == first.arrows);
    assert!(
        ellipsoid_overlay(centre, true, Vec3::ZERO, Vec3::ZERO)
            .arrows
            .is_empty()
    );
}
