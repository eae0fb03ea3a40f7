//! A moving capsule that balls bounce off and push: the player. The
//! player's ellipsoid is stood in for by the smallest upright capsule that
//! contains it (radius the widest horizontal radius, reaching the
//! ellipsoid's top and bottom), so a ball never enters the ellipsoid. The
//! price is a gap near the shoulders: for the default 0.4 × 0.9 m player a
//! ball bounces off at most 0.086 m from the ellipsoid (computed by
//! sampling both outlines); none at the waist, the top or the bottom.

use crate::solids::{Contact, Solids};
use crate::toi::time_of_impact;
use glam::Vec3;

/// An upright capsule moving in a straight line over the tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingCapsule {
    /// Centre at the start of the tick, metres.
    pub centre: Vec3,
    /// Velocity over the tick, m/s.
    pub velocity: Vec3,
    /// Unit axis (up).
    pub axis: Vec3,
    /// Half the length of the axis segment, metres (0: a sphere).
    pub half_segment: f32,
    /// Radius around the segment, metres.
    pub radius: f32,
    /// Friction factor of its surface, 0 … 1.
    pub friction: f32,
    /// The number reported in [`Contact::body`].
    pub body: u32,
}

impl MovingCapsule {
    /// The smallest upright capsule containing the ellipsoid with `radii`
    /// (metres, on the world axes) around `centre`, with "up" `axis`.
    pub fn around_ellipsoid(centre: Vec3, radii: Vec3, axis: Vec3, velocity: Vec3, body: u32) -> Self {
        let axis = axis.normalize_or(Vec3::Y);
        let along = (radii * axis).length();
        // The widest radius across the axis (on world axes, the largest
        // component off the axis).
        let across = (radii - radii * axis.abs()).max_element().max(radii.min_element());
        Self {
            centre,
            velocity,
            axis,
            half_segment: (along - across).max(0.0),
            radius: across,
            friction: 1.0,
            body,
        }
    }

    /// The closest point of the axis segment to `p`, with the capsule at `centre`.
    fn closest_on_segment(&self, centre: Vec3, p: Vec3) -> Vec3 {
        let s = (p - centre).dot(self.axis).clamp(-self.half_segment, self.half_segment);
        centre + self.axis * s
    }
}

impl Solids for MovingCapsule {
    fn sweep(&self, ball: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        let centre = self.centre + self.velocity * at;
        let reach = self.radius + radius;
        let (p, v) = (ball - centre, velocity - self.velocity);
        let (u, h) = (self.axis, self.half_segment);
        // Most balls of a tick pass nowhere near a player: the path
        // relative to the capsule misses the sphere around it (centre,
        // radius `h + reach`) at its closest approach. (A non-finite
        // input compares false and goes on to the exact test.)
        let closest_time = (-p.dot(v) / v.length_squared()).max(0.0).min(duration);
        if (p + v * closest_time).length_squared() > (h + reach) * (h + reach) {
            return None;
        }
        let mut best: Option<f32> = None;
        // Already touching: a contact now if closing in.
        let closest = self.closest_on_segment(centre, ball);
        if (ball - closest).length_squared() <= reach * reach {
            if (ball - closest).dot(v) >= 0.0 {
                return None;
            }
            best = Some(0.0);
        }
        // The side: the distance across the axis reaches `reach` with the
        // foot on the segment.
        if best.is_none() {
            let (w, wv) = (p - u * p.dot(u), v - u * v.dot(u));
            let (a, b, c) = (wv.length_squared(), w.dot(wv), w.length_squared() - reach * reach);
            let disc = b * b - a * c;
            if a > 0.0 && b < 0.0 && disc >= 0.0 {
                let t = c / (-b + disc.sqrt());
                if (0.0..=duration).contains(&t) && (p + v * t).dot(u).abs() <= h {
                    best = Some(t);
                }
            }
            // The two ends: spheres at ±h along the axis.
            for end in [u * h, -u * h] {
                if let Some(t) = time_of_impact(end - p, -v, reach, duration)
                    && best.is_none_or(|b| t < b)
                {
                    best = Some(t);
                }
            }
        }
        let t = best?;
        let (ball_then, centre_then) = (ball + velocity * t, centre + self.velocity * t);
        let foot = self.closest_on_segment(centre_then, ball_then);
        let normal = (ball_then - foot).normalize_or(-v.normalize_or(Vec3::Y));
        Some(Contact {
            time: t,
            point: foot + normal * self.radius,
            normal,
            surface_velocity: self.velocity,
            friction: self.friction,
            body: Some(self.body),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player() -> MovingCapsule {
        MovingCapsule::around_ellipsoid(Vec3::ZERO, Vec3::new(0.4, 0.9, 0.4), Vec3::Y, Vec3::ZERO, 7)
    }

    #[test]
    fn the_capsule_contains_the_ellipsoid_and_touches_it_at_waist_top_and_bottom() {
        let c = player();
        assert!(c.radius == 0.4 && (c.half_segment - 0.5).abs() < 1e-6, "{c:?}");
        // Head-on at the waist: touches at 0.4 + 0.1 from the axis.
        let hit = c
            .sweep(Vec3::new(2.0, 0.0, 0.0), 0.1, Vec3::new(-3.0, 0.0, 0.0), 0.0, 1.0)
            .unwrap();
        assert!((hit.time - 0.5).abs() < 1e-5, "{hit:?}");
        assert!((hit.normal - Vec3::X).length() < 1e-5 && hit.body == Some(7));
        // Falling on the head: touches at 0.9 + 0.1.
        let hit = c
            .sweep(Vec3::new(0.0, 3.0, 0.0), 0.1, Vec3::new(0.0, -4.0, 0.0), 0.0, 1.0)
            .unwrap();
        assert!(
            (hit.time - 0.5).abs() < 1e-5 && (hit.normal - Vec3::Y).length() < 1e-5,
            "{hit:?}"
        );
        // Every point of the ellipsoid is inside the capsule.
        for k in 0..200 {
            let (a, b) = (k as f32 * 0.61, k as f32 * 0.37);
            let q = Vec3::new(0.4 * a.cos() * b.cos(), 0.9 * b.sin(), 0.4 * a.sin() * b.cos());
            let foot = c.closest_on_segment(Vec3::ZERO, q);
            assert!((q - foot).length() <= 0.4 + 1e-5, "{q}");
        }
    }

    #[test]
    fn a_moving_capsule_hits_a_resting_ball_and_misses_a_ball_beside_its_path() {
        let mut c = player();
        c.velocity = Vec3::new(2.0, 0.0, 0.0);
        let hit = c.sweep(Vec3::new(1.5, -0.5, 0.0), 0.1, Vec3::ZERO, 0.0, 1.0).unwrap();
        assert!((hit.time - 0.5).abs() < 1e-5, "{hit:?}");
        assert_eq!(hit.surface_velocity, c.velocity);
        assert!(c.sweep(Vec3::new(1.5, 0.0, 0.6), 0.1, Vec3::ZERO, 0.0, 1.0).is_none());
        // Moving apart from a touching ball: nothing.
        assert!(c.sweep(Vec3::new(-0.5, 0.0, 0.0), 0.1, Vec3::ZERO, 0.0, 1.0).is_none());
    }
}
