//! Colliders removed between ticks, collected every frame so none is lost.
//!
//! Bevy keeps a removal (a despawn, a `SlidewalkCollider` or `ChildOf`
//! taken off) for two frames only. With a fixed tick, a game on a fast
//! display runs several frames per tick, so the tick alone would miss some:
//! a despawned floor would stay solid for ever. This collector reads them
//! every frame, and the next tick applies them; so too for the rule
//! components (a `LaunchPad` taken off between two ticks at a 240 Hz
//! display went on launching).

use crate::collider::SlidewalkCollider;
use crate::rules::{Climbable, Conveyor, LaunchPad, OneWay, SlidewalkLayers, SlidewalkSensor, Water};
use bevy::platform::collections::HashSet;
use bevy::prelude::*;

/// Removals seen since the last tick, waiting for it.
#[derive(Resource, Default)]
pub(crate) struct PendingRemovals {
    /// Entities that lost their `SlidewalkCollider` (or were despawned).
    pub colliders: HashSet<Entity>,
    /// An entity left its parent: the hierarchy's transforms must be
    /// propagated again.
    pub orphaned: bool,
    /// Entities that lost a rule component.
    pub rules: HashSet<Entity>,
}

/// Colliders that lost a rule component since this was last read.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct RulesRemoved<'w, 's> {
    layers: RemovedComponents<'w, 's, SlidewalkLayers>,
    one_way: RemovedComponents<'w, 's, OneWay>,
    sensor: RemovedComponents<'w, 's, SlidewalkSensor>,
    climbable: RemovedComponents<'w, 's, Climbable>,
    launch_pad: RemovedComponents<'w, 's, LaunchPad>,
    conveyor: RemovedComponents<'w, 's, Conveyor>,
    water: RemovedComponents<'w, 's, Water>,
}

impl RulesRemoved<'_, '_> {
    /// Adds the entities read to `out`.
    fn read_into(&mut self, out: &mut HashSet<Entity>) {
        out.extend(self.layers.read());
        out.extend(self.one_way.read());
        out.extend(self.sensor.read());
        out.extend(self.climbable.read());
        out.extend(self.launch_pad.read());
        out.extend(self.conveyor.read());
        out.extend(self.water.read());
    }
}

/// Every frame (in `Last`, and at the start of each tick): the removals
/// Bevy reported since this system last ran.
pub(crate) fn collect_removals(
    mut pending: ResMut<PendingRemovals>,
    mut colliders: RemovedComponents<SlidewalkCollider>,
    mut parents: RemovedComponents<ChildOf>,
    mut rules: RulesRemoved,
    mut orphans: Query<&mut Transform, Without<ChildOf>>,
) {
    pending.colliders.extend(colliders.read());
    rules.read_into(&mut pending.rules);
    for entity in parents.read() {
        pending.orphaned = true;
        // Bevy's propagation reads the removal itself, but only when the
        // tick runs it, by which time Bevy may have forgotten it: an entity
        // left without a parent is marked moved instead, so the tick
        // places it by its own transform (the fuzz target `world` found
        // a collider un-parented two frames before a tick kept its old place).
        if let Ok(mut transform) = orphans.get_mut(entity) {
            transform.set_changed();
        }
    }
}
