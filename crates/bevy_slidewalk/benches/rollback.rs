//! What a rollback costs under bevy_ggrs (the `ggrs` feature): 16
//! characters walking outwards in 16 directions, up two rings of steps,
//! over 4 lifts moved by a rolled-back clock, under `GgrsPlugin` +
//! `SlidewalkPlugin::in_schedule(GgrsSchedule)` + `SlidewalkRollbackPlugin`,
//! after 60 ticks of a sync-test session. Criterion ids, group
//! `rollback_16_characters`:
//!
//! * `snapshot`: one run of bevy_ggrs's `SaveWorld` (the frame count
//!   advanced first, so each stores a new snapshot);
//! * `restore`: one run of `LoadWorld` to a frame 4 back;
//! * `rollback_8_ticks`: what a rollback of 8 ticks asks of bevy_ggrs's
//!   `handle_requests`: a `LoadWorld`, then 8 times an `AdvanceWorld`
//!   (the frame count advanced, `PlayerInputs` inserted) and a `SaveWorld`;
//! * `controller_only_8_ticks`: the same 16 characters from the same
//!   states, 8 ticks of the engine-free `Controller::tick` against the same
//!   colliders (the lifts posed by the same clock), no Bevy.
//!
//! So Bevy's schedules cost about `rollback_8_ticks −
//! controller_only_8_ticks − restore − 8 × snapshot`.
//!
//! `cargo bench -p bevy_slidewalk --features ggrs --bench rollback` (the
//! release profile: Bevy optimised too), or with `--profile dev` as the
//! `plugin` bench (Bevy at opt-level 1, this crate, `sweep` and
//! `controller` at 3).

use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::SlidewalkRollbackPlugin;
use bevy_slidewalk::bevy_ggrs::ggrs::{PlayerType, SessionBuilder};
use bevy_slidewalk::bevy_ggrs::prelude::*;
use bevy_slidewalk::bevy_ggrs::{
    AdvanceWorld, AdvanceWorldSystems, LoadWorld, LocalInputs, LocalPlayers, RollbackFrameCount, SaveWorld,
};
use bevy_slidewalk::controller::{CharacterState, Controller, Intent, Surroundings};
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::sweep::test_util::Soup;
use bevy_slidewalk::sweep::{MeshCollider, PlacedCollider, Pose};
use criterion::{Criterion, criterion_group, criterion_main};
use std::f32::consts::TAU;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// Each player's input: the index of its heading, 0 … 15.
type Config = GgrsConfig<u8>;

const HZ: usize = 60;
const CHARACTERS: usize = 16;
const MOVERS: usize = 4;
const WARM_UP_TICKS: usize = 60;
const ROLLBACK_TICKS: i32 = 8;

/// The walking direction of heading `index`.
fn heading(index: u8) -> Vec3 {
    let a = TAU * f32::from(index) / CHARACTERS as f32;
    Vec3::new(a.cos(), 0.0, a.sin())
}

/// Where lift `k` is at tick `clock`: flush with the floor 5 m out on a
/// diagonal, rising 1 m and back every 4 s.
fn lift_at(k: usize, clock: u32) -> Vec3 {
    let a = TAU * (k as f32 + 0.5) / MOVERS as f32;
    let t = clock as f32 / HZ as f32;
    Vec3::new(
        5.0 * a.cos(),
        -0.25 + 0.5 * (1.0 - (TAU * t / 4.0).cos()),
        5.0 * a.sin(),
    )
}

/// The triangles, shared by the app's colliders and the engine-free peer:
/// a 40 m floor and two square rings of 0.25 m steps (world coordinates),
/// and one lift (a 3 × 0.5 × 3 m box about its centre).
struct Geometry {
    statics: Vec<Arc<MeshCollider>>,
    lift: Arc<MeshCollider>,
}

fn geometry() -> Geometry {
    let build = |soup: Soup| Arc::new(MeshCollider::build(&soup.positions, &soup.triangles).unwrap());
    let mut floor = Soup::default();
    floor.cuboid(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0));
    let ring = |inner: f32, outer: f32, top: f32| {
        let mut s = Soup::default();
        s.cuboid(Vec3::new(-outer, 0.0, -outer), Vec3::new(outer, top, -inner));
        s.cuboid(Vec3::new(-outer, 0.0, inner), Vec3::new(outer, top, outer));
        s.cuboid(Vec3::new(-outer, 0.0, -inner), Vec3::new(-inner, top, inner));
        s.cuboid(Vec3::new(inner, 0.0, -inner), Vec3::new(outer, top, inner));
        s
    };
    let mut lift = Soup::default();
    lift.cuboid(Vec3::new(-1.5, -0.25, -1.5), Vec3::new(1.5, 0.25, 1.5));
    Geometry {
        statics: vec![build(floor), build(ring(7.0, 8.0, 0.25)), build(ring(8.0, 9.0, 0.5))],
        lift: build(lift),
    }
}

