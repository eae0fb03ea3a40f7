//! Rollback with bevy_ggrs (the `ggrs` feature): [`SlidewalkRollbackPlugin`]
//! registers every component and resource of the plugin that a tick reads
//! and writes for snapshots and checksums, numbers the ticks for [`ShownEvents`], and
//! gives characters and colliders the `Rollback` marker. The list and
//! why it is whole are in docs/plugin.md ("Rollback").

use crate::SlidewalkPlugin;
use crate::character::{CharacterController, MovementState};
use crate::collider::SlidewalkCollider;
use crate::motion::ColliderMotion;
use crate::sensors::SensorOverlaps;
use crate::shown::ShownEvents;
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy_ggrs::{
    AdvanceWorld, AdvanceWorldSystems, CloneStrategy, ComponentSnapshotPlugin, CopyStrategy, GgrsSchedule, LoadWorld,
    ReflectStrategy, RollbackApp, RollbackFrameCount, SaveWorld,
};

mod digest;
mod snapshot;

pub use digest::digest_of;
use snapshot::{CharacterGroup, ColliderGroup};

/// Everything the plugin's tick reads and writes, rolled back by bevy_ggrs.
///
/// Add it with bevy_ggrs's `GgrsPlugin` and run the characters in its
/// schedule:
///
/// ```ignore
/// app.add_plugins((
///     GgrsPlugin::<MyConfig>::default(),
///     SlidewalkPlugin::in_schedule(GgrsSchedule),
///     SlidewalkRollbackPlugin,
/// ));
/// ```
///
/// It saves and restores, for snapshots: the characters' [`CharacterController`],
/// [`MovementIntent`](crate::MovementIntent), [`MovementState`],
/// [`MovementReport`](crate::MovementReport),
/// [`FootstepStride`](crate::FootstepStride) and the plugin's private
/// memory of each; the colliders' [`ColliderMotion`] (where each was a
/// tick ago, whether it moves) and their rules
/// ([`SlidewalkLayers`](crate::SlidewalkLayers), [`OneWay`](crate::OneWay),
/// [`SlidewalkSensor`](crate::SlidewalkSensor), [`Climbable`](crate::Climbable),
/// [`LaunchPad`](crate::LaunchPad), [`Conveyor`](crate::Conveyor),
/// [`Water`](crate::Water), [`Surface`](crate::Surface)), in two groups
/// with a map each a frame, each component restored as bevy_ggrs restores
/// a type registered with `rollback_component_with_clone`;
/// `Transform` (registered with bevy_ggrs, unless the app registered it
/// before adding this plugin);
/// the sensors each character overlaps. For checksums: every
/// [`MovementState`] and [`ColliderMotion`], bit for bit.
/// Every character and every collider gets bevy_ggrs's [`Rollback`](bevy_ggrs::Rollback)
/// marker. Movement events of a tick simulated again are written only
/// where they differ from the first time ([`ShownEvents`]).
///
/// bevy_ggrs's `SaveWorld` and `LoadWorld`, and `GgrsSchedule` when the
/// characters move in it (`SlidewalkPlugin` added first, as above), run
/// their systems on one thread (their systems are small and one after the
/// other: handing each to another thread costs more than it runs). Set
/// their executors after adding this plugin to choose otherwise.
pub struct SlidewalkRollbackPlugin;

impl Plugin for SlidewalkRollbackPlugin {
    fn build(&self, app: &mut App) {
        // An app that rolls `Transform` back its own way registers it
        // before this plugin (bevy_ggrs refuses a second registration).
        let registered = app.is_plugin_added::<ComponentSnapshotPlugin<CloneStrategy<Transform>>>()
            || app.is_plugin_added::<ComponentSnapshotPlugin<CopyStrategy<Transform>>>()
            || app.is_plugin_added::<ComponentSnapshotPlugin<ReflectStrategy<Transform>>>();
        if !registered {
            app.rollback_component_with_clone::<Transform>();
        }
        // The characters' and the colliders' components, saved in two
        // groups (snapshot.rs), each restored as bevy_ggrs restores a type.
        CharacterGroup::register(app);
        ColliderGroup::register(app);
        app.rollback_resource_with_clone::<SensorOverlaps>()
            .checksum_component::<MovementState>(digest_of)
            .checksum_component::<ColliderMotion>(digest_of)
            .require_rollback::<CharacterController>()
            .require_rollback::<SlidewalkCollider>()
            .add_systems(AdvanceWorld, number_the_tick.in_set(AdvanceWorldSystems::First))
            .add_systems(First, forget_ended_sessions);
        // A rollback of n ticks runs `LoadWorld` once, then n times the
        // tick and `SaveWorld`. Those two hold a few small systems for
        // each registered type (dozens, bevy_ggrs's own included), and the
        // plugin's own systems in its schedule are a chain: on the
        // multi-threaded executor each system is a hand-off between
        // threads that costs more than the system (on 2 cores, a rollback
        // of 8 ticks of 16 characters took 2 to 5 times as long). So they
        // run on one thread, as bevy_ggrs runs `AdvanceWorld`; an app
        // that wants otherwise sets their executors after adding this
        // plugin. The tick's characters are still stepped on the task
        // pool when there are many of them.
        app.edit_schedule(SaveWorld, one_thread)
            .edit_schedule(LoadWorld, one_thread);
        let in_ggrs_schedule = app
            .get_added_plugins::<SlidewalkPlugin>()
            .iter()
            .any(|p| p.schedule == GgrsSchedule.intern());
        if in_ggrs_schedule {
            app.edit_schedule(GgrsSchedule, one_thread);
        }
    }
}

/// A schedule's systems run one after the other on the calling thread.
fn one_thread(schedule: &mut Schedule) {
    schedule.set_executor(SingleThreadedExecutor::new());
}

/// The tick about to be simulated is bevy_ggrs's frame.
fn number_the_tick(frame: Res<RollbackFrameCount>, mut shown: ResMut<ShownEvents>) {
    shown.set_tick(i64::from(frame.0));
}

/// No session has ticked (bevy_ggrs holds the frame count at 0 while none
/// runs): a session that ended is forgotten, and the next one's tick
/// numbers are its own.
fn forget_ended_sessions(frame: Option<Res<RollbackFrameCount>>, mut shown: ResMut<ShownEvents>) {
    if frame.is_some_and(|f| f.0 == 0) {
        shown.between_sessions();
    }
}
