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
///
/// The walk multiplies four coordinates together, which leaves f32's range
/// for corners farther than about 1e9 from `p` (or nearer than 1e-9): those
/// are first scaled by a power of two (exactly), so a huge triangle next to
/// a small ellipsoid still gives its true closest point (the fuzzer found
/// a zero normal and a wrong "free" there).
pub fn closest_point_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let (pa, pb, pc) = (a - p, b - p, c - p);
    let span = pa.abs().max(pb.abs()).max(pc.abs()).max_element();
    if span.is_finite() && span > 0.0 && !(1e-9..=1e9).contains(&span) {
        // 2^-k with 2^k around the span: exact to multiply by.
        let k = span.log2().round() as i32;
        let down = 2f32.powi(-k.clamp(-126, 127));
        return p + closest_point_walk(Vec3::ZERO, pa * down, pb * down, pc * down) / down;
    }
    closest_point_walk(p, a, b, c)
}

/// Below this `sin²` of the angle at `a`, a triangle is a sliver to
/// [`closest_point_walk`].
const SLIVER_SIN2: f32 = 1e-4;

/// [`closest_point_on_triangle`] in the input's own scale: the Voronoi
/// walk, checked against the three edges for slivers. On a sliver the
/// walk's differences of products cancel and it can answer a far corner
/// (the fuzzer found one that called an ellipsoid 0.55 radii inside a
/// sliver free) or NaN; the closest point is then on an edge or (nearly) so.
fn closest_point_walk(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let q = voronoi_walk(p, a, b, c);
    let (ab, ac) = (b - a, c - a);
    let sliver = ab.cross(ac).length_squared() < SLIVER_SIN2 * ab.length_squared() * ac.length_squared();
    // (A triangle degenerate at this scale makes the walk divide 0 by 0:
    // the edges answer then too.)
    if !sliver && q.is_finite() {
        return q;
    }
    let mut best = if q.is_finite() {
        (q - p).length_squared()
    } else {
        f32::INFINITY
    };
    let mut closest = q;
    for (s, e) in [(a, b), (b, c), (c, a)] {
        let x = closest_point_on_segment(p, s, e);
        let d = (x - p).length_squared();
        if d < best {
            best = d;
            closest = x;
        }
    }
    closest
}

/// The point of segment `s e` closest to `p`.
fn closest_point_on_segment(p: Vec3, s: Vec3, e: Vec3) -> Vec3 {
    let d = e - s;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return s;
    }
    s + d * ((p - s).dot(d) / len2).clamp(0.0, 1.0)
}

/// Ericson's Voronoi-region walk: the closest point but on slivers (see
/// [`closest_point_walk`]), or where its products overflow (NaN, ∞). Good
/// as a direction for a separating-axis reject, where any axis is valid.
/// Inlined into that reject: called, it took its corners and gave back
/// the point through memory, and the reject waited on reading it back.
#[inline]
pub(crate) fn voronoi_walk(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
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

/// The unit normal of triangle `abc` (right-handed winding), or zero for a
/// degenerate one. See [`scaled_normal`].
pub(crate) fn face_normal(tri: [Vec3; 3]) -> Vec3 {
    scaled_normal(tri).0.normalize_or_zero()
}

/// A normal of triangle `abc` (right-handed winding, the direction of
/// `(b − a) × (c − a)`) and a corner it was taken at; zero for a
/// degenerate triangle.
///
/// Two things keep it accurate in f32: it is the cross product of the two
/// edges at the corner opposite the longest edge (for a needle, the cross
/// product of its two long edges is mostly rounding error: the fuzzer found
/// a needle whose wrong plane let the sphere through), and the edges are
/// scaled to at most 1 first, so tiny and huge triangles neither underflow
/// nor overflow.
pub(crate) fn scaled_normal([a, b, c]: [Vec3; 3]) -> (Vec3, Vec3) {
    let (ab, bc, ca) = (b - a, c - b, a - c);
    let (l_ab, l_bc, l_ca) = (ab.length_squared(), bc.length_squared(), ca.length_squared());
    // The corner opposite the longest edge and its two edges, in the
    // cyclic order that keeps the orientation: (b−a)×(c−a) = (c−b)×(a−b) = (a−c)×(b−c).
    let (corner, e1, e2) = if l_bc >= l_ab && l_bc >= l_ca {
        (a, ab, -ca)
    } else if l_ca >= l_ab {
        (b, bc, -ab)
    } else {
        (c, ca, -bc)
    };
    let span = e1.abs().max(e2.abs()).max_element();
    if !(span > 0.0 && span.is_finite()) {
        return (Vec3::ZERO, corner);
    }
    ((e1 / span).cross(e2 / span), corner)
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
    fn closest_point_of_huge_and_tiny_triangles() {
        // Found by the fuzzer (crates/fuzz): corners 1e16 away overflowed the
        // walk's products (4th powers of the coordinates).
        for s in [1e-20f32, 1e-12, 1e12, 1e16, 1e20] {
            let (a, b, c) = (Vec3::new(-s, 0.0, -s), Vec3::new(s, 0.0, -s), Vec3::new(0.0, 0.0, s));
            let q = closest_point_on_triangle(Vec3::new(0.0, 0.5 * s, 0.0), a, b, c);
            assert!((q - Vec3::ZERO).length() <= 1e-6 * s, "{s}: {q}");
            let q = closest_point_on_triangle(Vec3::new(0.0, 1.0, 0.0), a, b, c);
            assert!(q.length() <= 1e-6 * s.max(1.0), "{s}: {q}");
            assert_eq!(face_normal([a, c, b]), Vec3::Y, "{s}");
        }
        assert_eq!(face_normal([Vec3::ZERO, Vec3::X, Vec3::X]), Vec3::ZERO);
        // The orientation is (b − a) × (c − a) whichever edge is longest.
        for tri in [
            [Vec3::ZERO, Vec3::X * 9.0, Vec3::Z],
            [Vec3::ZERO, Vec3::X, Vec3::Z * 9.0],
            [Vec3::X * 5.0, Vec3::new(-4.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0)],
        ] {
            let want = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
            assert!((face_normal(tri) - want).length() < 1e-6, "{tri:?}");
        }
    }

    #[test]
    fn closest_point_of_a_sliver() {
        // Found by the fuzzer (crates/fuzz): a sliver (height 1e-6 of its
        // length) whose Voronoi walk answered a far corner, 1.0 away
        // instead of 0.55, so an ellipsoid inside it counted as free.
        let t = [
            Vec3::new(0.5151743, 0.6642047, -13.28125),
            Vec3::new(-0.72808737, 0.25605577, 29.501953),
            Vec3::new(-0.10647091, 0.46011594, 8.110285),
        ];
        let d = distance_to_triangle(Vec3::ZERO, t);
        assert!((d - 0.5527).abs() < 1e-3, "{d}");
        // A triangle degenerate at f32 precision (it made a contact point NaN).
        let p = Vec3::new(0.0, 0.0, -1e-12);
        let q = closest_point_on_triangle(p, Vec3::splat(1e-12), Vec3::splat(1e-12), Vec3::splat(1e-12));
        assert_eq!(q, Vec3::splat(1e-12));
        let q = closest_point_on_triangle(Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0);
        assert_eq!(q, Vec3::X);
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
