//! Headings: yaw angles about "up" (0 looks along −z, positive turns left,
//! counter-clockwise seen from above) and the walking direction they give.

use glam::{Quat, Vec2, Vec3};

/// The unit direction a heading of `yaw` radians looks along, turned so
/// that `up` is up (for y up: `(−sin yaw, 0, −cos yaw)`).
pub fn heading_direction(yaw: f32, up: Vec3) -> Vec3 {
    let flat = Vec3::new(-libm::sinf(yaw), 0.0, -libm::cosf(yaw));
    Quat::from_rotation_arc(Vec3::Y, up.normalize_or(Vec3::Y)) * flat
}

/// World walking direction for `wish` = [right, forward] (each −1..1,
/// length clamped to 1) relative to the heading `yaw`, for "up" `up`.
pub fn walk_direction(wish: Vec2, yaw: f32, up: Vec3) -> Vec3 {
    let wish = if wish.is_finite() {
        wish.clamp_length_max(1.0)
    } else {
        Vec2::ZERO
    };
    let forward = heading_direction(yaw, up);
    let right = forward.cross(up.normalize_or(Vec3::Y));
    right * wish.x + forward * wish.y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaw_zero_looks_along_minus_z_and_positive_turns_left() {
        let close = |a: Vec3, b: Vec3| (a - b).length() < 1e-6;
        assert!(close(heading_direction(0.0, Vec3::Y), Vec3::NEG_Z));
        assert!(close(heading_direction(90f32.to_radians(), Vec3::Y), Vec3::NEG_X));
        assert!(close(walk_direction(Vec2::new(1.0, 0.0), 0.0, Vec3::Y), Vec3::X));
        assert!(close(walk_direction(Vec2::new(0.0, 1.0), 0.0, Vec3::Y), Vec3::NEG_Z));
        assert!(close(walk_direction(Vec2::new(3.0, 0.0), 0.0, Vec3::Y), Vec3::X));
        assert_eq!(walk_direction(Vec2::NAN, 0.0, Vec3::Y), Vec3::ZERO);
    }
}
