//! Triangle geometry shared by the sweep, the depenetration and the tests:
//! closest point, validity.

use glam::{DVec3, Vec3};

/// Which part of a triangle a contact lies on.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
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
/// The walk is done in f64, relative to `p`. Its barycentric coordinates
/// are differences of products of four coordinates; in f32 they cancel on
/// a triangle large against its distance from `p`, and the point moves
/// within the plane by about ε · size² / area: an eSpace floor 16,876
/// radii long (412 m under an ellipsoid 2.4 cm thin) got its closest
/// point 0.7 radii off the foot, so an ellipsoid 0.29 radii inside it
/// counted as free (found by fuzzing the controller, crates/fuzz). In f64
/// that error is 2^29 times smaller, and the products of any f32
/// coordinates stay within its range (in f32 corners 1e9 away overflowed
/// them).
pub fn closest_point_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let pd = p.as_dvec3();
    let q = closest_point_walk(a.as_dvec3() - pd, b.as_dvec3() - pd, c.as_dvec3() - pd);
    (pd + q).as_vec3()
}

/// Below this `sin²` of the angle at `a`, a triangle is a sliver to
/// [`closest_point_walk`].
const SLIVER_SIN2: f64 = 1e-4;

/// The point of triangle `abc` closest to the origin: the Voronoi walk,
/// checked against the three edges for slivers. On a sliver the walk's
/// differences of products cancel and it can answer a far corner (in f32
/// the fuzzer found one that called an ellipsoid 0.55 radii inside a
/// sliver free) or NaN; the closest point is then on an edge or (nearly)
/// so. A sliver with a corner farther than [`FAR_CORNER`] is answered by
/// [`closest_point_far`] instead.
fn closest_point_walk(a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let q = voronoi_walk_f64(DVec3::ZERO, a, b, c);
    let (ab, ac) = (b - a, c - a);
    let sliver = ab.cross(ac).length_squared() < SLIVER_SIN2 * ab.length_squared() * ac.length_squared();
    // (A degenerate triangle makes the walk divide 0 by 0: the edges
    // answer then too.)
    if !sliver && q.is_finite() {
        return q;
    }
    closest_point_of_sliver(a, b, c, q)
}

/// [`closest_point_walk`] for a sliver (or a triangle the walk answered
/// NaN for), given the walk's answer `q`: off the path most calls take.
#[cold]
#[inline(never)]
fn closest_point_of_sliver(a: DVec3, b: DVec3, c: DVec3, q: DVec3) -> DVec3 {
    if a.abs().max(b.abs()).max(c.abs()).max_element() > FAR_CORNER {
        return closest_point_far(a, b, c);
    }
    let best = if q.is_finite() {
        q.length_squared()
    } else {
        f64::INFINITY
    };
    nearest_on_edges([(a, b), (b, c), (c, a)], q, best).0
}

/// The nearer to the origin of `closest` (at squared distance `best`) and
/// the points of `edges` closest to it (each measured from its first
/// end), with its squared distance; the earlier on a tie.
fn nearest_on_edges(edges: [(DVec3, DVec3); 3], mut closest: DVec3, mut best: f64) -> (DVec3, f64) {
    for (s, e) in edges {
        let x = closest_point_on_segment(s, e);
        let d = x.length_squared();
        if d < best {
            best = d;
            closest = x;
        }
    }
    (closest, best)
}

/// Beyond this distance (units of the query) a sliver's corner makes the
/// walk's and the edges' f64 differences cancel near the origin: a needle with a
/// corner 7e19 radii out and the two others a few radii from the origin
/// had its closest point answered at the origin itself, 10.8 radii from
/// the needle, and a sweep pushed a body 0.9 m out of nothing (found by
/// the sweep fuzz target's settle check). Nearer, the walk is exact to
/// far below a corner's f32 resolution.
const FAR_CORNER: f64 = 1e4;

/// [`closest_point_walk`] for a sliver with a far corner: each edge
/// measured from its end nearer the origin, and the face's foot where a
/// test made from the corners nearest it says the foot is inside
/// ([`face_foot`]).
fn closest_point_far(a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let [x0, x1, x2] = nearest_first(a, b, c);
    let (closest, best) = nearest_on_edges([(x0, x1), (x0, x2), (x1, x2)], DVec3::NAN, f64::INFINITY);
    match face_foot(x0, x1, x2) {
        Some((foot, width)) if foot.length_squared() < best && (foot - closest).length() <= width => foot,
        _ => closest,
    }
}

