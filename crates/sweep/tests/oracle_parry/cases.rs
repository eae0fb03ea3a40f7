//! Random cases: triangles (generic, thin, large, tiny) and motions that
//! come near them.

use crate::exact::{in_box, log_uniform, random_point_on, unit};
use glam::Vec3;

/// Generic, thin (height 1e-3..1e-1 of the base), large or small triangles
/// that a `MeshCollider` keeps.
pub(crate) fn random_triangle(rng: &mut fastrand::Rng, size: f32) -> [Vec3; 3] {
    loop {
        let tri = match rng.u32(0..5) {
            0 | 1 => [in_box(rng, size), in_box(rng, size), in_box(rng, size)],
            2 => {
                let (a, b) = (in_box(rng, size * 1.2), in_box(rng, size * 1.2));
                let e = b - a;
                let perp = e.cross(unit(rng)).normalize_or_zero();
                let u = rng.f32() * 1.4 - 0.2;
                [a, b, a + e * u + perp * e.length() * log_uniform(rng, -3.0, -1.0)]
            }
            3 => [
                in_box(rng, size * 5.0),
                in_box(rng, size * 5.0),
                in_box(rng, size * 5.0),
            ],
            _ => {
                let a = in_box(rng, size);
                [a, a + in_box(rng, size * 0.1), a + in_box(rng, size * 0.1)]
            }
        };
        if slidewalk_sweep::triangle_defect(tri).is_none() {
            return tri;
        }
    }
}

/// A motion from `s`: random, aimed near a point of the triangle, or
/// parallel to its plane.
pub(crate) fn random_motion(rng: &mut fastrand::Rng, s: Vec3, tri: [Vec3; 3], reach: f32) -> Vec3 {
    let len = 6.0 * reach * rng.f32();
    match rng.u32(0..4) {
        0 => unit(rng) * len,
        1 | 2 => {
            let target = random_point_on(rng, tri) + unit(rng) * 1.5 * reach * rng.f32();
            (target - s) * (0.3 + 1.7 * rng.f32())
        }
        _ => {
            let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
            let d = unit(rng);
            (d - n * n.dot(d)).normalize_or_zero() * len
        }
    }
}
