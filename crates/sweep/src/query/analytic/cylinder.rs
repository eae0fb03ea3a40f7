//! The solid capped cylinder and the exact sphere sweep against it: the
//! side and the caps in closed form, the rims by convex advancement on the
//! exact distance (see the parent module for the method).

use super::hit::{AnalyticHit, similarity_scale, time_not_after, valid_sweep};
use crate::aabb::Aabb;
use glam::{Affine3A, DVec3, Vec3};

/// Largest step of travel (metres) at which the convex advancement of
/// [`sweep_sphere_cylinder`] stops: a contact it finds is at most about this
/// much travel before the true one, never after it.
pub const ADVANCE_TOLERANCE: f32 = 1e-7;

/// A solid circular cylinder closed by its two end disks: the points within
/// `radius` of the axis and between the planes through `base` and
/// `base + axis * height` across it. Metres.
///
/// Always capped: a level's pillar or fallen log is a closed solid, and an
/// open tube would be a different shape (its inside is free space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    /// Centre of the bottom disk, metres.
    pub base: Vec3,
    /// Unit axis, from the bottom disk towards the top one.
    pub axis: Vec3,
    /// Distance between the disks along the axis, metres (≥ 0).
    pub height: f32,
    /// Radius of the disks, metres (≥ 0).
    pub radius: f32,
}

impl Cylinder {
    /// The cylinder on `base` along `axis` (normalised here); `None` when
    /// the axis is zero, a size is negative or anything is not finite.
    pub fn new(base: Vec3, axis: Vec3, height: f32, radius: f32) -> Option<Self> {
        let axis = axis.try_normalize()?;
        let sizes = height.is_finite() && radius.is_finite() && height >= 0.0 && radius >= 0.0;
        (sizes && base.is_finite()).then_some(Self {
            base,
            axis,
            height,
            radius,
        })
    }

    /// The cylinder whose disks are centred at `bottom` and `top`; `None`
    /// when they coincide (no axis) or the radius is negative.
    pub fn between(bottom: Vec3, top: Vec3, radius: f32) -> Option<Self> {
        Self::new(bottom, top - bottom, (top - bottom).length(), radius)
    }

    /// Centre of the top disk, metres.
    pub fn top(&self) -> Vec3 {
        self.base + self.axis * self.height
    }

    /// Signed distance (metres) from `p` to the surface: positive outside,
    /// negative inside the solid (NaN for an invalid cylinder: zero axis,
    /// negative or non-finite size).
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        Solid::new(self).map_or(f32::NAN, |s| s.closest(p.as_dvec3()).distance as f32)
    }

    /// The point of the surface (side, disks or rims) closest to `p` (NaN
    /// for an invalid cylinder).
    pub fn closest_point(&self, p: Vec3) -> Vec3 {
        Solid::new(self).map_or(Vec3::NAN, |s| s.closest(p.as_dvec3()).point.as_vec3())
    }

    /// The box around the cylinder (exact: the boxes of its two disks joined).
    pub fn bounds(&self) -> Aabb {
        let a = self.axis;
        let extent = Vec3::new(
            (1.0 - a.x * a.x).max(0.0).sqrt(),
            (1.0 - a.y * a.y).max(0.0).sqrt(),
            (1.0 - a.z * a.z).max(0.0).sqrt(),
        ) * self.radius;
        Aabb::from_corners(self.base, self.top()).expand(extent)
    }

    /// The cylinder moved by a similarity `transform` (rotation or
    /// reflection, uniform scale, translation): its radius and height are
    /// scaled. `None` for any other transform (the image of the cylinder
    /// would be elliptic or sheared).
    pub fn transformed(&self, transform: &Affine3A) -> Option<Self> {
        let scale = similarity_scale(transform)?;
        Self::new(
            transform.transform_point3(self.base),
            transform.transform_vector3(self.axis),
            self.height * scale,
            self.radius * scale,
        )
    }
}

/// Sweeps a sphere of `radius` (metres) whose centre starts at `centre` and
/// moves at `velocity` (m/s) over `t ∈ [0, t_max]` seconds against the solid
/// `cylinder`; returns the first contact or `None`.
///
/// * Side and caps: closed form (a quadratic, a plane each).
/// * Rims: convex advancement on the exact distance, which reports a
///   contact at most [`ADVANCE_TOLERANCE`] metres of travel early, never late.
/// * Already touching or overlapping (centre within `radius` of the solid,
///   or inside it) and moving inwards: a contact at `t = 0`
///   (`started_embedded` when strictly overlapping); moving outwards or
///   tangentially: `None` (the distance to a convex solid along a line is
///   convex, so it will not come closer again).
/// * Non-finite input, a negative radius, a negative `t_max` or an invalid
///   cylinder (zero axis, negative size): `None`.
pub fn sweep_sphere_cylinder(
    cylinder: &Cylinder,
    centre: Vec3,
    radius: f32,
    velocity: Vec3,
    t_max: f32,
) -> Option<AnalyticHit> {
    if !valid_sweep(centre, radius, velocity, t_max) {
        return None;
    }
    let solid = Solid::new(cylinder)?;
    let (c, v, r, t_max) = (centre.as_dvec3(), velocity.as_dvec3(), radius as f64, t_max as f64);
    let start = solid.closest(c);
    if start.distance <= r {
        return (v.dot(start.normal) < 0.0).then(|| start.hit(0.0, start.distance < r));
    }
    let face = solid.face_contact(c, v, r, t_max);
    let limit = face.map_or(t_max, |t| t);
    let speed = v.length();
    let time = match solid.advance(c, v, r, limit) {
        // The advancement reached the closed-form contact: take the exact time.
        Some(t) if face.is_some_and(|f| (f - t) * speed <= 10.0 * ADVANCE_TOLERANCE as f64) => face?,
        Some(t) => t,
        // The advancement proved no contact before `limit`: the closed-form
        // contact, if any, is the first.
        None => face?,
    };
    Some(solid.closest(c + v * time).hit(time.min(t_max), false))
}

