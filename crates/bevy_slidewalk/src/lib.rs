//! A first-person character controller for Bevy: the character is an
//! ellipsoid swept through triangle meshes by collide-and-slide (Kasper
//! Fauerby, *Improved Collision detection and Response*, 2003). It walks
//! slopes and climbs stairs, snaps down them, jumps with coyote time and a
//! jump buffer, crouches where it fits, rides anything that moves under
//! it, is pushed by what moves into it, and never ends a tick inside
//! geometry. The collision core ([`sweep`]) and the walking rules
//! ([`controller`]) are plain Rust; this crate puts them on entities.
//!
//! # Quick start
//!
//! A floor, a step, a light, and a character walked with WASD, turned
//! with the mouse, jumping with Space (`examples/quick_start.rs`, the same
//! program as the README's; `cargo run -p bevy_slidewalk --example
//! quick_start`):
//!
#![doc = concat!("```no_run\n", include_str!("../examples/quick_start.rs"), "```")]
//!
//! # The parts
//!
//! * [`SlidewalkPlugin`] moves every character once per fixed tick (in
//!   `FixedUpdate` unless told otherwise) and draws it between ticks.
//! * [`SlidewalkCollider`] makes an entity's geometry solid: its `Mesh3d`,
//!   explicit triangles, or a prebuilt [`sweep::MeshCollider`].
//!   [`SolidScene`] makes a whole spawned scene solid. [`Surface`] gives
//!   friction and a tag events report. Colliders whose `GlobalTransform`
//!   changes between ticks are movers: they carry and push characters.
//! * What meets what: [`SlidewalkLayers`] on colliders and characters
//!   (Rapier's collision-groups rule), [`OneWay`] colliders (solid from
//!   one side: jumped up through, stood on, dropped through with
//!   [`MovementIntent::drop`]), and [`SlidewalkSensor`] colliders (not
//!   solid; they report [`EnteredSensor`] and [`LeftSensor`], and
//!   [`CollisionWorld::overlapping_sensors`] answers for any ellipsoid).
//! * A character's components, one job each: [`CharacterController`]
//!   (its config: write it to change it), [`MovementIntent`] (what the
//!   game's input asks for), [`MovementState`] (where it is and how it
//!   moves: plain data, copy it to save, write it to restore or teleport)
//!   and [`MovementReport`] (what the last tick did). The plugin's own
//!   memory of each character is private.
//! * Movement events ([`Jumped`], [`Landed`], [`SteppedUp`], [`Footstep`],
//!   [`HitWall`], [`Crushed`], [`BoardedMover`], [`LeftMover`]) and
//!   [`ConfigRefused`] are Bevy messages.
//! * [`Obstacles`]: solid shapes for one tick that are not entities
//!   (characters do not see each other unless the game puts them there).
//! * [`SlidewalkDebugPlugin`] draws ellipsoids, contacts and slide planes;
//!   [`SlidewalkDiagnosticsPlugin`] (or the [`StepTimings`] resource)
//!   measures the tick.
//! * [`CollisionWorld`] is the tick's collision world, for systems of the
//!   game that sweep against the same colliders.
//! * Every public component and resource is `Reflect` and registered, for
//!   inspectors.
//! * With the feature `ggrs`, `SlidewalkRollbackPlugin` registers every
//!   piece of the plugin's state with bevy_ggrs (re-exported as
//!   `bevy_slidewalk::bevy_ggrs`) for rollback netcode, and
//!   [`ShownEvents`] keeps a tick simulated again from writing its
//!   movement events twice (docs/plugin.md, "Rollback"; the `rollback`
//!   example).
//!
//! # Order within a tick
//!
//! Systems that move colliders or write intents, configs or states in the
//! same schedule go `.before(SlidewalkSystems::Prepare)`; systems that read
//! reports, states or events go `.after(SlidewalkSystems::Step)` (or in
//! `Update`). Input read in `Update` reaches the next tick.
//!
//! The other examples (`cargo run -p bevy_slidewalk --example minimal`,
//! and `gltf_scene`, `moving_platforms`, `events`, which reuse
//! `minimal`'s first-person player) show each part in a few lines.
// docs.rs (nightly, `--cfg docsrs`) labels each item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

