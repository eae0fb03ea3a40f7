//! [`ColliderMotion`]: where the collision world last placed a collider and
//! whether it has moved, kept on the collider's entity so that a rollback
//! (which restores components, not the world's insides) restores it too.

use bevy::prelude::*;
use glam::{Quat, Vec3};
use slidewalk_sweep::Pose;

/// The collision world's memory of one collider between ticks: its pose at
/// the end of the last tick (from which, with this tick's pose, a mover's
/// velocity is derived) and whether it has moved since it was added (a
/// collider that moved is placed on its own, not merged). Added with every
/// [`SlidewalkCollider`](crate::SlidewalkCollider) and written by the
/// plugin only; a game reads it, or has it restored by a rollback, never
/// writes it.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct ColliderMotion {
    /// Rotation at the end of the last tick.
    rotation: Quat,
    /// Translation at the end of the last tick, metres.
    translation: Vec3,
    /// It has moved since it was added (a mover).
    moved: bool,
    /// The collision world has placed it at least once.
    placed: bool,
}

impl ColliderMotion {
    /// The memory of a collider placed at `pose`, a mover or not.
    pub(crate) fn new(pose: Pose, moved: bool) -> Self {
        Self {
            rotation: pose.rotation,
            translation: pose.translation,
            moved,
            placed: true,
        }
    }

    /// Where the collider was at the end of the last tick (`None`: not
    /// placed yet).
    pub fn pose(&self) -> Option<Pose> {
        self.placed.then_some(Pose {
            rotation: self.rotation,
            translation: self.translation,
        })
    }

    /// Whether the collider has moved since it was added (a mover: it
    /// carries and pushes characters).
    pub fn is_mover(&self) -> bool {
        self.moved
    }
}
