//! The character's frame: "up" from gravity, the ellipsoid's radii on the
//! world axes, and the ellipsoid's extent along "up".

use glam::Vec3;

/// Unit "up" opposite to `gravity`, or `previous` when gravity is (nearly) zero.
pub fn up_from_gravity(gravity: Vec3, previous: Vec3) -> Vec3 {
    let g = gravity.length();
    if g > 1e-6 {
        -gravity / g
    } else {
        previous.normalize_or(Vec3::Y)
    }
}

/// The ellipsoid stays axis-aligned (the core sweeps axis-aligned
/// ellipsoids): its y radius goes on the world axis closest to `up`, x and z
/// on the other two in order. Exact for gravity along an axis; for other
/// directions the tall axis is the nearest one.
pub fn world_radii(radii: Vec3, up: Vec3) -> Vec3 {
    let a = up.abs();
    if a.x >= a.y && a.x >= a.z {
        Vec3::new(radii.y, radii.x, radii.z)
    } else if a.z > a.y {
        Vec3::new(radii.x, radii.z, radii.y)
    } else {
        radii
    }
}

/// Distance from the centre to the lowest point of an axis-aligned
/// ellipsoid with `radii`, along the unit `up`, metres.
pub fn extent_along(radii: Vec3, up: Vec3) -> f32 {
    (radii * up).length()
}

/// An input direction made safe to compute with: a non-finite one is
/// zero, a finite one with a component above 1 is scaled down so that its
/// largest is 1 (the same direction; a huge finite one, up to `f32::MAX`,
/// would overflow to infinity in [`horizontal`] or a length).
pub fn bounded_direction(v: Vec3) -> Vec3 {
    if !v.is_finite() {
        return Vec3::ZERO;
    }
    let largest = v.abs().max_element();
    if largest > 1.0 { v / largest } else { v }
}

/// The part of `v` across `up`.
pub fn horizontal(v: Vec3, up: Vec3) -> Vec3 {
    v - up * v.dot(up)
}

/// `v` moved towards `target` by at most `max_change`.
pub(crate) fn move_towards(v: Vec3, target: Vec3, max_change: f32) -> Vec3 {
    let d = target - v;
    if d.length() <= max_change {
        target
    } else {
        v + d.normalize_or_zero() * max_change
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radii_follow_the_tall_axis() {
        let r = Vec3::new(0.4, 0.9, 0.3);
        assert_eq!(world_radii(r, Vec3::Y), r);
        assert_eq!(world_radii(r, -Vec3::Y), r);
        assert_eq!(world_radii(r, Vec3::X), Vec3::new(0.9, 0.4, 0.3));
        assert_eq!(world_radii(r, -Vec3::Z), Vec3::new(0.4, 0.3, 0.9));
        assert!((extent_along(Vec3::new(0.4, 0.9, 0.4), Vec3::Y) - 0.9).abs() < 1e-6);
        assert_eq!(up_from_gravity(Vec3::ZERO, -Vec3::X), -Vec3::X);
        assert_eq!(up_from_gravity(Vec3::new(0.0, 0.0, 9.81), Vec3::Y), -Vec3::Z);
    }
}
