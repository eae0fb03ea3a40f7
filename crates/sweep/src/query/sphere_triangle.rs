//! The narrow phase: a unit sphere swept against one triangle in eSpace
//! (Fauerby 2003, §3.2–3.4), two-sided.

use crate::triangle::{Feature, closest_point_on_triangle};
use glam::{DVec3, Vec3};

/// First contact of a swept unit sphere with one triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleHit {
    /// Fraction of the motion at first contact, in `[0, t_max]`.
    pub t: f32,
    /// Contact point on the triangle, in the same frame as the input.
    pub point: Vec3,
    /// Unit normal at the contact, from the triangle towards the sphere centre.
    pub normal: Vec3,
    /// Which part of the triangle is touched.
    pub feature: Feature,
    /// The sphere already overlapped the triangle at `t = 0` and moves deeper.
    pub embedded: bool,
}

/// Sweeps the unit sphere centred at the origin along `v` against the
/// triangle `tri` (coordinates relative to the sphere's start, eSpace).
/// Returns the earliest contact with time in `[0, t_max]`, or `None`.
///
/// The steps are Fauerby's: the interval `[t0, t1]` in which the sphere
/// overlaps the triangle's plane; the plane contact point at `t0` if it lies
/// inside the triangle (the earliest contact possible); otherwise the
/// smallest root against the three vertices and the three edges.
///
/// Differences from the paper, on purpose:
/// * Two-sided: the plane normal is turned towards the sphere's start, so a
///   triangle stops the sphere from either side whatever its winding.
/// * Starting overlapped (centre closer than 1 to the triangle) is reported
///   as an `embedded` hit at `t = 0` only when the motion goes deeper; a
///   sphere moving out of an overlap is let go. (The paper's lowest-root
///   search would instead report the *exit* time here.)
/// * Roots use the numerically stable quadratic form, so contacts at
///   `t ≈ 0` do not suffer cancellation; the edge equation is written with
///   cross products (`|e × (w + t v)|² = |e|²`), which keeps its precision
///   far along long edges; a root a rounding step before the slab entry is
///   clamped to it rather than dropped.
/// * Corners in a line or at one point (a sliver rounded flat by a pose or
///   the eSpace scaling far from the origin) have no face, but their edges
///   and corners are still met.
/// * A sphere touching the face or an edge at distance 1 *up to rounding*
///   (the two distance computations disagreeing on which side of 1 it is)
///   and moving closer gets a contact at `t = 0`, so resting on a surface
///   can never sink into it.
pub fn sweep_unit_sphere_triangle(v: Vec3, tri: [Vec3; 3], t_max: f32) -> Option<TriangleHit> {
    sweep_unit_sphere_triangle_noting_overlap(v, tri, t_max, &mut false)
}

