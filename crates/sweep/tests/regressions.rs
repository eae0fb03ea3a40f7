//! Regression tests: each reproduces a case that once went wrong, found by
//! the soak (`examples/soak.rs`) or the random walks, with what went wrong.

use glam::Vec3;
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;
use slidewalk_sweep::test_util::{min_espace_distance, sliver_room};
use slidewalk_sweep::{Ellipsoid, Feature, MeshCollider, PlacedCollider, SlideOptions, collide_and_slide};

/// Soak, sliver room, 1:10 ellipsoid resting on a needle of the floor fan:
/// the centre was exactly 1 from the face, but the plane distance rounded to
/// just under 1 while the closest-point distance rounded to 1. The narrow
/// phase then took the "within the plane slab, beside the face" path, tested
/// only edges and vertices, and let the gravity pass sink 1.5e-5 radii into
/// the face before an edge stopped it. (The closest point is now found in
/// f64, and gives the plane's distance, 0.99999996 for these f32 corners:
/// the sphere overlaps by that rounding step and moves deeper, an embedded
/// contact at once. The f32 walk's point was 3e-4 off along the needle.)
#[test]
fn resting_on_a_face_at_rounding_distance_is_a_contact_now() {
    let needle = [
        Vec3::new(-2.0, -1.499, -2.0),
        Vec3::new(2.0, -1.499, 2.0),
        Vec3::new(1.9375, -1.499, 2.0),
    ];
    let e = Ellipsoid::new(Vec3::new(0.1, 1.0, 0.1)).unwrap();
    let start = Vec3::new(1.577594, -0.49900004, 1.5800425);
    let gravity = Vec3::new(0.0, -0.05, 0.0);
    let inv_r = e.radii().recip();
    let hit = sweep_unit_sphere_triangle(gravity * inv_r, needle.map(|p| (p - start) * inv_r), 1.0)
        .expect("touching the face and moving into it");
    assert_eq!((hit.t, hit.feature, hit.embedded), (0.0, Feature::Face, true));
    assert!(hit.normal.y > 0.999999);

    let soup = sliver_room(Vec3::new(2.0, 1.5, 2.0));
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let r = collide_and_slide(
        &e,
        start,
        gravity,
        &[PlacedCollider::fixed(&mesh)],
        &SlideOptions::default(),
    );
    let d = min_espace_distance(&e, r.position, mesh.triangles());
    assert!(d >= 1.0 - 1e-6, "sank to distance {d} at {}", r.position);
}

/// Random walks, ridges: a sphere exactly 1 from a convex edge (a roof
/// ridge) was inside the edge line's cylinder by rounding (`cq < 0`) while
/// the overlap test said "not overlapping". The edge was skipped as "a
/// vertex comes first", and a motion straight into the ridge sank into it.
#[test]
fn touching_a_ridge_edge_at_rounding_distance_is_a_contact_now() {
    let mut rng = fastrand::Rng::with_seed(42);
    let mut sank = Vec::new();
    for case in 0..20_000 {
        let rnd = |rng: &mut fastrand::Rng| Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5);
        // Ridge along `axis` through `origin`, faces falling away at 20°–70°.
        let axis = rnd(&mut rng).normalize_or(Vec3::X);
        let up = axis.any_orthonormal_vector();
        let side = axis.cross(up);
        let slope = (20.0 + 50.0 * rng.f32()).to_radians();
        let origin = rnd(&mut rng) * 10.0;
        let (len, width) = (1.0 + 5.0 * rng.f32(), 1.0 + 3.0 * rng.f32());
        let down_left = (-side * slope.cos() - up * slope.sin()) * width;
        let down_right = (side * slope.cos() - up * slope.sin()) * width;
        let (a, b) = (origin - axis * len, origin + axis * len);
        let tris = [
            [a, b, b + down_left],
            [a, b + down_left, a + down_left],
            [b, a, a + down_right],
            [b, a + down_right, b + down_right],
        ];
        // Centre exactly 1 above a point of the ridge, moving into it.
        let centre = origin + axis * len * (rng.f32() - 0.5) + up;
        let motion = -up * (0.01 + rng.f32());
        let hit = tris
            .iter()
            .filter_map(|t| sweep_unit_sphere_triangle(motion, t.map(|p| p - centre), 1.0))
            .map(|h| h.t)
            .fold(f32::INFINITY, f32::min);
        if hit * motion.length() > 1e-5 {
            sank.push(format!(
                "case {case}: first contact at t = {hit}, |motion| = {}",
                motion.length()
            ));
        }
    }
    assert!(
        sank.is_empty(),
        "{} of 20000 sank, e.g. {:?}",
        sank.len(),
        &sank[..sank.len().min(3)]
    );
}
