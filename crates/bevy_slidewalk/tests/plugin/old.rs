//! The plugin through Bevy, headless (`MinimalPlugins`), with no game
//! code: stairs, platforms, doors, events, colliders changing at runtime,
//! bad input, a glTF scene, and every example run for a few seconds. One
//! test binary: each links Bevy.
// The examples share `minimal.rs`'s first-person player, each including it.
#![allow(clippy::duplicate_mod)]

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, MeshPlugin, PrimitiveTopology};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::{CollisionWorld, sweep};
use std::time::Duration;

/// The examples, built into this binary and run headless.
#[allow(dead_code)]
mod examples {
    pub(crate) use super::{events_example as events, gltf_scene_example as gltf_scene};
    pub(crate) use super::{minimal_example as minimal, moving_platforms_example as moving_platforms};
}
#[path = "../examples/events.rs"]
#[allow(dead_code)]
mod events_example;
#[path = "../examples/gltf_scene.rs"]
#[allow(dead_code)]
mod gltf_scene_example;
#[path = "../examples/minimal.rs"]
#[allow(dead_code)]
mod minimal_example;
#[path = "../examples/moving_platforms.rs"]
#[allow(dead_code)]
mod moving_platforms_example;

const HZ: f64 = 60.0;

/// A headless app ticking once per update (no TransformPlugin: the
/// plugin brings its colliders' transforms up to date itself).
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        MeshPlugin,
        SlidewalkPlugin::default(),
    ));
    app.insert_resource(Time::<Fixed>::from_hz(HZ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / HZ)));
    app
}

fn run(app: &mut App, ticks: usize) {
    // As `App::run` does before the first update: plugins finish their setup.
    if app.plugins_state() != bevy::app::PluginsState::Cleaned {
        app.finish();
        app.cleanup();
    }
    for _ in 0..ticks {
        app.update();
    }
}

/// A solid box from Bevy's `Cuboid`, centred at `at`.
fn solid_box(app: &mut App, size: Vec3, at: Vec3) -> Entity {
    let mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::from_size(size));
    app.world_mut()
        .spawn((Mesh3d(mesh), Transform::from_translation(at), Collider::mesh()))
        .id()
}

/// A 40 m floor with its top at y = 0.
fn floor(app: &mut App) -> Entity {
    solid_box(app, Vec3::new(40.0, 1.0, 40.0), Vec3::new(0.0, -0.5, 0.0))
}

/// A character whose feet are at `feet`.
fn character(app: &mut App, feet: Vec3) -> Entity {
    let c = CharacterController::default();
    let centre = feet + Vec3::Y * (c.config.standing_radii.y * 1.004);
    app.world_mut().spawn((c, Transform::from_translation(centre))).id()
}

fn get(app: &App, e: Entity) -> CharacterController {
    app.world().get::<CharacterController>(e).unwrap().clone()
}

fn report(app: &App, e: Entity) -> MovementReport {
    app.world().get::<MovementReport>(e).unwrap().clone()
}

fn walk(app: &mut App, e: Entity, direction: Vec3) {
    app.world_mut().get_mut::<MovementIntent>(e).unwrap().direction = direction;
}

/// How deep the character is inside any collider, metres.
fn penetration(app: &App, e: Entity) -> f32 {
    let c = get(app, e);
    let world = app.world().resource::<CollisionWorld>();
    let ellipsoid = sweep::Ellipsoid::new(c.state.radii).unwrap();
    sweep::penetration_depth(&ellipsoid, c.state.position, &world.placed())
}

/// Every message of type `M` written, in order.
#[derive(Resource)]
struct Log<M>(Vec<M>);

fn log<M: Message + Clone>(app: &mut App) {
    app.insert_resource(Log::<M>(Vec::new())).add_systems(
        PostUpdate,
        |mut r: MessageReader<M>, mut log: ResMut<Log<M>>| {
            log.0.extend(r.read().cloned());
        },
    );
}

fn logged<M: Message + Clone>(app: &App) -> Vec<M> {
    app.world().resource::<Log<M>>().0.clone()
}

