//! How a collider's `GlobalTransform` becomes what the collision core
//! takes: a rigid [`Pose`] (rotation and translation) and the linear part
//! left over (scale, and shear or a mirror where the hierarchy has them),
//! baked into the collider's triangles.
//!
//! A rotated child of a non-uniformly scaled parent is sheared: Bevy draws
//! it through its full affine transform, which a scale, a rotation and a
//! translation cannot hold. Its linear part is split by the polar
//! decomposition `A = R·P` (R orthogonal, P symmetric): R is the pose's
//! rotation and P, the shape, stays the same while the collider only moves
//! and turns, so a sheared mover keeps its triangles and moves by its pose.

use bevy::prelude::*;
use glam::{DMat3, Mat3, Vec3};
use slidewalk_sweep::Pose;

/// Where a collider is and the linear map its triangles are built with:
/// a world point is `pose.transform_point(linear * local)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placement {
    /// The rigid part of the transform.
    pub pose: Pose,
    /// Scale, shear and mirror (metres per local unit); the identity for
    /// an unscaled collider.
    pub linear: Mat3,
}

impl Placement {
    /// Whether `linear` mirrors (its determinant is negative): the
    /// triangles' winding is reversed to keep their faces where they are
    /// drawn.
    pub fn mirrors(&self) -> bool {
        self.linear.determinant() < 0.0
    }

    /// Whether the linear part is a scale along the local axes (no shear).
    pub fn is_axis_scale(&self) -> bool {
        let m = self.linear;
        m.x_axis.y == 0.0
            && m.x_axis.z == 0.0
            && m.y_axis.x == 0.0
            && m.y_axis.z == 0.0
            && m.z_axis.x == 0.0
            && m.z_axis.y == 0.0
    }

    /// Whether `other`'s linear part is this one's, to a millionth of its
    /// size (what rounding in the transform propagation leaves).
    pub fn same_shape(&self, other: &Placement) -> bool {
        let size = self.linear.abs().to_cols_array().into_iter().fold(0.0f32, f32::max);
        self.linear.abs_diff_eq(other.linear, 1e-6 * size.max(1.0))
    }
}

/// Columns at most this far from perpendicular (the cosine of their
/// angle) are taken as a scale and a rotation, as Bevy itself decomposes.
const ORTHOGONAL: f32 = 1e-5;

/// The placement of a collider at `global`.
pub(crate) fn placement(global: &GlobalTransform) -> Placement {
    let affine = global.affine();
    let m = Mat3::from(affine.matrix3);
    let translation = Vec3::from(affine.translation);
    let [x, y, z] = [m.x_axis, m.y_axis, m.z_axis];
    let cos = |a: Vec3, b: Vec3| (a.dot(b) / (a.length() * b.length())).abs();
    let axis_scale = cos(x, y) <= ORTHOGONAL && cos(y, z) <= ORTHOGONAL && cos(x, z) <= ORTHOGONAL;
    if axis_scale || !m.determinant().is_normal() {
        // A scale, a rotation and a translation (or a degenerate matrix,
        // whose triangles the build refuses as degenerate anyway).
        let (scale, rotation, translation) = global.to_scale_rotation_translation();
        return Placement {
            pose: Pose { rotation, translation },
            linear: Mat3::from_diagonal(scale),
        };
    }
    let a = m.as_dmat3();
    let mut r = polar_rotation(a);
    if r.determinant() < 0.0 {
        // A mirror: the pose keeps a proper rotation, the shape the mirror.
        r *= DMat3::from_diagonal(glam::DVec3::new(-1.0, 1.0, 1.0));
    }
    let rotation = Quat::from_mat3(&r.as_mat3()).normalize();
    // The shape is what the rotation leaves of the matrix.
    let linear = (DMat3::from_quat(rotation.as_dquat()).transpose() * a).as_mat3();
    Placement {
        pose: Pose { rotation, translation },
        linear,
    }
}

/// The orthogonal factor of `a`'s polar decomposition (`a` invertible), by
/// Newton's iteration `R ← (R + R⁻ᵀ)/2`, which converges quadratically.
fn polar_rotation(a: DMat3) -> DMat3 {
    let mut r = a;
    for _ in 0..64 {
        let next = (r + r.inverse().transpose()) * 0.5;
        let change = (next - r).to_cols_array().into_iter().map(f64::abs).fold(0.0, f64::max);
        r = next;
        if change < 1e-15 {
            break;
        }
    }
    r
}
