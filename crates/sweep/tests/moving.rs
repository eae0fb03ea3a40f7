//! Moving colliders (doors, lifts): a placed, rotated collider behaves
//! exactly like the same triangles built in world space; a collider that
//! moves into the ellipsoid pushes it out and reports its velocity.

use glam::{Quat, Vec3};
use slidewalk_sweep::test_util::{Soup, min_espace_distance};
use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider, Pose, SlideOptions, collide_and_slide, sweep};

/// A door leaf: 1 m wide (x), 2 m tall, 5 cm thick, hinge at the local origin.
fn door() -> Soup {
    let mut s = Soup::default();
    s.cuboid(Vec3::new(0.0, 0.0, -0.025), Vec3::new(1.0, 2.0, 0.025));
    s
}

#[test]
fn rotated_collider_matches_world_space_triangles() {
    let local = door();
    let mesh = MeshCollider::build(&local.positions, &local.triangles).unwrap();
    let pose = Pose {
        rotation: Quat::from_rotation_y(37f32.to_radians()) * Quat::from_rotation_x(0.2),
        translation: Vec3::new(3.0, 0.1, -2.0),
    };
    let world_positions: Vec<Vec3> = local.positions.iter().map(|p| pose.transform_point(*p)).collect();
    let baked = MeshCollider::build(&world_positions, &local.triangles).unwrap();
    let placed = [PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO)];
    let fixed = [PlacedCollider::fixed(&baked)];
    let mut rng = fastrand::Rng::with_seed(11);
    let mut hits = 0;
    for radii in [
        Vec3::new(0.4, 0.9, 0.4),
        Vec3::new(0.1, 1.0, 0.1),
        Vec3::new(0.7, 0.2, 0.3),
    ] {
        let e = Ellipsoid::new(radii).unwrap();
        for _ in 0..3000 {
            let start = Vec3::new(rng.f32() * 8.0 - 1.0, rng.f32() * 4.0 - 1.0, rng.f32() * 8.0 - 6.0);
            if min_espace_distance(&e, start, baked.triangles()) < 1.0 {
                continue;
            }
            let target = pose.transform_point(Vec3::new(rng.f32(), rng.f32() * 2.0, rng.f32() * 0.4 - 0.2));
            let motion = (target - start) * (0.5 + rng.f32());
            let a = sweep(&e, start, motion, &placed);
            let b = sweep(&e, start, motion, &fixed);
            match (a, b) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    hits += 1;
                    assert!((a.time - b.time).abs() < 1e-4, "time {} vs {}", a.time, b.time);
                    assert!(
                        (a.normal - b.normal).length() < 1e-3,
                        "normal {} vs {}",
                        a.normal,
                        b.normal
                    );
                    assert!((a.point - b.point).length() < 1e-3, "point {} vs {}", a.point, b.point);
                }
                (a, b) => panic!("placed {a:?} vs baked {b:?} for start {start} motion {motion}"),
            }
        }
    }
    assert!(hits > 3000, "too few hits to prove anything: {hits}");
}

#[test]
fn a_door_moving_into_the_player_pushes_it_out() {
    let soup = door();
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
    let player = Vec3::new(0.5, 0.9, 0.3);
    // The door slides +z at 1 m/s; this tick it has moved to overlap the player by 15 cm.
    let pose = Pose::from_translation(Vec3::new(0.0, 0.0, 0.3 - 0.4 - 0.025 + 0.15));
    let velocity = Vec3::new(0.0, 0.0, 1.0);
    let world = [PlacedCollider::moving(&mesh, pose, velocity, Vec3::ZERO)];
    let r = collide_and_slide(&e, player, Vec3::ZERO, &world, &SlideOptions::default());
    assert!(!r.unresolved_overlap);
    assert!(
        (r.depenetration.z - 0.15).abs() < 0.002 && r.depenetration.x.abs() < 1e-4,
        "{:?}",
        r.depenetration
    );
    let c = r
        .contacts
        .iter()
        .find(|c| c.depenetration)
        .expect("a depenetration contact");
    assert_eq!(c.surface_velocity, velocity);
    assert!(c.normal.z > 0.99);
    let triangles: Vec<[Vec3; 3]> = mesh.triangles().map(|t| t.map(|p| pose.transform_point(p))).collect();
    assert!(min_espace_distance(&e, r.position, &triangles) >= 1.0);
}

#[test]
fn a_rising_lift_carries_the_player_up() {
    let mut soup = Soup::default();
    soup.cuboid(Vec3::new(-1.0, -0.1, -1.0), Vec3::new(1.0, 0.0, 1.0));
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
    let mut player = Vec3::new(0.2, 0.901, 0.0);
    let velocity = Vec3::new(0.0, 2.0, 0.0);
    for tick in 1..=60 {
        // The lift moves first (2 m/s at 60 Hz), then the player's gravity pass.
        let pose = Pose::from_translation(velocity * tick as f32 / 60.0);
        let world = [PlacedCollider::moving(&mesh, pose, velocity, Vec3::ZERO)];
        let r = collide_and_slide(&e, player, Vec3::new(0.0, -0.01, 0.0), &world, &SlideOptions::default());
        assert!(
            r.contacts
                .iter()
                .any(|c| c.normal.y > 0.99 && c.surface_velocity == velocity),
            "tick {tick}: {r:?}"
        );
        player = r.position;
    }
    assert!((player.y - (2.0 + 0.9)).abs() < 0.01, "{player}");
}

#[test]
fn squeezed_between_a_door_and_a_wall_is_reported_not_nan() {
    let soup = door();
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let mut wall = Soup::default();
    wall.cuboid(Vec3::new(-2.0, 0.0, 0.5), Vec3::new(3.0, 3.0, 0.6));
    let wall = MeshCollider::build(&wall.positions, &wall.triangles).unwrap();
    let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
    // Door 20 cm from the wall: no room for a 0.8 m wide player in between.
    let pose = Pose::from_translation(Vec3::new(0.0, 0.0, 0.3));
    let world = [
        PlacedCollider::fixed(&wall),
        PlacedCollider::moving(&mesh, pose, Vec3::Z, Vec3::ZERO),
    ];
    let r = collide_and_slide(
        &e,
        Vec3::new(0.5, 1.0, 0.42),
        Vec3::ZERO,
        &world,
        &SlideOptions::default(),
    );
    assert!(r.unresolved_overlap, "{r:?}");
    assert!(r.position.is_finite());
}

#[test]
fn rotating_door_reports_velocity_at_the_contact() {
    let soup = door();
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let placed = PlacedCollider::moving(&mesh, Pose::IDENTITY, Vec3::ZERO, Vec3::new(0.0, 1.5, 0.0));
    // A point 1 m along the leaf moves at 1.5 m/s, perpendicular to it.
    let v = placed.velocity_at(Vec3::new(1.0, 1.0, 0.0));
    assert!((v - Vec3::new(0.0, 0.0, -1.5)).length() < 1e-6, "{v}");
}