/// Ticks of the lifts, rolled back.
#[derive(Resource, Clone, Copy, Default, Hash)]
struct Clock(u32);

#[derive(Component)]
struct Lift(usize);

#[derive(Component)]
struct Player(usize);

/// The `PlayerInputs` bevy_ggrs built for the first tick (it cannot be
/// built outside bevy_ggrs), kept to insert before each `AdvanceWorld`.
#[derive(Resource)]
struct KeptInputs(PlayerInputs<Config>);

fn read_inputs(mut commands: Commands, local: Res<LocalPlayers>) {
    let inputs = local.0.iter().map(|&h| (h, h as u8)).collect();
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

fn apply_inputs(inputs: Res<PlayerInputs<Config>>, mut characters: Query<(&Player, &mut MovementIntent)>) {
    for (player, mut intent) in &mut characters {
        intent.direction = heading(inputs[player.0].0);
    }
}

fn move_lifts(mut clock: ResMut<Clock>, mut lifts: Query<(&Lift, &mut Transform)>) {
    clock.0 += 1;
    for (lift, mut transform) in &mut lifts {
        transform.translation = lift_at(lift.0, clock.0);
    }
}

/// Keeps the first tick's inputs (a system of `AdvanceWorld`, once).
fn keep_inputs(world: &mut World, mut kept: Local<bool>) {
    if !*kept && let Some(inputs) = world.remove_resource::<PlayerInputs<Config>>() {
        world.insert_resource(KeptInputs(inputs));
        *kept = true;
    }
}

/// The scene after 60 ticks of a sync-test session (which then ends: the
/// benchmarks run bevy_ggrs's schedules themselves), and the inputs.
fn warmed_up(geometry: &Geometry) -> (App, PlayerInputs<Config>) {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        MeshPlugin,
        GgrsPlugin::<Config>::default(),
        SlidewalkPlugin::in_schedule(GgrsSchedule),
        SlidewalkRollbackPlugin,
    ))
    .insert_resource(RollbackFrameRate(HZ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(16_666_667)))
    .init_resource::<Clock>()
    .rollback_resource_with_copy::<Clock>()
    .checksum_resource_with_hash::<Clock>()
    .add_systems(ReadInputs, read_inputs)
    .add_systems(
        GgrsSchedule,
        (apply_inputs, move_lifts).before(SlidewalkSystems::Prepare),
    )
    .add_systems(AdvanceWorld, keep_inputs.in_set(AdvanceWorldSystems::Last));
    for mesh in &geometry.statics {
        app.world_mut().spawn((
            SlidewalkCollider::from_mesh_collider(mesh.clone()),
            Transform::default(),
        ));
    }
    for k in 0..MOVERS {
        let at = Transform::from_translation(lift_at(k, 0));
        app.world_mut().spawn((
            SlidewalkCollider::from_mesh_collider(geometry.lift.clone()),
            at,
            Lift(k),
        ));
    }
    let body = CharacterController::default();
    for i in 0..CHARACTERS {
        let feet = 3.0 * heading(i as u8);
        app.world_mut()
            .spawn((body.transform_at_feet(feet), body.clone(), Player(i)));
    }
    // Snapshots kept for 12 frames: a rollback of 8 ticks saves 8 after the
    // one it loads, which the benchmark loads again.
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(CHARACTERS)
        .unwrap()
        .with_max_prediction_window(12)
        .with_check_distance(0);
    for i in 0..CHARACTERS {
        session = session.add_player(PlayerType::Local, i).unwrap();
    }
    app.insert_resource(Session::SyncTest(session.start_synctest_session().unwrap()));
    while frame(&app) < WARM_UP_TICKS as i32 {
        app.update();
    }
    app.world_mut().remove_resource::<Session<Config>>();
    // They walked out from 3 m, towards the steps.
    let mut states = app.world_mut().query::<&MovementState>();
    for s in states.iter(app.world()) {
        let out = s.feet().with_y(0.0).length();
        assert!(out > 5.0 && s.feet().y >= -0.01, "a character at {}", s.feet());
    }
    let inputs = app.world_mut().remove_resource::<KeptInputs>().unwrap().0;
    (app, inputs)
}