pub mod bodies;
mod build;
mod character;
mod collider;
mod debug;
mod diagnostics;
mod draw;
mod emit;
mod events;
mod memory;
mod mesh;
mod motion;
mod obstacles;
mod placement;
mod removals;
mod report;
#[cfg(feature = "ggrs")]
mod rollback;
mod rules;
mod sensors;
mod shown;
mod step;
mod sync;
mod world;

/// bevy_ggrs, the version the `ggrs` feature builds with.
#[cfg(feature = "ggrs")]
pub use bevy_ggrs;
pub use character::{CharacterController, MovementIntent, MovementState};
pub use collider::{SlidewalkCollider, SolidScene, Surface};
pub use debug::{SlidewalkDebugPlugin, SlidewalkGizmos};
pub use diagnostics::{SlidewalkDiagnosticsPlugin, StepTimings};
pub use events::{
    BoardedMover, ClimbEnded, ClimbStarted, ConfigRefused, Crushed, Dashed, EnteredWater, Footstep, FootstepStride,
    HitWall, Jumped, Landed, Launched, LedgeGrabbed, LedgeLetGo, LeftMover, LeftWater, Mantled, SlideEnded,
    SlideStarted, SteppedUp, Submerged, WallJumped, WallSlideStarted, WaterJumped,
};
pub use motion::ColliderMotion;
pub use obstacles::{Obstacle, Obstacles};
pub use report::{GroundHit, MovementReport};
#[cfg(feature = "ggrs")]
pub use rollback::{SlidewalkRollbackPlugin, digest_of};
pub use rules::{Climbable, Conveyor, LaunchPad, OneWay, SlidewalkLayers, SlidewalkSensor, Water};
pub use sensors::{EnteredSensor, LeftSensor, SensorOverlaps};
pub use shown::ShownEvents;
/// The walking rules (`slidewalk_controller`), engine-free.
pub use slidewalk_controller as controller;
pub use slidewalk_controller::{CharacterState, ControllerConfig, Pass, TickReport};
/// The collision core (`slidewalk_sweep`), engine-free.
pub use slidewalk_sweep as sweep;
pub use world::{CollisionWorld, MERGE_MAX_TRIANGLES};

/// The usual imports: `use bevy_slidewalk::prelude::*;`.
pub mod prelude {
    pub use crate::{
        BoardedMover, CharacterController, ClimbEnded, ClimbStarted, Climbable, ConfigRefused, ControllerConfig,
        Conveyor, Crushed, Dashed, EnteredSensor, EnteredWater, Footstep, FootstepStride, HitWall, Jumped, Landed,
        LaunchPad, Launched, LedgeGrabbed, LedgeLetGo, LeftMover, LeftSensor, LeftWater, Mantled, MovementIntent,
        MovementReport, MovementState, Obstacle, Obstacles, OneWay, SensorOverlaps, SlideEnded, SlideStarted,
        SlidewalkCollider, SlidewalkDebugPlugin, SlidewalkDiagnosticsPlugin, SlidewalkGizmos, SlidewalkLayers,
        SlidewalkPlugin, SlidewalkSensor, SlidewalkSystems, SolidScene, SteppedUp, Submerged, Surface, WallJumped,
        WallSlideStarted, Water, WaterJumped,
    };
}

use bevy::app::RunFixedMainLoopSystems;
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;
use bevy::transform::systems::{
    StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms, sync_simple_transforms,
};

/// Moves every [`CharacterController`] once per tick against every
/// [`SlidewalkCollider`], and draws the characters between ticks.
///
/// Meshes need Bevy's `AssetPlugin` and `MeshPlugin` (in `DefaultPlugins`;
/// add them to `MinimalPlugins` for a headless app that uses meshes).
/// Colliders' transforms are propagated at the plugin's tick, so a
/// headless app needs no `TransformPlugin` (nor its cost every frame).
#[derive(Clone, Debug)]
pub struct SlidewalkPlugin {
    /// The schedule the characters move in (`FixedUpdate`).
    pub schedule: InternedScheduleLabel,
    /// Draw each character between its last two ticks, by
    /// `Time<Fixed>::overstep_fraction` (true). Only meaningful in a fixed
    /// schedule; off, the transform is where the last tick left it.
    pub interpolate: bool,
}

