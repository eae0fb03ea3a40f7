//! A ball against a triangle mesh through `slidewalk_sweep::sweep` (BVH broad
//! phase + narrow phase) against parry's ball–`TriMesh` cast.

use crate::cases::{random_motion, random_triangle};
use crate::comparison::{Comparison, REL_TOL};
use crate::exact::{Path, dist_point_triangle, in_box};
use crate::parry::{parry_cast, pv};
use glam::{DVec3, Vec3};
use parry3d::shape::TriMesh;
use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider};

/// A random soup of `n` triangles in a 12 m box, as positions and indices.
fn random_mesh(rng: &mut fastrand::Rng, n: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    while indices.len() < n {
        let c = in_box(rng, 6.0);
        let tri = random_triangle(rng, 1.5).map(|p| p + c);
        let k = positions.len() as u32;
        positions.extend(tri);
        indices.push([k, k + 1, k + 2]);
    }
    (positions, indices)
}

fn mesh_comparison(seed: u64, cases: usize) -> Comparison {
    let mut rng = fastrand::Rng::with_seed(seed);
    let (positions, indices) = random_mesh(&mut rng, 300);
    let ours_mesh = MeshCollider::build(&positions, &indices).expect("valid mesh");
    assert_eq!(ours_mesh.len(), indices.len(), "every generated triangle is kept");
    let parry_mesh =
        TriMesh::new(positions.iter().map(|&p| pv(p)).collect(), indices.clone()).expect("valid parry mesh");
    let world = [PlacedCollider::fixed(&ours_mesh)];
    let tris: Vec<[Vec3; 3]> = indices.iter().map(|t| t.map(|i| positions[i as usize])).collect();
    let tris64: Vec<[DVec3; 3]> = tris.iter().map(|t| t.map(Vec3::as_dvec3)).collect();
    let mut cmp = Comparison::new("ball vs TriMesh (sweep)");
    for i in 0..cases {
        let radius = 0.25 + 1.25 * rng.f32();
        let target = tris[rng.usize(0..tris.len())];
        let start = loop {
            let s = in_box(&mut rng, 8.0);
            let s64 = s.as_dvec3();
            if tris64.iter().all(|t| dist_point_triangle(s64, t) > radius as f64) {
                break s;
            }
        };
        let motion = random_motion(&mut rng, start, target, radius.max(1.0));
        let ellipsoid = Ellipsoid::sphere(radius).unwrap();
        let hit = slidewalk_sweep::sweep(&ellipsoid, start, motion, &world);
        let parry = parry_cast(start, motion, radius, &parry_mesh);
        // Exact answer over the triangles near the swept box.
        let (lo, hi) = (
            start.min(start + motion) - Vec3::splat(radius),
            start.max(start + motion) + Vec3::splat(radius),
        );
        let paths: Vec<Path> = tris
            .iter()
            .zip(&tris64)
            .filter(|(t, _)| {
                let (tlo, thi) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
                tlo.cmple(hi).all() && thi.cmpge(lo).all()
            })
            .map(|(_, t64)| Path::new(start.as_dvec3(), motion.as_dvec3(), *t64, radius as f64))
            .collect();
        let scale = (start.abs().max_element() + motion.length()).max(radius) as f64;
        if let Some(h) = hit {
            // The reported triangle is the one touched (a wrong one is
            // counted against us like any other wrong answer).
            let t = tris64[h.triangle as usize];
            let d = dist_point_triangle(start.as_dvec3() + motion.as_dvec3() * h.time as f64, &t);
            if (d - radius as f64).abs() > REL_TOL * scale {
                cmp.ours_wrong.push(format!(
                    "case {i}: reported triangle {} is {d} away (radius {radius})",
                    h.triangle
                ));
            }
        }
        if paths.is_empty() {
            // Nothing within reach of the swept box: both must miss.
            assert!(
                hit.is_none() && parry.is_none(),
                "case {i}: hit with no triangle near the swept box"
            );
            cmp.cases += 1;
            cmp.both_miss += 1;
            continue;
        }
        cmp.record(&paths, hit.map(|h| h.time as f64), parry, scale, || {
            format!("case {i}: start {start}, motion {motion}, radius {radius}")
        });
    }
    cmp
}

#[test]
fn ball_vs_trimesh_sweep_agrees_with_parry() {
    let mut cmp = mesh_comparison(0x0a11_0002, 4_000);
    cmp.report();
    cmp.check();
}
