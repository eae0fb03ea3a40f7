//! Random cylinder sweeps against the f64 reference: never late, never
//! early (beyond grazing paths), and moving away never hits.

use crate::cases::{random_case, random_cylinder};
use crate::reference::{Path, exact_distance};
use glam::Vec3;
use slidewalk_sweep::test_util::Lcg;
use slidewalk_sweep::{AnalyticShape, Plane, sweep_sphere_plane};

/// Largest lateness of a contact against the reference, metres of travel.
const LATE: f64 = 1e-5;
/// Largest earliness of a contact against the reference, metres of travel.
const EARLY: f64 = 1e-5;
/// Closest approach within this of the radius (metres): hit or miss both accepted.
const GRAZE: f64 = 1e-6;

#[test]
fn cylinder_contacts_are_never_late_nor_early() {
    let mut rng = Lcg::new(30);
    let (mut hits, mut rims, mut grazing, mut worst_late, mut worst_early) = (0, 0, 0, 0f64, 0f64);
    let cases = 20_000;
    for i in 0..cases {
        let cylinder = random_cylinder(&mut rng);
        let shape = AnalyticShape::Cylinder(cylinder);
        let case = random_case(&mut rng, &shape, (Vec3::splat(-8.0), Vec3::splat(8.0)), 1e-3);
        let path = Path {
            cylinder: &cylinder,
            start: case.start.as_dvec3(),
            v: case.velocity.as_dvec3(),
            radius: case.radius as f64,
        };
        let (reference, closest_gap) = path.first_contact(case.t_max as f64);
        let ours = shape.sweep_sphere(case.start, case.radius, case.velocity, case.t_max);
        let speed = case.velocity.length() as f64;
        let what = || format!("case {i}: {case:?} against {cylinder:?}: ours {ours:?}, reference {reference:?}");
        match (ours, reference) {
            (Some(hit), Some(t)) => {
                hits += 1;
                // Neither along nor across the axis: a rim contact.
                rims += (0.05..0.95).contains(&hit.normal.dot(cylinder.axis).abs()) as usize;
                let late = (hit.time as f64 - t) * speed;
                worst_late = worst_late.max(late);
                worst_early = worst_early.max(-late);
                assert!(late <= LATE, "{:e} m late: {}", late, what());
                assert!(
                    -late <= EARLY || closest_gap.abs() <= GRAZE,
                    "{:e} m early: {}",
                    -late,
                    what()
                );
                let gap = path.gap(hit.time as f64);
                assert!(gap.abs() <= 1e-5, "contact at gap {gap:e}: {}", what());
                let cp = hit.point.as_dvec3();
                assert!(
                    exact_distance(&cylinder, cp) <= 1e-5,
                    "contact point off the surface: {}",
                    what()
                );
                let centre = path.start + path.v * hit.time as f64;
                let expected_normal = (centre - cp).normalize();
                assert!(
                    (hit.normal.as_dvec3() - expected_normal).length() <= 1e-3,
                    "normal: {}",
                    what()
                );
            }
            (None, None) => {}
            _ => {
                grazing += 1;
                assert!(
                    closest_gap.abs() <= GRAZE,
                    "hit/no-hit disagree, gap {closest_gap:e}: {}",
                    what()
                );
            }
        }
    }
    println!(
        "cylinder vs reference: {cases} cases, {hits} hits ({rims} on a rim), {grazing} grazing disagreements, \
         worst late {worst_late:e} m, worst early {worst_early:e} m"
    );
    assert!(hits > cases / 4, "too few hits ({hits}) to test anything");
    assert!(
        rims > hits / 10,
        "too few rim contacts ({rims}) to test the advancement"
    );
}

#[test]
fn moving_away_never_hits() {
    let mut rng = Lcg::new(7);
    for _ in 0..5_000 {
        let cylinder = random_cylinder(&mut rng);
        let shape = AnalyticShape::Cylinder(cylinder);
        let case = random_case(&mut rng, &shape, (Vec3::splat(-8.0), Vec3::splat(8.0)), 1e-3);
        // Away from the closest point: the distance to a convex solid only grows.
        let out = (case.start - shape.closest_point(case.start)).normalize();
        let mut v = rng.direction() * case.velocity.length();
        if v.dot(out) < 0.0 {
            v -= 2.0 * v.dot(out) * out;
        }
        assert_eq!(
            shape.sweep_sphere(case.start, case.radius, v, 100.0),
            None,
            "{case:?} {cylinder:?}"
        );
        // A plane: start in front, move away from it or along it.
        let plane = Plane::new(Vec3::ZERO, rng.direction()).unwrap();
        let n = plane.normal;
        let start = case.start + n * (case.radius + 0.01 - plane.signed_distance(case.start)).max(0.0);
        let along = v - n * v.dot(n);
        for v in [along, along + n * v.dot(n).abs()] {
            assert_eq!(sweep_sphere_plane(&plane, start, case.radius, v, 100.0), None);
        }
    }
}
