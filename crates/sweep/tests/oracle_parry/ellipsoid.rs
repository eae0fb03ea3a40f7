//! Ellipsoid = unit sphere in eSpace: an ellipsoid's sweep against a
//! triangle equals the unit sphere's against the triangle divided by the
//! radii, checked against our narrow phase, parry and world geometry.

use crate::cases::{random_motion, random_triangle};
use crate::comparison::{Comparison, REL_TOL};
use crate::exact::{Path, dist_point_triangle, in_box, scale_of};
use crate::parry::{parry_cast, parry_triangle};
use glam::{DVec3, Vec3};
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;
use slidewalk_sweep::{Ellipsoid, Feature, MeshCollider, PlacedCollider};

/// Sweeping an ellipsoid with radii `r` against a triangle (through
/// `slidewalk_sweep::sweep` and a one-triangle collider) equals sweeping the unit
/// sphere against the triangle divided by `r`: same hit/no-hit and time,
/// normals mapped back by `normal_from_espace`. Checked against our narrow
/// phase (to 1e-5), against parry's unit ball in eSpace (as above) and against
/// world-space geometry: the contact point is on the triangle and on the
/// ellipsoid's surface, and the normal is the ellipsoid's surface normal
/// there (its gradient `(c − P)/r²`), parallel to the face normal for a face hit.
#[test]
fn ellipsoid_sweep_equals_unit_sphere_in_espace() {
    let mut cmp = ellipsoid_comparison(0x0a11_0003, 20_000);
    cmp.report();
    cmp.check();
}

fn ellipsoid_comparison(seed: u64, cases: usize) -> Comparison {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut cmp = Comparison::new("ellipsoid vs triangle (eSpace)");
    let mut face_hits = 0;
    for i in 0..cases {
        let r = Vec3::new(0.2 + 1.8 * rng.f32(), 0.2 + 1.8 * rng.f32(), 0.2 + 1.8 * rng.f32());
        let ellipsoid = Ellipsoid::new(r).unwrap();
        let tri = random_triangle(&mut rng, 2.0);
        let (r64, t64) = (r.as_dvec3(), tri.map(Vec3::as_dvec3));
        let start = loop {
            let s = in_box(&mut rng, 5.0);
            let s64 = s.as_dvec3();
            if dist_point_triangle(DVec3::ZERO, &t64.map(|p| (p - s64) / r64)) > 1.0 {
                break s;
            }
        };
        let motion = random_motion(&mut rng, start, tri, r.max_element());
        let mesh = MeshCollider::from_triangles(&[tri]).expect("a kept triangle");
        let hit = slidewalk_sweep::sweep(&ellipsoid, start, motion, &[PlacedCollider::fixed(&mesh)]);

        // Our narrow phase on the eSpace problem (the core maps to eSpace by
        // multiplying with the reciprocal radii; do the same so the two
        // problems are bit-identical).
        let inv_r = r.recip();
        let tri_e = tri.map(|p| (p - start) * inv_r);
        let v_e = motion * inv_r;
        let unit = sweep_unit_sphere_triangle(v_e, tri_e, 1.0);
        assert_eq!(
            hit.is_some(),
            unit.is_some(),
            "case {i}: ellipsoid {hit:?} vs eSpace sphere {unit:?}"
        );
        if let (Some(h), Some(u)) = (hit, unit) {
            assert!((h.time - u.t).abs() <= 1e-5, "case {i}: time {} vs {}", h.time, u.t);
            assert!((h.espace_normal - u.normal).length() <= 1e-5, "case {i}");
            assert!(
                (h.normal - ellipsoid.normal_from_espace(u.normal)).length() <= 1e-5,
                "case {i}"
            );
            assert_eq!((h.feature, h.started_embedded), (u.feature, u.embedded), "case {i}");
            // World-space geometry, in f64.
            let centre = start.as_dvec3() + motion.as_dvec3() * h.time as f64;
            let p = h.point.as_dvec3();
            let scale = (start.abs().max_element() + motion.length()).max(r.max_element()) as f64;
            let on_tri = dist_point_triangle(p, &t64);
            assert!(
                on_tri <= REL_TOL * scale,
                "case {i}: contact point {on_tri} off the triangle"
            );
            let on_surface = ((p - centre) / r64).length();
            assert!(
                (on_surface - 1.0).abs() <= REL_TOL * scale / r.min_element() as f64,
                "case {i}: contact point at eSpace radius {on_surface}"
            );
            let gradient = ((centre - p) / (r64 * r64)).normalize();
            assert!(
                h.normal.as_dvec3().dot(gradient) >= 1.0 - 1e-4,
                "case {i}: normal {} vs surface normal {gradient}",
                h.normal
            );
            if h.feature == Feature::Face {
                face_hits += 1;
                let n = (t64[1] - t64[0]).cross(t64[2] - t64[0]).normalize();
                assert!(
                    h.normal.as_dvec3().dot(n).abs() >= 1.0 - 1e-4,
                    "case {i}: face normal {} vs {n}",
                    h.normal
                );
            }
        }

        // Parry's unit ball on the eSpace problem, the exact answer from the
        // f64 eSpace triangle (world f32 inputs divided exactly).
        let parry = parry_cast(Vec3::ZERO, v_e, 1.0, &parry_triangle(tri_e));
        let path = Path::new(
            DVec3::ZERO,
            motion.as_dvec3() / r64,
            t64.map(|p| (p - start.as_dvec3()) / r64),
            1.0,
        );
        let scale = scale_of(v_e, &tri_e);
        cmp.record(&[path], hit.map(|h| h.time as f64), parry, scale, || {
            format!("case {i}: r {r}, start {start}, motion {motion}, tri {tri:?}")
        });
    }
    assert!(face_hits > 500, "{face_hits} face hits");
    cmp
}