#[test]
fn climbs_primitive_stairs_and_is_blocked_by_a_riser_above_its_step_height() {
    let mut app = app();
    floor(&mut app);
    // Eight 0.25 m risers along −z, then a landing at 2 m.
    for step in 0..8 {
        let h = 0.25 * (step + 1) as f32;
        solid_box(
            &mut app,
            Vec3::new(3.0, h, 0.4),
            Vec3::new(0.0, h / 2.0, -3.0 - 0.4 * step as f32),
        );
    }
    solid_box(&mut app, Vec3::new(3.0, 2.0, 6.0), Vec3::new(0.0, 1.0, -9.2));
    // A 0.5 m riser (above the 0.35 m step height) beside them.
    solid_box(&mut app, Vec3::new(3.0, 0.5, 4.0), Vec3::new(6.0, 0.25, -5.0));
    let climber = character(&mut app, Vec3::ZERO);
    let blocked = character(&mut app, Vec3::new(6.0, 0.0, 0.0));
    log::<SteppedUp>(&mut app);
    run(&mut app, 2);
    walk(&mut app, climber, Vec3::NEG_Z);
    walk(&mut app, blocked, Vec3::NEG_Z);
    let mut most = 0.0f32;
    for _ in 0..(2.2 * HZ) as usize {
        run(&mut app, 1);
        most = most.max(penetration(&app, climber)).max(penetration(&app, blocked));
    }
    let c = get(&app, climber);
    assert!(
        (c.feet().y - 2.0).abs() < 0.01 && c.grounded(),
        "on the landing: {:?}",
        c.feet()
    );
    assert!(c.feet().z < -7.0, "{:?}", c.feet());
    let b = get(&app, blocked);
    assert!(
        b.feet().y.abs() < 0.01 && b.feet().z > -3.0 + 0.35,
        "held by the riser: {:?}",
        b.feet()
    );
    assert!(most < 1e-3, "penetrated {most} m");
    let steps = logged::<SteppedUp>(&app);
    // At least one for each riser; a riser may take a few ticks, each reported.
    assert!(steps.len() >= 8, "{} steps", steps.len());
    assert!(
        steps
            .iter()
            .all(|s| s.character == climber && s.height > 0.0 && s.height < 0.36),
        "{steps:?}"
    );
    let climbed: f32 = steps.iter().map(|s| s.height).sum();
    assert!(climbed > 1.0 && climbed <= 2.0, "{climbed} m climbed by steps");
}

/// A pose (translation, rotation) by time, seconds.
type Motion = fn(f32) -> (Vec3, Quat);

/// How a test platform moves.
#[derive(Component, Clone, Copy)]
struct Moving(Motion);

fn move_platforms(time: Res<Time>, mut platforms: Query<(&Moving, &mut Transform)>) {
    for (m, mut transform) in &mut platforms {
        let (translation, rotation) = (m.0)(time.elapsed_secs());
        transform.translation = translation;
        transform.rotation = rotation;
    }
}