/// The foot of the origin on the plane of triangle `x0 x1 x2` (the corners
/// by distance from the origin, nearest first), when it lies inside the
/// triangle, and the triangle's smallest height (its width). Made from
/// the corner nearest the origin and, for each edge's side, from
/// the edge's end nearest the foot, so that a needle's far corner does not
/// cancel the answer away. An inside foot lies within the width of the
/// edges' closest point (the origin's distance to the boundary exceeds
/// its distance to the foot by less than the inradius): on a sliver flat
/// to rounding, whose plane is noise, a foot farther than that is not
/// taken.
fn face_foot(x0: DVec3, x1: DVec3, x2: DVec3) -> Option<(DVec3, f64)> {
    let n = (x1 - x0).cross(x2 - x0);
    let n2 = n.length_squared();
    if !(n2 > 0.0 && n2.is_finite()) {
        return None;
    }
    let foot = n * (n.dot(x0) / n2);
    let inside = [(x0, x1), (x1, x2), (x2, x0)].into_iter().all(|(s, e)| {
        let near = if (foot - s).length_squared() <= (foot - e).length_squared() {
            s
        } else {
            e
        };
        (e - s).cross(foot - near).dot(n) >= 0.0
    });
    let longest = (x1 - x0)
        .length_squared()
        .max((x2 - x1).length_squared())
        .max((x0 - x2).length_squared());
    (inside && foot.is_finite()).then(|| (foot, n2.sqrt() / longest.sqrt()))
}

/// The corners `a b c` ordered by distance from the origin, nearest first
/// (the callers measure distances, not sides: the winding may turn).
fn nearest_first(a: DVec3, b: DVec3, c: DVec3) -> [DVec3; 3] {
    let [la, lb, lc] = [a, b, c].map(DVec3::length_squared);
    match (la <= lb, lb <= lc, la <= lc) {
        (true, true, _) => [a, b, c],
        (true, false, true) => [a, c, b],
        (true, false, false) => [c, a, b],
        (false, true, true) => [b, a, c],
        (false, true, false) => [b, c, a],
        // (NaN lengths land here too: the edges answer NaN as before.)
        (false, false, _) => [c, b, a],
    }
}

/// The point of segment `s e` closest to the origin, measured from `s`:
/// the caller gives the end nearer the origin first (from the far end of
/// an edge 1e19 long, the near end is lost in the difference, and the
/// answer with it).
fn closest_point_on_segment(s: DVec3, e: DVec3) -> DVec3 {
    let d = e - s;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return s;
    }
    s + d * (-s.dot(d) / len2).clamp(0.0, 1.0)
}

/// Ericson's Voronoi-region walk from `$p` over triangle `$a $b $c`, for
/// f32 and f64 vectors alike.
macro_rules! voronoi_walk {
    ($p:expr, $a:expr, $b:expr, $c:expr) => {{
        let (p, a, b, c) = ($p, $a, $b, $c);
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
    }};
}

/// Ericson's Voronoi-region walk in f32: the closest point but on slivers
/// and on triangles large against their distance from `p` (see
/// [`closest_point_on_triangle`]), or where its products overflow (NaN,
/// ∞). Good as a direction for a separating-axis reject, where any axis
/// is valid. Inlined into that reject: called, it took its corners and
/// gave back the point through memory, and the reject waited on reading
/// it back.
#[inline]
pub(crate) fn voronoi_walk(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    voronoi_walk!(p, a, b, c)
}

