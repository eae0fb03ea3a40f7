//! Solids that move: a lift lifts a resting ball and never overruns a
//! rising one, a pile on a rising lift with the player walking through it
//! ends every tick, and the player kicks a ball and takes the opposite
//! impulse.

use crate::support::{Rng, TOLERANCE, box_mesh};
use glam::Vec3;
use slidewalk_balls::{Ball, BallConfig, BallSimulation, ImpactKind, MeshSolids, MovingCapsule, NoSolids};
use slidewalk_sweep::PlacedCollider;

#[test]
fn a_rising_lift_lifts_a_resting_ball() {
    // A 2 m platform rising at 1 m/s under a ball at rest on it.
    let platform = box_mesh(Vec3::new(-1.0, -0.2, -1.0), Vec3::new(1.0, 0.0, 1.0));
    let mut world = BallSimulation::new(BallConfig::default());
    world
        .balls
        .push(Ball::new(Vec3::new(0.0, 0.1 + 1e-4, 0.0), Vec3::ZERO, 0.1));
    for tick in 0..60 {
        let height = tick as f32 / 60.0;
        let pose = slidewalk_sweep::Pose {
            translation: Vec3::new(0.0, height, 0.0),
            ..slidewalk_sweep::Pose::IDENTITY
        };
        let placed = [PlacedCollider::moving(&platform, pose, Vec3::Y, Vec3::ZERO)];
        world.wake_within(Vec3::splat(-1.5), Vec3::new(1.5, height + 1.0, 1.5));
        world.step(1.0 / 60.0, &MeshSolids::new(&placed));
        let b = &world.balls[0];
        assert!(
            b.position.y >= height + 1.0 / 60.0 + 0.1 - 0.02,
            "tick {tick}: ball at {} under the platform top {}",
            b.position.y,
            height
        );
    }
}

#[test]
fn a_lift_catching_up_with_a_rising_ball_never_ends_a_tick_inside_it() {
    // The lift rises at 2 m/s; the ball starts just above it rising at
    // 2.5 m/s, slows under gravity and is caught while still moving up.
    let platform = box_mesh(Vec3::new(-1.0, -0.2, -1.0), Vec3::new(1.0, 0.0, 1.0));
    let radius = 0.1;
    let mut world = BallSimulation::new(BallConfig::default());
    world.balls.push(Ball::new(
        Vec3::new(0.0, radius + 0.05, 0.0),
        Vec3::new(0.0, 2.5, 0.0),
        radius,
    ));
    let mut caught = false;
    for tick in 0..90 {
        let top = 2.0 * (tick + 1) as f32 / 60.0;
        let pose = slidewalk_sweep::Pose {
            translation: Vec3::new(0.0, top - 2.0 / 60.0, 0.0),
            ..slidewalk_sweep::Pose::IDENTITY
        };
        let placed = [PlacedCollider::moving(&platform, pose, Vec3::Y * 2.0, Vec3::ZERO)];
        world.wake_within(Vec3::splat(-1.5), Vec3::new(1.5, top + 1.0, 1.5));
        let report = world.step(1.0 / 60.0, &MeshSolids::new(&placed));
        caught |= report.impacts.iter().any(|i| i.kind == ImpactKind::Surface);
        let gap = world.balls[0].position.y - radius - top;
        assert!(gap >= -1e-5, "tick {tick}: the ball is {} m inside the lift", -gap);
    }
    assert!(caught, "the lift never reached the ball");
}

#[test]
fn a_pile_on_a_rising_lift_with_the_player_walking_through_it_ends_every_tick() {
    // Two moving obstacles pushing a jammed pile two ways (the lift up, the
    // player sideways): every tick must end, with nothing NaN. (Balls the
    // lift overruns are pushed out by the game after the tick, `push_out_of`.)
    let platform = box_mesh(Vec3::new(-1.0, -0.2, -1.0), Vec3::new(1.0, 0.0, 1.0));
    let walls = box_mesh(Vec3::new(-1.05, -5.0, -1.05), Vec3::new(-1.0, 5.0, 1.05));
    let mut rng = Rng(77);
    let mut world = BallSimulation::new(BallConfig::default());
    while world.balls.len() < 150 {
        let p = Vec3::new(rng.range(-0.9, 0.9), rng.range(0.2, 2.0), rng.range(-0.9, 0.9));
        if world.balls.iter().all(|b| (b.position - p).length() > 0.21) {
            world.balls.push(Ball::new(p, Vec3::ZERO, 0.1));
        }
    }
    for tick in 0..180 {
        let lift = Vec3::Y * 1.5;
        let pose = slidewalk_sweep::Pose {
            translation: lift * (tick as f32 / 60.0),
            ..slidewalk_sweep::Pose::IDENTITY
        };
        let placed = [
            PlacedCollider::fixed(&walls),
            PlacedCollider::moving(&platform, pose, lift, Vec3::ZERO),
        ];
        let player = MovingCapsule::around_ellipsoid(
            Vec3::new(-1.5 + 3.0 * tick as f32 / 180.0, pose.translation.y + 0.9, 0.0),
            Vec3::new(0.4, 0.9, 0.4),
            Vec3::Y,
            Vec3::new(3.0, 1.5, 0.0),
            0,
        );
        world.wake_within(Vec3::splat(-3.0), Vec3::splat(9.0));
        world.step(1.0 / 60.0, &(MeshSolids::new(&placed), player));
        for b in &world.balls {
            assert!(b.position.is_finite() && b.velocity.is_finite(), "tick {tick}: {b:?}");
        }
    }
}

