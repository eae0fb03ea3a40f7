//! The skin a slide keeps from surfaces (raised far from the origin to
//! stay above f32 resolution) and the eSpace distance from the centre to a
//! triangle, which the slide loop and the depenetration share.

use crate::triangle::closest_point_on_triangle;
use glam::Vec3;

/// Largest skin used, eSpace units: coordinates so far from the origin
/// that f32 cannot resolve a quarter of the radius there get no more (the
/// fuzzer found an infinite skin turning a depenetration into NaN).
const MAX_SKIN: f32 = 0.25;

/// The skin actually used: the requested one, raised to a few f32 ulps of
/// the coordinates involved (eSpace), so rounding never eats it, and at
/// most [`MAX_SKIN`].
pub(super) fn effective_skin(skin: f32, pos: Vec3, motion: Vec3, r: Vec3) -> f32 {
    let scale = ((pos.abs() + motion.abs()) / r).max_element();
    let skin = if skin.is_finite() { skin.max(0.0) } else { 0.0 };
    skin.max(32.0 * f32::EPSILON * scale).clamp(1e-5, MAX_SKIN)
}

/// eSpace distance from the centre `pos` to a world triangle.
pub(super) fn touch_distance(pos: Vec3, tri: &[Vec3; 3], r: Vec3) -> f32 {
    let [a, b, c] = tri.map(|p| (p - pos) / r);
    closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
}
