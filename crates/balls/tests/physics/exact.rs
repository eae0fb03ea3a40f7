//! The exact parts: a bounce reflects exactly, the time of impact puts two
//! spheres exactly in touch, ball–ball impacts keep momentum (and energy
//! when elastic), and no ball tunnels through a thin wall at 100 m/s.

use crate::support::{Rng, TOLERANCE, box_mesh, elastic, floor};
use glam::Vec3;
use slidewalk_balls::{Ball, BallConfig, BallSimulation, MeshSolids, NoSolids, time_of_impact};
use slidewalk_sweep::PlacedCollider;

#[test]
fn an_elastic_bounce_keeps_the_speed_and_the_angle_in_is_the_angle_out() {
    let floor = floor();
    let placed = [PlacedCollider::fixed(&floor)];
    let solids = MeshSolids::new(&placed);
    let mut rng = Rng(7);
    for _ in 0..200 {
        let speed = rng.range(1.0, 30.0);
        let angle = rng.range(0.1, 1.5); // from the floor
        let heading = rng.range(0.0, std::f32::consts::TAU);
        let v = Vec3::new(angle.cos() * heading.cos(), -angle.sin(), angle.cos() * heading.sin()) * speed;
        let mut world = BallSimulation::new(elastic());
        // Starts so it reaches the floor a third of the way into the tick.
        let dt = 0.1;
        let start = Vec3::new(0.0, 0.2, 0.0) - v * dt / 3.0;
        world.balls.push(Ball::new(start, v, 0.2));
        let report = world.step(dt, &solids);
        assert_eq!(report.impacts.len(), 1, "{v}");
        let out = world.balls[0].velocity;
        assert!(
            (out.length() - speed).abs() < 1e-4 * speed,
            "speed {} → {}",
            speed,
            out.length()
        );
        let angle_out = (out.y / out.length()).asin();
        assert!((angle_out - angle).abs() < 1e-4, "angle {angle} → {angle_out}");
        assert!((Vec3::new(out.x, 0.0, out.z) - Vec3::new(v.x, 0.0, v.z)).length() < 1e-4 * speed);
    }
}

#[test]
fn the_time_of_impact_puts_the_spheres_exactly_in_touch() {
    let mut rng = Rng(11);
    let mut hits = 0;
    for k in 0..5000 {
        let p = rng.vec(-3.0, 3.0);
        // Half of them aimed roughly at the other sphere.
        let v = if k % 2 == 0 {
            -p * rng.range(0.5, 4.0) + rng.vec(-1.0, 1.0)
        } else {
            rng.vec(-10.0, 10.0)
        };
        let reach = rng.range(0.05, 1.0);
        if p.length() <= reach {
            continue;
        }
        match time_of_impact(p, v, reach, 1.0) {
            Some(s) => {
                hits += 1;
                let gap = (p + v * s).length() - reach;
                assert!(gap.abs() < 1e-4, "gap {gap} at {s}");
                // Not touching any earlier (sampled).
                for k in 0..50 {
                    let t = s * k as f32 / 50.0;
                    assert!((p + v * t).length() >= reach - 1e-4);
                }
            }
            None => {
                // Closest approach within the horizon stays apart.
                let t = (-p.dot(v) / v.length_squared()).clamp(0.0, 1.0);
                assert!((p + v * t).length() >= reach - 1e-4);
            }
        }
    }
    assert!(hits > 1000, "{hits} hits");
}

#[test]
fn momentum_is_conserved_and_energy_too_when_elastic() {
    let mut rng = Rng(3);
    for trial in 0..40 {
        let mut world = BallSimulation::new(elastic());
        for _ in 0..60 {
            let radius = rng.range(0.05, 0.3);
            let position = rng.vec(-4.0, 4.0);
            if world
                .balls
                .iter()
                .any(|b| (b.position - position).length() < b.radius + radius + 0.01)
            {
                continue;
            }
            let mut ball = Ball::new(position, rng.vec(-6.0, 6.0), radius);
            ball.mass *= rng.range(0.5, 3.0);
            world.balls.push(ball);
        }
        let momentum = |w: &BallSimulation| w.balls.iter().map(|b| b.velocity * b.mass).sum::<Vec3>();
        let energy = |w: &BallSimulation| w.balls.iter().map(Ball::kinetic_energy).sum::<f32>();
        let (p0, e0) = (momentum(&world), energy(&world));
        let mut impacts = 0;
        for _ in 0..30 {
            impacts += world.step(1.0 / 60.0, &NoSolids).impacts.len();
        }
        let (p1, e1) = (momentum(&world), energy(&world));
        assert!(
            (p1 - p0).length() < 1e-3 * (1.0 + p0.length()),
            "trial {trial}: {p0} → {p1}"
        );
        assert!((e1 - e0).abs() < 1e-3 * e0, "trial {trial}: {e0} J → {e1} J");
        assert!(impacts > 0 || trial > 0, "the balls must meet");
    }
}

#[test]
fn a_ball_at_100_m_s_never_passes_a_1_cm_wall() {
    let wall = box_mesh(Vec3::new(-0.005, -5.0, -5.0), Vec3::new(0.005, 5.0, 5.0));
    let placed = [PlacedCollider::fixed(&wall)];
    let solids = MeshSolids::new(&placed);
    let mut rng = Rng(5);
    for _ in 0..500 {
        let radius = rng.range(0.02, 0.2);
        let start = Vec3::new(-rng.range(0.3, 2.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let dir = Vec3::new(1.0, rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)).normalize();
        let mut world = BallSimulation::new(BallConfig {
            restitution: rng.range(0.0, 1.0),
            ..BallConfig::default()
        });
        world.balls.push(Ball::new(start, dir * 100.0, radius));
        for _ in 0..10 {
            world.step(1.0 / 60.0, &solids);
            let b = &world.balls[0];
            if b.position.y.abs() < 4.5 && b.position.z.abs() < 4.5 {
                assert!(
                    b.position.x <= -0.005 - radius + TOLERANCE,
                    "through the wall: {}",
                    b.position
                );
            }
        }
    }
}