#[test]
fn rides_a_platform_moved_by_a_user_system_up_down_sideways_and_rotating() {
    let motions: [(&str, Motion); 3] = [
        ("up and down", |t| {
            (Vec3::Y * (2.0 - 2.0 * (t * 1.2).cos()), Quat::IDENTITY)
        }),
        ("sideways", |t| (Vec3::X * 3.0 * (t * 1.5).sin(), Quat::IDENTITY)),
        ("rotating", |t| (Vec3::ZERO, Quat::from_rotation_y(1.2 * t))),
    ];
    for (name, motion) in motions {
        let mut app = app();
        app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
        let pad = app
            .world_mut()
            .resource_mut::<Assets<Mesh>>()
            .add(Cuboid::new(4.0, 0.2, 4.0));
        // The mesh's top is 0.1 above the platform's origin.
        let platform = app
            .world_mut()
            .spawn((Mesh3d(pad), Transform::default(), Collider::mesh(), Moving(motion)))
            .id();
        let rider = character(&mut app, Vec3::new(1.0, 0.1, 0.5));
        log::<BoardedMover>(&mut app);
        run(&mut app, 10);
        let (t0, r0) = motion(app.world().resource::<Time<Fixed>>().elapsed_secs());
        let start = r0.inverse() * (get(&app, rider).feet() - t0);
        let mut lowest = f32::MAX;
        let mut highest = f32::MIN;
        for tick in 0..(5.0 * HZ) as usize {
            run(&mut app, 1);
            let top = app.world().get::<Transform>(platform).unwrap().translation.y + 0.1;
            let c = get(&app, rider);
            let gap = c.feet().y - top;
            (lowest, highest) = (lowest.min(gap), highest.max(gap));
            assert!(c.grounded(), "{name}: lifted off at tick {tick}, {gap} m above");
            // Carried with the platform: its place on the pad is kept.
            let (t, r) = motion(app.world().resource::<Time<Fixed>>().elapsed_secs());
            let on_pad = r.inverse() * (c.feet() - t);
            assert!(
                (on_pad.xz() - start.xz()).length() < 0.02,
                "{name}: slid on the platform at tick {tick}: {on_pad} vs {start}"
            );
        }
        // The skin is 0.001 of the 0.9 m y radius: the feet rest that far
        // above the surface, never below it.
        let skin = 1e-3 * 0.9;
        assert!(lowest > 0.0, "{name}: dipped {lowest} m into the platform");
        assert!(highest < 5.0 * skin, "{name}: floated {highest} m above the platform");
        assert_eq!(logged::<BoardedMover>(&app).len(), 1, "{name}");
        // Walking off it, onto nothing: it is left once.
        log::<LeftMover>(&mut app);
        walk(&mut app, rider, Vec3::NEG_Z);
        run(&mut app, (1.5 * HZ) as usize);
        let left = logged::<LeftMover>(&app);
        assert_eq!(left.len(), 1, "{name}: {left:?}");
        assert_eq!((left[0].character, left[0].mover), (rider, platform));
    }
}

#[test]
fn characters_move_in_the_schedule_the_plugin_is_given() {
    // In Update: one step a frame, by the frame's time, drawn where it is.
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        MeshPlugin,
        SlidewalkPlugin::in_schedule(Update),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 30.0)));
    assert!(!SlidewalkPlugin::in_schedule(Update).interpolate);
    floor(&mut app);
    let c = character(&mut app, Vec3::ZERO);
    run(&mut app, 10);
    assert!(get(&app, c).grounded());
    walk(&mut app, c, Vec3::X);
    run(&mut app, 30);
    let moved = get(&app, c);
    assert!(moved.feet().x > 1.0, "walked in Update: {:?}", moved.feet());
    let drawn = app.world().get::<Transform>(c).unwrap().translation;
    assert_eq!(drawn, moved.state.position, "not interpolated outside a fixed schedule");
}

#[test]
fn the_drawn_transform_is_interpolated_between_ticks() {
    let mut app = app();
    // Two frames a tick: the second half-way between ticks.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(0.5 / HZ)));
    floor(&mut app);
    let c = character(&mut app, Vec3::ZERO);
    run(&mut app, 20);
    walk(&mut app, c, Vec3::X);
    run(&mut app, 40);
    let mut between = 0;
    for _ in 0..20 {
        run(&mut app, 1);
        let drawn = app.world().get::<Transform>(c).unwrap().translation;
        let body = get(&app, c);
        let (from, to) = (body.interpolated(0.0), body.state.position);
        assert!(
            drawn.x >= from.x - 1e-6 && drawn.x <= to.x + 1e-6,
            "{drawn} outside {from}..{to}"
        );
        between += (drawn.x > from.x + 1e-4 && drawn.x < to.x - 1e-4) as usize;
    }
    assert!(between >= 8, "{between} of 20 frames drawn between two ticks");
}