/// Advancement steps before giving up (then the contact reached so far is
/// reported: early, never missed). Halving steps from 10 km to 1e-7 m take 37.
const MAX_STEPS: usize = 100;

/// A gap (metres) this small is a contact.
const CONTACT_GAP: f64 = 1e-9;

/// The cylinder in `f64`, its axis normalised.
struct Solid {
    base: DVec3,
    axis: DVec3,
    height: f64,
    radius: f64,
}

/// The surface point closest to a query point, the signed distance to it
/// (negative inside) and the outward unit normal there.
#[derive(Clone, Copy, Debug)]
struct Closest {
    distance: f64,
    point: DVec3,
    normal: DVec3,
}

impl Closest {
    fn hit(&self, time: f64, started_embedded: bool) -> AnalyticHit {
        AnalyticHit {
            time: time_not_after(time),
            point: self.point.as_vec3(),
            normal: self.normal.as_vec3(),
            started_embedded,
        }
    }
}

impl Solid {
    fn new(c: &Cylinder) -> Option<Self> {
        let valid = c.base.is_finite() && c.height.is_finite() && c.radius.is_finite();
        (valid && c.height >= 0.0 && c.radius >= 0.0).then_some(())?;
        Some(Self {
            base: c.base.as_dvec3(),
            axis: c.axis.as_dvec3().try_normalize()?,
            height: c.height as f64,
            radius: c.radius as f64,
        })
    }

    /// The closest surface point to `p`: the side, a disk, or a rim circle
    /// (closed form in each region around the cylinder).
    fn closest(&self, p: DVec3) -> Closest {
        let (a, big_r, top) = (self.axis, self.radius, self.height);
        let w = p - self.base;
        let h = w.dot(a);
        let q = w - a * h;
        let rho = q.length();
        let u = if rho > 0.0 { q / rho } else { a.any_orthonormal_vector() };
        let side = |h: f64| self.base + a * h + u * big_r;
        if rho <= big_r {
            if h > top {
                return Closest {
                    distance: h - top,
                    point: self.base + a * top + q,
                    normal: a,
                };
            }
            if h < 0.0 {
                return Closest {
                    distance: -h,
                    point: self.base + q,
                    normal: -a,
                };
            }
            // Inside: the nearest of the side and the two disks.
            let (to_side, to_top) = (big_r - rho, top - h);
            return if to_side <= to_top && to_side <= h {
                Closest {
                    distance: -to_side,
                    point: side(h),
                    normal: u,
                }
            } else if to_top <= h {
                Closest {
                    distance: -to_top,
                    point: self.base + a * top + q,
                    normal: a,
                }
            } else {
                Closest {
                    distance: -h,
                    point: self.base + q,
                    normal: -a,
                }
            };
        }
        let clamped = h.clamp(0.0, top);
        let point = side(clamped);
        if clamped == h {
            return Closest {
                distance: rho - big_r,
                point,
                normal: u,
            };
        }
        // Beyond a disk and outside the radius: the rim circle.
        let d = p - point;
        let distance = d.length();
        Closest {
            distance,
            point,
            normal: d / distance,
        }
    }

    /// The first time in `[0, t_max]` the centre `c + v t` meets the side
    /// slab (radius `R + r`, axial position within the cylinder) or a cap
    /// slab (a disk moved out by `r`, radial position within `R`), in
    /// closed form. The centre starts outside both (farther than `r`).
    fn face_contact(&self, c: DVec3, v: DVec3, r: f64, t_max: f64) -> Option<f64> {
        let a = self.axis;
        let w = c - self.base;
        let (h0, va) = (w.dot(a), v.dot(a));
        let (q0, qv) = (w - a * h0, v - a * va);
        let mut best: Option<f64> = None;
        let mut consider = |t: f64| {
            if (0.0..=t_max).contains(&t) && best.is_none_or(|b| t < b) {
                best = Some(t);
            }
        };
        // Side: the smaller root of |q0 + qv t|² = (R + r)², entering.
        let (qa, qb) = (qv.length_squared(), q0.dot(qv));
        let qc = q0.length_squared() - (self.radius + r).powi(2);
        if qc > 0.0 && qa > 0.0 && qb < 0.0 {
            let disc = qb * qb - qa * qc;
            if disc >= 0.0 {
                // Stable form of (−b − √disc) / a.
                let t = qc / (-qb + disc.sqrt());
                let h = h0 + va * t;
                if (0.0..=self.height).contains(&h) {
                    consider(t);
                }
            }
        }
        // Caps: the planes r beyond each disk, crossed while within R of the axis.
        let in_disk = |t: f64| (q0 + qv * t).length() <= self.radius;
        if h0 > self.height + r && va < 0.0 {
            let t = (h0 - self.height - r) / -va;
            if in_disk(t) {
                consider(t);
            }
        }
        if h0 < -r && va > 0.0 {
            let t = (-r - h0) / va;
            if in_disk(t) {
                consider(t);
            }
        }
        best
    }

