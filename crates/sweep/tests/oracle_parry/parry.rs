//! glam ↔ parry (glamx, a newer glam) at the boundary, and parry3d's
//! shape cast of a ball.

use glam::Vec3;
use parry3d::math::{Pose, Vector as PVec};
use parry3d::query::{ShapeCastOptions, ShapeCastStatus, cast_shapes};
use parry3d::shape::{Ball, Shape, Triangle};

pub(crate) fn pv(v: Vec3) -> PVec {
    PVec::from_array(v.to_array())
}

fn cast_options() -> ShapeCastOptions {
    ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    }
}

/// Parry's time of impact of a ball of `radius` centred at `start` moving by
/// `motion` against `shape` at the identity.
pub(crate) fn parry_cast(start: Vec3, motion: Vec3, radius: f32, shape: &dyn Shape) -> Option<(f32, ShapeCastStatus)> {
    cast_shapes(
        &Pose::from_translation(pv(start)),
        pv(motion),
        &Ball::new(radius),
        &Pose::IDENTITY,
        PVec::ZERO,
        shape,
        cast_options(),
    )
    .expect("ball against triangle / trimesh is supported")
    .map(|h| (h.time_of_impact, h.status))
}

pub(crate) fn parry_triangle([a, b, c]: [Vec3; 3]) -> Triangle {
    Triangle::new(pv(a), pv(b), pv(c))
}
