//! Whether two axis-aligned ellipsoids overlap, decided exactly (to f64
//! rounding): the check that stands behind the crowd's guarantee that no
//! two agents end a tick overlapping.
//!
//! Scaled by the first ellipsoid's radii, it becomes the unit sphere at the
//! origin and the second an axis-aligned ellipsoid; they overlap when the
//! origin is closer than 1 to it. The distance from a point `z` outside an
//! ellipsoid of semi-axes `e` to it is found from the closest point
//! `x_k = e_k² z_k / (t + e_k²)`, where `t > 0` is the root of
//! `F(t) = Σ (e_k z_k / (t + e_k²))² − 1` (D. Eberly, *Distance from a
//! Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid*). `F` is convex
//! and decreasing for `t ≥ 0`, so Newton's method started below the root
//! climbs to it without overshooting. It starts at
//! `e_min·|z| − e_max²` (or 0), below the root: there
//! `F ≥ e_min²·|z|² / (t + e_max²)² − 1 = 0`, so far agents take a step
//! or two instead of climbing from 0.

use glam::{DVec3, Vec3};

/// Distance from the centre of ellipsoid `a` to the surface of ellipsoid
/// `b`, measured in `a`'s eSpace (world distances divided by `a`'s radii):
/// below 1 the two overlap, 1 + s means `a` must grow by the factor 1 + s
/// to touch `b`. Negative (−1) when `a`'s centre is inside `b`. Centres and
/// radii in metres; radii must be positive.
pub fn espace_distance(a_centre: Vec3, a_radii: Vec3, b_centre: Vec3, b_radii: Vec3) -> f64 {
    let ra = a_radii.as_dvec3();
    // `a`'s centre relative to `b`'s, in `a`'s eSpace; `b`'s semi-axes there.
    let z = ((a_centre.as_dvec3() - b_centre.as_dvec3()) / ra).abs();
    let e = b_radii.as_dvec3() / ra;
    let inside = (z / e).length_squared();
    if inside <= 1.0 {
        return -1.0;
    }
    let e2 = e * e;
    let f = |t: f64| {
        let q = e * z / (DVec3::splat(t) + e2);
        q.length_squared() - 1.0
    };
    // The start: a hair below the lower bound (for a sphere the bound is
    // the root itself, which rounding could overshoot).
    let mut t = ((e.min_element() * z.length() - e2.max_element()) * (1.0 - 1e-9)).max(0.0);
    for _ in 0..64 {
        let d = DVec3::splat(t) + e2;
        let q = e * z / d;
        let value = q.length_squared() - 1.0;
        // F'(t) = −2 Σ q_k² / (t + e_k²).
        let slope = -2.0 * (q * q / d).element_sum();
        if value <= 1e-15 || slope >= 0.0 {
            break;
        }
        let next = t - value / slope;
        if next <= t {
            break;
        }
        t = next;
    }
    debug_assert!(f(t) >= -1e-9);
    let closest = e2 * z / (DVec3::splat(t) + e2);
    (z - closest).length()
}

/// A lower bound of [`espace_distance`] without its iteration. In `a`'s
/// eSpace, with `z` from `b`'s centre to `a`'s and `u = z / |z|`, every
/// point `p` of `b` has `u·p ≤ u·b_centre + h(u)`, where `h(u) = |e ∘ u|`
/// (`b`'s semi-axes `e` there) is how far `b` reaches along `u`; so `p` is
/// at least `|z| − h(u)` from `a`'s centre. That is exact when the centres
/// lie on an axis of `b` and close for agents side by side, where the
/// bound by `b`'s largest radius is not. Less a relative 1e-9 for
/// rounding. Whenever it is positive, `a`'s centre is outside `b` and
/// [`espace_distance`] is at least it.
pub fn espace_distance_lower_bound(a_centre: Vec3, a_radii: Vec3, b_centre: Vec3, b_radii: Vec3) -> f64 {
    let ra = a_radii.as_dvec3();
    let z = (a_centre.as_dvec3() - b_centre.as_dvec3()) / ra;
    let e = b_radii.as_dvec3() / ra;
    let len = z.length();
    if len.is_nan() || len == 0.0 {
        return -1.0;
    }
    let reach = (e * z).length() / len;
    len - reach - 1e-9 * (len + reach)
}

