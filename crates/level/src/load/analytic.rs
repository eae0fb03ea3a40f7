//! The exact shape a `"collider"` node asks for (an infinite plane or a
//! capped cylinder), from its world transform and its own mesh's bounds.

use crate::conventions::AnalyticKind;
use glam::{Mat3, Mat4, Vec3};
use slidewalk_sweep::{Aabb, AnalyticShape, Cylinder, Plane};

/// The analytic shape a node asks for, in world space, from its world
/// transform and the bounds of its mesh in its own frame (see the table in
/// [`crate::conventions`]). A message saying what is wrong otherwise.
pub(super) fn analytic_shape(kind: AnalyticKind, world: &Mat4, local: Aabb) -> Result<AnalyticShape, String> {
    let word = kind.word();
    if local.min.cmpgt(local.max).any() {
        return Err(format!("\"collider\": {word:?} needs triangles in the node's own mesh"));
    }
    let linear = Mat3::from_mat4(*world);
    let singular = || format!("\"collider\": {word:?} needs a finite, invertible node transform");
    match kind {
        AnalyticKind::Plane => {
            let tolerance = 1e-4 * local.size().max_element().max(1.0);
            if local.min.y.abs() > tolerance || local.max.y.abs() > tolerance {
                return Err(format!(
                    "\"collider\": \"plane\" needs a mesh flat in the node's y = 0 plane \
                     (the plane's normal is the node's +Y), but it spans y = {} … {}",
                    local.min.y, local.max.y
                ));
            }
            // The normal of the transformed plane y = 0 (the node's +Y when rigid).
            let normal = linear.inverse().transpose() * Vec3::Y;
            Plane::new(world.transform_point3(Vec3::ZERO), normal)
                .map(AnalyticShape::Plane)
                .ok_or_else(singular)
        }
        AnalyticKind::Cylinder => {
            let (x, y, z) = (linear.x_axis, linear.y_axis, linear.z_axis);
            let (sx, sz) = (x.length(), z.length());
            let square = |a: Vec3, b: Vec3| a.dot(b).abs() <= 1e-3 * a.length() * b.length();
            if (sx - sz).abs() > 1e-3 * sx.max(sz) || !square(x, z) || !square(x, y) || !square(y, z) {
                return Err(format!(
                    "\"collider\": \"cylinder\" would be elliptic or oblique: the node's world transform \
                     scales its local x by {sx} and z by {sz}{} (scale x and z alike, without shear)",
                    if square(x, z) && square(x, y) && square(y, z) {
                        ""
                    } else {
                        " and shears its axes"
                    }
                ));
            }
            let centre = local.center();
            let base = world.transform_point3(Vec3::new(centre.x, local.min.y, centre.z));
            let (radius, height) = (local.size().x / 2.0 * sx, local.size().y * y.length());
            Cylinder::new(base, y, height, radius)
                .map(AnalyticShape::Cylinder)
                .ok_or_else(singular)
        }
    }
}