#[test]
fn a_rotating_door_pushes_the_character_and_crushes_it_against_a_wall() {
    let mut app = app();
    app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
    floor(&mut app);
    // A wall on the −x side of the door's hinge, which the door does not reach.
    solid_box(&mut app, Vec3::new(2.0, 3.0, 6.0), Vec3::new(-1.35, 1.5, 3.0));
    // And one just beyond the door's reach: no way out of the closing wedge.
    solid_box(&mut app, Vec3::new(6.0, 3.0, 1.0), Vec3::new(1.0, 1.5, 3.55));
    // A 3 m door hinged at the origin, swinging from +x towards +z.
    let panel = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::new(3.0, 2.2, 0.1));
    let swing: Motion = |t| {
        (
            Vec3::ZERO,
            Quat::from_rotation_y(-(0.6 * t).min(std::f32::consts::FRAC_PI_2)),
        )
    };
    let door = app.world_mut().spawn((Transform::default(), Moving(swing))).id();
    app.world_mut().spawn((
        Mesh3d(panel),
        Transform::from_xyz(1.5, 1.1, 0.0),
        Collider::mesh(),
        ChildOf(door),
    ));
    let stander = character(&mut app, Vec3::new(1.2, 0.0, 0.8));
    log::<Crushed>(&mut app);
    run(&mut app, 5);
    let start = get(&app, stander).state.position;
    let mut pushed = false;
    for _ in 0..(4.0 * HZ) as usize {
        run(&mut app, 1);
        let r = report(&app, stander);
        pushed |= r.pushed.length() > 0.0;
        if !r.crushed {
            assert!(penetration(&app, stander) < 1e-3);
        }
    }
    let moved = get(&app, stander).state.position - start;
    assert!(pushed && moved.length() > 0.5, "pushed by the door: {moved}");
    // Squeezed between the door and the wall (a game turns the door back).
    let crushed = logged::<Crushed>(&app);
    assert!(!crushed.is_empty(), "crushed against the wall");
    let panel_entity = app.world().get::<Children>(door).unwrap()[0];
    assert!(
        crushed
            .iter()
            .all(|c| c.character == stander && c.by.contains(&panel_entity)),
        "{crushed:?}"
    );
}

#[test]
fn events_fire_as_documented() {
    let mut app = app();
    let ground = floor(&mut app);
    app.world_mut().entity_mut(ground).insert(Surface::new("stone"));
    log::<Jumped>(&mut app);
    log::<Landed>(&mut app);
    log::<Footstep>(&mut app);
    log::<HitWall>(&mut app);
    // A fall of 2.5 m from rest.
    let faller = character(&mut app, Vec3::new(-10.0, 2.5, 0.0));
    run(&mut app, (1.5 * HZ) as usize);
    let landed = logged::<Landed>(&app);
    assert_eq!(landed.len(), 1, "{landed:?}");
    let expected = (2.0f32 * 9.81 * 2.5).sqrt();
    assert!(
        (landed[0].impact_speed / expected - 1.0).abs() < 0.02,
        "impact {} m/s, √(2gh) = {expected}",
        landed[0].impact_speed
    );
    assert_eq!(
        (landed[0].character, &*landed[0].surface.tag, landed[0].ground),
        (faller, "stone", Some(ground))
    );
    // Three jumps, one event each.
    for _ in 0..3 {
        app.world_mut().get_mut::<MovementIntent>(faller).unwrap().jump = true;
        run(&mut app, (1.2 * HZ) as usize);
    }
    let jumps = logged::<Jumped>(&app);
    assert_eq!(jumps.len(), 3, "{jumps:?}");
    assert!(
        jumps
            .iter()
            .all(|j| (j.speed - (2.0f32 * 9.81 * 1.0).sqrt()).abs() < 0.05)
    );
    assert_eq!(logged::<Landed>(&app).len(), 4);
    // Footsteps over 10 m at the default stride of 0.8 m.
    let walker = character(&mut app, Vec3::new(0.0, 0.0, 5.0));
    run(&mut app, 5);
    let before = logged::<Footstep>(&app).len();
    let start = get(&app, walker).feet();
    walk(&mut app, walker, Vec3::X);
    while (get(&app, walker).feet() - start).length() < 10.0 {
        run(&mut app, 1);
    }
    let steps: Vec<Footstep> = logged::<Footstep>(&app)[before..].to_vec();
    assert!((11..=13).contains(&steps.len()), "{} footsteps over 10 m", steps.len());
    assert!(
        steps
            .iter()
            .all(|s| s.character == walker && &*s.surface.tag == "stone" && s.speed > 1.0)
    );
    // A wall met once, however long it is leaned on.
    solid_box(&mut app, Vec3::new(1.0, 3.0, 6.0), Vec3::new(14.0, 1.5, 5.0));
    run(&mut app, (1.0 * HZ) as usize);
    let walls = logged::<HitWall>(&app);
    assert_eq!(walls.len(), 1, "{walls:?}");
    assert!(walls[0].normal.x < -0.99 && walls[0].speed > 3.0, "{walls:?}");
}