impl Default for SlidewalkPlugin {
    fn default() -> Self {
        Self {
            schedule: FixedUpdate.intern(),
            interpolate: true,
        }
    }
}

impl SlidewalkPlugin {
    /// Characters moved in `schedule` instead; interpolated only if it is
    /// one of the fixed schedules.
    pub fn in_schedule(schedule: impl ScheduleLabel) -> Self {
        let schedule = schedule.intern();
        let fixed = [
            FixedFirst.intern(),
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            FixedLast.intern(),
        ];
        Self {
            schedule,
            interpolate: fixed.contains(&schedule),
        }
    }
}

/// The plugin's systems in its schedule, in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlidewalkSystems {
    /// Colliders' transforms brought up to date, scene meshes adopted, the
    /// [`CollisionWorld`] brought up to date (colliders added, removed, moved).
    Prepare,
    /// Every character moved; reports and events written; sensors entered
    /// and left reported.
    Step,
}

impl Plugin for SlidewalkPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CollisionWorld>()
            .init_resource::<collider::ColliderSerials>()
            .init_resource::<Obstacles>()
            .init_resource::<removals::PendingRemovals>()
            // Read by the propagation the plugin runs (an app without
            // TransformPlugin, headless, works too).
            .init_resource::<StaticTransformOptimizations>()
            .add_plugins(events::plugin)
            .register_type::<CharacterController>()
            .register_type::<MovementState>()
            .register_type::<MovementIntent>()
            .register_type::<MovementReport>()
            .register_type::<FootstepStride>()
            .register_type::<Surface>()
            .register_type::<SlidewalkCollider>()
            .register_type::<ColliderMotion>()
            .register_type::<SolidScene>()
            .register_type::<Obstacles>()
            .register_type::<StepTimings>()
            .register_type::<SlidewalkLayers>()
            .register_type::<OneWay>()
            .register_type::<SlidewalkSensor>()
            .register_type::<Climbable>()
            .register_type::<LaunchPad>()
            .register_type::<Conveyor>()
            .register_type::<Water>()
            .init_resource::<SensorOverlaps>()
            .init_resource::<ShownEvents>()
            .add_message::<EnteredSensor>()
            .add_message::<LeftSensor>()
            .configure_sets(
                self.schedule,
                (SlidewalkSystems::Prepare, SlidewalkSystems::Step).chain(),
            )
            .add_systems(
                self.schedule,
                (
                    // Removals since the last frame's collection (made
                    // earlier in this tick).
                    removals::collect_removals,
                    // Colliders moved earlier in this tick are seen where they
                    // are now: root colliders directly, hierarchies by Bevy's
                    // propagation (which wakes worker threads, so only when a
                    // hierarchy moved).
                    sync::place_root_colliders,
                    (mark_dirty_trees, propagate_parent_transforms, sync_simple_transforms)
                        .chain()
                        .run_if(sync::hierarchy_moved),
                    collider::adopt_scene_meshes,
                    sync::sync_colliders,
                )
                    .chain()
                    .in_set(SlidewalkSystems::Prepare),
            )
            .add_systems(
                self.schedule,
                (step::step_characters, sensors::detect_sensors)
                    .chain()
                    .in_set(SlidewalkSystems::Step),
            )
            // Every frame, ticked or not: Bevy forgets removals after two.
            .add_systems(Last, removals::collect_removals);
        if self.interpolate {
            app.add_systems(
                RunFixedMainLoop,
                draw::interpolate_transforms.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            );
        } else {
            app.add_systems(self.schedule, draw::place_transforms.after(SlidewalkSystems::Step));
        }
    }

    fn finish(&self, app: &mut App) {
        // Without Bevy's mesh assets there are no mesh events to read
        // (colliders from explicit triangles still work).
        if !app
            .world()
            .contains_resource::<Messages<AssetEvent<bevy::mesh::Mesh>>>()
        {
            app.add_message::<AssetEvent<bevy::mesh::Mesh>>();
        }
    }
}
