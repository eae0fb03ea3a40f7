//! What a collider of the world does to a character touching it, asked by
//! collider index (the controller's [`Surroundings`](slidewalk_controller::Surroundings)
//! closures): climbable faces, launch pads, conveyors. These colliders
//! keep structures of their own (never merged), so an index is one entity.

use super::{CollisionWorld, Slot};
use crate::rules::ColliderRules;
use glam::Vec3;

impl CollisionWorld {
    /// The rules of a collider of [`CollisionWorld::placed`] that is one
    /// entity's alone, with its rotation.
    fn own_rules(&self, collider: usize) -> Option<(&ColliderRules, glam::Quat)> {
        match self.slots.get(collider) {
            Some(Slot::Body(i)) => {
                let body = &self.bodies[*i];
                Some((&body.rules, body.pose.rotation))
            }
            _ => None,
        }
    }

    /// Whether a collider of [`CollisionWorld::placed`] is [`Climbable`](crate::Climbable).
    pub fn is_climbable(&self, collider: usize) -> bool {
        self.own_rules(collider).is_some_and(|(r, _)| r.climbable)
    }

    /// The velocity (world, m/s) a collider of [`CollisionWorld::placed`]
    /// gives a character standing on it, if it is a [`LaunchPad`](crate::LaunchPad).
    pub fn launch_pad(&self, collider: usize) -> Option<Vec3> {
        self.own_rules(collider).and_then(|(r, _)| r.launch)
    }

    /// The surface velocity (world, m/s) of a collider of
    /// [`CollisionWorld::placed`], if it is a [`Conveyor`](crate::Conveyor):
    /// its velocity in the entity's frame turned by the entity's rotation
    /// at its pose for the end of this tick.
    pub fn conveyor(&self, collider: usize) -> Option<Vec3> {
        self.own_rules(collider)
            .and_then(|(r, rotation)| Some(rotation * r.conveyor?))
    }
}