#[test]
fn colliders_added_removed_and_changed_at_runtime_take_effect_at_the_next_tick() {
    let mut app = app();
    let ground = floor(&mut app);
    let c = character(&mut app, Vec3::ZERO);
    run(&mut app, 10);
    assert!(get(&app, c).grounded());
    app.world_mut().despawn(ground);
    run(&mut app, 1);
    assert!(!get(&app, c).grounded(), "the floor is gone");
    let falling_from = get(&app, c).feet().y;
    // Explicit triangles, a little below the feet.
    let y = falling_from - 0.002;
    let square = vec![
        Vec3::new(-5.0, y, -5.0),
        Vec3::new(5.0, y, -5.0),
        Vec3::new(5.0, y, 5.0),
        Vec3::new(-5.0, y, 5.0),
    ];
    app.world_mut()
        .spawn(Collider::triangles(square, vec![[0, 1, 2], [0, 2, 3]]));
    run(&mut app, 1);
    let c_now = get(&app, c);
    assert!(
        c_now.grounded() && (c_now.feet().y - y).abs() < 0.01,
        "landed on the new floor: {:?}",
        c_now.feet()
    );
    // A mesh asset changed under it: raised by 0.2 m.
    let mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::new(10.0, 1.0, 10.0));
    let block = app
        .world_mut()
        .spawn((
            Mesh3d(mesh.clone()),
            Transform::from_xyz(0.0, y - 0.5, 0.0),
            Collider::mesh(),
        ))
        .id();
    run(&mut app, 3);
    assert!((get(&app, c).feet().y - y).abs() < 0.01);
    // A system of the app changes the mesh (in Update, after this frame's
    // tick); Bevy reports it at the end of the frame, and the next tick
    // stands on the new shape.
    #[derive(Resource)]
    struct Reshape(Option<Handle<Mesh>>);
    app.insert_resource(Reshape(Some(mesh))).add_systems(
        Update,
        |mut r: ResMut<Reshape>, mut meshes: ResMut<Assets<Mesh>>| {
            if let Some(mesh) = r.0.take() {
                meshes.insert(&mesh, Cuboid::new(10.0, 1.4, 10.0).into()).unwrap();
            }
        },
    );
    run(&mut app, 1);
    assert!((get(&app, c).feet().y - y).abs() < 0.01, "changed after this tick");
    run(&mut app, 1);
    let raised = get(&app, c);
    assert!(
        (raised.feet().y - (y + 0.2)).abs() < 0.01,
        "pushed up by the new mesh: {:?}",
        raised.feet()
    );
    assert!(app.world().resource::<CollisionWorld>().index_of(block).is_some());
}

fn mesh_with(topology: PrimitiveTopology, positions: Vec<[f32; 3]>, indices: Option<Vec<u32>>) -> Mesh {
    let mut m = Mesh::new(topology, RenderAssetUsages::default());
    if !positions.is_empty() {
        m.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    }
    if let Some(i) = indices {
        m.insert_indices(Indices::U32(i));
    }
    m
}

