//! Invariants over randomized walks on the shared adversarial rooms: the
//! ellipsoid never ends a call penetrating a triangle, never leaves a closed
//! room, never becomes NaN — at scales from 1 mm to 10 km and aspect ratios
//! up to 1:10. (The million-move soak is `examples/soak.rs`.)

use glam::Vec3;
use slidewalk_sweep::test_util::{WalkConfig, adversarial_rooms, random_walks};
use slidewalk_sweep::{Aabb, Ellipsoid, SlideOptions};

/// Allowed penetration, eSpace units: the core keeps a 1e-3 skin, so any
/// distance below 1 − 1e-4 is a real failure, not rounding.
const TOLERANCE: f32 = 1e-4;

/// Ellipsoids (radii in metres at scale 1) that fit the 4 × 3 × 4 m rooms.
fn walkers() -> [(&'static str, Vec3); 4] {
    [
        ("sphere", Vec3::splat(0.3)),
        ("player", Vec3::new(0.3, 0.8, 0.3)),
        ("tall 1:10", Vec3::new(0.1, 1.0, 0.1)),
        ("flat 10:1", Vec3::new(0.6, 0.06, 0.6)),
    ]
}

fn run(scale: f32, walks: u32, moves: u32, seed: u64) -> Vec<String> {
    let half = Vec3::new(2.0, 1.5, 2.0) * scale;
    let mut failures = Vec::new();
    for (room, soup) in adversarial_rooms() {
        let soup = soup.scaled(scale);
        for (k, (walker, radii)) in walkers().into_iter().enumerate() {
            let config = WalkConfig {
                ellipsoid: Ellipsoid::new(radii * scale).unwrap(),
                walks,
                moves_per_walk: moves,
                seed: seed + k as u64,
                interior: Aabb::from_corners(-half, half),
                max_move: 0.5 * scale,
                gravity: Vec3::new(0.0, -0.05 * scale, 0.0),
                options: SlideOptions::default(),
            };
            let stats = random_walks(&soup, &config);
            if stats.max_penetration() > TOLERANCE || stats.escaped > 0 || stats.non_finite > 0 {
                failures.push(format!("scale {scale}, {room}, {walker}: {stats:?}"));
            }
        }
    }
    failures
}

#[test]
fn walks_at_unit_scale_never_penetrate_or_escape() {
    let failures = run(1.0, 6, 60, 1);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn walks_at_millimetre_scale() {
    let failures = run(1e-3, 3, 40, 100);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn walks_at_ten_kilometre_scale() {
    let failures = run(1e4, 3, 40, 200);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn walks_far_from_the_origin() {
    // A unit-scale room 10 km away: f32 has ~1 mm resolution there, so the
    // effective skin grows; the walker must still stay out of the walls.
    let offset = Vec3::new(1e4, 0.0, -1e4);
    let half = Vec3::new(2.0, 1.5, 2.0);
    let (_, soup) = &adversarial_rooms()[2]; // the 1 cm thin wall
    let mut soup = soup.clone();
    soup.positions.iter_mut().for_each(|p| *p += offset);
    let config = WalkConfig {
        ellipsoid: Ellipsoid::new(Vec3::new(0.3, 0.8, 0.3)).unwrap(),
        walks: 6,
        moves_per_walk: 60,
        seed: 300,
        interior: Aabb::from_corners(offset - half, offset + half),
        max_move: 0.5,
        gravity: Vec3::new(0.0, -0.05, 0.0),
        options: SlideOptions::default(),
    };
    let stats = random_walks(&soup, &config);
    // eSpace resolution here is ~ulp(1e4 m) / 0.3 m ≈ 3e-3: allow that much.
    assert!(
        stats.max_penetration() <= 5e-3 && stats.escaped == 0 && stats.non_finite == 0,
        "{stats:?}"
    );
}
