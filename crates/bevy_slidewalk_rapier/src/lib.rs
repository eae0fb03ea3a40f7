//! [Rapier](https://docs.rs/bevy_rapier3d) physics in a [`bevy_slidewalk`]
//! game: Rapier's colliders are solid to the characters as they are, and
//! the characters push the dynamic bodies they walk into and weigh on the
//! ones they stand on.
//!
//! Rapier must step once per fixed tick, in the characters' schedule:
//! `RapierPhysicsPlugin::in_fixed_schedule()` and a
//! `TimestepMode::Fixed` of the fixed timestep (Rapier's default steps once
//! per frame in `PostUpdate`, by the frame's time).
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_rapier3d::prelude::*;
//! use bevy_slidewalk::prelude::*;
//! use bevy_slidewalk_rapier::SlidewalkRapierPlugin;
//!
//! App::new()
//!     .insert_resource(Time::<Fixed>::from_hz(60.0))
//!     .insert_resource(TimestepMode::Fixed { dt: 1.0 / 60.0, substeps: 1 })
//!     .add_plugins((DefaultPlugins, RapierPhysicsPlugin::<NoUserData>::default().in_fixed_schedule()))
//!     .add_plugins((SlidewalkPlugin::default(), SlidewalkRapierPlugin::default()))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         // Rapier's colliders, as any Rapier game has them: solid to the character.
//!         commands.spawn((RigidBody::Fixed, Collider::cuboid(20.0, 0.5, 20.0), Transform::from_xyz(0.0, -0.5, 0.0)));
//!         commands.spawn((RigidBody::Dynamic, Collider::cuboid(0.5, 0.5, 0.5), Transform::from_xyz(0.0, 0.5, -3.0)));
//!         let body = CharacterController::default();
//!         commands.spawn((body.transform_at_feet(Vec3::ZERO), body));
//!     })
//!     .run();
//! ```
//!
//! # What it does
//!
//! * **Every Rapier collider is solid to the characters** (fixed,
//!   kinematic, dynamic and body-less; child colliders; compound shapes):
//!   the plugin puts a [`SlidewalkCollider`] built from its unscaled shape
//!   on the same entity ([`Mirrored`]), with Rapier's `CollisionGroups` as
//!   [`SlidewalkLayers`] (the same rule, bit for bit; no `CollisionGroups`
//!   is all groups, as in Rapier) and Rapier's `Sensor` as
//!   [`SlidewalkSensor`] (a character entering one writes
//!   `EnteredSensor`). Boxes, convex hulls, triangle meshes, heightfields
//!   and voxels are taken as they are; balls, capsules, cylinders, cones
//!   and rounded shapes as polyhedra of [`shapes::SEGMENTS`] faces around
//!   that hold the true shape (every face on or outside it); a half-space
//!   as a square 2 km across. Each shape is built once (balls, boxes,
//!   capsules, cylinders and cones of the same size share one) and placed
//!   by the entity's `GlobalTransform` (its scale included) at each tick:
//!   a body Rapier moves is a mover, carrying the characters on it and
//!   pushing those it moves into, for the cost of a pose update.
//! * [`IgnoredByCharacters`] on a collider leaves it out, and so does
//!   Rapier's `ColliderDisabled`.
//! * **Pushes**: a dynamic body a character meets during its move gets an
//!   impulse at the contact, along the contact, from the character's
//!   `ControllerConfig::mass` and the speed it brought into the body (its
//!   velocity as the tick began, or the speed its input asks for, whichever
//!   goes further into the body) less the body's own, as between two
//!   bodies that end up moving together, and at most
//!   `ControllerConfig::max_push_force` × the tick. It is added to the
//!   body's `ExternalImpulse` (inserted if the body has none), which
//!   Rapier applies and clears in `PhysicsSet::SyncBackend`. The mass,
//!   centre of mass and velocity of the body are read from Rapier's own
//!   body (no `ReadMassProperties` or `Velocity` needed on it).
//! * **Weight**: a dynamic body a character stands on is pressed at the
//!   feet by `mass` × `gravity` for the tick: a plank on a pivot tips
//!   towards the side the character stands on.
//! * **Felt** (optional): an [`InnerBody`] on a character gives it a
//!   kinematic convex hull in Rapier's world that follows it, so Rapier's
//!   bodies bounce off the character, and a dynamic body that hits it
//!   knocks it back through `MovementIntent::impulse` (a [`HitByBody`]
//!   message names the body).
//!
//! # Order within a tick
//!
//! With Rapier in `FixedUpdate` and both plugins' defaults, each fixed
//! tick runs: the mirror brought up to date; `SlidewalkSystems::Prepare`
//! (the colliders' `GlobalTransform`s propagated from the `Transform`s
//! Rapier wrote back at the tick before); `SlidewalkSystems::Step` (the
//! characters move against those poses); the pushes and weights added to
//! the bodies' `ExternalImpulse`s; then Rapier's `PhysicsSet::SyncBackend`
//! (the impulses applied), `StepSimulation` (one step of the fixed
//! timestep) and `Writeback`. The plugin orders `SlidewalkSystems::Step`
//! and the pushes before `PhysicsSet::SyncBackend`. So the characters see
//! the poses of the tick before, and their pushes move the bodies in the
//! same tick, one step per tick whatever the frames per tick. Colliders
//! added, removed, made sensors or ignored in `Update` are mirrored in
//! `Last` of the same frame.