#[test]
fn bad_meshes_are_refused_or_partly_used_with_a_reason_never_a_panic() {
    let mut app = app();
    let add = |app: &mut App, mesh: Mesh| {
        let handle = app.world_mut().resource_mut::<Assets<Mesh>>().add(mesh);
        app.world_mut().spawn((Mesh3d(handle), Collider::mesh())).id()
    };
    let no_positions = add(&mut app, mesh_with(PrimitiveTopology::TriangleList, Vec::new(), None));
    let lines = add(
        &mut app,
        mesh_with(PrimitiveTopology::LineList, vec![[0.0; 3], [1.0; 3]], None),
    );
    // A floor of two good triangles, a NaN one, a degenerate one and one
    // naming a vertex that does not exist.
    let floor = vec![
        [-5.0, 0.0, -5.0],
        [5.0, 0.0, -5.0],
        [5.0, 0.0, 5.0],
        [-5.0, 0.0, 5.0],
        [f32::NAN, 0.0, 0.0],
    ];
    let partly = add(
        &mut app,
        mesh_with(
            PrimitiveTopology::TriangleList,
            floor,
            Some(vec![0, 1, 2, 0, 2, 3, 0, 1, 4, 0, 0, 1, 0, 1, 99]),
        ),
    );
    let strip = add(
        &mut app,
        mesh_with(
            PrimitiveTopology::TriangleStrip,
            vec![[10.0, 0.0, 0.0], [11.0, 0.0, 0.0], [10.0, 0.0, 1.0], [11.0, 0.0, 1.0]],
            None,
        ),
    );
    let no_mesh = app.world_mut().spawn(Collider::mesh()).id();
    let c = character(&mut app, Vec3::new(1.0, 0.0, 1.0));
    run(&mut app, 30);
    let world = app.world().resource::<CollisionWorld>();
    assert!(world.problem(no_positions).unwrap().contains("no vertex positions"));
    assert!(world.problem(lines).unwrap().contains("LineList"));
    assert!(world.problem(no_mesh).unwrap().contains("no `Mesh3d`"));
    let partial = world.problem(partly).unwrap();
    assert!(
        partial.contains("1 non-finite and 1 degenerate") && partial.contains("1 triangles name"),
        "{partial}"
    );
    assert!(world.index_of(partly).is_some() && world.index_of(strip).is_some());
    assert_eq!(world.world_triangles(strip).len(), 2);
    assert!(get(&app, c).grounded(), "stands on the good part");
}

#[test]
fn an_invalid_config_is_refused_and_a_character_spawned_inside_geometry_is_pushed_out() {
    let mut app = app();
    floor(&mut app);
    let c = character(&mut app, Vec3::ZERO);
    run(&mut app, 10);
    let before = get(&app, c);
    app.world_mut()
        .get_mut::<CharacterController>(c)
        .unwrap()
        .config
        .walk_speed = f32::NAN;
    run(&mut app, 1);
    let after = get(&app, c);
    assert_eq!(after.config, before.config, "the last valid config is back");
    assert_eq!(after.state.position, before.state.position, "left where it was");
    // Radii beyond the accepted range are refused the same way.
    app.world_mut()
        .get_mut::<CharacterController>(c)
        .unwrap()
        .config
        .standing_radii = Vec3::splat(150.0);
    run(&mut app, 1);
    let after = get(&app, c);
    assert_eq!(after.config, before.config, "the last valid config is back");
    assert_eq!(after.state.radii, before.state.radii);
    // Spawned half inside a box.
    let boxed = solid_box(&mut app, Vec3::new(2.0, 2.0, 2.0), Vec3::new(5.0, 1.0, 5.0));
    let inside = character(&mut app, Vec3::new(5.0, 1.5, 5.0));
    run(&mut app, 3);
    assert!(penetration(&app, inside) < 1e-3, "pushed out");
    assert!(app.world().resource::<CollisionWorld>().index_of(boxed).is_some());
}

