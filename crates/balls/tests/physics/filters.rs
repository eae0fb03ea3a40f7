//! Layers and one-way platforms as balls meet them: a ball bounces on a
//! one-way platform's top and flies up through it from below; a grate
//! that does not meet the balls' layer lets them through, one that does
//! stops them.

use crate::support::{TOLERANCE, box_mesh, floor};
use glam::Vec3;
use slidewalk_balls::{Ball, BallConfig, BallSimulation, MeshSolids};
use slidewalk_sweep::{CollisionLayers, MeshCollider, PlacedCollider};

/// A box with its faces wound outwards (counter-clockwise seen from
/// outside), as a one-way platform needs: `box_mesh` winds them inwards,
/// which the two-sided sweep does not mind.
fn outward_box(min: Vec3, max: Vec3) -> MeshCollider {
    let inward = box_mesh(min, max);
    let corners: Vec<Vec3> = inward.triangles().flat_map(|[a, b, c]| [a, c, b]).collect();
    let triangles: Vec<[u32; 3]> = (0..corners.len() as u32 / 3)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    MeshCollider::build(&corners, &triangles).unwrap()
}

#[test]
fn a_ball_bounces_on_a_one_way_top_and_flies_up_through_from_below() {
    let floor = floor();
    let platform = outward_box(Vec3::new(-2.0, 1.8, -2.0), Vec3::new(2.0, 2.0, 2.0));
    assert!(
        platform
            .triangles()
            .any(|[a, b, c]| (b - a).cross(c - a).y > 0.0 && a.y == 2.0)
    );
    let placed = [
        PlacedCollider::fixed(&floor),
        PlacedCollider::fixed(&platform).with_one_way(Some(Vec3::Y)),
    ];
    let solids = MeshSolids::new(&placed);
    // Dropped from above: it comes to rest on the top.
    let mut world = BallSimulation::new(BallConfig::default());
    world.balls.push(Ball::new(Vec3::new(0.0, 4.0, 0.0), Vec3::ZERO, 0.1));
    for tick in 0..600 {
        world.step(1.0 / 60.0, &solids);
        let y = world.balls[0].position.y;
        assert!(y >= 2.1 - TOLERANCE, "tick {tick}: sank to {y}");
    }
    assert!((world.balls[0].position.y - 2.1).abs() < 0.01, "{:?}", world.balls[0]);
    // Thrown up from below: through the platform, up above it, and back
    // down onto its top.
    let mut world = BallSimulation::new(BallConfig::default());
    world
        .balls
        .push(Ball::new(Vec3::new(0.5, 0.5, 0.0), Vec3::new(0.0, 9.0, 0.0), 0.1));
    let mut highest: f32 = 0.0;
    for _ in 0..600 {
        world.step(1.0 / 60.0, &solids);
        highest = highest.max(world.balls[0].position.y);
    }
    assert!(highest > 3.0, "stopped under the platform at {highest}");
    assert!((world.balls[0].position.y - 2.1).abs() < 0.01, "{:?}", world.balls[0]);
}

#[test]
fn a_grate_the_balls_layer_does_not_meet_lets_them_through() {
    const BALLS: u32 = 1 << 3;
    const PLAYER: u32 = 1 << 1;
    let wall = box_mesh(Vec3::new(2.0, -1.0, -2.0), Vec3::new(2.1, 3.0, 2.0));
    let through = |grate: CollisionLayers| {
        let placed = [PlacedCollider::fixed(&wall).with_layers(grate)];
        let solids = MeshSolids::new(&placed).with_layers(CollisionLayers::new(BALLS, u32::MAX));
        let mut world = BallSimulation::new(BallConfig {
            gravity: Vec3::ZERO,
            ..BallConfig::default()
        });
        world.balls.push(Ball::new(Vec3::ZERO, Vec3::new(6.0, 0.0, 0.0), 0.1));
        for _ in 0..60 {
            world.step(1.0 / 60.0, &solids);
        }
        world.balls[0].position.x > 2.1
    };
    assert!(through(CollisionLayers::new(1, PLAYER)));
    assert!(!through(CollisionLayers::new(1, PLAYER | BALLS)));
    assert!(!through(CollisionLayers::ALL));
}