mod inner;
mod mirror;
mod push;
pub mod shapes;

pub use bevy_slidewalk::bodies::{HitByBody, InnerBodyEntity, InnerBodyOf};
pub use inner::InnerBody;
pub use mirror::{Mirrored, ShapeCache};

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;
use bevy_rapier3d::prelude::{PhysicsSet, TimestepMode};
use bevy_slidewalk::bodies::{BodyBridgePlugin, drop_orphan_inner_bodies};
#[cfg(doc)]
use bevy_slidewalk::{SlidewalkCollider, SlidewalkLayers, SlidewalkSensor};
use bevy_slidewalk::{SlidewalkPlugin, SlidewalkSystems};

/// Makes Rapier's colliders solid to bevy_slidewalk's characters and lets
/// the characters push and weigh on Rapier's dynamic bodies. Add it after
/// [`SlidewalkPlugin`], with Rapier's `RapierPhysicsPlugin` in the same
/// schedule (`in_fixed_schedule()`) and `TimestepMode::Fixed`.
#[derive(Clone, Debug)]
pub struct SlidewalkRapierPlugin {
    /// The schedule the characters move in: [`SlidewalkPlugin::schedule`]
    /// (`FixedUpdate`), which should be Rapier's too.
    pub schedule: InternedScheduleLabel,
}

impl Default for SlidewalkRapierPlugin {
    fn default() -> Self {
        Self {
            schedule: FixedUpdate.intern(),
        }
    }
}

impl SlidewalkRapierPlugin {
    /// For characters moved in `schedule` (as [`SlidewalkPlugin::in_schedule`]).
    pub fn in_schedule(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

/// On a Rapier collider: not solid to the characters (not mirrored).
/// Taking it off mirrors the collider again.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component, Default, Debug, Clone)]
pub struct IgnoredByCharacters;

impl Plugin for SlidewalkRapierPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<BodyBridgePlugin>() {
            app.add_plugins(BodyBridgePlugin {
                schedule: self.schedule,
            });
        }
        let mirror = (mirror::mirror_colliders, mirror::unmirror_removed).chain();
        app.init_resource::<ShapeCache>()
            .register_type::<IgnoredByCharacters>()
            .register_type::<InnerBody>()
            .add_message::<HitByBody>()
            // The characters move against the poses of the last step, and
            // their impulses reach Rapier in this tick's SyncBackend: both
            // before Rapier's sets when they share the schedule (in another
            // schedule the ordering names an empty set and does nothing).
            .configure_sets(self.schedule, SlidewalkSystems::Step.before(PhysicsSet::SyncBackend))
            .add_systems(
                self.schedule,
                (
                    inner::spawn_inner_bodies,
                    drop_orphan_inner_bodies::<InnerBody>,
                    inner::knock_back,
                    mirror,
                )
                    .before(SlidewalkSystems::Prepare),
            )
            .add_systems(
                self.schedule,
                (push::push_bodies, inner::follow_characters)
                    .after(SlidewalkSystems::Step)
                    .before(PhysicsSet::SyncBackend),
            )
            .add_systems(Last, (mirror::mirror_colliders, mirror::unmirror_removed).chain());
    }

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<SlidewalkPlugin>() {
            error!(
                "bevy_slidewalk_rapier: SlidewalkRapierPlugin needs bevy_slidewalk's SlidewalkPlugin in the app: no character will move"
            );
        }
        let world = app.world();
        match world.get_resource::<TimestepMode>() {
            None => error!(
                "bevy_slidewalk_rapier: SlidewalkRapierPlugin needs Rapier's RapierPhysicsPlugin in the app: no body will move"
            ),
            Some(&TimestepMode::Fixed { dt, .. }) => {
                let tick = world.get_resource::<Time<Fixed>>().map(|t| t.timestep().as_secs_f32());
                if let Some(tick) = tick
                    && (dt - tick).abs() > 1e-6 * tick
                {
                    warn!(
                        "bevy_slidewalk_rapier: Rapier steps {dt} s at each run but the fixed tick is {tick} s: bodies move at {} × real speed; insert TimestepMode::Fixed {{ dt: {tick}, .. }}",
                        dt / tick
                    );
                }
            }
            Some(mode) => warn!(
                "bevy_slidewalk_rapier: Rapier's TimestepMode is {mode:?}: with RapierPhysicsPlugin::in_fixed_schedule() and TimestepMode::Fixed {{ dt: <the fixed timestep>, substeps: 1 }}, Rapier steps once per character tick; otherwise bodies step by frames and the order within a tick does not hold"
            ),
        }
    }
}
