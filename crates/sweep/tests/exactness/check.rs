//! One narrow-phase case checked against the exact f64 reference: the
//! contact at distance 1 with nothing closer before it, a miss staying
//! clear, the hit's fields consistent; and the exact contact time.

use crate::exact::{Path, dist_point_segment, dist_point_triangle, scale_of};
use glam::Vec3;
use slidewalk_sweep::Feature;
use slidewalk_sweep::query::sphere_triangle::{TriangleHit, sweep_unit_sphere_triangle};

/// Relative tolerance (of the case's scale) for distances.
pub(crate) const REL_TOL: f64 = 1e-5;

impl Path {
    /// First time in `[0, hi]` at which the distance is the radius (`Some(0)`
    /// when already within it), `None` when the path stays farther.
    fn first_contact(&self, hi: f64) -> Option<f64> {
        if self.dist(0.0) <= self.radius {
            return Some(0.0);
        }
        let (tm, dm) = self.min_on(0.0, hi);
        if dm > self.radius {
            return None;
        }
        Some(self.first_touch_before(tm))
    }
}

#[derive(Default, Debug)]
pub(crate) struct Stats {
    pub(crate) cases: usize,
    pub(crate) misses: usize,
    pub(crate) face: usize,
    pub(crate) edge: usize,
    pub(crate) vertex: usize,
    pub(crate) embedded: usize,
    /// Largest |dist(t) − 1| / scale over hits.
    pub(crate) max_residual: f64,
    /// Largest (1 − min dist before t) / scale, or over the whole path for misses.
    pub(crate) max_dip: f64,
    /// Largest |t − t_exact| over hits (forward error; ill-conditioned when grazing).
    pub(crate) max_dt: f64,
}

/// Checks one case; `Err` describes the violated property.
pub(crate) fn check_case(v: Vec3, tri: [Vec3; 3], stats: &mut Stats) -> Result<(), String> {
    let scale = scale_of(v, &tri);
    let tol = REL_TOL * scale;
    let path = Path::unit(v, tri);
    let hit = sweep_unit_sphere_triangle(v, tri, 1.0);
    stats.cases += 1;
    let Some(h) = hit else {
        stats.misses += 1;
        let (tm, dm) = path.min_on(0.0, 1.0);
        let sampled = (0..=64)
            .map(|i| path.dist(i as f64 / 64.0))
            .fold(f64::INFINITY, f64::min);
        let dmin = dm.min(sampled);
        stats.max_dip = stats.max_dip.max((1.0 - dmin) / scale);
        if dmin < 1.0 - tol {
            return Err(format!(
                "miss, but the path comes within {dmin} of the triangle (at t = {tm})"
            ));
        }
        return Ok(());
    };
    check_hit_shape(&h, v, tri, tol)?;
    if h.embedded {
        stats.embedded += 1;
        if path.dist(0.0) > 1.0 + tol {
            return Err(format!(
                "embedded hit, but the start is {} from the triangle",
                path.dist(0.0)
            ));
        }
        return Ok(());
    }
    match h.feature {
        Feature::Face => stats.face += 1,
        Feature::Edge => stats.edge += 1,
        Feature::Vertex => stats.vertex += 1,
    }
    let t = h.t as f64;
    let d = path.dist(t);
    stats.max_residual = stats.max_residual.max((d - 1.0).abs() / scale);
    if (d - 1.0).abs() > tol {
        return Err(format!("hit at t = {t}, but the distance there is {d}"));
    }
    let (tm, dm) = path.min_on(0.0, t);
    let sampled = (0..64)
        .map(|i| path.dist(t * i as f64 / 64.0))
        .fold(f64::INFINITY, f64::min);
    let dmin = dm.min(sampled);
    stats.max_dip = stats.max_dip.max((1.0 - dmin) / scale);
    if dmin < 1.0 - tol {
        return Err(format!(
            "hit at t = {t}, but the path is already {dmin} from the triangle at t = {tm}"
        ));
    }
    if let Some(te) = path.first_contact(1.0) {
        stats.max_dt = stats.max_dt.max((te - t).abs());
    }
    Ok(())
}

/// Properties of a hit's fields: time range, contact point on the triangle at
/// distance 1 from the centre, unit normal towards the centre, feature.
pub(crate) fn check_hit_shape(h: &TriangleHit, v: Vec3, tri: [Vec3; 3], tol: f64) -> Result<(), String> {
    if !(0.0..=1.0).contains(&h.t) {
        return Err(format!("t = {} outside [0, 1]", h.t));
    }
    if h.embedded && h.t != 0.0 {
        return Err(format!("embedded hit at t = {} (must be 0)", h.t));
    }
    let t64 = tri.map(Vec3::as_dvec3);
    let p = h.point.as_dvec3();
    let on = dist_point_triangle(p, &t64);
    if on > tol {
        return Err(format!("contact point {} is {on} off the triangle", h.point));
    }
    if (h.normal.length() - 1.0).abs() > 1e-5 {
        return Err(format!("normal {} is not unit", h.normal));
    }
    let centre = v.as_dvec3() * h.t as f64;
    if !h.embedded {
        let r = (centre - p).length();
        if (r - 1.0).abs() > tol {
            return Err(format!("contact point is {r} from the centre"));
        }
        let along = h.normal.as_dvec3().dot((centre - p) / r);
        if along < 1.0 - 1e-4 {
            return Err(format!(
                "normal {} does not point from the contact to the centre (cos {along})",
                h.normal
            ));
        }
        match h.feature {
            Feature::Face => {
                let n = (t64[1] - t64[0]).cross(t64[2] - t64[0]).normalize();
                if n.dot(h.normal.as_dvec3()).abs() < 1.0 - 1e-4 {
                    return Err(format!("face hit with normal {} off the plane normal {n}", h.normal));
                }
            }
            Feature::Edge => {
                let e = (0..3)
                    .map(|k| dist_point_segment(p, t64[k], t64[(k + 1) % 3]))
                    .fold(f64::INFINITY, f64::min);
                if e > tol {
                    return Err(format!("edge hit {e} off every edge"));
                }
            }
            Feature::Vertex => {
                if !tri.contains(&h.point) {
                    return Err(format!("vertex hit at {}, not a vertex", h.point));
                }
            }
        }
    }
    Ok(())
}
