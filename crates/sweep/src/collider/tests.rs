//! Tests of the colliders: rejected triangles and errors, poses, the
//! build being the same for any thread count, shared vertices, placed
//! colliders' boxes and the memory per triangle.

use super::mesh::MeshCollider;
use super::placed::{PlacedCollider, Pose};
use super::report::{BuildError, BuildReport};
use crate::aabb::Aabb;
use glam::{Quat, Vec3};

#[test]
fn rejects_and_counts_bad_triangles() {
    let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::NAN, Vec3::X * 2.0];
    let c = MeshCollider::build(&p, &[[0, 1, 2], [0, 1, 3], [0, 1, 4], [1, 1, 2]]).unwrap();
    assert_eq!(
        *c.report(),
        BuildReport {
            input_triangles: 4,
            triangles: 1,
            rejected_non_finite: 1,
            rejected_degenerate: 2
        }
    );
    assert_eq!(c.input_index(0), 0);
}

#[test]
fn errors_say_what_is_wrong() {
    let e = MeshCollider::build(&[Vec3::ZERO, Vec3::X], &[[0, 1, 2]]).unwrap_err();
    assert_eq!(
        e,
        BuildError::IndexOutOfRange {
            triangle: 0,
            index: 2,
            vertex_count: 2
        }
    );
    assert!(e.to_string().contains("only 2 vertices"));
    let e = MeshCollider::build(&[], &[]).unwrap_err();
    assert!(matches!(e, BuildError::NoTriangles(_)));
    let e = MeshCollider::build(&[Vec3::ZERO; 3], &[[0, 1, 2]]).unwrap_err();
    assert!(e.to_string().contains("1 as degenerate"), "{e}");
}

#[test]
fn pose_round_trip() {
    let pose = Pose {
        rotation: Quat::from_rotation_y(0.7),
        translation: Vec3::new(1.0, 2.0, 3.0),
    };
    let p = Vec3::new(-4.0, 5.0, 0.5);
    assert!((pose.inverse_transform_point(pose.transform_point(p)) - p).length() < 1e-5);
    // A box there and back holds the box (grown by the turns).
    let b = Aabb::from_corners(p, p + Vec3::new(1.0, 2.0, 0.5));
    let back = pose.inverse_transform_aabb(pose.transform_aabb(b));
    assert!(
        back.min.cmple(b.min + 1e-5).all() && back.max.cmpge(b.max - 1e-5).all(),
        "{back:?}"
    );
    assert!(back.size().x > b.size().x + 0.1, "turned both ways: {back:?}");
}

#[test]
fn the_collider_is_the_same_for_any_thread_count() {
    // Enough triangles for several check runs and BVH forks.
    let soup = crate::test_util::generated_level(80_000);
    let one = MeshCollider::build_with_threads(&soup.positions, &soup.triangles, 1).unwrap();
    for threads in [2, 3, 8] {
        let many = MeshCollider::build_with_threads(&soup.positions, &soup.triangles, threads).unwrap();
        assert_eq!(many.vertices, one.vertices, "{threads} threads");
        assert_eq!(many.slots, one.slots, "{threads} threads");
        assert_eq!(many.bvh, one.bvh, "{threads} threads");
        assert_eq!(many.bounds, one.bounds);
        assert_eq!(many.report, one.report);
    }
}

#[test]
fn shared_vertices_give_back_the_input_triangles() {
    let mut soup = crate::test_util::dense_level(9_000);
    // A rejected triangle and an unused vertex in the middle.
    soup.positions.push(Vec3::NAN);
    let nan = soup.positions.len() as u32 - 1;
    soup.triangles.insert(5, [0, 1, nan]);
    let c = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    assert_eq!(c.report().rejected_non_finite, 1);
    assert_eq!(c.len(), soup.triangles.len() - 1);
    let mut seen = vec![false; soup.triangles.len()];
    for slot in 0..c.len() {
        let input = c.input_index(slot) as usize;
        assert!(!seen[input]);
        seen[input] = true;
        let expected = soup.triangles[input].map(|i| soup.positions[i as usize]);
        assert_eq!(c.triangle(slot), expected);
    }
    assert_eq!(c.triangles().count(), c.len());
    assert!(c.triangles().enumerate().all(|(slot, t)| t == c.triangle(slot)));
    // Only the used vertices are kept, each position once.
    assert!(c.vertex_count() < soup.positions.len());
    assert!(c.vertices.iter().all(|p| p.is_finite()));
}

#[test]
fn a_placed_collider_s_world_box_holds_its_posed_triangles() {
    let mesh =
        MeshCollider::from_triangles(&[[Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)]]).unwrap();
    let pose = Pose {
        rotation: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        translation: Vec3::new(10.0, 0.0, 0.0),
    };
    let placed = PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO);
    let b = placed.world_bounds();
    // x along the local y (0 … 1) mirrored, y along the local x (0 … 2).
    assert!((b.min - Vec3::new(9.0, 0.0, 0.0)).abs().max_element() < 1e-6, "{b:?}");
    assert!((b.max - Vec3::new(10.0, 2.0, 0.0)).abs().max_element() < 1e-6, "{b:?}");
    let both = PlacedCollider::world_bounds_of(&[placed, PlacedCollider::fixed(&mesh)]);
    assert_eq!((both.min.x, both.max.x), (0.0, 10.0));
    assert!(PlacedCollider::world_bounds_of(&[]).min.x.is_infinite());
}

#[test]
fn flat_triangle_lists_share_their_corners() {
    let mut soup = crate::test_util::Soup::default();
    soup.cuboid(Vec3::ZERO, Vec3::ONE);
    let flat = soup.corners();
    let c = MeshCollider::from_triangles(&flat).unwrap();
    assert_eq!(c.len(), 12);
    assert_eq!(c.vertex_count(), 8, "a box has eight corners");
    for slot in 0..c.len() {
        assert_eq!(c.triangle(slot), flat[c.input_index(slot) as usize]);
    }
    // The same corners given through indices are merged as well.
    let indexed = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    assert_eq!(indexed.vertex_count(), 8);
}

#[test]
fn memory_stays_under_48_bytes_per_triangle() {
    for (name, soup) in [
        ("generated", crate::test_util::generated_level(100_000)),
        ("dense", crate::test_util::dense_level(100_000)),
    ] {
        let c = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let per_triangle = c.memory_bytes() as f64 / c.len() as f64;
        assert!(per_triangle <= 48.0, "{name}: {per_triangle:.1} bytes per triangle");
    }
}
