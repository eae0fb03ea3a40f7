//! The exact time of impact of two moving spheres, and the impact
//! responses (ball–ball impulse, reflection off a surface with friction).

use glam::Vec3;

/// Closing speeds below this (m/s) are resting contact, not an impact: over
/// a 60 Hz tick they close 0.2 µm.
pub const SLOW_CLOSING: f32 = 1e-5;

/// Seconds from now until two spheres first touch, within `horizon`
/// seconds: `p` and `v` are the second sphere's position and velocity
/// relative to the first, `reach` the sum of the radii. The smallest
/// root of `|p + v·s|² = reach²`, taken only while they approach. Spheres
/// already overlapping and approaching touch at 0.
pub fn time_of_impact(p: Vec3, v: Vec3, reach: f32, horizon: f32) -> Option<f32> {
    let approach = p.dot(v);
    // Separating or sliding past: never closer than now. Closing slower
    // than `SLOW_CLOSING` counts as resting contact (what is left of an
    // inelastic impact after rounding), not as another impact.
    if approach >= -SLOW_CLOSING * p.length() {
        return None;
    }
    let c = p.length_squared() - reach * reach;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = v.length_squared();
    // b/2 = approach; discriminant / 4:
    let disc = approach * approach - a * c;
    if disc < 0.0 {
        return None;
    }
    // The smaller root, in the cancellation-free form c / (−b/2 + √disc).
    let s = c / (-approach + disc.sqrt());
    (s <= horizon).then_some(s)
}

/// The velocities after two balls meet: an impulse along the unit normal
/// `n` (from ball 1 towards ball 2) with restitution `e`. The balls are
/// given by their inverse masses (1/kg; 0 is immovable, not both). Returns
/// the new velocities; unchanged if they are already separating along `n`.
pub fn ball_impulse(v1: Vec3, inverse_m1: f32, v2: Vec3, inverse_m2: f32, n: Vec3, e: f32) -> (Vec3, Vec3) {
    let closing = (v2 - v1).dot(n);
    if closing >= 0.0 || inverse_m1 + inverse_m2 <= 0.0 {
        return (v1, v2);
    }
    let j = -(1.0 + e) * closing / (inverse_m1 + inverse_m2);
    (v1 - n * (j * inverse_m1), v2 + n * (j * inverse_m2))
}

/// The velocity after hitting a surface with unit normal `n` (towards the
/// ball) moving at `surface`: relative to the surface, the normal part is
/// reflected with restitution `e` (`R = V − (1+e)(V·N)N`) and the
/// tangential part loses a Coulomb friction impulse `μ·(1+e)·|Vn|`, at
/// most all of it (friction stops sliding, never reverses it).
pub fn surface_response(velocity: Vec3, surface: Vec3, n: Vec3, e: f32, mu: f32) -> Vec3 {
    let relative = velocity - surface;
    let vn = relative.dot(n);
    if vn >= 0.0 {
        return velocity;
    }
    let tangential = relative - n * vn;
    let t_speed = tangential.length();
    let friction = mu * (1.0 + e) * -vn;
    let kept = if t_speed > 0.0 {
        (1.0 - friction / t_speed).max(0.0)
    } else {
        0.0
    };
    surface + tangential * kept - n * (vn * e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_spheres_meet_when_the_gap_closes() {
        // 1 m apart centre to centre, radii 0.1 + 0.2, closing at 2 m/s.
        let s = time_of_impact(Vec3::new(1.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0), 0.3, 1.0).unwrap();
        assert!((s - 0.35).abs() < 1e-6, "{s}");
        // Too far for the horizon; separating; missing.
        assert_eq!(
            time_of_impact(Vec3::new(1.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0), 0.3, 0.3),
            None
        );
        assert_eq!(
            time_of_impact(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.3, 9.0),
            None
        );
        assert_eq!(
            time_of_impact(Vec3::new(1.0, 0.5, 0.0), Vec3::new(-2.0, 0.0, 0.0), 0.3, 9.0),
            None
        );
        // Overlapping and approaching: now.
        assert_eq!(
            time_of_impact(Vec3::new(0.2, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0), 0.3, 1.0),
            Some(0.0)
        );
    }

    #[test]
    fn an_elastic_wall_keeps_the_speed_and_mirrors_the_angle() {
        let v = Vec3::new(3.0, -4.0, 0.0);
        let r = surface_response(v, Vec3::ZERO, Vec3::Y, 1.0, 0.0);
        assert!((r - Vec3::new(3.0, 4.0, 0.0)).length() < 1e-6);
        // Friction slows the slide but never reverses it.
        let r = surface_response(Vec3::new(0.1, -4.0, 0.0), Vec3::ZERO, Vec3::Y, 0.5, 1.0);
        assert!(r.x.abs() < 1e-7 && (r.y - 2.0).abs() < 1e-6, "{r}");
    }
}
