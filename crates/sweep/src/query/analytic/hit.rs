//! The contact an analytic sweep reports ([`AnalyticHit`]), and what the
//! plane and cylinder sweeps share to make one: the check of their inputs,
//! contact times rounded down to `f32`, and the scale of a similarity
//! transform.

use glam::{Affine3A, Vec3};

/// The first contact of a swept sphere with an analytic collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalyticHit {
    /// Seconds after the sweep's start, in `[0, t_max]`.
    pub time: f32,
    /// The contact point on the collider's surface, metres.
    pub point: Vec3,
    /// Unit surface normal at the contact, from the surface towards the
    /// sphere's centre.
    pub normal: Vec3,
    /// The sphere already overlapped the collider at the start and moved
    /// deeper (`time` is 0).
    pub started_embedded: bool,
}

/// The uniform scale of a similarity transform, `None` for anything else
/// (non-uniform scale, shear, a singular or non-finite matrix).
pub(super) fn similarity_scale(transform: &Affine3A) -> Option<f32> {
    let m = transform.matrix3;
    let cols = [m.x_axis, m.y_axis, m.z_axis].map(Vec3::from);
    let lengths = cols.map(Vec3::length);
    let scale = (lengths[0] + lengths[1] + lengths[2]) / 3.0;
    let uniform = lengths.iter().all(|l| (l - scale).abs() <= 1e-4 * scale);
    let square = [(0, 1), (1, 2), (2, 0)]
        .iter()
        .all(|&(i, j)| cols[i].dot(cols[j]).abs() <= 1e-4 * scale * scale);
    (scale.is_finite() && scale > 0.0 && uniform && square && transform.translation.is_finite()).then_some(scale)
}

/// A contact time rounded to `f32` downwards, so rounding never makes a
/// contact late.
pub(super) fn time_not_after(t: f64) -> f32 {
    let rounded = t as f32;
    if rounded as f64 > t {
        rounded.next_down()
    } else {
        rounded
    }
}

/// Checks shared by the sweeps: finite inputs, a non-negative radius and time.
pub(super) fn valid_sweep(centre: Vec3, radius: f32, velocity: Vec3, t_max: f32) -> bool {
    centre.is_finite()
        && velocity.is_finite()
        && radius.is_finite()
        && radius >= 0.0
        && t_max.is_finite()
        && t_max >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn similarity_scale_accepts_rigid_and_uniform_only() {
        let rigid = Affine3A::from_rotation_translation(Quat::from_rotation_y(0.3), Vec3::ONE);
        assert!((similarity_scale(&rigid).unwrap() - 1.0).abs() < 1e-6);
        let scaled = Affine3A::from_scale_rotation_translation(Vec3::splat(2.5), Quat::from_rotation_x(1.0), Vec3::X);
        assert!((similarity_scale(&scaled).unwrap() - 2.5).abs() < 1e-5);
        let mirrored = Affine3A::from_scale(Vec3::new(-2.0, 2.0, 2.0));
        assert_eq!(similarity_scale(&mirrored), Some(2.0));
        assert_eq!(similarity_scale(&Affine3A::from_scale(Vec3::new(1.0, 2.0, 1.0))), None);
        assert_eq!(similarity_scale(&Affine3A::from_scale(Vec3::ZERO)), None);
        let shear = Affine3A::from_cols_array(&[1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(similarity_scale(&shear), None);
    }
}
