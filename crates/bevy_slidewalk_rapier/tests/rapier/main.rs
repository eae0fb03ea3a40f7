//! bevy_slidewalk_rapier in headless apps with Rapier stepping in
//! `FixedUpdate` at the fixed timestep: Rapier's shapes solid to
//! characters, pushes, weight, riding, the preludes together. Every case
//! at 1, 2 and 4 frames a tick and 3 ticks a frame, and every tick checked
//! through parry's own contact query on Rapier's shapes: no character's
//! ellipsoid inside a Rapier collider it meets by more than its skin. One
//! binary (each links Bevy); modules by subject.

mod felt;
mod preludes;
mod pushes;
mod shapes;

use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::parry::math::Pose as ParryPose;
use bevy_rapier3d::parry::query::contact;
use bevy_rapier3d::parry::shape::ConvexPolyhedron;
use bevy_rapier3d::prelude::{
    Collider as RapierCollider, CollisionGroups, NoUserData, RapierPhysicsPlugin, RigidBody, Sensor as RapierSensor,
    TimestepMode,
};
use bevy_slidewalk::{
    CharacterController, ColliderMotion, MovementIntent, MovementReport, MovementState, SlidewalkLayers,
    SlidewalkPlugin, SlidewalkSystems,
};
use bevy_slidewalk_rapier::SlidewalkRapierPlugin;
use std::time::Duration;

/// Ticks a second.
pub const HZ: f64 = 60.0;

/// Frames per tick: 1, 2 and 4 frames a tick, and 3 ticks a frame.
pub const PACINGS: [f64; 4] = [1.0, 2.0, 4.0, 1.0 / 3.0];

/// The deepest any character ended a tick inside a Rapier collider it
/// meets, metres beyond its skin, and where.
#[derive(Resource, Default, Debug)]
pub struct Overlaps {
    pub worst: f32,
    pub at: Option<(Entity, Entity, Vec3)>,
    pub ticks: u32,
}

/// A headless app: Rapier stepping once a tick in `FixedUpdate`, the
/// plugin, the mirror, time by hand at `frames_per_tick`.
pub fn app(frames_per_tick: f64) -> App {
    let mut app = App::new();
    // Before Rapier's plugin, which keeps it (and warns without it).
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
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / HZ / frames_per_tick,
    )))
    .init_resource::<Overlaps>()
    .add_systems(FixedUpdate, check_overlaps.after(SlidewalkSystems::Step));
    app.finish();
    app.cleanup();
    app
}

/// Runs `seconds` of game time, calling `each` after every frame.
pub fn run(app: &mut App, frames_per_tick: f64, seconds: f64, mut each: impl FnMut(&mut App)) {
    let frames = ((seconds * HZ * frames_per_tick).round() as usize).max(1);
    for _ in 0..frames {
        app.update();
        each(app);
    }
}

/// A character with its feet at `feet`.
pub fn character(app: &mut App, feet: Vec3) -> Entity {
    let body = CharacterController::default();
    app.world_mut().spawn((body.transform_at_feet(feet), body)).id()
}

pub fn walk(app: &mut App, character: Entity, direction: Vec3) {
    app.world_mut().get_mut::<MovementIntent>(character).unwrap().direction = direction;
}

pub fn state(app: &App, e: Entity) -> bevy_slidewalk::CharacterState {
    app.world().get::<MovementState>(e).unwrap().0
}

pub fn report(app: &App, e: Entity) -> MovementReport {
    app.world().get::<MovementReport>(e).unwrap().clone()
}

/// A fixed floor 40 m square, top at y = 0.
pub fn floor(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Fixed,
            RapierCollider::cuboid(20.0, 0.5, 20.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

/// Points on an ellipsoid's surface (a polyhedron inside it: an overlap it
/// has, the ellipsoid has at least).
fn ellipsoid_hull(radii: Vec3) -> ConvexPolyhedron {
    let mut points = Vec::new();
    for i in 0..=12 {
        let phi = std::f32::consts::PI * i as f32 / 12.0;
        for j in 0..24 {
            let theta = std::f32::consts::TAU * j as f32 / 24.0;
            let dir = Vec3::new(phi.sin() * theta.cos(), phi.cos(), phi.sin() * theta.sin());
            points.push(dir * radii);
        }
    }
    ConvexPolyhedron::from_convex_hull(&points).expect("an ellipsoid's hull")
}

/// After each tick: every active character against every Rapier collider
/// it meets (not a sensor, groups meeting), each placed where the tick saw
/// it, through parry's contact query on Rapier's own (scaled) shape.
#[allow(clippy::type_complexity)]
fn check_overlaps(
    characters: Query<(
        Entity,
        &CharacterController,
        &MovementState,
        &MovementReport,
        Option<&SlidewalkLayers>,
    )>,
    colliders: Query<(Entity, &RapierCollider, &ColliderMotion, Option<&CollisionGroups>), Without<RapierSensor>>,
    mut overlaps: ResMut<Overlaps>,
) {
    overlaps.ticks += 1;
    for (ch, controller, state, report, layers) in &characters {
        if !controller.active || report.tick.crushed {
            continue;
        }
        let layers = layers.copied().unwrap_or(SlidewalkLayers::ALL);
        let hull = ellipsoid_hull(state.0.radii);
        let at = ParryPose::from_translation(state.0.position);
        let skin = controller.config.skin * state.0.radii.max_element();
        for (entity, collider, motion, their) in &colliders {
            let their = their.map_or(SlidewalkLayers::ALL, |g| {
                SlidewalkLayers::new(g.memberships.bits(), g.filters.bits())
            });
            let Some(pose) = motion.pose() else { continue };
            if !layers.interacts_with(their) {
                continue;
            }
            let placed = ParryPose::from_parts(pose.translation, pose.rotation);
            // The engine's shape first: with the ellipsoid first, parry's
            // contact query measures a half-space from its solid side.
            let Ok(Some(c)) = contact(&placed, &*collider.raw, &at, &hull, 0.05) else {
                continue;
            };
            let depth = -c.dist - skin;
            if depth > overlaps.worst {
                overlaps.worst = depth;
                overlaps.at = Some((ch, entity, state.0.position));
            }
        }
    }
}

/// Fails if any tick so far ended with a character inside a collider.
pub fn assert_no_overlap(app: &App, case: &str) {
    let o = app.world().resource::<Overlaps>();
    println!(
        "{case}: deepest {:.4} m beyond the skin over {} ticks",
        o.worst, o.ticks
    );
    assert!(o.ticks > 0, "{case}: no tick checked");
    assert!(
        o.worst <= 1e-4,
        "{case}: a character ended a tick {} m inside a Rapier collider: {:?}",
        o.worst,
        o.at
    );
}
