//! Rollback with bevy_ggrs (the `ggrs` feature): [`SlidewalkRollbackPlugin`]
//! registers every component and resource of the plugin that a tick reads
//! and writes for snapshots and checksums, numbers the ticks for [`ShownEvents`], and
//! gives characters and colliders the `Rollback` marker. The list and
//! why it is whole are in docs/plugin.md ("Rollback").

use crate::character::{CharacterController, MovementIntent, MovementState};
use crate::collider::{SlidewalkCollider, Surface};
use crate::events::FootstepStride;
use crate::memory::CharacterMemory;
use crate::motion::ColliderMotion;
use crate::report::MovementReport;
use crate::rules::{Climbable, Conveyor, LaunchPad, OneWay, SlidewalkLayers, SlidewalkSensor, Water};
use crate::sensors::SensorOverlaps;
use crate::shown::ShownEvents;
use bevy::prelude::*;
use bevy::reflect::{PartialReflect, ReflectRef};
use bevy_ggrs::{
    AdvanceWorld, AdvanceWorldSystems, CloneStrategy, ComponentSnapshotPlugin, CopyStrategy, ReflectStrategy,
    RollbackApp, RollbackFrameCount, checksum_hasher,
};
use std::hash::Hasher;

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
/// It registers, for snapshots: the characters' [`CharacterController`],
/// [`MovementIntent`], [`MovementState`], [`MovementReport`],
/// [`FootstepStride`] and the plugin's private memory of each; the
/// colliders' [`ColliderMotion`] (where each was a tick ago, whether it
/// moves) and their rules ([`SlidewalkLayers`], [`OneWay`],
/// [`SlidewalkSensor`], [`Climbable`], [`LaunchPad`], [`Conveyor`],
/// [`Water`], [`Surface`]);
/// `Transform` (unless the app registered it before adding this plugin);
/// the sensors each character overlaps. For checksums: every
/// [`MovementState`] and [`ColliderMotion`], bit for bit.
/// Every character and every collider gets bevy_ggrs's [`Rollback`](bevy_ggrs::Rollback)
/// marker. Movement events of a tick simulated again are written only
/// where they differ from the first time ([`ShownEvents`]).
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
        app.rollback_component_with_clone::<CharacterController>()
            .rollback_component_with_copy::<MovementIntent>()
            .rollback_component_with_copy::<MovementState>()
            .rollback_component_with_clone::<MovementReport>()
            .rollback_component_with_copy::<FootstepStride>()
            .rollback_component_with_clone::<CharacterMemory>()
            .rollback_component_with_copy::<ColliderMotion>()
            .rollback_component_with_copy::<SlidewalkLayers>()
            .rollback_component_with_copy::<OneWay>()
            .rollback_component_with_copy::<SlidewalkSensor>()
            .rollback_component_with_copy::<Climbable>()
            .rollback_component_with_copy::<LaunchPad>()
            .rollback_component_with_copy::<Conveyor>()
            .rollback_component_with_copy::<Water>()
            .rollback_component_with_clone::<Surface>()
            .rollback_resource_with_clone::<SensorOverlaps>()
            .checksum_component::<MovementState>(digest_of)
            .checksum_component::<ColliderMotion>(digest_of)
            .require_rollback::<CharacterController>()
            .require_rollback::<SlidewalkCollider>()
            .add_systems(AdvanceWorld, number_the_tick.in_set(AdvanceWorldSystems::First))
            .add_systems(First, forget_ended_sessions);
    }
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

/// A 64-bit digest of `value`, bit for bit: every number by its bits,
/// every enum by its variant, through reflection (so a field added to the
/// state is in the digest without anyone remembering it).
pub fn digest_of<T: PartialReflect>(value: &T) -> u64 {
    let mut hasher = checksum_hasher();
    digest_into(value.as_partial_reflect(), &mut hasher);
    hasher.finish()
}

fn digest_into(value: &dyn PartialReflect, h: &mut impl Hasher) {
    match value.reflect_ref() {
        ReflectRef::Struct(s) => (0..s.field_len())
            .filter_map(|i| s.field_at(i))
            .for_each(|f| digest_into(f, h)),
        ReflectRef::TupleStruct(s) => s.iter_fields().for_each(|f| digest_into(f, h)),
        ReflectRef::Tuple(t) => t.iter_fields().for_each(|f| digest_into(f, h)),
        ReflectRef::List(l) => {
            h.write_usize(l.len());
            l.iter().for_each(|f| digest_into(f, h));
        }
        ReflectRef::Array(a) => a.iter().for_each(|f| digest_into(f, h)),
        ReflectRef::Enum(e) => {
            h.write_usize(e.variant_index());
            e.iter_fields().for_each(|f| digest_into(f.value(), h));
        }
        // Maps and sets iterate in no fixed order: the state has none.
        ReflectRef::Map(m) => h.write_usize(m.len()),
        ReflectRef::Set(s) => h.write_usize(s.len()),
        ReflectRef::Opaque(o) => digest_opaque(o, h),
        #[allow(unreachable_patterns)]
        _ => {}
    }
}

/// A number by its bits (floats have no reflected hash), anything else
/// (integers, `bool`, `Entity`) by its reflected hash, which Bevy keeps
/// the same across processes.
fn digest_opaque(o: &dyn PartialReflect, h: &mut impl Hasher) {
    let any = o.try_as_reflect().map(|r| r.as_any());
    if let Some(v) = any.and_then(|a| a.downcast_ref::<f32>()) {
        h.write_u32(v.to_bits());
    } else if let Some(v) = any.and_then(|a| a.downcast_ref::<f64>()) {
        h.write_u64(v.to_bits());
    } else if let Some(v) = o.reflect_hash() {
        h.write_u64(v);
    }
}
