//! The plugin's cost per character: its whole fixed tick (`FixedMain`,
//! headless) with 1, 100 and 1,000 walking characters on a 100k-triangle
//! level, next to the engine-free `Controller::tick` of the same
//! characters in the same run; 100 characters among 1,000 separate
//! prop entities against the same triangles in one collider; 100
//! characters on the 100k level cut into 18 colliders (each too large to
//! be merged with the others) or 30 (merged by their rules), with a third
//! of them one-way and layered against none; and 100 characters on a 1M
//! level with 10,000 sensors scattered over it against none.
//!
//! `cargo bench --workspace --profile dev --bench plugin` (the dev profile,
//! as `cargo run` builds: this crate, `sweep` and `controller` at
//! opt-level 3, Bevy at 1; criterion reports the time per character: the
//! throughput is one element per character). `BENCH_ONE_THREAD=1` runs
//! the fixed schedules on one thread; `-- props` only the props run,
//! `-- filters` the layers and one-way run, `-- sensors` the sensors run.

use bevy::app::FixedMain;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::controller::{Controller, Intent, Surroundings};
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::{CollisionWorld, sweep};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use sweep::test_util::{Lcg, Soup};

const HZ: f64 = 60.0;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), MeshPlugin, TransformPlugin))
        .add_plugins(SlidewalkPlugin::default())
        .insert_resource(Time::<Fixed>::from_hz(HZ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / HZ)));
    // BENCH_ONE_THREAD=1: the fixed schedules on the calling thread (what
    // the slidewalk game does: a tick of small systems costs less than
    // waking worker threads for them).
    if std::env::var_os("BENCH_ONE_THREAD").is_some() {
        for label in [
            FixedFirst.intern(),
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            FixedLast.intern(),
        ] {
            app.edit_schedule(label, |s| {
                s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
            });
        }
    }
    app
}

/// A walking direction, each character its own, turning 0.05 rad a tick:
/// circles of about 1.5 m, so no character wanders off the level.
fn heading(i: usize, tick: u64) -> Vec3 {
    let a = i as f32 * 2.399 + tick as f32 * 0.05;
    Vec3::new(a.cos(), 0.0, a.sin())
}

/// `n` characters dropped over `level`'s area, settled for a second,
/// walking.
fn populated(level: &[Soup], n: usize) -> App {
    let mut app = app();
    let mut bounds = sweep::Aabb::EMPTY;
    for soup in level {
        for p in &soup.positions {
            bounds = bounds.union(sweep::Aabb::from_points([*p]));
        }
        app.world_mut().spawn(SlidewalkCollider::triangles(
            soup.positions.clone(),
            soup.triangles.clone(),
        ));
    }
    let mut rng = Lcg::new(7);
    for i in 0..n {
        let at = rng.in_box(bounds.min, bounds.max);
        let centre = Vec3::new(at.x, bounds.max.y + 1.0, at.z);
        let intent = MovementIntent {
            direction: heading(i, 0),
            ..default()
        };
        app.world_mut().spawn((
            CharacterController::default(),
            intent,
            Transform::from_translation(centre),
        ));
    }
    for _ in 0..(1.5 * HZ) as usize {
        app.update();
    }
    app
}

/// `soup` cut into `parts` colliders of consecutive triangles (all the
/// vertices kept in each: unused ones cost nothing).
fn cut(soup: &Soup, parts: usize) -> Vec<Soup> {
    let per = soup.triangles.len().div_ceil(parts);
    soup.triangles
        .chunks(per)
        .map(|t| Soup {
            positions: soup.positions.clone(),
            triangles: t.to_vec(),
        })
        .collect()
}

fn layers_and_one_way_against_none(c: &mut Criterion) {
    // 18 colliders of over MERGE_MAX_TRIANGLES each (none merged, with
    // rules or not) and 30 small ones (merged by their rules).
    let level = sweep::test_util::generated_level(100_000);
    let mut group = c.benchmark_group("filters_100k");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Elements(100));
    for (parts, filtered) in [(18, false), (18, true), (30, false), (30, true)] {
        let level = cut(&level, parts);
        let mut app = populated(&level, 0);
        if filtered {
            // Every third collider one-way (up) and in a layer the
            // characters meet.
            let mut colliders = app.world_mut().query_filtered::<Entity, With<SlidewalkCollider>>();
            let entities: Vec<Entity> = colliders.iter(app.world()).collect();
            for e in entities.into_iter().step_by(3) {
                app.world_mut()
                    .entity_mut(e)
                    .insert((OneWay::default(), SlidewalkLayers::new(1, u32::MAX)));
            }
        }
        spawn_walkers(&mut app, 100);
        let mut ticks = 0;
        let name = if filtered { "third_one_way_and_layered" } else { "plain" };
        group.bench_function(BenchmarkId::new(name, format!("{parts}_colliders")), |b| {
            b.iter(|| tick(&mut app, &mut ticks))
        });
    }
    group.finish();
}