/// [`sweep_unit_sphere_triangle`] that also sets `*overlap` when the sphere
/// overlaps the triangle at `t = 0`, whichever way it moves (so a caller can
/// detect overlap without a separate query).
#[inline]
pub(crate) fn sweep_unit_sphere_triangle_noting_overlap(
    v: Vec3,
    tri: [Vec3; 3],
    t_max: f32,
    overlap: &mut bool,
) -> Option<TriangleHit> {
    // A motion longer than about 1e19 radii cannot be swept in f32 (its
    // squared length overflows): callers get no contact (collide-and-slide
    // does not move it at all).
    if !v.length_squared().is_finite() {
        return None;
    }
    let [a, b, c] = tri;
    // The plane in f64, from the corners as given (their differences are
    // exact there): its normal is accurate for needles and slivers, whose
    // f32 cross product is mostly rounding (the fuzzer found a needle the
    // sphere went through, and a sliver whose slab, entered late, made an
    // edge contact late and let the ellipsoid 0.003 radii in), and for
    // triangles far smaller (1e-30) or larger than the sphere, whose f32
    // squares underflow or overflow (a tiny triangle was not seen at all).
    let (ad, bd, cd) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3());
    let raw_normal = (bd - ad).cross(cd - ad);
    let len2 = raw_normal.length_squared();
    if !len2.is_finite() {
        return None;
    }
    if len2 == 0.0 {
        // Corners in a line: a sliver that a pose or the eSpace scaling made
        // collinear by rounding (colliders reject triangles degenerate when
        // built; far from the origin a moved one can round flat later). It
        // has no face, but its edges and corners still stop the sphere (the
        // fuzzer found a sliver at 1e4 m the sphere went through).
        let q = closest_point_on_triangle(Vec3::ZERO, a, b, c);
        let away = -v.normalize_or(Vec3::Y);
        return match embedded(q, v, away, overlap) {
            Overlap::Free => corners_and_edges(v, tri, 0.0, t_max, away),
            Overlap::Deeper(hit) => Some(hit),
            Overlap::Leaving => None,
        };
    }
    // Cheap reject before any square root: the plane is farther than 1 plus
    // the whole motion (|dist| ≥ 1 + |v|, scaled by |raw_normal|²).
    let raw_dist = raw_normal.dot(ad);
    let reach = 1.0 + v.length() as f64 * t_max as f64;
    if raw_dist * raw_dist >= len2 * reach * reach * 1.0001 {
        return None;
    }
    let mut unit = raw_normal / len2.sqrt();
    // The winding's own normal, for the inside test.
    let wound = unit.as_vec3();
    // Signed distance of the centre (the origin) to the plane; face the centre.
    let mut dist = -unit.dot(ad);
    if dist < 0.0 {
        unit = -unit;
        dist = -dist;
    }
    let nv = unit.dot(v.as_dvec3()) as f32;
    let (n, dist) = (unit.as_vec3(), dist as f32);

    if dist < 1.0 {
        let q = closest_point_on_triangle(Vec3::ZERO, a, b, c);
        match embedded(q, v, n, overlap) {
            Overlap::Free => {}
            Overlap::Deeper(hit) => return Some(hit),
            Overlap::Leaving => return None,
        }
        // Not overlapping, yet within 1 of the plane: the closest point is on
        // the border — unless the centre is over the face and `dist` is 1 up
        // to rounding. Then the sphere touches the face now: a contact at
        // once if it moves into the plane (else it could sink into the face).
        let foot = -n * dist;
        if nv < 0.0 && point_in_triangle(foot, a, b, c, wound) {
            return Some(TriangleHit {
                t: 0.0,
                point: foot,
                normal: n,
                feature: Feature::Face,
                embedded: false,
            });
        }
    }

    // Time interval in which the sphere overlaps the plane's slab |dist| < 1.
    let (lo, hi) = if dist >= 1.0 {
        if nv >= 0.0 {
            return None; // parallel or moving away: never within reach.
        }
        let t0 = (dist - 1.0) / -nv;
        if t0 > t_max {
            return None;
        }
        // Plane contact point at t0: inside the triangle is the earliest hit.
        let p = v * t0 - n;
        if point_in_triangle(p, a, b, c, wound) {
            return Some(TriangleHit {
                t: t0,
                point: p,
                normal: n,
                feature: Feature::Face,
                embedded: false,
            });
        }
        (t0, ((dist + 1.0) / -nv).min(t_max))
    } else if nv < 0.0 {
        (0.0, ((dist + 1.0) / -nv).min(t_max))
    } else if nv > 0.0 {
        (0.0, ((1.0 - dist) / nv).min(t_max))
    } else {
        (0.0, t_max)
    };
    corners_and_edges(v, tri, lo, hi, n)
}

/// Whether the unit sphere at the origin overlaps a triangle whose point
/// closest to it is `q`, and if so whether moving along `v` goes deeper.
enum Overlap {
    /// Not overlapping.
    Free,
    /// Overlapping and going deeper: a contact at once.
    Deeper(TriangleHit),
    /// Overlapping and moving out: let go.
    Leaving,
}

/// [`Overlap`] of the sphere with the triangle whose closest point is `q`;
/// sets `*overlap` when they overlap. `fallback` is the contact normal when
/// the centre lies on the triangle.
#[inline]
fn embedded(q: Vec3, v: Vec3, fallback: Vec3, overlap: &mut bool) -> Overlap {
    let d2 = q.length_squared();
    if d2 >= 1.0 {
        return Overlap::Free;
    }
    *overlap = true;
    // Overlapping already: a hit only if the motion goes deeper.
    if v.dot(q) <= 0.0 {
        return Overlap::Leaving;
    }
    let normal = if d2 > 1e-12 { -q / d2.sqrt() } else { fallback };
    Overlap::Deeper(TriangleHit {
        t: 0.0,
        point: q,
        normal,
        feature: Feature::Face,
        embedded: true,
    })
}

