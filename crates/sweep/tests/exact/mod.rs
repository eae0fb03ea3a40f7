//! The exact f64 reference shared by the oracle tests (`tests/exactness/`, `tests/oracle_parry/`, each including this file by `#[path]`): point–triangle distance, the distance along a straight centre path, and the random case generators.
//!
//! The distance is written here (projection + barycentric signs, else the
//! nearest edge segment), independent of the crate's Ericson closest point,
//! and evaluated in `f64` on the exact `f32` inputs given to the sweep. The
//! distance from a centre moving on a line to a triangle (a convex set) is a
//! convex function of time, so its minimum over an interval is found by a
//! golden-section search ([`Path::min_on`]).

use glam::{DVec3, Vec3};

// ---------------------------------------------------------------------------
// Independent f64 geometry.
// ---------------------------------------------------------------------------

pub fn dist_point_segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * s)).length()
}

/// Distance from `p` to the solid triangle `t` (any winding, thin or not).
pub fn dist_point_triangle(p: DVec3, t: &[DVec3; 3]) -> f64 {
    let [a, b, c] = *t;
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if nn > 0.0 {
        let q = p - n * ((p - a).dot(n) / nn);
        let u = (b - q).cross(c - q).dot(n);
        let v = (c - q).cross(a - q).dot(n);
        let w = (a - q).cross(b - q).dot(n);
        if u >= 0.0 && v >= 0.0 && w >= 0.0 {
            return (p - a).dot(n).abs() / nn.sqrt();
        }
    }
    dist_point_segment(p, a, b)
        .min(dist_point_segment(p, b, c))
        .min(dist_point_segment(p, c, a))
}

/// The centre `start + v·t` against one triangle, contact at distance `radius`.
#[derive(Clone, Copy)]
pub struct Path {
    pub start: DVec3,
    pub v: DVec3,
    pub tri: [DVec3; 3],
    pub radius: f64,
}

impl Path {
    pub fn new(start: DVec3, v: DVec3, tri: [DVec3; 3], radius: f64) -> Self {
        Self { start, v, tri, radius }
    }

    /// A unit sphere at the origin (the narrow phase's frame).
    pub fn unit(v: Vec3, tri: [Vec3; 3]) -> Self {
        Self::new(DVec3::ZERO, v.as_dvec3(), tri.map(Vec3::as_dvec3), 1.0)
    }

    pub fn dist(&self, t: f64) -> f64 {
        dist_point_triangle(self.start + self.v * t, &self.tri)
    }

    /// The first time in `[0, tm]` at which the distance reaches the radius,
    /// by bisection, given that it is above the radius at 0 and not at `tm`
    /// (the distance is convex along the path, so the crossing is unique).
    pub fn first_touch_before(&self, tm: f64) -> f64 {
        let (mut a, mut b) = (0.0, tm);
        for _ in 0..80 {
            let m = 0.5 * (a + b);
            if self.dist(m) > self.radius {
                a = m;
            } else {
                b = m;
            }
        }
        b
    }

    /// Minimum of the (convex) distance over `[lo, hi]` by golden section:
    /// `(t, distance)` at the smallest distance found.
    pub fn min_on(&self, lo: f64, hi: f64) -> (f64, f64) {
        const G: f64 = 0.618_033_988_749_894_8;
        let (mut a, mut b) = (lo, hi);
        let mut best = (lo, self.dist(lo));
        let dh = self.dist(hi);
        if dh < best.1 {
            best = (hi, dh);
        }
        if hi <= lo {
            return best;
        }
        let mut x1 = b - G * (b - a);
        let mut x2 = a + G * (b - a);
        let (mut f1, mut f2) = (self.dist(x1), self.dist(x2));
        for _ in 0..90 {
            if f1 <= f2 {
                b = x2;
                x2 = x1;
                f2 = f1;
                x1 = b - G * (b - a);
                f1 = self.dist(x1);
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + G * (b - a);
                f2 = self.dist(x2);
            }
        }
        for (x, f) in [(x1, f1), (x2, f2)] {
            if f < best.1 {
                best = (x, f);
            }
        }
        best
    }
}

/// A case's size for the relative tolerances: `max(1, |v|, max |vertex|)`.
pub fn scale_of(v: Vec3, tri: &[Vec3; 3]) -> f64 {
    tri.iter().fold(v.length().max(1.0), |s, p| s.max(p.length())) as f64
}

// ---------------------------------------------------------------------------
// Random cases.
// ---------------------------------------------------------------------------

pub fn in_box(rng: &mut fastrand::Rng, h: f32) -> Vec3 {
    Vec3::new(rng.f32() * 2.0 - 1.0, rng.f32() * 2.0 - 1.0, rng.f32() * 2.0 - 1.0) * h
}

pub fn unit(rng: &mut fastrand::Rng) -> Vec3 {
    loop {
        let p = in_box(rng, 1.0);
        let l = p.length();
        if l > 1e-3 && l <= 1.0 {
            return p / l;
        }
    }
}

pub fn log_uniform(rng: &mut fastrand::Rng, lo_exp: f32, hi_exp: f32) -> f32 {
    10f32.powf(lo_exp + (hi_exp - lo_exp) * rng.f32())
}

pub fn random_point_on(rng: &mut fastrand::Rng, [a, b, c]: [Vec3; 3]) -> Vec3 {
    let (mut u, mut v) = (rng.f32(), rng.f32());
    if u + v > 1.0 {
        (u, v) = (1.0 - u, 1.0 - v);
    }
    a + (b - a) * u + (c - a) * v
}

/// A start strictly farther than 1 from the triangle (f64 distance), often
/// barely so: half of the draws are anywhere in a 10 m box, half at
/// `1 + 10^(gap_lo_exp .. 0.3)` from a point of the triangle.
pub fn random_start(rng: &mut fastrand::Rng, tri: [Vec3; 3], gap_lo_exp: f32) -> Vec3 {
    let t64 = tri.map(Vec3::as_dvec3);
    loop {
        let s = if rng.bool() {
            in_box(rng, 5.0)
        } else {
            random_point_on(rng, tri) + unit(rng) * (1.0 + log_uniform(rng, gap_lo_exp, 0.3))
        };
        if dist_point_triangle(s.as_dvec3(), &t64) > 1.0 {
            return s;
        }
    }
}
