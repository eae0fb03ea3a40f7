//! The narrow phase: a unit sphere swept against one triangle in eSpace
//! (Fauerby 2003, §3.2–3.4), two-sided.

use crate::triangle::{Feature, closest_point_on_triangle};
use glam::Vec3;

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
    if !(len2 > 0.0 && len2.is_finite()) {
        return None; // degenerate (rejected when colliders are built)
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
        let d2 = q.length_squared();
        if d2 < 1.0 {
            *overlap = true;
            // Overlapping already: a hit only if the motion goes deeper.
            if v.dot(q) <= 0.0 {
                return None;
            }
            let normal = if d2 > 1e-12 { -q / d2.sqrt() } else { n };
            return Some(TriangleHit {
                t: 0.0,
                point: q,
                normal,
                feature: Feature::Face,
                embedded: true,
            });
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
        if let Some(t) = smallest_root(vv, bq, cq).map(|t| (t as f32).max(lo))
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
            if bq < 0.0 && (0.0..=1.0).contains(&f) && lo <= best_t {
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
        if let Some(t) = smallest_root(aq, bq, cq).map(|t| (t as f32).max(lo))
            && t <= best_t
        {
            let f = (ew + t as f64 * ev) / e2;
            if (0.0..=1.0).contains(&f) {
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
