//! What Rapier's world costs the characters: 100 characters walking among
//! 1,000 dynamic Rapier boxes kept moving (kicked every half second) on a
//! 60 m floor, per tick: the characters' side (the mirror, the plugin's
//! world upkeep with 1,000 movers, the characters' moves: `FixedUpdate` up
//! to the end of `SlidewalkSystems::Step`) next to Rapier's own sets
//! (`SyncBackend`, `StepSimulation`, `Writeback`; the pushes, a few
//! microseconds, may fall on either side); and with no character, the
//! characters' side alone is the mirror's upkeep of the moving bodies.
//!
//! `cargo bench -p bevy_slidewalk_rapier --profile dev --bench rapier`
//! (the dev profile, as `cargo run` builds; criterion reports the time per
//! tick).

use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::{
    Collider as RapierCollider, NoUserData, PhysicsSet, RapierPhysicsPlugin, RigidBody, TimestepMode, Velocity,
};
use bevy_slidewalk::{CharacterController, MovementIntent, SlidewalkPlugin, SlidewalkSystems};
use bevy_slidewalk_rapier::SlidewalkRapierPlugin;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::time::{Duration, Instant};

const HZ: f64 = 60.0;

/// Time spent per part since the last reset.
#[derive(Resource, Default)]
struct Parts {
    mark: Option<Instant>,
    characters: Duration,
    engine: Duration,
}

fn start_characters(mut parts: ResMut<Parts>) {
    parts.mark = Some(Instant::now());
}

fn start_engine(mut parts: ResMut<Parts>) {
    if let Some(m) = parts.mark.take() {
        parts.characters += m.elapsed();
    }
    parts.mark = Some(Instant::now());
}

fn end_engine(mut parts: ResMut<Parts>) {
    if let Some(m) = parts.mark.take() {
        parts.engine += m.elapsed();
    }
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Every half second each box gets a new horizontal velocity (up to 2 m/s).
fn kick(mut ticks: Local<u32>, mut boxes: Query<&mut Velocity>, mut rng: Local<Option<Lcg>>) {
    *ticks += 1;
    if *ticks % 30 != 1 {
        return;
    }
    let rng = rng.get_or_insert(Lcg(9));
    for mut v in &mut boxes {
        v.linear = Vec3::new(rng.next() * 4.0 - 2.0, v.linear.y, rng.next() * 4.0 - 2.0);
    }
}

fn walk(mut ticks: Local<u64>, mut characters: Query<&mut MovementIntent>) {
    *ticks += 1;
    for (i, mut intent) in characters.iter_mut().enumerate() {
        let a = i as f32 * 2.399 + *ticks as f32 * 0.05;
        intent.direction = Vec3::new(a.cos(), 0.0, a.sin());
    }
}

fn scene(characters: usize) -> App {
    let mut app = App::new();
    app.insert_resource(TimestepMode::Fixed {
        dt: (1.0 / HZ) as f32,
        substeps: 1,
    })
    .add_plugins((
        MinimalPlugins,
        TransformPlugin,
        AssetPlugin::default(),
        MeshPlugin,
        RapierPhysicsPlugin::<NoUserData>::default().in_fixed_schedule(),
        SlidewalkPlugin::default(),
        SlidewalkRapierPlugin::default(),
    ))
    .insert_resource(Time::<Fixed>::from_hz(HZ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / HZ)))
    .init_resource::<Parts>()
    .add_systems(FixedPreUpdate, (kick, walk, start_characters).chain())
    .add_systems(
        FixedUpdate,
        start_engine
            .after(SlidewalkSystems::Step)
            .before(PhysicsSet::SyncBackend),
    )
    .add_systems(FixedUpdate, end_engine.after(PhysicsSet::Writeback));
    let world = app.world_mut();
    world.spawn((
        RigidBody::Fixed,
        RapierCollider::cuboid(30.0, 0.5, 30.0),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    for i in 0..1000 {
        let (x, z) = ((i % 32) as f32 * 1.8 - 28.0, (i / 32) as f32 * 1.8 - 28.0);
        world.spawn((
            RigidBody::Dynamic,
            RapierCollider::cuboid(0.25, 0.25, 0.25),
            Velocity::default(),
            Transform::from_xyz(x, 0.25, z),
        ));
    }
    for i in 0..characters {
        let (x, z) = ((i % 10) as f32 * 5.0 - 23.0, (i / 10) as f32 * 5.0 - 23.0);
        let body = CharacterController::default();
        world.spawn((body.transform_at_feet(Vec3::new(x + 0.9, 0.0, z + 0.9)), body));
    }
    app.finish();
    app.cleanup();
    for _ in 0..60 {
        app.update();
    }
    app
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("rapier_1000_moving_boxes");
    group.sample_size(20).measurement_time(Duration::from_secs(6));
    for characters in [0usize, 100] {
        let mut app = scene(characters);
        for part in ["characters", "engine"] {
            group.bench_function(BenchmarkId::new(part, characters), |b| {
                b.iter_custom(|iters| {
                    *app.world_mut().resource_mut::<Parts>() = Parts::default();
                    for _ in 0..iters {
                        app.update();
                    }
                    let parts = app.world().resource::<Parts>();
                    if part == "characters" {
                        parts.characters
                    } else {
                        parts.engine
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
