//! The unit sphere against one triangle: `sweep_unit_sphere_triangle`
//! against parry's ball–triangle cast.

use crate::cases::{random_motion, random_triangle};
use crate::comparison::Comparison;
use crate::exact::{Path, random_start, scale_of};
use crate::parry::{parry_cast, parry_triangle};
use glam::Vec3;
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;

/// Compares `sweep_unit_sphere_triangle` with parry on `cases` seeded cases.
fn sphere_triangle_comparison(seed: u64, cases: usize) -> Comparison {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut cmp = Comparison::new("sphere vs triangle");
    for i in 0..cases {
        let tri_world = random_triangle(&mut rng, 2.0);
        let s = random_start(&mut rng, tri_world, -4.0);
        let v = random_motion(&mut rng, s, tri_world, 1.0);
        // Both get the same f32 input: the triangle relative to the start.
        let tri = tri_world.map(|p| p - s);
        let ours = sweep_unit_sphere_triangle(v, tri, 1.0).map(|h| h.t as f64);
        let parry = parry_cast(Vec3::ZERO, v, 1.0, &parry_triangle(tri));
        let scale = scale_of(v, &tri);
        cmp.record(&[Path::unit(v, tri)], ours, parry, scale, || {
            format!("case {i}: v = {v:?}, tri = {tri:?}")
        });
    }
    cmp
}

#[test]
fn sphere_triangle_agrees_with_parry() {
    let mut cmp = sphere_triangle_comparison(0x0a11_0001, 100_000);
    cmp.report();
    cmp.check();
}