    /// Convex advancement: Newton steps on the gap `d(c + v t) − r`, a
    /// convex function of `t` whose slope is `v · n`. Each step lands on or
    /// before the first contact. Returns the contact time, or `None` when
    /// the gap stops shrinking while positive (no contact ever) or the next
    /// step passes `limit` (no contact before it).
    fn advance(&self, c: DVec3, v: DVec3, r: f64, limit: f64) -> Option<f64> {
        let speed = v.length();
        let mut t = 0.0;
        for _ in 0..MAX_STEPS {
            let at = self.closest(c + v * t);
            let gap = at.distance - r;
            if gap <= CONTACT_GAP {
                return Some(t);
            }
            let slope = v.dot(at.normal);
            if slope >= 0.0 {
                return None;
            }
            let step = gap / -slope;
            if t + step > limit {
                return None;
            }
            t += step;
            if step * speed <= ADVANCE_TOLERANCE as f64 {
                return Some(t);
            }
        }
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pillar() -> Cylinder {
        Cylinder::new(Vec3::new(1.0, 0.0, 2.0), Vec3::Y, 2.0, 0.5).unwrap()
    }

    #[test]
    fn distances_in_every_region() {
        let c = pillar();
        let near = |p: Vec3, d: f32| assert!((c.signed_distance(p) - d).abs() < 1e-6, "{p}: {}", c.signed_distance(p));
        near(Vec3::new(3.0, 1.0, 2.0), 1.5); // side
        near(Vec3::new(1.2, 3.0, 2.0), 1.0); // above the top disk
        near(Vec3::new(1.0, -0.5, 2.3), 0.5); // below the bottom disk
        near(Vec3::new(1.0 + 0.5 + 0.3, 2.4, 2.0), 0.5); // beyond the top rim
        near(Vec3::new(1.0, 1.0, 2.0), -0.5); // centre: the side is nearest
        near(Vec3::new(1.0, 1.9, 2.0), -0.1); // just under the top
        assert!((c.closest_point(Vec3::new(1.8, 2.4, 2.0)) - Vec3::new(1.5, 2.0, 2.0)).length() < 1e-6);
        assert!((c.closest_point(Vec3::new(1.0, 5.0, 2.0)) - Vec3::new(1.0, 2.0, 2.0)).length() < 1e-6);
    }

    #[test]
    fn bounds_are_the_disks_boxes() {
        let b = pillar().bounds();
        assert_eq!(b.min, Vec3::new(0.5, 0.0, 1.5));
        assert_eq!(b.max, Vec3::new(1.5, 2.0, 2.5));
        let lying = Cylinder::new(Vec3::ZERO, Vec3::X, 4.0, 1.0).unwrap().bounds();
        assert_eq!(lying.min, Vec3::new(0.0, -1.0, -1.0));
        assert_eq!(lying.max, Vec3::new(4.0, 1.0, 1.0));
    }

    #[test]
    fn transform_scales_the_sizes() {
        let t = Affine3A::from_scale_rotation_translation(
            Vec3::splat(2.0),
            glam::Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let c = pillar().transformed(&t).unwrap();
        assert!((c.axis - Vec3::X).length() < 1e-6);
        assert!((c.base - Vec3::new(0.0, -1.0, 4.0)).length() < 1e-5);
        assert!((c.height - 4.0).abs() < 1e-5 && (c.radius - 1.0).abs() < 1e-5);
        assert_eq!(
            pillar().transformed(&Affine3A::from_scale(Vec3::new(2.0, 1.0, 1.0))),
            None
        );
    }

    #[test]
    fn invalid_cylinders_are_refused() {
        assert_eq!(Cylinder::new(Vec3::ZERO, Vec3::ZERO, 1.0, 1.0), None);
        assert_eq!(Cylinder::new(Vec3::ZERO, Vec3::Y, -1.0, 1.0), None);
        assert_eq!(Cylinder::between(Vec3::ONE, Vec3::ONE, 1.0), None);
        let bad = Cylinder {
            radius: -1.0,
            ..pillar()
        };
        assert_eq!(
            sweep_sphere_cylinder(&bad, Vec3::new(5.0, 1.0, 2.0), 0.1, Vec3::NEG_X, 10.0),
            None
        );
    }
}