/// Whether two ellipsoids are apart by at least `margin`, measured in the
/// eSpace of the first (a fraction of its radii).
pub fn apart(a_centre: Vec3, a_radii: Vec3, b_centre: Vec3, b_radii: Vec3, margin: f64) -> bool {
    // Cheap answers first, all conservative: the boxes apart; or, in a's
    // eSpace, the centres farther apart than 1 + margin plus b's largest
    // radius there.
    let d = a_centre - b_centre;
    if d.abs().cmpgt((a_radii + b_radii) * (1.0 + margin as f32)).any() {
        return true;
    }
    let centres = (d / a_radii).length() as f64;
    let b_reach = (b_radii / a_radii).max_element() as f64;
    if centres > 1.0 + margin + b_reach + 1e-6
        || espace_distance_lower_bound(a_centre, a_radii, b_centre, b_radii) >= 1.0 + margin
    {
        return true;
    }
    espace_distance(a_centre, a_radii, b_centre, b_radii) >= 1.0 + margin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spheres_match_the_distance_of_centres() {
        let d = espace_distance(Vec3::ZERO, Vec3::splat(0.5), Vec3::new(3.0, 0.0, 0.0), Vec3::splat(1.0));
        assert!((d - 4.0).abs() < 1e-9, "{d}"); // (3 − 1) / 0.5
        assert!(apart(Vec3::ZERO, Vec3::ONE, Vec3::new(2.01, 0.0, 0.0), Vec3::ONE, 1e-3));
        assert!(!apart(
            Vec3::ZERO,
            Vec3::ONE,
            Vec3::new(1.99, 0.0, 0.0),
            Vec3::ONE,
            1e-3
        ));
    }

    /// The distance as Newton's method from 0 gives it (before it started
    /// from the lower bound).
    fn from_zero(a_centre: Vec3, a_radii: Vec3, b_centre: Vec3, b_radii: Vec3) -> f64 {
        let ra = a_radii.as_dvec3();
        let z = ((a_centre.as_dvec3() - b_centre.as_dvec3()) / ra).abs();
        let e = b_radii.as_dvec3() / ra;
        if (z / e).length_squared() <= 1.0 {
            return -1.0;
        }
        let e2 = e * e;
        let mut t = 0.0f64;
        for _ in 0..10_000 {
            let d = DVec3::splat(t) + e2;
            let q = e * z / d;
            let value = q.length_squared() - 1.0;
            let slope = -2.0 * (q * q / d).element_sum();
            if value <= 1e-15 || slope >= 0.0 || t - value / slope <= t {
                break;
            }
            t -= value / slope;
        }
        (z - e2 * z / (DVec3::splat(t) + e2)).length()
    }

    #[test]
    fn the_start_below_the_root_gives_the_same_distance() {
        let mut rng = slidewalk_sweep::test_util::Lcg::new(17);
        let mut next = move || rng.next_f32();
        for k in 0..20_000 {
            let mut size = || Vec3::new(0.1 + next(), 0.1 + next() * 2.0, 0.1 + next());
            // A third of them spheres, for which the bound is the root.
            let (ra, rb) = if k % 3 == 0 {
                (Vec3::ONE, Vec3::splat(0.5))
            } else {
                (size(), size())
            };
            let far = [1.0, 5.0, 100.0][k % 3];
            let b = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * far;
            let (got, want) = (espace_distance(Vec3::ZERO, ra, b, rb), from_zero(Vec3::ZERO, ra, b, rb));
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{ra} {b} {rb}: {got} vs {want}"
            );
            if ra == Vec3::ONE && got >= 0.0 {
                // Spheres: the distance of the centres less the radius.
                assert!((got - (b.as_dvec3().length() - 0.5)).abs() < 1e-9, "{b}: {got}");
            }
        }
    }

    /// The bound never exceeds the distance (a's centre outside b), over
    /// the crowd's sizes, spheres, long and flat ellipsoids, near and far,
    /// and is tight (a tenth of the gap or closer) for agents side by side.
    #[test]
    fn the_lower_bound_is_below_the_distance() {
        let mut rng = slidewalk_sweep::test_util::Lcg::new(29);
        let mut next = move || rng.next_f32();
        let crowd = [
            Vec3::new(0.25, 0.6, 0.25),
            Vec3::new(0.3, 0.7, 0.3),
            Vec3::new(0.35, 0.8, 0.35),
            Vec3::new(0.4, 0.9, 0.4),
        ];
        let (mut tight, mut side_by_side) = (0, 0);
        for k in 0..200_000 {
            let (ra, rb) = match k % 3 {
                0 => (crowd[k % 4], crowd[(k / 4) % 4]),
                1 => (Vec3::splat(0.5), Vec3::splat(0.1 + next())),
                _ => {
                    let mut size = || Vec3::new(0.01 + next() * 3.0, 0.01 + next() * 3.0, 0.01 + next() * 3.0);
                    (size(), size())
                }
            };
            let far = [1.0, 3.0, 100.0, 1e4][k % 4];
            let level = if k % 5 == 0 { 0.0 } else { next() - 0.5 };
            let b = Vec3::new(next() - 0.5, level, next() - 0.5) * far + Vec3::splat(1e3 * (k % 2) as f32);
            let a = Vec3::splat(1e3 * (k % 2) as f32);
            let (bound, d) = (espace_distance_lower_bound(a, ra, b, rb), espace_distance(a, ra, b, rb));
            if bound > 0.0 {
                assert!(bound <= d, "{a} {ra} {b} {rb}: bound {bound} over the distance {d}");
                if level == 0.0 && k % 3 == 0 && d < 2.0 {
                    side_by_side += 1;
                    tight += usize::from(d - bound <= 0.1 * (d - 1.0).abs().max(1e-3));
                }
            }
        }
        assert!(
            side_by_side > 500 && tight * 10 >= side_by_side * 9,
            "{tight} of {side_by_side} tight"
        );
    }

    #[test]
    fn ellipsoids_side_by_side_and_on_a_diagonal() {
        let r = Vec3::new(0.4, 0.9, 0.4);
        // Side by side along x: touching at 0.8 m.
        assert!(apart(Vec3::ZERO, r, Vec3::new(0.801, 0.0, 0.0), r, 1e-4));
        assert!(!apart(Vec3::ZERO, r, Vec3::new(0.799, 0.0, 0.0), r, 1e-4));
        // On a diagonal the contact is not on the line of centres: a pair
        // whose bounding spheres overlap deeply may still be apart.
        let b = Vec3::new(0.75, 0.6, 0.0);
        let d = espace_distance(Vec3::ZERO, r, b, r);
        // Brute force: the smallest eSpace distance from the origin to
        // points of b's surface.
        let mut best = f64::INFINITY;
        for i in 0..=400 {
            for j in 0..=200 {
                let (th, ph) = (
                    i as f64 / 400.0 * std::f64::consts::TAU,
                    (j as f64 / 200.0 - 0.5) * std::f64::consts::PI,
                );
                let p = b.as_dvec3() + r.as_dvec3() * DVec3::new(ph.cos() * th.cos(), ph.sin(), ph.cos() * th.sin());
                best = best.min((p / r.as_dvec3()).length());
            }
        }
        assert!((d - best).abs() < 1e-3 && d <= best + 1e-9, "{d} vs {best}");
    }
}
