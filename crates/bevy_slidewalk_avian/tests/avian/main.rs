//! bevy_slidewalk_avian in headless apps with Avian stepping: Avian's
//! shapes solid to characters, pushes, weight, riding, the preludes
//! together. Every case at 1, 2 and 4 frames a tick and 3 ticks a frame,
//! and every tick checked through Avian's own shape queries: no
//! character's ellipsoid inside an Avian collider it meets by more than
//! its skin. One binary (each links Bevy); modules by subject.

mod felt;
mod preludes;
mod pushes;
mod shapes;

use avian3d::parry::math::Pose as ParryPose;
use avian3d::parry::query::contact;
use avian3d::parry::shape::ConvexPolyhedron;
use avian3d::prelude::{
    Collider as AvianCollider, CollisionLayers as AvianLayers, PhysicsPlugins, Sensor as AvianSensor,
};
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::{
    CharacterController, ColliderMotion, MovementIntent, MovementReport, MovementState, SlidewalkLayers,
    SlidewalkPlugin, SlidewalkSystems,
};
use bevy_slidewalk_avian::SlidewalkAvianPlugin;
use std::time::Duration;

/// Ticks a second.
pub const HZ: f64 = 60.0;

/// Frames per tick: 1, 2 and 4 frames a tick, and 3 ticks a frame.
pub const PACINGS: [f64; 4] = [1.0, 2.0, 4.0, 1.0 / 3.0];

/// The deepest any character ended a tick inside an Avian collider it
/// meets, metres beyond its skin, and where.
#[derive(Resource, Debug)]
pub struct Overlaps {
    /// The deepest, metres beyond the skin (negative: the nearest any
    /// character came, within 5 cm).
    pub worst: f32,
    pub at: Option<(Entity, Entity, Vec3)>,
    pub ticks: u32,
}

impl Default for Overlaps {
    fn default() -> Self {
        Self {
            worst: f32::NEG_INFINITY,
            at: None,
            ticks: 0,
        }
    }
}

/// A headless app: Avian, the plugin, the mirror, time by hand at
/// `frames_per_tick`.
pub fn app(frames_per_tick: f64) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        AssetPlugin::default(),
        MeshPlugin,
        PhysicsPlugins::default(),
        SlidewalkPlugin::default(),
        SlidewalkAvianPlugin::default(),
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

/// A static floor 40 m square, top at y = 0.
pub fn floor(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            avian3d::prelude::RigidBody::Static,
            AvianCollider::cuboid(40.0, 1.0, 40.0),
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

/// After each tick: every active character against every Avian collider
/// it meets (not a sensor, layers meeting), each placed where the tick saw
/// it, through parry's contact query on Avian's own (scaled) shape.
#[allow(clippy::type_complexity)]
fn check_overlaps(
    characters: Query<(
        Entity,
        &CharacterController,
        &MovementState,
        &MovementReport,
        Option<&SlidewalkLayers>,
    )>,
    colliders: Query<
        (Entity, &AvianCollider, &ColliderMotion, Option<&AvianLayers>),
        (Without<AvianSensor>, Without<bevy_slidewalk_avian::IgnoredByCharacters>),
    >,
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
            let their = their.map_or(SlidewalkLayers::ALL, |l| {
                SlidewalkLayers::new(l.memberships.0, l.filters.0)
            });
            let Some(pose) = motion.pose() else { continue };
            if !layers.interacts_with(their) {
                continue;
            }
            let placed = ParryPose::from_parts(pose.translation, pose.rotation);
            // The engine's shape first: with the ellipsoid first, parry's
            // contact query measured a half-space from its solid side (5.8 m
            // deep for a character 4 m above it).
            let Ok(Some(c)) = contact(&placed, collider.shape_scaled().as_ref(), &at, &hull, 0.05) else {
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
        "{case}: {} ticks checked, deepest {:.2e} m beyond the skin",
        o.ticks, o.worst
    );
    assert!(o.ticks > 0, "{case}: no tick checked");
    assert!(
        o.worst <= 1e-4,
        "{case}: a character ended a tick {} m inside an Avian collider: {:?}",
        o.worst,
        o.at
    );
}
