//! The one-sided infinite plane (a half-space) and the exact sphere sweep
//! against it.

use super::hit::{AnalyticHit, similarity_scale, time_not_after, valid_sweep};
use glam::{Affine3A, Vec3};

/// An infinite plane bounding a half-space: solid behind it (the side the
/// normal points away from), free in front of it. Metres.
///
/// One-sided: a sphere whose centre is behind the plane is inside the solid
/// and collides with nothing (see [`sweep_sphere_plane`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// A point of the plane, metres.
    pub point: Vec3,
    /// Unit normal, pointing out of the solid into free space.
    pub normal: Vec3,
}

impl Plane {
    /// The plane through `point` facing along `normal` (normalised here);
    /// `None` when `normal` is zero or anything is not finite.
    pub fn new(point: Vec3, normal: Vec3) -> Option<Self> {
        let normal = normal.try_normalize()?;
        point.is_finite().then_some(Self { point, normal })
    }

    /// Signed distance (metres) from `p` to the plane: positive in front,
    /// negative behind (inside the solid).
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        (p.as_dvec3() - self.point.as_dvec3()).dot(self.normal.as_dvec3()) as f32
    }

    /// The point of the plane closest to `p` (its orthogonal projection).
    pub fn closest_point(&self, p: Vec3) -> Vec3 {
        let n = self.normal.as_dvec3();
        let p = p.as_dvec3();
        (p - n * (p - self.point.as_dvec3()).dot(n)).as_vec3()
    }

    /// The plane moved by a similarity `transform` (rotation or reflection,
    /// uniform scale, translation); `None` for any other transform.
    pub fn transformed(&self, transform: &Affine3A) -> Option<Self> {
        similarity_scale(transform)?;
        Self::new(
            transform.transform_point3(self.point),
            transform.transform_vector3(self.normal),
        )
    }
}

/// Sweeps a sphere of `radius` (metres) whose centre starts at `centre` and
/// moves at `velocity` (m/s) over `t ∈ [0, t_max]` seconds against the
/// one-sided `plane`; returns the first contact or `None`.
///
/// * Moving away from the plane or parallel to it: never a contact.
/// * Centre in front, closer than `radius` (already overlapping) or just
///   touching, and moving towards the plane: a contact at `t = 0`
///   (`started_embedded` when strictly closer than `radius`).
/// * Centre behind the plane (inside the solid): `None`. The plane does not
///   push out a sphere that is already through it; such a sphere is past
///   saving by a sweep.
/// * Non-finite input, a negative radius or a negative `t_max`: `None`.
///
/// The contact's normal is the plane's normal and its point is the centre
/// at contact moved back by the radius.
pub fn sweep_sphere_plane(plane: &Plane, centre: Vec3, radius: f32, velocity: Vec3, t_max: f32) -> Option<AnalyticHit> {
    if !valid_sweep(centre, radius, velocity, t_max) {
        return None;
    }
    let n = plane.normal.as_dvec3();
    let (c, v, r) = (centre.as_dvec3(), velocity.as_dvec3(), radius as f64);
    let d0 = (c - plane.point.as_dvec3()).dot(n);
    let approach = -v.dot(n);
    if d0 < 0.0 || approach <= 0.0 {
        return None;
    }
    let time = ((d0 - r) / approach).max(0.0);
    if time > t_max as f64 {
        return None;
    }
    let at = c + v * time;
    Some(AnalyticHit {
        time: time_not_after(time),
        point: (at - n * (at - plane.point.as_dvec3()).dot(n)).as_vec3(),
        normal: plane.normal,
        started_embedded: d0 < r,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> Plane {
        Plane::new(Vec3::new(3.0, 1.0, -2.0), Vec3::Y).unwrap()
    }

    #[test]
    fn a_falling_sphere_lands_at_its_radius() {
        let hit = sweep_sphere_plane(&floor(), Vec3::new(0.0, 6.0, 0.0), 0.5, Vec3::new(1.0, -2.0, 0.0), 10.0).unwrap();
        assert_eq!(hit.time, 2.25);
        assert_eq!(hit.point, Vec3::new(2.25, 1.0, 0.0));
        assert_eq!(hit.normal, Vec3::Y);
        assert!(!hit.started_embedded);
        assert_eq!(
            sweep_sphere_plane(&floor(), Vec3::new(0.0, 6.0, 0.0), 0.5, Vec3::new(1.0, -2.0, 0.0), 2.0),
            None
        );
    }

    #[test]
    fn away_parallel_behind_and_bad_input_never_hit() {
        let p = floor();
        assert_eq!(
            sweep_sphere_plane(&p, Vec3::new(0.0, 3.0, 0.0), 0.5, Vec3::Y, 10.0),
            None
        );
        assert_eq!(
            sweep_sphere_plane(&p, Vec3::new(0.0, 1.2, 0.0), 0.5, Vec3::X, 10.0),
            None
        );
        assert_eq!(
            sweep_sphere_plane(&p, Vec3::new(0.0, 0.9, 0.0), 0.5, Vec3::NEG_Y, 10.0),
            None
        );
        assert_eq!(
            sweep_sphere_plane(&p, Vec3::new(0.0, 3.0, 0.0), -0.5, Vec3::NEG_Y, 10.0),
            None
        );
        assert_eq!(
            sweep_sphere_plane(&p, Vec3::new(0.0, 3.0, 0.0), 0.5, Vec3::NAN, 10.0),
            None
        );
        assert_eq!(
            sweep_sphere_plane(&p, Vec3::new(0.0, 3.0, 0.0), 0.5, Vec3::NEG_Y, -1.0),
            None
        );
    }

    #[test]
    fn overlapping_and_moving_in_hits_at_once() {
        let hit = sweep_sphere_plane(&floor(), Vec3::new(0.0, 1.2, 0.0), 0.5, Vec3::new(0.0, -1.0, 1.0), 1.0).unwrap();
        assert_eq!(hit.time, 0.0);
        assert!(hit.started_embedded);
        assert!((hit.point - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-6);
        let touching = sweep_sphere_plane(&floor(), Vec3::new(0.0, 1.5, 0.0), 0.5, Vec3::NEG_Y, 0.0).unwrap();
        assert_eq!(touching.time, 0.0);
        assert!(!touching.started_embedded);
    }

    #[test]
    fn helpers_and_transform() {
        let p = floor();
        assert!((p.signed_distance(Vec3::new(9.0, -1.0, 4.0)) + 2.0).abs() < 1e-6);
        assert_eq!(p.closest_point(Vec3::new(9.0, -1.0, 4.0)), Vec3::new(9.0, 1.0, 4.0));
        let t = Affine3A::from_scale_rotation_translation(
            Vec3::splat(2.0),
            glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            Vec3::new(0.0, 0.0, 1.0),
        );
        let moved = p.transformed(&t).unwrap();
        assert!((moved.normal - Vec3::NEG_X).length() < 1e-6);
        assert!(moved.signed_distance(Vec3::new(-2.0, 0.0, 0.0)).abs() < 1e-5);
        assert_eq!(p.transformed(&Affine3A::from_scale(Vec3::new(1.0, 3.0, 1.0))), None);
        assert_eq!(Plane::new(Vec3::ZERO, Vec3::ZERO), None);
    }
}
