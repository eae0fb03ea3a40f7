//! The independent f64 reference: the distance to the solid capped
//! cylinder, and along a sphere centre's straight path its minimum
//! (golden-section search) and first root (bisection).

use glam::DVec3;
use slidewalk_sweep::Cylinder;

/// Distance from `p` to the solid capped cylinder (0 inside), written as the
/// distance to a box in the (radial, axial) half-plane.
pub(crate) fn exact_distance(c: &Cylinder, p: DVec3) -> f64 {
    let a = c.axis.as_dvec3().normalize();
    let w = p - c.base.as_dvec3();
    let h = w.dot(a);
    let rho = (w - a * h).length();
    let half = c.height as f64 / 2.0;
    let dx = rho - c.radius as f64;
    let dy = (h - half).abs() - half;
    dx.max(0.0).hypot(dy.max(0.0))
}

/// A sphere's centre moving on a line, against a cylinder.
pub(crate) struct Path<'a> {
    pub(crate) cylinder: &'a Cylinder,
    pub(crate) start: DVec3,
    pub(crate) v: DVec3,
    pub(crate) radius: f64,
}

impl Path<'_> {
    pub(crate) fn gap(&self, t: f64) -> f64 {
        exact_distance(self.cylinder, self.start + self.v * t) - self.radius
    }

    /// Minimum of the (convex) gap on `[a, b]`: (time, gap), golden-section search.
    fn min_on(&self, mut a: f64, mut b: f64) -> (f64, f64) {
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
        let (mut f1, mut f2) = (self.gap(x1), self.gap(x2));
        for _ in 0..200 {
            if f1 <= f2 {
                b = x2;
                (x2, f2) = (x1, f1);
                x1 = b - g * (b - a);
                f1 = self.gap(x1);
            } else {
                a = x1;
                (x1, f1) = (x2, f2);
                x2 = a + g * (b - a);
                f2 = self.gap(x2);
            }
        }
        [(a, self.gap(a)), (b, self.gap(b)), (x1, f1)]
            .into_iter()
            .fold((0.0, f64::INFINITY), |best, c| if c.1 < best.1 { c } else { best })
    }

    /// The first contact time in `[0, t_max]` and the closest approach's gap.
    pub(crate) fn first_contact(&self, t_max: f64) -> (Option<f64>, f64) {
        let (t_min, gap_min) = self.min_on(0.0, t_max);
        let gap0 = self.gap(0.0);
        if gap0.min(gap_min) > 0.0 {
            return (None, gap_min.min(gap0));
        }
        let (mut lo, mut hi) = (0.0, if gap0 <= 0.0 { 0.0 } else { t_min });
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if self.gap(mid) > 0.0 { lo = mid } else { hi = mid }
        }
        (Some(hi), gap_min.min(gap0))
    }
}