fn sensors_against_none(c: &mut Criterion) {
    let level = sweep::test_util::generated_level(1_000_000);
    let mut group = c.benchmark_group("sensors_1m");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    // With no character the tick is the world's upkeep (the colliders'
    // sync); the difference to 100 characters is theirs: their steps and
    // the sensors found for them.
    for (sensors, characters) in [(0usize, 0usize), (0, 100), (10_000, 0), (10_000, 100)] {
        let mut app = populated(std::slice::from_ref(&level), 0);
        let bounds = app.world().resource::<CollisionWorld>().bounds();
        let (lo, hi) = bounds.map_or((Vec3::ZERO, Vec3::ONE), |b| (b.min, b.max));
        let mut rng = Lcg::new(5);
        for _ in 0..sensors {
            let at = rng.in_box(lo, hi);
            let mut zone = Soup::default();
            zone.cuboid(Vec3::splat(-1.0), Vec3::splat(1.0));
            app.world_mut().spawn((
                SlidewalkCollider::triangles(zone.positions, zone.triangles),
                Transform::from_translation(at),
                SlidewalkSensor,
            ));
        }
        spawn_walkers(&mut app, characters);
        let mut ticks = 0;
        let name = format!("{sensors}_sensors");
        group.bench_function(BenchmarkId::new(name, characters), |b| {
            b.iter(|| tick(&mut app, &mut ticks))
        });
    }
    group.finish();
}

/// `n` more walking characters dropped over the world's colliders,
/// settled for a second.
fn spawn_walkers(app: &mut App, n: usize) {
    app.update();
    let bounds = app.world().resource::<CollisionWorld>().bounds();
    let (lo, hi) = bounds.map_or((Vec3::ZERO, Vec3::ONE), |b| (b.min, b.max));
    let mut rng = Lcg::new(7);
    for i in 0..n {
        let at = rng.in_box(lo, hi);
        app.world_mut().spawn((
            CharacterController::default(),
            MovementIntent {
                direction: heading(i, 0),
                ..default()
            },
            Transform::from_translation(Vec3::new(at.x, hi.y + 1.0, at.z)),
        ));
    }
    for _ in 0..(1.5 * HZ) as usize {
        app.update();
    }
}

fn tick(app: &mut App, ticks: &mut u64) {
    *ticks += 1;
    let t = *ticks;
    let mut intents = app.world_mut().query::<&mut MovementIntent>();
    for (i, mut intent) in intents.iter_mut(app.world_mut()).enumerate() {
        intent.direction = heading(i, t);
    }
    app.world_mut().run_schedule(FixedMain);
}

fn plugin_against_controller(c: &mut Criterion) {
    let level = sweep::test_util::generated_level(100_000);
    let mut group = c.benchmark_group("character_tick_100k");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    for n in [1usize, 100, 1000] {
        let mut app = populated(std::slice::from_ref(&level), n);
        group.throughput(Throughput::Elements(n as u64));
        // The same characters, settled, for the engine-free peer.
        let mut states: Vec<_> = app
            .world_mut()
            .query::<&MovementState>()
            .iter(app.world())
            .map(|c| c.0)
            .collect();
        let mut ticks = 0;
        group.bench_function(BenchmarkId::new("plugin_fixed_tick", n), |b| {
            b.iter(|| tick(&mut app, &mut ticks))
        });
        // Engine-free: Controller::tick each.
        let collision = app.world().resource::<CollisionWorld>();
        let placed = collision.placed();
        let world = Surroundings::new(&placed);
        let controller = Controller::new(ControllerConfig::default()).unwrap();
        let dt = (1.0 / HZ) as f32;
        let mut t = 0u64;
        group.bench_function(BenchmarkId::new("controller_tick", n), |b| {
            b.iter(|| {
                t += 1;
                for (i, state) in states.iter_mut().enumerate() {
                    let intent = Intent {
                        direction: heading(i, t),
                        ..Intent::default()
                    };
                    black_box(controller.tick(state, &intent, &world, dt).unwrap());
                }
            })
        });
    }
    group.finish();
}

/// 1,000 props (a box with a bevelled cap, 44 triangles) on a floor.
fn props() -> (Soup, Vec<Soup>) {
    let mut floor = Soup::default();
    floor.cuboid(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0));
    let mut rng = Lcg::new(3);
    let mut each = Vec::new();
    for _ in 0..1000 {
        let at = rng.in_box(Vec3::new(-48.0, 0.0, -48.0), Vec3::new(48.0, 0.0, 48.0));
        let mut prop = Soup::default();
        prop.cuboid(at, at + Vec3::new(0.6, 0.3, 0.6));
        prop.cylinder(at + Vec3::new(0.3, 0.3, 0.3), 0.25, 0.1, 8);
        each.push(prop);
    }
    (floor, each)
}

fn separate_props_against_one_collider(c: &mut Criterion) {
    let (floor, each) = props();
    let mut merged = floor.clone();
    for p in &each {
        merged.extend(p);
    }
    let mut separate = vec![floor];
    separate.extend(each);
    let mut group = c.benchmark_group("props_1000");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Elements(100));
    for (name, level) in [("one_collider", vec![merged]), ("separate_entities", separate)] {
        let mut app = populated(&level, 100);
        let mut ticks = 0;
        group.bench_function(name, |b| b.iter(|| tick(&mut app, &mut ticks)));
    }
    group.finish();
}

criterion_group!(
    benches,
    plugin_against_controller,
    separate_props_against_one_collider,
    layers_and_one_way_against_none,
    sensors_against_none
);
criterion_main!(benches);
