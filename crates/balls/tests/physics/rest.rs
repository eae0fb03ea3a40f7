//! Rest instead of jitter: a dropped ball comes to rest and sleeps, a
//! sleeping ball whose support is knocked away falls, and a ball wedged in
//! a slot narrower than itself stays put without gaining speed.

use crate::support::{TOLERANCE, box_mesh, floor};
use glam::Vec3;
use slidewalk_balls::{Ball, BallConfig, BallSimulation, MeshSolids};
use slidewalk_sweep::PlacedCollider;

#[test]
fn a_dropped_ball_comes_to_rest_and_sleeps() {
    let floor = floor();
    let placed = [PlacedCollider::fixed(&floor)];
    let solids = MeshSolids::new(&placed);
    let mut world = BallSimulation::new(BallConfig::default());
    world
        .balls
        .push(Ball::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.1));
    let mut slept_at = None;
    for tick in 0..600 {
        world.step(1.0 / 60.0, &solids);
        let b = &world.balls[0];
        assert!(b.position.y >= 0.1 - TOLERANCE, "tick {tick}: {}", b.position);
        if b.asleep && slept_at.is_none() {
            slept_at = Some(tick);
        }
    }
    let b = &world.balls[0];
    assert!(slept_at.is_some_and(|t| t < 400), "slept at {slept_at:?}, {b:?}");
    assert!((b.position.y - 0.1).abs() < 0.01, "resting at {}", b.position);
}

#[test]
fn a_sleeping_ball_whose_support_is_knocked_away_falls() {
    // Ball 1 sleeps on top of ball 0 on the floor; ball 0 is knocked away sideways.
    let floor = floor();
    let placed = [PlacedCollider::fixed(&floor)];
    let solids = MeshSolids::new(&placed);
    let mut world = BallSimulation::new(BallConfig::default());
    let r = 0.1;
    world
        .balls
        .push(Ball::new(Vec3::new(0.0, r + 1e-4, 0.0), Vec3::ZERO, r));
    world
        .balls
        .push(Ball::new(Vec3::new(0.0, 3.0 * r + 2e-4, 0.0), Vec3::ZERO, r));
    for b in &mut world.balls {
        b.asleep = true;
    }
    world.balls[0].velocity = Vec3::new(3.0, 0.0, 0.0);
    world.balls[0].asleep = false;
    for _ in 0..60 {
        world.step(1.0 / 60.0, &solids);
    }
    let top = world.balls[1];
    assert!(
        top.position.y < 2.0 * r,
        "the top ball hangs at {} with nothing under it",
        top.position
    );
}

#[test]
fn a_ball_wedged_in_a_slot_narrower_than_itself_stays_put_and_does_not_gain_speed() {
    // Found on the demo level: a 0.202 m ball in a 0.2 m slot bounced
    // between its walls until the impact cap every tick while gravity
    // added 0.16 m/s a tick to a velocity it could never use.
    let left = box_mesh(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(-0.1, 2.0, 1.0));
    let right = box_mesh(Vec3::new(0.1, 0.0, -1.0), Vec3::new(1.0, 2.0, 1.0));
    let floor = box_mesh(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 0.0, 1.0));
    let placed = [
        PlacedCollider::fixed(&left),
        PlacedCollider::fixed(&right),
        PlacedCollider::fixed(&floor),
    ];
    let solids = MeshSolids::new(&placed);
    // Already between the walls, touching one, a hair too wide to fit.
    let mut world = BallSimulation::new(BallConfig::default());
    world
        .balls
        .push(Ball::new(Vec3::new(0.0, 1.5, 0.0), Vec3::new(0.5, 0.0, 0.0), 0.101));
    for tick in 0..300 {
        world.step(1.0 / 60.0, &solids);
        let b = &world.balls[0];
        assert!(b.velocity.length() < 10.0, "tick {tick}: speed {}", b.velocity.length());
        assert!(
            b.position.x.abs() < 0.1,
            "tick {tick}: out through a wall at {}",
            b.position
        );
        assert!(b.position.y > 0.0, "tick {tick}: through the floor at {}", b.position);
    }
}
