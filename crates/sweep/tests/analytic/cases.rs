//! Random sweeps around a shape (from outside it, half of them aimed at
//! its surface) and random cylinders, some degenerate.

use glam::Vec3;
use slidewalk_sweep::test_util::Lcg;
use slidewalk_sweep::{AnalyticShape, Cylinder};

/// A random sweep: start, velocity (m/s), radius, duration (s).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Case {
    pub(crate) start: Vec3,
    pub(crate) velocity: Vec3,
    pub(crate) radius: f32,
    pub(crate) t_max: f32,
}

/// A random case outside `shape` (at least `clearance` beyond the sphere's
/// radius), aimed half the time at a point near the shape's surface.
pub(crate) fn random_case(rng: &mut Lcg, shape: &AnalyticShape, around: (Vec3, Vec3), clearance: f32) -> Case {
    loop {
        let radius = rng.range(0.1, 1.5);
        let start = rng.in_box(around.0, around.1);
        if shape.signed_distance(start) <= radius + clearance {
            continue;
        }
        let direction = if rng.next_f32() < 0.5 {
            let target = rng.in_box(around.0, around.1);
            let on_surface = shape.closest_point(target) + rng.direction() * rng.range(0.0, radius * 1.2);
            (on_surface - start).normalize_or_zero()
        } else {
            rng.direction()
        };
        let speed = rng.range(0.5, 10.0);
        let t_max = rng.range(0.5, 20.0) / speed;
        if direction != Vec3::ZERO {
            return Case {
                start,
                velocity: direction * speed,
                radius,
                t_max,
            };
        }
    }
}

/// A random cylinder, sometimes degenerate (a disk or a segment).
pub(crate) fn random_cylinder(rng: &mut Lcg) -> Cylinder {
    let height = if rng.next_f32() < 0.1 { 0.0 } else { rng.range(0.1, 5.0) };
    let radius = if rng.next_f32() < 0.1 { 0.0 } else { rng.range(0.1, 3.0) };
    Cylinder::new(
        rng.in_box(Vec3::splat(-3.0), Vec3::splat(3.0)),
        rng.direction(),
        height,
        radius,
    )
    .unwrap()
}