/// The earliest contact of the unit sphere moving from the origin along
/// `v` with a corner or an edge of `tri`, at a time in `[lo, hi]` (the
/// slab of the triangle's plane; a root a rounding step before `lo` is
/// clamped to it). `n` is the normal used where the centre-to-contact
/// difference rounds to zero.
fn corners_and_edges(v: Vec3, [a, b, c]: [Vec3; 3], lo: f32, hi: f32, n: Vec3) -> Option<TriangleHit> {
    let mut best: Option<TriangleHit> = None;
    let mut best_t = hi;
    // The corner and edge quadratics are solved in f64: their coefficients
    // are differences of products of eSpace coordinates, and f32 rounding
    // (about ε · distance² of the corners) made contacts out of noise a few
    // thousand radii along a long motion (found by fuzzing, crates/fuzz).
    let vd = v.as_dvec3();
    let vv = vd.length_squared();
    if vv == 0.0 {
        return None;
    }
    for p in [a, b, c] {
        // |t v - p|² = 1, with |p|² >= 1 here.
        let pd = p.as_dvec3();
        let bq = -2.0 * vd.dot(pd);
        let cq = pd.length_squared() - 1.0;
        // A root a few ulps before the slab entry is the same contact: clamp it.
        if let Some(t) = smallest_root_by(vv, bq, cq, best_t).map(|t| (t as f32).max(lo))
            && t <= best_t
        {
            best_t = t;
            best = Some(TriangleHit {
                t,
                point: p,
                // (`_or`: far beyond f32's resolution the difference can
                // round to zero; the fuzzer found a NaN normal at 1e17 m.)
                normal: (v * t - p).normalize_or(n),
                feature: Feature::Vertex,
                embedded: false,
            });
        }
    }
    for (p0, p1) in [(a, b), (b, c), (c, a)] {
        let e = p1 - p0;
        let p0d = p0.as_dvec3();
        let ed = p1.as_dvec3() - p0d;
        let e2 = ed.length_squared();
        let w = -p0d; // centre relative to the edge start, at t = 0
        let ev = ed.dot(vd);
        let ew = ed.dot(w);
        // e2 · dist²(t, edge line) = |e × (w + t v)|²; solve it equal to e2.
        // The cross-product form keeps its precision far along long edges.
        let exv = ed.cross(vd);
        let exw = ed.cross(w);
        let aq = exv.length_squared();
        let bq = 2.0 * exv.dot(exw);
        let cq = exw.length_squared() - e2;
        if aq <= 1e-12 * e2 * vv {
            continue; // moving parallel to the edge: no edge-interior contact.
        }
        if cq < 0.0 {
            // Inside the infinite cylinder. Beyond the segment's ends a vertex
            // is reached first. Within them the sphere touches the edge right
            // now (the overlap test above rounded the other way): that is a
            // contact at once if the motion goes closer to the edge.
            let f = ew / e2;
            if bq < 0.0 && within_edge(f, ed, p1.as_dvec3(), DVec3::ZERO) && lo <= best_t {
                let point = p0 + e * f as f32;
                best_t = lo;
                best = Some(TriangleHit {
                    t: lo,
                    point,
                    normal: (v * lo - point).normalize_or(n),
                    feature: Feature::Edge,
                    embedded: false,
                });
            }
            continue;
        }
        if let Some(t) = smallest_root_by(aq, bq, cq, best_t).map(|t| (t as f32).max(lo))
            && t <= best_t
        {
            let f = (ew + t as f64 * ev) / e2;
            if within_edge(f, ed, p1.as_dvec3(), vd * t as f64) {
                let point = p0 + e * f as f32;
                best_t = t;
                best = Some(TriangleHit {
                    t,
                    point,
                    normal: (v * t - point).normalize_or(n),
                    feature: Feature::Edge,
                    embedded: false,
                });
            }
        }
    }
    best
}

/// Whether the point at `f` along the edge from `p0` to `p1 = p0 + e`
/// (eSpace, f64) closest to the centre `at` lies on the segment: `f` in
/// `[0, 1]`, and, measured from `p1`, no more than a millionth of a radius
/// beyond it. `f` near 1 is a difference of huge products on an edge far
/// longer than the sphere (1 + 1e-18 rounds to 1 in f64: the fuzzer found
/// a contact 1.7 radii past the end of an edge 4e17 radii long); from the
/// near end the distance is exact enough. On any edge whose `f` resolves
/// its end, the second test passes whenever the first does.
#[inline]
fn within_edge(f: f64, e: DVec3, p1: DVec3, at: DVec3) -> bool {
    (0.0..=1.0).contains(&f) && e.dot(p1 - at) >= -1e-6 * e.length()
}

