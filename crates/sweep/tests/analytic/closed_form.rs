//! Hand-computed cases: a sphere falling on the plane, head-on at the
//! cylinder's side, straight down onto a cap, onto the rim at 45°, and
//! overlapping at the start.

use glam::Vec3;
use slidewalk_sweep::{AnalyticHit, Cylinder, Plane, sweep_sphere_cylinder, sweep_sphere_plane};

macro_rules! assert_approx_eq {
    ($a:expr, $b:expr, $tol:expr) => {{
        let (a, b, tol) = (($a) as f64, ($b) as f64, ($tol) as f64);
        assert!(
            (a - b).abs() <= tol,
            "{} = {a} but {} = {b}: |Δ| = {:e} > {tol:e}",
            stringify!($a),
            stringify!($b),
            (a - b).abs()
        );
    }};
}

fn pillar() -> Cylinder {
    Cylinder::new(Vec3::ZERO, Vec3::Y, 2.0, 1.0).unwrap()
}

fn assert_hit(hit: Option<AnalyticHit>, time: f32, point: Vec3, normal: Vec3) {
    let hit = hit.expect("a contact");
    assert_approx_eq!(hit.time, time, 1e-6);
    assert!((hit.point - point).length() < 1e-5, "point {} != {point}", hit.point);
    assert!(
        (hit.normal - normal).length() < 1e-5,
        "normal {} != {normal}",
        hit.normal
    );
    assert!(!hit.started_embedded);
}

#[test]
fn sphere_falling_on_the_plane() {
    let floor = Plane::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y).unwrap();
    let hit = sweep_sphere_plane(&floor, Vec3::new(2.0, 9.0, 0.0), 0.5, Vec3::new(0.0, -4.0, 0.0), 5.0);
    assert_hit(hit, 2.375, Vec3::new(2.0, -1.0, 0.0), Vec3::Y);
    // Tilted: the plane through the origin facing (1, 1, 0)/√2, dropped on from above.
    let tilted = Plane::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0)).unwrap();
    let hit = sweep_sphere_plane(&tilted, Vec3::new(0.0, 10.0, 0.0), 1.0, Vec3::NEG_Y, 20.0);
    let t = 10.0 - std::f32::consts::SQRT_2;
    assert_hit(
        hit,
        t,
        Vec3::new(-0.5, 0.5, 0.0) * (10.0 - t),
        Vec3::new(1.0, 1.0, 0.0).normalize(),
    );
}

#[test]
fn head_on_at_the_side() {
    let hit = sweep_sphere_cylinder(
        &pillar(),
        Vec3::new(5.0, 1.0, 0.0),
        0.5,
        Vec3::new(-2.0, 0.0, 0.0),
        10.0,
    );
    assert_hit(hit, 1.75, Vec3::new(1.0, 1.0, 0.0), Vec3::X);
    let diagonal = Vec3::new(-1.0, 0.0, -1.0).normalize();
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(4.0, 0.3, 4.0), 0.25, diagonal, 10.0);
    assert_hit(hit, 32f32.sqrt() - 1.25, -diagonal + Vec3::Y * 0.3, -diagonal);
}

#[test]
fn straight_down_onto_a_cap() {
    let hit = sweep_sphere_cylinder(
        &pillar(),
        Vec3::new(0.3, 7.0, -0.2),
        0.5,
        Vec3::new(0.0, -3.0, 0.0),
        10.0,
    );
    assert_hit(hit, 1.5, Vec3::new(0.3, 2.0, -0.2), Vec3::Y);
    // And up into the bottom one.
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(-0.6, -4.0, 0.0), 1.0, Vec3::Y, 10.0);
    assert_hit(hit, 3.0, Vec3::new(-0.6, 0.0, 0.0), Vec3::NEG_Y);
}

#[test]
fn onto_the_rim_at_45_degrees() {
    let out = Vec3::new(1.0, 1.0, 0.0).normalize();
    let rim = Vec3::new(1.0, 2.0, 0.0);
    for radius in [0.1, 0.5, 2.0] {
        let hit = sweep_sphere_cylinder(&pillar(), rim + out * 5.0, radius, -out * 2.0, 10.0);
        assert_hit(hit, (5.0 - radius) / 2.0, rim, out);
    }
    // The bottom rim, from the side below and behind (−z).
    let out = Vec3::new(0.0, -1.0, -1.0).normalize();
    let rim = Vec3::new(0.0, 0.0, -1.0);
    let hit = sweep_sphere_cylinder(&pillar(), rim + out * 3.0, 0.4, -out, 10.0);
    assert_hit(hit, 2.6, rim, out);
}

#[test]
fn overlapping_and_moving_inwards_hits_at_once() {
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(1.3, 1.0, 0.0), 0.5, Vec3::NEG_X, 1.0).unwrap();
    assert_eq!(hit.time, 0.0);
    assert!(hit.started_embedded);
    assert!((hit.normal - Vec3::X).length() < 1e-6);
    // Moving out of the overlap, or along the surface: let go.
    assert_eq!(
        sweep_sphere_cylinder(&pillar(), Vec3::new(1.3, 1.0, 0.0), 0.5, Vec3::X, 1.0),
        None
    );
    assert_eq!(
        sweep_sphere_cylinder(&pillar(), Vec3::new(1.3, 1.0, 0.0), 0.5, Vec3::Y, 1.0),
        None
    );
    // Centre inside the solid, moving deeper: a contact now.
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(0.0, 1.8, 0.0), 0.1, Vec3::NEG_Y, 1.0).unwrap();
    assert!(hit.started_embedded && hit.time == 0.0);
    assert!((hit.point - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-6);
}
