//! [Avian](https://docs.rs/avian3d) physics in a [`bevy_slidewalk`] game:
//! Avian's colliders are solid to the characters as they are, and the
//! characters push the dynamic bodies they walk into and weigh on the ones
//! they stand on.
//!
//! ```no_run
//! use avian3d::prelude::*;
//! use bevy::prelude::*;
//! use bevy_slidewalk::prelude::*;
//! use bevy_slidewalk_avian::SlidewalkAvianPlugin;
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, PhysicsPlugins::default()))
//!     .add_plugins((SlidewalkPlugin::default(), SlidewalkAvianPlugin::default()))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         // Avian's colliders, as any Avian game has them: solid to the character.
//!         commands.spawn((RigidBody::Static, Collider::cuboid(40.0, 1.0, 40.0), Transform::from_xyz(0.0, -0.5, 0.0)));
//!         commands.spawn((RigidBody::Dynamic, Collider::cuboid(1.0, 1.0, 1.0), Transform::from_xyz(0.0, 0.5, -3.0)));
//!         let body = CharacterController::default();
//!         commands.spawn((body.transform_at_feet(Vec3::ZERO), body));
//!     })
//!     .run();
//! ```
//!
//! # What it does
//!
//! * **Every Avian collider is solid to the characters** (static,
//!   kinematic, dynamic; child colliders; compound shapes): the plugin
//!   puts a [`SlidewalkCollider`] built from its shape on the same entity
//!   ([`Mirrored`]), with Avian's `CollisionLayers` as [`SlidewalkLayers`]
//!   (the same rule, bit for bit) and Avian's `Sensor` as
//!   [`SlidewalkSensor`] (a character entering one writes
//!   `EnteredSensor`). Boxes, convex hulls, triangle meshes, heightfields
//!   and voxels are taken as they are; balls, capsules, cylinders, cones
//!   and rounded shapes as polyhedra of [`shapes::SEGMENTS`] faces around
//!   that hold the true shape (every face on or outside it); a half-space
//!   as a square 2 km across. Each shape is built once (balls, boxes,
//!   capsules, cylinders and cones of the same size share one) and placed
//!   by the entity's `GlobalTransform` at each tick: a body Avian moves is
//!   a mover, carrying the characters on it and pushing those it moves
//!   into, for the cost of a pose update.
//! * [`IgnoredByCharacters`] on a collider leaves it out.
//! * **Pushes**: a dynamic body a character meets during its move gets an
//!   impulse at the contact, along the contact, from the character's
//!   `ControllerConfig::mass` and the speed it brought into the body (its
//!   velocity as the tick began, or the speed its input asks for, whichever
//!   goes further into the body) less the body's own, as between two
//!   bodies that end up moving together, and at most
//!   `ControllerConfig::max_push_force` × the tick. The character is
//!   stopped at the body's face as at any collider: a light crate slides
//!   away at nearly walking speed, a heavy one creeps, one the push cannot
//!   move holds the character like a wall.
//! * **Weight**: a dynamic body a character stands on is pressed at the
//!   feet by `mass` × `gravity` for the tick: a plank on a pivot tips
//!   towards the side the character stands on.
//! * **Felt** (optional): an [`InnerBody`] on a character gives it a
//!   kinematic convex hull in Avian's world that follows it, so Avian's bodies
//!   bounce off the character, and a dynamic body that hits it knocks it
//!   back through `MovementIntent::impulse` (a [`HitByBody`] message
//!   names the body).
//!
//! # Order within a tick
//!
//! With both plugins' defaults: in `FixedUpdate`, the mirror is brought up
//! to date, then the characters move (`SlidewalkSystems::Step`) against
//! the bodies where Avian's last step left them, then the pushes and
//! weights change the bodies' velocities; in `FixedPostUpdate` Avian steps
//! once with them. So the characters see the poses of the tick before,
//! and their pushes move the bodies in the same tick, one step per tick
//! whatever the frames per tick. Colliders added, removed, made sensors
//! or ignored in `Update` are mirrored in `Last` of the same frame.

mod inner;
mod mirror;
mod push;
pub mod shapes;

pub use bevy_slidewalk::bodies::{HitByBody, InnerBodyEntity, InnerBodyOf};
pub use inner::InnerBody;
pub use mirror::{Mirrored, ShapeCache};

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;
use bevy_slidewalk::bodies::{BodyBridgePlugin, drop_orphan_inner_bodies};
#[cfg(doc)]
use bevy_slidewalk::{SlidewalkCollider, SlidewalkLayers, SlidewalkSensor};
use bevy_slidewalk::{SlidewalkPlugin, SlidewalkSystems};

/// Makes Avian's colliders solid to bevy_slidewalk's characters and lets
/// the characters push and weigh on Avian's dynamic bodies. Add it after
/// [`SlidewalkPlugin`], with Avian's `PhysicsPlugins`.
#[derive(Clone, Debug)]
pub struct SlidewalkAvianPlugin {
    /// The schedule the characters move in: [`SlidewalkPlugin::schedule`]
    /// (`FixedUpdate`).
    pub schedule: InternedScheduleLabel,
}

impl Default for SlidewalkAvianPlugin {
    fn default() -> Self {
        Self {
            schedule: FixedUpdate.intern(),
        }
    }
}

impl SlidewalkAvianPlugin {
    /// For characters moved in `schedule` (as [`SlidewalkPlugin::in_schedule`]).
    pub fn in_schedule(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

/// On an Avian collider: not solid to the characters (not mirrored).
/// Taking it off mirrors the collider again.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component, Default, Debug, Clone)]
pub struct IgnoredByCharacters;

impl Plugin for SlidewalkAvianPlugin {
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
                (push::push_bodies, inner::follow_characters).after(SlidewalkSystems::Step),
            )
            .add_systems(Last, (mirror::mirror_colliders, mirror::unmirror_removed).chain());
    }

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<SlidewalkPlugin>() {
            error!(
                "bevy_slidewalk_avian: SlidewalkAvianPlugin needs bevy_slidewalk's SlidewalkPlugin in the app: no character will move"
            );
        }
        if !app.is_plugin_added::<avian3d::prelude::PhysicsSchedulePlugin>() {
            error!(
                "bevy_slidewalk_avian: SlidewalkAvianPlugin needs Avian's PhysicsPlugins in the app: no body will move"
            );
        }
    }
}