/// [`smallest_root`] when it may be at most `t_max`; `None` without a
/// square root or a division when the parabola is still positive at
/// `t_max` and turns after it, so both roots lie beyond `t_max` (with a
/// relative margin of 1e-6 over `t_max`, far above the rounding of both
/// answers: a root the caller would take, `t as f32 <= t_max`, is never
/// dropped). Most corners and edges of the triangles near a sphere that
/// reach here are met later than a contact already found.
#[inline]
fn smallest_root_by(a: f64, b: f64, c: f64, t_max: f32) -> Option<f64> {
    let t = t_max as f64 * (1.0 + 1e-6) + 1e-12;
    if (a * t + b) * t + c > 0.0 && -b > 2.0 * a * t {
        return None;
    }
    smallest_root(a, b, c)
}

/// Smallest root of `a t² + b t + c = 0` for `a > 0`, `c >= 0` when it is
/// approached from above (`b < 0`); `None` when the roots are negative or complex.
#[inline]
fn smallest_root(a: f64, b: f64, c: f64) -> Option<f64> {
    // (Written so that NaN from overflowed coefficients gives no root: the
    // fuzzer found a corner 1e19 radii away that became a contact at t = 0.)
    if b >= 0.0 || b.is_nan() {
        return None;
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 || disc.is_nan() {
        return None;
    }
    // q = -(b - sqrt(disc)) / 2 > 0; roots q/a (larger) and c/q (smaller).
    let q = -0.5 * (b - disc.sqrt());
    let t = c / q;
    t.is_finite().then(|| t.max(0.0))
}

/// Whether `p` (on the plane of `abc`) lies inside the triangle or on its border.
///
/// Points up to [`INSIDE_TOLERANCE`] outside an edge count as inside, so a
/// point on an edge shared by two triangles is inside at least one of them
/// whatever the rounding (else a sphere resting on that edge could sink).
#[inline]
fn point_in_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3, normal: Vec3) -> bool {
    // side ≥ −tolerance · |edge| · |normal|, compared squared (no square roots).
    let n_len2 = normal.length_squared();
    let mut strictly = true;
    let mut inside = |from: Vec3, to: Vec3| {
        let edge = to - from;
        let side = edge.cross(p - from).dot(normal);
        if side >= 0.0 {
            return true;
        }
        strictly = false;
        side * side <= INSIDE_TOLERANCE * INSIDE_TOLERANCE * edge.length_squared() * n_len2
    };
    if !(inside(a, b) && inside(b, c) && inside(c, a)) {
        return false;
    }
    // Inside only by the tolerance: near an edge, not merely near two edge
    // *lines*. Beyond the tip of a needle narrower than the tolerance both
    // lines are near (the fuzzer found a face contact a whole radius past
    // a needle's tip).
    strictly
        || (closest_point_on_triangle(p, a, b, c) - p).length_squared() <= 4.0 * INSIDE_TOLERANCE * INSIDE_TOLERANCE
}

/// How far outside a triangle (eSpace units) a plane contact still counts
/// as inside it. The contact time this gives differs from the edge's by
/// less than f32 resolution.
const INSIDE_TOLERANCE: f32 = 1e-5;

#[cfg(test)]
mod tests {
    use super::*;

    /// An edge 4e17 radii long whose near end lies 1.7 radii below the
    /// sphere's path: the sphere meets the edge's line above that end,
    /// beyond the segment, where `f` (from the far end) rounds to 1. Found
    /// by the sweep fuzz target (crates/fuzz/regressions/sweep/
    /// settle-edge-4e17-radii-long-met-past-its-end.bin).
    #[test]
    fn an_edge_line_met_past_the_end_of_a_huge_edge_is_no_contact() {
        let tri = [
            Vec3::new(-0.45553142, -1.6514906, -279.9101),
            Vec3::new(-0.45553142, -3.6815254e17, -0.428128),
            Vec3::new(1.0412147, -1.6514906, 0.6678797),
        ];
        let v = Vec3::new(3.2104175, 0.45901, -0.35963);
        assert_eq!(sweep_unit_sphere_triangle(v, tri, 1.0), None);
        // Nearer, the same edge is still met, at its end.
        let lifted = tri.map(|p| p + Vec3::Y * 1.2);
        let hit = sweep_unit_sphere_triangle(v, lifted, 1.0).expect("the lifted corner is met");
        assert!(hit.t > 0.0 && hit.t < 0.5, "{hit:?}");
    }

