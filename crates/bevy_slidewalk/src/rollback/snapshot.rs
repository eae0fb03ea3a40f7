//! The plugin's components saved and restored in bevy_ggrs's schedules in
//! two groups, not one registered type each: a character's six and a
//! collider's nine.
//!
//! bevy_ggrs keeps a registered type in a map per saved frame, and saves
//! and restores it with four systems of its own (three in `SaveWorld`, one
//! in `LoadWorld`). A rollback of n ticks runs `SaveWorld` n times: with
//! fifteen types that was 45 systems and up to 15 maps a save. Grouped, a
//! save runs 6 systems and fills 2 maps, each entry holding every
//! component of the group the entity has (callgrind, the rollback bench's
//! 8 ticks of 16 characters: 4.89 M instructions against 5.16 M; what a
//! save still costs is mostly the copies of the components themselves).
//! Each component is still saved and restored as bevy_ggrs
//! restores a type registered with `rollback_component_with_clone`:
//! written back (and so marked changed) where the entity has it and the
//! snapshot too, inserted where only the snapshot has it, removed where
//! only the entity has it, on every entity with a `RollbackId`.

use crate::character::{CharacterController, MovementIntent, MovementState};
use crate::collider::Surface;
use crate::events::FootstepStride;
use crate::memory::CharacterMemory;
use crate::motion::ColliderMotion;
use crate::report::MovementReport;
use crate::rules::{Climbable, Conveyor, LaunchPad, OneWay, SlidewalkLayers, SlidewalkSensor, Water};
use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use bevy_ggrs::{
    GgrsComponentSnapshot, GgrsComponentSnapshots, LoadWorld, LoadWorldSystems, RollbackFrameCount, RollbackId,
    SaveWorld, SaveWorldSystems,
};

/// Defines a group of components saved together: a struct with an
/// `Option` of each, and its save, load and registration.
macro_rules! snapshot_group {
    ($(#[$doc:meta])* $group:ident { $($field:ident: $component:ty),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub(super) struct $group {
            $($field: Option<$component>,)+
        }

        impl $group {
            /// Saves the group of every rollback entity that has any of it.
            fn save(
                mut snapshots: ResMut<GgrsComponentSnapshots<$group>>,
                frame: Res<RollbackFrameCount>,
                entities: Query<(&RollbackId, $(Option<&$component>,)+), Or<($(With<$component>,)+)>>,
            ) {
                let saved = entities.iter().map(|(&id, $($field,)+)| {
                    (id, $group { $($field: $field.cloned(),)+ })
                });
                snapshots.push(frame.0, GgrsComponentSnapshot::new(saved));
            }

            /// Restores every rollback entity's group to the frame's.
            fn load(
                mut commands: Commands,
                mut snapshots: ResMut<GgrsComponentSnapshots<$group>>,
                frame: Res<RollbackFrameCount>,
                mut entities: Query<(Entity, &RollbackId, $(Option<&mut $component>,)+)>,
            ) {
                let snapshot = snapshots.rollback(frame.0).get();
                for (entity, id, $($field,)+) in &mut entities {
                    let saved = snapshot.get(id);
                    $(restore(&mut commands, entity, $field, saved.and_then(|s| s.$field.as_ref()));)+
                }
            }

            /// Its storage and systems, where bevy_ggrs puts a registered
            /// type's.
            pub(super) fn register(app: &mut App) {
                app.init_resource::<GgrsComponentSnapshots<$group>>()
                    .add_systems(
                        SaveWorld,
                        (
                            GgrsComponentSnapshots::<$group>::sync_depth,
                            GgrsComponentSnapshots::<$group>::discard_old_snapshots,
                            Self::save,
                        )
                            .chain()
                            .in_set(SaveWorldSystems::Snapshot),
                    )
                    .add_systems(LoadWorld, Self::load.in_set(LoadWorldSystems::Data));
            }
        }
    };
}

snapshot_group!(
    /// A character's components.
    CharacterGroup {
        controller: CharacterController,
        intent: MovementIntent,
        state: MovementState,
        report: MovementReport,
        stride: FootstepStride,
        memory: CharacterMemory,
    }
);

snapshot_group!(
    /// A collider's components: where it was a tick ago and its rules
    /// (`SlidewalkLayers` is on characters too).
    ColliderGroup {
        motion: ColliderMotion,
        layers: SlidewalkLayers,
        one_way: OneWay,
        sensor: SlidewalkSensor,
        climbable: Climbable,
        launch_pad: LaunchPad,
        conveyor: Conveyor,
        water: Water,
        surface: Surface,
    }
);

/// One component of an entity brought back to `saved`, as bevy_ggrs's
/// `CloneStrategy` does.
fn restore<C: Component<Mutability = Mutable> + Clone>(
    commands: &mut Commands,
    entity: Entity,
    now: Option<Mut<C>>,
    saved: Option<&C>,
) {
    match (now, saved) {
        (Some(mut now), Some(saved)) => (*now).clone_from(saved),
        (Some(_), None) => {
            commands.entity(entity).remove::<C>();
        }
        (None, Some(saved)) => {
            commands.entity(entity).insert(saved.clone());
        }
        (None, None) => {}
    }
}
