//! Where a collider is: a rigid [`Pose`], and [`PlacedCollider`], a
//! [`MeshCollider`] placed in the world by one (static level, door, lift)
//! with its velocities.

use super::mesh::MeshCollider;
use crate::aabb::Aabb;
use crate::filter::CollisionLayers;
use glam::{Quat, Vec3};

/// A rigid transform: rotate, then translate (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Rotation (unit quaternion).
    pub rotation: Quat,
    /// Translation, metres.
    pub translation: Vec3,
}

impl Pose {
    /// The identity pose.
    pub const IDENTITY: Pose = Pose {
        rotation: Quat::IDENTITY,
        translation: Vec3::ZERO,
    };

    /// A pure translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            rotation: Quat::IDENTITY,
            translation,
        }
    }

    /// Local point to world.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// World point to local.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.translation)
    }

    /// The world box holding the local box `b` at this pose (its eight
    /// corners transformed), metres.
    pub fn transform_aabb(&self, b: Aabb) -> Aabb {
        Aabb::from_points(b.corners().map(|p| self.transform_point(p)))
    }

    /// The local box holding the world box `b` (its eight corners brought
    /// to the local frame), metres.
    pub fn inverse_transform_aabb(&self, b: Aabb) -> Aabb {
        Aabb::from_points(b.corners().map(|p| self.inverse_transform_point(p)))
    }
}

/// A [`MeshCollider`] placed in the world: the static level (identity pose),
/// or a door or lift (moving pose with its velocity).
///
/// Sweeps never move the ellipsoid into a collider's local frame (a rotated
/// frame would make the ellipsoid non-axis-aligned): the world-space query box
/// is brought to the local frame for the BVH only, and each candidate triangle
/// is brought to world space, then to eSpace.
#[derive(Clone, Copy, Debug)]
pub struct PlacedCollider<'a> {
    /// The triangles.
    pub mesh: &'a MeshCollider,
    /// Where the collider is this tick.
    pub pose: Pose,
    /// Linear velocity of the pose's origin, m/s (for riding and pushing).
    pub linear_velocity: Vec3,
    /// Angular velocity about the pose's origin, rad/s (axis × rate).
    pub angular_velocity: Vec3,
    /// Which bodies meet it ([`CollisionLayers::ALL`] by default).
    pub layers: CollisionLayers,
    /// `Some(direction)`: one-way along this unit direction in the
    /// collider's frame (rotated with its pose): only its triangles whose
    /// winding normal points less than 90° from it stop a body, and only
    /// one that starts wholly in front of them
    /// ([`crate::Candidate::one_way_holds`]). A platform modelled as a box
    /// is solid from above and passed through from below, inside and the
    /// sides. `None` (the default): solid from every side.
    pub one_way: Option<Vec3>,
}

impl<'a> PlacedCollider<'a> {
    /// The world box of the collider at its pose, metres.
    pub fn world_bounds(&self) -> Aabb {
        self.pose.transform_aabb(self.mesh.bounds())
    }

    /// The world box of all `colliders` at their poses (empty for none), metres.
    pub fn world_bounds_of(colliders: &[PlacedCollider<'_>]) -> Aabb {
        colliders
            .iter()
            .map(PlacedCollider::world_bounds)
            .fold(Aabb::EMPTY, Aabb::union)
    }

    /// A collider that does not move, at the identity pose.
    pub fn fixed(mesh: &'a MeshCollider) -> Self {
        Self {
            mesh,
            pose: Pose::IDENTITY,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            layers: CollisionLayers::ALL,
            one_way: None,
        }
    }

    /// A collider at `pose` moving with the given velocities.
    pub fn moving(mesh: &'a MeshCollider, pose: Pose, linear_velocity: Vec3, angular_velocity: Vec3) -> Self {
        Self {
            mesh,
            pose,
            linear_velocity,
            angular_velocity,
            layers: CollisionLayers::ALL,
            one_way: None,
        }
    }

    /// This collider with `layers`.
    pub fn with_layers(self, layers: CollisionLayers) -> Self {
        Self { layers, ..self }
    }

    /// This collider one-way along `direction` (in its frame; normalised
    /// here, a zero or non-finite direction makes it solid again).
    pub fn with_one_way(self, direction: Option<Vec3>) -> Self {
        let one_way = direction.and_then(|d| d.try_normalize());
        Self { one_way, ..self }
    }

    /// A collider now at `now` that was at `before` one tick of `dt`
    /// seconds ago: its motion over the tick becomes its velocities (a door
    /// or lift posed each tick by a game or a test).
    pub fn from_poses(mesh: &'a MeshCollider, before: Pose, now: Pose, dt: f32) -> Self {
        let linear = (now.translation - before.translation) / dt;
        let angular = (now.rotation * before.rotation.inverse()).to_scaled_axis() / dt;
        Self::moving(mesh, now, linear, angular)
    }

    /// Velocity (m/s) of the collider's material at world point `p`.
    pub fn velocity_at(&self, p: Vec3) -> Vec3 {
        self.linear_velocity + self.angular_velocity.cross(p - self.pose.translation)
    }

    /// [`MeshCollider::fetch_near`] for world-space `boxes`.
    pub fn fetch_near(&self, boxes: &[Aabb]) {
        if !self.mesh.fetches_ahead() {
            return;
        }
        if self.pose == Pose::IDENTITY {
            self.mesh.fetch_near(boxes);
        } else {
            let local: Vec<Aabb> = boxes.iter().map(|&b| self.pose.inverse_transform_aabb(b)).collect();
            self.mesh.fetch_near(&local);
        }
    }

    /// Calls `visit(slot, world_triangle)` for each triangle whose BVH leaf
    /// overlaps the world-space box `query`.
    #[inline]
    pub fn query_world(&self, query: &Aabb, mut visit: impl FnMut(usize, [Vec3; 3])) {
        if self.pose == Pose::IDENTITY {
            self.mesh.query(query, |slot| visit(slot, self.mesh.triangle(slot)));
        } else {
            let local = self.pose.inverse_transform_aabb(*query);
            self.mesh.query(&local, |slot| {
                visit(slot, self.mesh.triangle(slot).map(|v| self.pose.transform_point(v)));
            });
        }
    }
}
