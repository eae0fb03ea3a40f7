//! Generators shared by the targets: floats and vectors drawn from fuzzer
//! bytes with the values that break geometry code over-represented (zero,
//! signed zero, NaN, infinities, 1e±30, subnormals, `f32::MAX`).

use arbitrary::{Result, Unstructured};
use glam::{Quat, Vec3};

/// Floats that are worth trying anywhere a float goes.
pub const SPECIAL_F32: &[f32] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    1e-3,
    1e-7,
    1e-30,
    -1e-30,
    1e30,
    -1e30,
    1e6,
    -1e6,
    f32::EPSILON,
    f32::MIN_POSITIVE,
    1e-45, // the smallest subnormal
    f32::MAX,
    f32::MIN,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
];

/// Any float: a special value, a bit pattern, or a "reasonable" number in
/// `-range..range`.
pub fn any_f32(u: &mut Unstructured<'_>, range: f32) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=9)? {
        0 => *u.choose(SPECIAL_F32)?,
        1 => f32::from_bits(u.arbitrary()?),
        _ => unit(u)? * range,
    })
}

/// A finite float: like [`any_f32`] with NaN and infinities mapped to 0.
pub fn finite_f32(u: &mut Unstructured<'_>, range: f32) -> Result<f32> {
    let v = any_f32(u, range)?;
    Ok(if v.is_finite() { v } else { 0.0 })
}

/// A float in `-1..=1` on a 1/32768 grid (the common case of "a sane value").
pub fn unit(u: &mut Unstructured<'_>) -> Result<f32> {
    Ok(u.int_in_range(-32768i32..=32768)? as f32 / 32768.0)
}

/// A float in `lo..=hi` (a sane value).
pub fn in_range(u: &mut Unstructured<'_>, lo: f32, hi: f32) -> Result<f32> {
    Ok(lo + (unit(u)? * 0.5 + 0.5) * (hi - lo))
}

/// Mostly `default`, sometimes [`any_f32`]: a configuration field.
pub fn maybe_f32(u: &mut Unstructured<'_>, default: f32, range: f32) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => any_f32(u, range)?,
        1 => default * in_range(u, 0.0, 3.0)?,
        _ => default,
    })
}

/// Any vector ([`any_f32`] per component).
pub fn any_vec3(u: &mut Unstructured<'_>, range: f32) -> Result<Vec3> {
    Ok(Vec3::new(any_f32(u, range)?, any_f32(u, range)?, any_f32(u, range)?))
}

/// A finite vector ([`finite_f32`] per component).
pub fn finite_vec3(u: &mut Unstructured<'_>, range: f32) -> Result<Vec3> {
    Ok(Vec3::new(
        finite_f32(u, range)?,
        finite_f32(u, range)?,
        finite_f32(u, range)?,
    ))
}

/// A sane vector in `-range..range` per component.
pub fn sane_vec3(u: &mut Unstructured<'_>, range: f32) -> Result<Vec3> {
    Ok(Vec3::new(unit(u)?, unit(u)?, unit(u)?) * range)
}

/// A unit quaternion: identity, a right-angle turn, or any rotation.
pub fn rotation(u: &mut Unstructured<'_>) -> Result<Quat> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => Quat::IDENTITY,
        1 => Quat::from_rotation_y(std::f32::consts::FRAC_PI_2 * u.int_in_range(0u8..=3)? as f32),
        _ => {
            let axis = sane_vec3(u, 1.0)?.try_normalize().unwrap_or(Vec3::Y);
            Quat::from_axis_angle(axis, unit(u)? * std::f32::consts::PI)
        }
    })
}

/// A length scale for a whole scene, metres: 1 most often, else tiny,
/// huge or anything positive and finite.
pub fn scale(u: &mut Unstructured<'_>) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=9)? {
        0 => *u.choose(&[1e-30, 1e-12, 1e-6, 1e-3, 1e3, 1e6, 1e12, 1e30])?,
        1 => 10f32.powf(in_range(u, -38.0, 38.0)?),
        2 => in_range(u, 0.01, 100.0)?,
        _ => 1.0,
    })
}

/// Whether every float of a vector is finite and below `limit` in size.
pub fn bounded(v: Vec3, limit: f32) -> bool {
    v.is_finite() && v.abs().max_element() <= limit
}