fn frame(app: &App) -> i32 {
    app.world().resource::<RollbackFrameCount>().0
}

/// `SaveWorld` for the current frame.
fn save(world: &mut World) {
    world.run_schedule(SaveWorld);
}

/// `LoadWorld` of `frame`'s snapshot.
fn load(world: &mut World, frame: i32) {
    world.resource_mut::<RollbackFrameCount>().0 = frame;
    world.run_schedule(LoadWorld);
}

/// One tick, as bevy_ggrs advances one: the frame count, the inputs in,
/// `AdvanceWorld`, the inputs out.
fn advance(world: &mut World, inputs: PlayerInputs<Config>) -> PlayerInputs<Config> {
    world.resource_mut::<RollbackFrameCount>().0 += 1;
    world.insert_resource(inputs);
    world.run_schedule(AdvanceWorld);
    world.remove_resource::<PlayerInputs<Config>>().unwrap()
}

fn rollback(c: &mut Criterion) {
    let geometry = geometry();
    let mut group = c.benchmark_group("rollback_16_characters");
    group.measurement_time(Duration::from_secs(5));

    let (mut app, _) = warmed_up(&geometry);
    let world = app.world_mut();
    group.bench_function("snapshot", |b| {
        b.iter(|| {
            world.resource_mut::<RollbackFrameCount>().0 += 1;
            save(world);
        })
    });

    // Saved at the frame reached, then 4 ticks on: the restore goes 4 back.
    let (mut app, mut inputs) = warmed_up(&geometry);
    let back_to = frame(&app);
    let world = app.world_mut();
    save(world);
    for _ in 0..4 {
        inputs = advance(world, inputs);
        save(world);
    }
    group.bench_function("restore", |b| b.iter(|| load(world, back_to)));

    let (mut app, inputs) = warmed_up(&geometry);
    let back_to = frame(&app);
    let world = app.world_mut();
    save(world);
    let mut inputs = Some(inputs);
    // Left out by a filter (`--bench controller_only`), it ran nothing.
    let mut ran = false;
    group.bench_function("rollback_8_ticks", |b| {
        ran = true;
        b.iter(|| {
            load(world, back_to);
            for _ in 0..ROLLBACK_TICKS {
                inputs = Some(advance(world, inputs.take().unwrap()));
                save(world);
            }
        })
    });
    if ran {
        assert_eq!(
            world.resource::<RollbackFrameCount>().0,
            back_to + ROLLBACK_TICKS,
            "frames rolled forward"
        );
    }

    // The same characters from the same states, engine-free.
    let (mut app, _) = warmed_up(&geometry);
    let clock = app.world().resource::<Clock>().0;
    let mut q = app.world_mut().query::<(&Player, &MovementState)>();
    let mut start: Vec<(usize, CharacterState)> = q.iter(app.world()).map(|(p, s)| (p.0, s.0)).collect();
    start.sort_by_key(|s| s.0);
    let controller = Controller::new(ControllerConfig::default()).unwrap();
    let dt = 1.0 / HZ as f32;
    let pose = |at: Vec3| Pose {
        rotation: Quat::IDENTITY,
        translation: at,
    };
    group.bench_function("controller_only_8_ticks", |b| {
        b.iter(|| {
            let mut states = start.clone();
            for tick in 1..=ROLLBACK_TICKS as u32 {
                let now = clock + tick;
                let mut placed: Vec<PlacedCollider> =
                    geometry.statics.iter().map(|m| PlacedCollider::fixed(m)).collect();
                placed.extend((0..MOVERS).map(|k| {
                    let (before, after) = (pose(lift_at(k, now - 1)), pose(lift_at(k, now)));
                    PlacedCollider::from_poses(&geometry.lift, before, after, dt)
                }));
                let world = Surroundings::new(&placed);
                for (i, state) in &mut states {
                    let intent = Intent {
                        direction: heading(*i as u8),
                        ..Intent::default()
                    };
                    black_box(controller.tick(state, &intent, &world, dt).unwrap());
                }
            }
            black_box(states)
        })
    });
    group.finish();
}

criterion_group!(benches, rollback);
criterion_main!(benches);
