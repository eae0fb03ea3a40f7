//! Triangle geometry shared by the sweep, the depenetration and the tests:
//! closest point, validity.

use glam::Vec3;

/// Which part of a triangle a contact lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The interior of the face.
    Face,
    /// One of the three edges (excluding its end points).
    Edge,
    /// One of the three corners.
    Vertex,
}

/// The point of triangle `abc` closest to `p` (Ericson, *Real-Time Collision
/// Detection*, §5.1.5, Voronoi-region walk). Works for any winding.
pub fn closest_point_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return a + ab * v;
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return b + (c - b) * w;
    }
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    a + ab * v + ac * w
}

/// Distance from `p` to triangle `abc`.
#[inline]
pub fn distance_to_triangle(p: Vec3, [a, b, c]: [Vec3; 3]) -> f32 {
    (closest_point_on_triangle(p, a, b, c) - p).length()
}

/// Where the segment `p0 → p1` passes through triangle `abc` from one side
/// to the other, as a fraction of the segment in `[0, 1]`; `None` when it
/// does not. Touching (an end point on the plane) is not crossing.
pub fn segment_crosses_triangle(p0: Vec3, p1: Vec3, [a, b, c]: [Vec3; 3]) -> Option<f32> {
    let n = (b - a).cross(c - a);
    let d0 = n.dot(p0 - a);
    let d1 = n.dot(p1 - a);
    let eps = 1e-6 * n.length() * ((p0 - a).length() + (p1 - a).length());
    if !((d0 > eps && d1 < -eps) || (d0 < -eps && d1 > eps)) {
        return None;
    }
    let f = d0 / (d0 - d1);
    let x = p0 + (p1 - p0) * f;
    let inside =
        (b - a).cross(x - a).dot(n) >= 0.0 && (c - b).cross(x - b).dot(n) >= 0.0 && (a - c).cross(x - c).dot(n) >= 0.0;
    inside.then_some(f)
}

/// Why a triangle is unusable as collision geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriangleDefect {
    /// A coordinate is NaN or infinite.
    NonFinite,
    /// Zero area (repeated or collinear corners) at f32 precision.
    Degenerate,
}

/// Checks that a triangle is finite and has a usable area.
///
/// "Degenerate" means twice its area is at most `1e-6` of the square of its
/// longest edge (height under a millionth of its length): its normal cannot
/// be computed reliably in f32.
pub fn triangle_defect([a, b, c]: [Vec3; 3]) -> Option<TriangleDefect> {
    if !(a.is_finite() && b.is_finite() && c.is_finite()) {
        return Some(TriangleDefect::NonFinite);
    }
    let longest2 = (b - a)
        .length_squared()
        .max((c - a).length_squared())
        .max((c - b).length_squared());
    let twice_area = (b - a).cross(c - a).length();
    // (NaN areas count as degenerate.)
    if twice_area.is_nan() || twice_area <= 1e-6 * longest2 {
        return Some(TriangleDefect::Degenerate);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_point_regions() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        let q = closest_point_on_triangle(Vec3::new(0.2, 0.2, 5.0), a, b, c);
        assert!((q - Vec3::new(0.2, 0.2, 0.0)).length() < 1e-6);
        assert_eq!(closest_point_on_triangle(Vec3::new(-1.0, -1.0, 0.0), a, b, c), a);
        assert_eq!(closest_point_on_triangle(Vec3::new(2.0, -1.0, 0.0), a, b, c), b);
        assert_eq!(
            closest_point_on_triangle(Vec3::new(0.5, -1.0, 1.0), a, b, c),
            Vec3::new(0.5, 0.0, 0.0)
        );
        let q = closest_point_on_triangle(Vec3::new(1.0, 1.0, 0.0), a, b, c);
        assert!((q - Vec3::new(0.5, 0.5, 0.0)).length() < 1e-6);
    }

    #[test]
    fn segment_crossing() {
        let t = [Vec3::ZERO, Vec3::X, Vec3::Z];
        let f = segment_crosses_triangle(Vec3::new(0.2, 1.0, 0.2), Vec3::new(0.2, -3.0, 0.2), t).unwrap();
        assert!((f - 0.25).abs() < 1e-6);
        assert_eq!(
            segment_crosses_triangle(Vec3::new(0.2, 1.0, 0.2), Vec3::new(0.2, 0.5, 0.2), t),
            None
        );
        assert_eq!(
            segment_crosses_triangle(Vec3::new(2.0, 1.0, 0.2), Vec3::new(2.0, -1.0, 0.2), t),
            None
        );
        // Starting on the surface is not crossing it.
        assert_eq!(
            segment_crosses_triangle(Vec3::new(0.2, 0.0, 0.2), Vec3::new(0.2, -1.0, 0.2), t),
            None
        );
    }

    #[test]
    fn defects() {
        let ok = [Vec3::ZERO, Vec3::X, Vec3::Y];
        assert_eq!(triangle_defect(ok), None);
        assert_eq!(
            triangle_defect([Vec3::ZERO, Vec3::X, Vec3::X * 2.0]),
            Some(TriangleDefect::Degenerate)
        );
        assert_eq!(
            triangle_defect([Vec3::ZERO, Vec3::ZERO, Vec3::ZERO]),
            Some(TriangleDefect::Degenerate)
        );
        assert_eq!(
            triangle_defect([Vec3::ZERO, Vec3::X, Vec3::NAN]),
            Some(TriangleDefect::NonFinite)
        );
        // A needle (1 km by 1 cm) is thin but valid; 1 km by 0.1 mm is not.
        assert_eq!(
            triangle_defect([Vec3::ZERO, Vec3::X * 1000.0, Vec3::new(500.0, 0.01, 0.0)]),
            None
        );
        let sliver = [Vec3::ZERO, Vec3::X * 1000.0, Vec3::new(500.0, 0.0001, 0.0)];
        assert_eq!(triangle_defect(sliver), Some(TriangleDefect::Degenerate));
    }
}