#[test]
fn the_player_kicks_a_resting_ball_and_takes_the_opposite_impulse() {
    let config = BallConfig {
        gravity: Vec3::ZERO,
        ..BallConfig::default()
    };
    let mut world = BallSimulation::new(config);
    world.balls.push(Ball::new(Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO, 0.1));
    // The player walks into it at 3 m/s along +x.
    let player = MovingCapsule::around_ellipsoid(
        Vec3::ZERO,
        Vec3::new(0.4, 0.9, 0.4),
        Vec3::Y,
        Vec3::new(3.0, 0.0, 0.0),
        0,
    );
    let report = world.step(0.5, &player);
    let kick = report
        .impacts
        .iter()
        .find(|i| i.kind == ImpactKind::Body(0))
        .expect("a kick");
    // Reflected relative to the player: 3 + 0.8 · 3 m/s.
    let v = world.balls[0].velocity;
    assert!((v - Vec3::new(5.4, 0.0, 0.0)).length() < 1e-3, "{v}");
    assert!((kick.impulse - v * world.balls[0].mass).length() < 1e-2, "{kick:?}");
    // The ball is ahead of the player at the end, not inside it.
    let player_x = 3.0 * 0.5;
    assert!(
        world.balls[0].position.x >= player_x + 0.5 - TOLERANCE,
        "{}",
        world.balls[0].position
    );
}

#[test]
fn balls_meet_every_player_of_five_and_the_nearest_of_two_in_line() {
    let config = BallConfig {
        gravity: Vec3::ZERO,
        ..BallConfig::default()
    };
    let mut world = BallSimulation::new(config);
    // Five players standing 3 m apart along x (body numbers 10 … 14), a
    // ball 1 m in front of each (+z) thrown at it at 4 m/s.
    let players: Vec<MovingCapsule> = (0..5)
        .map(|k| {
            let centre = Vec3::new(3.0 * k as f32, 0.0, 0.0);
            MovingCapsule::around_ellipsoid(centre, Vec3::new(0.4, 0.9, 0.4), Vec3::Y, Vec3::ZERO, 10 + k)
        })
        .collect();
    for k in 0..5 {
        world.balls.push(Ball::new(
            Vec3::new(3.0 * k as f32, 0.0, 1.0),
            Vec3::new(0.0, 0.0, -4.0),
            0.1,
        ));
    }
    let report = world.step(0.5, &(NoSolids, players.as_slice()));
    for k in 0..5u32 {
        let impact = report.impacts.iter().find(|i| i.ball == k);
        assert_eq!(
            impact.map(|i| i.kind),
            Some(ImpactKind::Body(10 + k)),
            "ball {k}: {:?}",
            report.impacts
        );
        // Met at the capsule's surface: 1 m − 0.4 − 0.1 at 4 m/s.
        assert!((impact.unwrap().time - 0.125).abs() < 1e-4, "{impact:?}");
        assert!(world.balls[k as usize].velocity.z > 0.0, "ball {k} was not sent back");
    }

    // Two players in the ball's line, the far one first in the slice: the
    // near one (third in the slice) is met.
    let mut world = BallSimulation::new(config);
    world
        .balls
        .push(Ball::new(Vec3::new(0.0, 0.0, 5.0), Vec3::new(0.0, 0.0, -8.0), 0.1));
    let at = |z: f32, body| {
        MovingCapsule::around_ellipsoid(
            Vec3::new(0.0, 0.0, z),
            Vec3::new(0.4, 0.9, 0.4),
            Vec3::Y,
            Vec3::ZERO,
            body,
        )
    };
    let lined = [at(-2.0, 1), at(20.0, 2), at(2.0, 3)];
    let report = world.step(0.5, &(NoSolids, &lined[..]));
    assert_eq!(
        report.impacts.first().map(|i| i.kind),
        Some(ImpactKind::Body(3)),
        "{:?}",
        report.impacts
    );
}
