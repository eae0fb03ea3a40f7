//! Crowded rooms: hundreds of balls thrown about a closed box and about
//! the magic room's exact planes and cylinders never end a tick inside a
//! wall or another ball, and come to rest; and two threads give the same
//! ticks as one.

use crate::support::{Rng, TOLERANCE, box_mesh};
use glam::Vec3;
use slidewalk_balls::{AnalyticSolids, Ball, BallConfig, BallSimulation, ImpactKind, MeshSolids, Solids};
use slidewalk_sweep::PlacedCollider;

#[test]
fn no_ball_ends_a_tick_inside_the_room_s_walls_or_another_ball() {
    // The lesson's room: a closed box, balls thrown in all directions.
    let half = Vec3::new(4.0, 3.0, 4.0);
    let room = box_mesh(-half, half);
    let placed = [PlacedCollider::fixed(&room)];
    let solids = MeshSolids::new(&placed);
    let mut rng = Rng(9);
    let mut world = BallSimulation::new(BallConfig::default());
    while world.balls.len() < 300 {
        let radius = rng.range(0.05, 0.25);
        let position = rng.vec(-2.5, 2.5);
        if world
            .balls
            .iter()
            .any(|b| (b.position - position).length() < b.radius + radius + 0.01)
        {
            continue;
        }
        world.balls.push(Ball::new(position, rng.vec(-15.0, 15.0), radius));
    }
    let mut ball_impacts = 0;
    for tick in 0..600 {
        let report = world.step(1.0 / 60.0, &solids);
        ball_impacts += report
            .impacts
            .iter()
            .filter(|i| matches!(i.kind, ImpactKind::Ball(_)))
            .count();
        for (k, b) in world.balls.iter().enumerate() {
            let inside = (half - Vec3::splat(b.radius - TOLERANCE)).cmpge(b.position.abs()).all();
            assert!(inside, "tick {tick}: ball {k} in a wall at {}", b.position);
            assert!(b.position.is_finite() && b.velocity.is_finite());
        }
        for i in 0..world.balls.len() {
            for j in i + 1..world.balls.len() {
                let (a, b) = (&world.balls[i], &world.balls[j]);
                let overlap = a.radius + b.radius - (a.position - b.position).length();
                assert!(
                    overlap < TOLERANCE,
                    "tick {tick}: balls {i} and {j} overlap by {overlap} m"
                );
            }
        }
    }
    assert!(ball_impacts > 100, "{ball_impacts} ball impacts");
    // After 10 s on the floor, they have come to rest (asleep, or nearly still).
    let moving = world
        .balls
        .iter()
        .filter(|b| !b.asleep && b.velocity.length() > 0.5)
        .count();
    assert!(moving < 30, "{moving} of 300 still moving");
}

/// The magic room (`assets/levels/magic_room.glb`): its five planes and
/// three cylinders as analytic solids, its triangles skipped.
fn magic_room() -> slidewalk_level::Level {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/magic_room.glb");
    slidewalk_level::load(path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn in_the_magic_room_balls_bounce_off_its_exact_planes_and_cylinders_and_never_end_inside_them() {
    let level = magic_room();
    let shapes: Vec<_> = level.analytic.iter().map(|a| (a.shape, 1.0)).collect();
    assert_eq!(shapes.len(), 8, "five planes and three cylinders");
    let placed = [PlacedCollider::fixed(level.statics.as_ref().unwrap())];
    let skip = |c: usize, t: u32| c == 0 && level.static_triangle_is_analytic(t);
    // Every triangle of the room belongs to a shape: the meshes skipped, nothing is left.
    let meshes = MeshSolids::new(&placed).skipping(&skip);
    assert_eq!(
        meshes.sweep(Vec3::new(0.0, 1.0, 6.0), 0.2, Vec3::new(0.0, -10.0, 0.0), 0.0, 1.0),
        None
    );
    let solids = (AnalyticSolids::new(&shapes), meshes);
    let distance = |p: Vec3| {
        shapes
            .iter()
            .map(|(s, _)| s.signed_distance(p))
            .fold(f32::INFINITY, f32::min)
    };
    let mut rng = Rng(30);
    let mut world = BallSimulation::new(BallConfig {
        restitution: 0.9,
        ..BallConfig::default()
    });
    while world.balls.len() < 200 {
        let radius = rng.range(0.1, 0.3);
        let position = rng.vec(-7.0, 7.0) + Vec3::Y * 8.0;
        let free = world
            .balls
            .iter()
            .all(|b| (b.position - position).length() > b.radius + radius + 0.01);
        if free && distance(position) > radius + 0.01 {
            world.balls.push(Ball::new(position, rng.vec(-25.0, 25.0), radius));
        }
    }
    let mut cylinder_hits = 0;
    for tick in 0..600 {
        let report = world.step(1.0 / 60.0, &solids);
        for impact in report.impacts.iter().filter(|i| i.kind == ImpactKind::Surface) {
            let on_cylinder = level.analytic.iter().any(|a| {
                matches!(a.shape, slidewalk_sweep::AnalyticShape::Cylinder(_))
                    && a.shape.signed_distance(impact.point).abs() < 1e-3
            });
            cylinder_hits += on_cylinder as usize;
        }
        for (k, b) in world.balls.iter().enumerate() {
            assert!(b.position.is_finite() && b.velocity.is_finite());
            let d = distance(b.position);
            assert!(
                d > b.radius - TOLERANCE,
                "tick {tick}: ball {k} at {} is {d} m from a shape",
                b.position
            );
        }
    }
    assert!(cylinder_hits > 50, "{cylinder_hits} impacts on the cylinders");
    // Ten seconds later every ball is still in the room, above its floor.
    for b in &world.balls {
        let inside =
            b.position.x.abs() <= 8.0 - b.radius + TOLERANCE && b.position.z.abs() <= 8.0 - b.radius + TOLERANCE;
        assert!(inside && b.position.y >= b.radius - TOLERANCE, "{}", b.position);
    }
}

#[test]
fn two_threads_give_the_same_tick_as_one() {
    let half = Vec3::new(6.0, 3.0, 6.0);
    let room = box_mesh(-half, half);
    let placed = [PlacedCollider::fixed(&room)];
    let solids = MeshSolids::new(&placed);
    let mut rng = Rng(21);
    let mut one = BallSimulation::new(BallConfig::default());
    for _ in 0..1200 {
        // Spread on a lattice so they start apart.
        let k = one.balls.len() as f32;
        let position = Vec3::new(
            -5.0 + (k % 20.0) * 0.5,
            -2.0 + (k / 400.0).floor() * 0.5,
            -5.0 + ((k / 20.0).floor() % 20.0) * 0.5,
        );
        one.balls.push(Ball::new(position, rng.vec(-6.0, 6.0), 0.1));
    }
    let mut two = one.clone();
    two.config.threads = 2;
    for _ in 0..30 {
        let (a, b) = (one.step(1.0 / 60.0, &solids), two.step(1.0 / 60.0, &solids));
        assert_eq!(a, b);
    }
    assert_eq!(one.balls, two.balls);
}