/// A walk over a 30 × 30 grid of tiles (with a bump in each), as one
/// collider or as 900 entities, for `ticks`; the character's final state.
fn tiles_walk(separate: bool, ticks: usize) -> (Vec3, usize) {
    let mut app = app();
    let mut soup = sweep::test_util::Soup::default();
    let mut each = Vec::new();
    for i in 0..30 {
        for j in 0..30 {
            let mut tile = sweep::test_util::Soup::default();
            let (x, z) = (i as f32 - 15.0, j as f32 - 15.0);
            tile.cuboid(Vec3::new(x, -0.5, z), Vec3::new(x + 1.0, 0.0, z + 1.0));
            if (i + j) % 7 == 0 {
                tile.cuboid(Vec3::new(x + 0.2, 0.0, z + 0.2), Vec3::new(x + 0.8, 0.15, z + 0.8));
            }
            soup.extend(&tile);
            each.push(tile);
        }
    }
    if separate {
        for tile in each {
            app.world_mut()
                .spawn(Collider::triangles(tile.positions, tile.triangles));
        }
    } else {
        app.world_mut()
            .spawn(Collider::triangles(soup.positions, soup.triangles));
    }
    let c = character(&mut app, Vec3::new(0.5, 0.0, 0.5));
    run(&mut app, 2);
    walk(&mut app, c, Vec3::new(1.0, 0.0, 0.7).normalize());
    run(&mut app, ticks);
    let world = app.world().resource::<CollisionWorld>();
    (get(&app, c).state.position, world.len())
}

/// The messages of type `M` about character `e` (`of` names a message's
/// character), as text, the character itself written "me".
fn said_by<M: Message + Clone + std::fmt::Debug>(app: &App, e: Entity, of: impl Fn(&M) -> Entity) -> Vec<String> {
    logged::<M>(app)
        .iter()
        .filter(|m| of(m) == e)
        .map(|m| format!("{m:?}").replace(&format!("{e:?}"), "me"))
        .collect()
}

/// Characters `which` of a crowd on a floor with boxes (character `i`
/// starts at a place of its own and walks a way of its own, jumping now
/// and then) for `ticks` ticks: their final states and, per character,
/// what its messages said.
fn crowd_walk(which: std::ops::Range<usize>, ticks: usize) -> Vec<(bevy_slidewalk::CharacterState, Vec<String>)> {
    let mut app = app();
    log::<Jumped>(&mut app);
    log::<Landed>(&mut app);
    log::<Footstep>(&mut app);
    log::<SteppedUp>(&mut app);
    log::<HitWall>(&mut app);
    floor(&mut app);
    for k in 0..6 {
        let x = -9.0 + 3.5 * k as f32;
        solid_box(
            &mut app,
            Vec3::new(1.0, 0.3 + 0.05 * k as f32, 6.0),
            Vec3::new(x, 0.1, 0.0),
        );
    }
    let characters: Vec<(usize, Entity)> = which
        .map(|i| {
            let feet = Vec3::new(-12.0 + 2.0 * (i % 12) as f32, 0.0, -12.0 + 2.0 * (i / 12) as f32);
            (i, character(&mut app, feet))
        })
        .collect();
    for tick in 0..ticks {
        for &(i, e) in &characters {
            let heading = i as f32 * 0.7 + tick as f32 * 0.01;
            let mut intent = app.world_mut().get_mut::<MovementIntent>(e).unwrap();
            intent.direction = Vec3::new(heading.cos(), 0.0, heading.sin());
            intent.jump = (tick + i) % 50 == 0;
        }
        run(&mut app, 1);
    }
    let said = |e: Entity| {
        [
            said_by(&app, e, |m: &Jumped| m.character),
            said_by(&app, e, |m: &Landed| m.character),
            said_by(&app, e, |m: &Footstep| m.character),
            said_by(&app, e, |m: &SteppedUp| m.character),
            said_by(&app, e, |m: &HitWall| m.character),
        ]
        .concat()
    };
    characters.iter().map(|&(_, e)| (get(&app, e).state, said(e))).collect()
}