/// [`voronoi_walk`] in f64.
#[inline]
fn voronoi_walk_f64(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    voronoi_walk!(p, a, b, c)
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

/// Whether `p` projects into triangle `abc` along its normal (within
/// 0.1 mm of its edges): a body centred at `p` is over (or under) the
/// triangle, not beside it. A degenerate triangle's "projection" is the
/// point itself.
pub fn projects_onto_triangle(p: Vec3, [a, b, c]: [Vec3; 3]) -> bool {
    let n = (b - a).cross(c - a).normalize_or_zero();
    let foot = p - n * n.dot(p - a);
    (closest_point_on_triangle(foot, a, b, c) - foot).length() < 1e-4
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

    /// Found by the sweep fuzz target's settle check: a needle with a
    /// corner 7e19 radii out, the two others a few radii from the origin.
    /// The walk's products cancelled and it answered the origin itself; the
    /// needle is 10.789 radii away (exact rational arithmetic), off its
    /// face, nearest an edge.
    #[test]
    fn closest_point_of_a_needle_with_a_corner_far_beyond_f32() {
        let t = [
            Vec3::new(-5.261556e18, 3.6706861e19, -5.7185424e19),
            Vec3::new(1.827216, 10.539386, 64.49422),
            Vec3::new(0.2953319, 5.887379, 10.799588),
        ];
        let d = distance_to_triangle(Vec3::ZERO, t);
        assert!((d - 10.789472).abs() < 1e-3, "{d}");
        // Its face still counts where the foot is inside: half a radius
        // over a point of it near the wide end.
        let [a, b, c] = t.map(Vec3::as_dvec3);
        let n = (c - b).cross(a - b).normalize();
        let on = a * 1e-19 + b * 0.45 + c * (0.55 - 1e-19);
        let over = (on + n * 0.5).as_vec3();
        let d = distance_to_triangle(over, t);
        assert!((d - 0.5).abs() < 1e-3, "{d}");
    }

    /// The closest point of `[a, b, c]` to the origin in f64 by another
    /// route than the walk: the foot on the plane when the edges' cross
    /// products say it is inside, else the nearest point of the edges.
    fn closest_by_edges(t: [Vec3; 3]) -> glam::DVec3 {
        let [a, b, c] = t.map(Vec3::as_dvec3);
        let n = (b - a).cross(c - a);
        let foot = n * (n.dot(a) / n.length_squared());
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|&(s, e)| (e - s).cross(foot - s).dot(n) >= 0.0);
        if inside {
            return foot;
        }
        [(a, b), (b, c), (c, a)]
            .map(|(s, e)| s + (e - s) * (-s.dot(e - s) / (e - s).length_squared()).clamp(0.0, 1.0))
            .into_iter()
            .min_by(|x, y| x.length_squared().total_cmp(&y.length_squared()))
            .expect("three edges")
    }

    #[test]
    fn closest_point_of_a_triangle_far_larger_than_its_distance() {
        // Found by fuzzing the controller (crates/fuzz): a 412 m floor in
        // the eSpace of an ellipsoid 1.94 m tall and 2.4 cm thin is 16,876
        // radii long. Its foot is 0.706 below the centre, inside the
        // triangle; the f32 walk put the closest point 0.7 radii off it
        // along the floor, 1.0009 away, and the ellipsoid, 0.29 deep,
        // counted as free.
        let r = Vec3::new(1.5625, 1.9375, 0.024414063);
        let centre = Vec3::new(-21.302471, 1.3682516, 0.11673032);
        let floor = [
            Vec3::new(-206.01292, 0.0, -206.01292),
            Vec3::new(-206.01292, 0.0, 206.01292),
            Vec3::new(206.01292, 0.0, 206.01292),
        ]
        .map(|q| (q - centre) / r);
        let d = distance_to_triangle(Vec3::ZERO, floor);
        assert!((d - centre.y / r.y).abs() < 1e-5, "{d}");
        // Triangles up to 1e6 long, stretched up to 1000 to 1, the point
        // within a few units of them (over the face, or off an edge or a
        // corner): the walk agrees with the other route.
        let mut rng = fastrand::Rng::with_seed(29);
        let mut worst = 0.0f64;
        for _ in 0..100_000 {
            let size = 10f32.powf(rng.f32() * 6.0);
            let stretch = Vec3::new(1.0, 10f32.powf(rng.f32() * 3.0), 1.0);
            let corner = |rng: &mut fastrand::Rng| {
                Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, (rng.f32() - 0.5) * 0.01) * size * stretch
            };
            let (a, b, c) = (corner(&mut rng), corner(&mut rng), corner(&mut rng));
            if triangle_defect([a, b, c]).is_some() {
                continue;
            }
            // A point a few units from a point of the triangle or near it.
            let (u, v) = (rng.f32() * 1.2, rng.f32() * 1.2);
            let on = a + (b - a) * u.min(1.0) + (c - a) * v.min(1.0 - u.min(1.0) + 0.1);
            let p = on + Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5) * 4.0;
            let t = [a, b, c].map(|q| q - p);
            let want = closest_by_edges(t);
            let got = closest_point_on_triangle(Vec3::ZERO, t[0], t[1], t[2]).as_dvec3();
            // Their distances agree to f32's resolution of the corners.
            let ulp = f64::from(f32::EPSILON) * f64::from(t.iter().map(|q| q.abs().max_element()).fold(0.0, f32::max));
            let gap = (got.length() - want.length()).abs();
            worst = worst.max(gap / (ulp + 1e-6));
            assert!(
                gap <= 4.0 * ulp + 1e-6,
                "{t:?}: {got} at {}, want {want} at {}",
                got.length(),
                want.length()
            );
        }
        assert!(worst > 0.0);
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
