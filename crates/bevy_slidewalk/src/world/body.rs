//! One collider entity as the collision world keeps it ([`Body`]): its
//! triangles with the entity's scale baked in, its poses over the tick,
//! its rules and surfaces, and how it is placed for a sweep.

use super::MERGE_MAX_TRIANGLES;
use crate::collider::{Surface, TriangleSurfaces};
use crate::rules::ColliderRules;
use bevy::prelude::*;
use glam::{Mat3, Vec3};
use slidewalk_sweep::{MeshCollider, PlacedCollider, Pose};
use std::sync::Arc;

/// One collider entity in the world.
pub(super) struct Body {
    pub(super) entity: Entity,
    /// The collider's insertion serial: bodies are kept in its order.
    pub(super) serial: u64,
    /// Triangles in the entity's frame, its scale (and shear) applied.
    pub(super) shape: Arc<MeshCollider>,
    /// The linear part of its transform baked into `shape`.
    pub(super) linear: Mat3,
    pub(super) surface: Surface,
    pub(super) triangle_surfaces: Option<Arc<TriangleSurfaces>>,
    /// Pose at the end of this tick.
    pub(super) pose: Pose,
    /// Pose at the end of the previous tick.
    pub(super) previous: Pose,
    /// It has moved since it was added: placed on its own, with velocities.
    pub(super) mover: bool,
    /// Its layers, one-way direction, whether it is a sensor.
    pub(super) rules: ColliderRules,
}

impl Body {
    pub(super) fn merged(&self) -> bool {
        !self.mover && self.shape.len() <= MERGE_MAX_TRIANGLES && !self.rules.stands_alone()
    }

    /// Its one-way direction in the world (unit), if any.
    pub(super) fn world_one_way(&self) -> Option<Vec3> {
        self.rules
            .one_way
            .and_then(|d| (self.pose.rotation * (self.linear.inverse().transpose() * d)).try_normalize())
    }

    /// Placed at its pose for this tick (or the last), with its velocities,
    /// layers and one-way direction.
    pub(super) fn placed(&self, dt: f32, at_start: bool) -> PlacedCollider<'_> {
        let placed = if self.mover && dt > 0.0 {
            let mut placed = PlacedCollider::from_poses(&self.shape, self.previous, self.pose, dt);
            if at_start {
                placed.pose = self.previous;
            }
            placed
        } else {
            PlacedCollider::moving(&self.shape, self.pose, Vec3::ZERO, Vec3::ZERO)
        };
        // The shape has the entity's scale and shear baked in: a direction
        // of its local frame is a normal there, turned by the inverse
        // transpose.
        let one_way = self.rules.one_way.map(|d| self.linear.inverse().transpose() * d);
        placed.with_layers(self.rules.layers).with_one_way(one_way)
    }

    pub(super) fn surface(&self, triangle: u32) -> &Surface {
        self.triangle_surfaces
            .as_ref()
            .and_then(|t| t.surfaces.get(*t.of_triangle.get(triangle as usize)? as usize))
            .unwrap_or(&self.surface)
    }
}