/// Many characters are stepped on several threads: each walks exactly as
/// it does among a few stepped one after another (bit for bit), and says
/// the same messages.
#[test]
fn many_characters_walk_as_few_do() {
    let many = crowd_walk(0..120, 150);
    // Fewer than the plugin steps in parallel, four times over.
    let few: Vec<_> = (0..4).flat_map(|k| crowd_walk(30 * k..30 * (k + 1), 150)).collect();
    assert_eq!(many.len(), few.len());
    let mut messages = 0;
    for (i, (a, b)) in many.iter().zip(&few).enumerate() {
        assert_eq!(a.0, b.0, "character {i}'s state");
        assert_eq!(a.1, b.1, "character {i}'s messages");
        messages += a.1.len();
    }
    // They walked, jumped, landed and met the boxes.
    let moved = many.iter().filter(|(s, _)| s.position.x.abs() > 0.0).count();
    assert!(messages > 800 && moved == 120, "{messages} messages");
}

#[test]
fn many_small_colliders_walk_like_one() {
    let (one, one_len) = tiles_walk(false, 150);
    let (many, many_len) = tiles_walk(true, 150);
    assert_eq!(one_len, 1);
    assert_eq!(many_len, 1, "900 resting tiles are merged into one structure");
    assert!((one - many).length() < 1e-3, "{one} vs {many}");
}

/// Runs an example's plugins headless for `seconds` with no input.
fn run_example(seconds: f32, plugins: impl FnOnce(&mut App)) -> App {
    let mut app = app();
    app.add_plugins(bevy::input::InputPlugin)
        .init_asset::<StandardMaterial>();
    plugins(&mut app);
    run(&mut app, (seconds * HZ as f32) as usize);
    app
}

fn the_player(app: &mut App) -> CharacterController {
    let mut q = app.world_mut().query::<&CharacterController>();
    q.single(app.world()).unwrap().clone()
}

/// Holds W (forward, as a player would) for `seconds`.
fn walk_forward(app: &mut App, seconds: f32) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::KeyW);
    run(app, (seconds * HZ as f32) as usize);
}

#[test]
fn every_example_runs_headless() {
    // minimal: the player lands on the floor and walks forward on it with W.
    let mut app = run_example(1.0, |app| {
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
    let mut app = run_example(3.0, |app| {
        app.add_plugins((examples::moving_platforms::platforms, examples::minimal::first_person));
    });
    let p = the_player(&mut app);
    assert!(p.grounded());
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!((0..world.len()).filter(|&i| world.is_mover(i)).count(), 3);
    // events: walking forward, the player steps up onto the metal plate and
    // its footsteps there say "metal".
    let mut app = run_example(1.0, |app| {
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
}

#[test]
fn a_gltf_scene_made_solid_with_one_line_is_walked() {
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
    .insert_resource(Time::<Fixed>::from_hz(HZ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / HZ)))
    .insert_resource(examples::gltf_scene::SceneFile("playground.glb".into()))
    .add_plugins((examples::gltf_scene::solid_scene, examples::minimal::first_person));
    // Loading runs on Bevy's IO threads: up to 30 s on a busy machine (it
    // took over 3 s once while another process was using the disk).
    let mut ticks = 0;
    while app.world().resource::<CollisionWorld>().is_empty() && ticks < 6_000 {
        std::thread::sleep(Duration::from_millis(5));
        run(&mut app, 1);
        ticks += 1;
    }
    let world = app.world().resource::<CollisionWorld>();
    assert!(
        world.entity_count() > 10,
        "the scene's meshes are solid: {}",
        world.entity_count()
    );
    run(&mut app, (2.0 * HZ) as usize);
    let p = the_player(&mut app);
    assert!(p.grounded(), "landed in the scene: {:?}", p.feet());
    let mut q = app.world_mut().query_filtered::<Entity, With<CharacterController>>();
    let e = q.single(app.world()).unwrap();
    // Forward, as a player would.
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::KeyW);
    let from = get(&app, e).feet();
    run(&mut app, (1.0 * HZ) as usize);
    let to = get(&app, e).feet();
    assert!((to - from).length() > 1.0, "walked from {from} to {to}");
    assert!(penetration(&app, e) < 1e-3);
}