    /// Corners in a line (a sliver rounded flat far from the origin) have
    /// no plane, but the sphere still meets their edge and corners, and
    /// overlap with them is still seen.
    #[test]
    fn collinear_corners_still_stop_the_sphere() {
        let line = [
            Vec3::new(-1.0, -2.0, 0.0),
            Vec3::new(1.0, -2.0, 0.0),
            Vec3::new(0.5, -2.0, 0.0),
        ];
        let hit = sweep_unit_sphere_triangle(Vec3::new(0.0, -2.0, 0.0), line, 1.0).expect("the edge is met");
        assert!((hit.t - 0.5).abs() < 1e-6 && hit.feature == Feature::Edge, "{hit:?}");
        assert!((hit.normal - Vec3::Y).length() < 1e-6, "{hit:?}");
        // Past the end: the corner.
        let ahead = line.map(|p| p + Vec3::new(-3.5, 2.0, 0.0));
        let hit = sweep_unit_sphere_triangle(Vec3::new(-3.0, 0.0, 0.0), ahead, 1.0).expect("the corner is met");
        assert!((hit.t - 0.5).abs() < 1e-6 && hit.feature == Feature::Vertex, "{hit:?}");
        // Overlapping and going deeper, or leaving.
        let near = line.map(|p| p + Vec3::new(0.0, 1.5, 0.0));
        let mut overlap = false;
        let hit = sweep_unit_sphere_triangle_noting_overlap(Vec3::new(0.0, -0.1, 0.0), near, 1.0, &mut overlap);
        assert!(overlap && hit.is_some_and(|h| h.embedded && h.t == 0.0), "{hit:?}");
        let mut overlap = false;
        let hit = sweep_unit_sphere_triangle_noting_overlap(Vec3::new(0.0, 0.1, 0.0), near, 1.0, &mut overlap);
        assert!(overlap && hit.is_none(), "{hit:?}");
        // Nowhere near: nothing.
        assert_eq!(sweep_unit_sphere_triangle(Vec3::new(0.0, 0.5, 0.0), line, 1.0), None);
    }

    /// The early "no root by `t_max`" answer never drops a root the
    /// narrow phase would take (`t as f32 <= t_max`), on quadratics like
    /// the corners' and edges' (approaching, touching, grazing, far), with
    /// coefficients from 1e-6 to 1e6.
    #[test]
    fn no_root_the_caller_would_take_is_dropped_early() {
        let mut rng = fastrand::Rng::with_seed(17);
        let (mut taken, mut dropped) = (0, 0);
        for _ in 0..1_000_000 {
            let scale = |rng: &mut fastrand::Rng| 10f64.powf(rng.f64() * 12.0 - 6.0);
            let a = scale(&mut rng);
            // Roots near t: pick them, then perturb the constant term.
            let (r1, r2) = (rng.f64() * 2.0, rng.f64() * 2.0);
            let (lo, hi) = (r1.min(r2), r1.max(r2));
            let b = -a * (lo + hi);
            let c = (a * lo * hi * (1.0 + (rng.f64() - 0.5) * 1e-3)).max(0.0);
            let t_max = match rng.u32(..3) {
                0 => 1.0,
                1 => rng.f32(),
                _ => lo as f32 * (1.0 + (rng.f32() - 0.5) * 1e-5),
            };
            let full = smallest_root(a, b, c).filter(|&t| t as f32 <= t_max);
            let early = smallest_root_by(a, b, c, t_max).filter(|&t| t as f32 <= t_max);
            assert_eq!(full, early, "a {a}, b {b}, c {c}, t_max {t_max}");
            taken += usize::from(full.is_some());
            dropped += usize::from(smallest_root(a, b, c).is_some() && smallest_root_by(a, b, c, t_max).is_none());
        }
        assert!(
            taken > 100_000 && dropped > 100_000,
            "taken {taken}, dropped early {dropped}"
        );
    }
}
