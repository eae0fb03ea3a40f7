//! The engine bridges' shared rules, engine-free: a push moves the two
//! bodies as one up to the strength's cap; a polyhedron is scaled out to
//! hold the curved shape its corners lie on.

use bevy::prelude::*;
use bevy_slidewalk::bodies::{holding, push_impulse};

#[test]
fn a_push_moves_the_two_as_one_and_is_capped() {
    // 80 kg at 4 m/s into 10 kg: reduced mass 8.89 kg.
    let i = push_impulse(80.0, 10.0, 4.0, 100.0, true);
    assert!((i - 80.0 * 10.0 / 90.0 * 4.0).abs() < 1e-4, "{i}");
    assert_eq!(push_impulse(80.0, 5000.0, 4.0, 8.0, true), 8.0);
    assert_eq!(push_impulse(80.0, 10.0, -1.0, 8.0, true), 0.0);
    assert_eq!(push_impulse(80.0, f32::NAN, f32::NAN, 8.0, true), 0.0);
    assert_eq!(push_impulse(80.0, 0.0, 1.0, 1000.0, true), 80.0);
    // Not slowed by the body's mass: the body brought to the character's
    // speed, 10 kg × 4 m/s, still capped.
    assert_eq!(push_impulse(80.0, 10.0, 4.0, 100.0, false), 40.0);
    assert_eq!(push_impulse(80.0, 5000.0, 4.0, 8.0, false), 8.0);
}

#[test]
fn a_hexagon_holding_a_circle_has_every_edge_outside_it() {
    // A prism on a hexagon inscribed in the unit circle (y from −1 to 1).
    let mut positions = Vec::new();
    for k in 0..6 {
        let a = std::f32::consts::TAU * k as f32 / 6.0;
        positions.push(Vec3::new(a.cos(), -1.0, a.sin()));
        positions.push(Vec3::new(a.cos(), 1.0, a.sin()));
    }
    let mut triangles = Vec::new();
    for k in 0..6u32 {
        let (a, b) = (2 * k, 2 * ((k + 1) % 6));
        triangles.push([a, b, a + 1]);
        triangles.push([b, b + 1, a + 1]);
    }
    let circle = |d: Vec3| {
        let across = Vec3::new(d.x, 0.0, d.z).normalize_or_zero();
        across + Vec3::Y * d.y.signum()
    };
    let held = holding(positions, &triangles, circle);
    // The edge's midpoint, once at cos 30°, now at least 1 from the axis.
    let mid = (held[0] + held[2]) / 2.0;
    assert!(Vec3::new(mid.x, 0.0, mid.z).length() >= 1.0, "{mid}");
}

#[test]
fn an_inner_hull_is_inside_the_ellipsoid_and_near_its_inset() {
    use bevy_slidewalk::bodies::{INNER_INSET, inner_hull};
    for radii in [
        Vec3::new(0.4, 0.9, 0.4),
        Vec3::new(0.4, 0.55, 0.4),
        Vec3::new(0.5, 0.5, 0.5),
        Vec3::new(0.6, 0.3, 0.6),
        Vec3::new(0.3, 1.2, 0.5),
    ] {
        let corners = inner_hull(radii, INNER_INSET);
        // Every corner (so the hull) inside the ellipsoid, and the hull
        // reaching within the inset (and the facets' depth) of it along
        // every direction.
        for p in &corners {
            assert!((*p / radii).length_squared() < 1.0, "{radii}: corner {p} outside");
        }
        for d in directions() {
            let reach = corners.iter().map(|p| p.dot(d)).fold(f32::MIN, f32::max);
            let ellipsoid = (d * radii).length();
            assert!(
                reach > ellipsoid - INNER_INSET - 0.1 * ellipsoid,
                "{radii}: the hull reaches {reach} along {d}, the ellipsoid {ellipsoid}"
            );
        }
    }
}

/// Unit directions over the sphere, 15° apart.
fn directions() -> Vec<Vec3> {
    let mut out = vec![Vec3::Y, Vec3::NEG_Y];
    for i in 1..12 {
        let polar = std::f32::consts::PI * i as f32 / 12.0;
        for j in 0..24 {
            let azimuth = std::f32::consts::TAU * j as f32 / 24.0;
            out.push(Vec3::new(
                polar.sin() * azimuth.cos(),
                polar.cos(),
                polar.sin() * azimuth.sin(),
            ));
        }
    }
    out
}
