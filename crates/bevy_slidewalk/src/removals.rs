//! Colliders removed between ticks, collected every frame so none is lost.
//!
//! Bevy keeps a removal (a despawn, a `Collider` or `ChildOf` taken off)
//! for two frames only. With a fixed tick, a game on a fast display runs
//! several frames per tick, so the tick alone would miss some: a despawned
//! floor would stay solid for ever. This collector reads them every frame,
//! and the next tick applies them.

use crate::collider::Collider;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;

/// Removals seen since the last tick, waiting for it.
#[derive(Resource, Default)]
pub(crate) struct PendingRemovals {
    /// Entities that lost their `Collider` (or were despawned).
    pub colliders: HashSet<Entity>,
    /// An entity left its parent: the hierarchy's transforms must be
    /// propagated again.
    pub orphaned: bool,
}

/// Every frame (in `Last`, and at the start of each tick): the removals
/// Bevy reported since this system last ran.
pub(crate) fn collect_removals(
    mut pending: ResMut<PendingRemovals>,
    mut colliders: RemovedComponents<Collider>,
    mut parents: RemovedComponents<ChildOf>,
) {
    pending.colliders.extend(colliders.read());
    pending.orphaned |= parents.read().count() > 0;
}
