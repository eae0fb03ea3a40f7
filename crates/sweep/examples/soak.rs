//! Soak: a million random moves (each a move pass and a gravity pass, two
//! collide-and-slide calls) on the adversarial rooms, every end position
//! checked by brute force. Exits non-zero on any failure.
//!
//! `cargo run --release -p slidewalk_sweep --example soak -- [MOVES]` (default 1,000,000).

use glam::Vec3;
use slidewalk_sweep::test_util::{WalkConfig, adversarial_rooms, random_walks};
use slidewalk_sweep::{Aabb, Ellipsoid, SlideOptions};
use std::time::Instant;

fn main() {
    let target: u64 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("MOVES must be a number"))
        .unwrap_or(1_000_000);
    let scales = [1e-3f32, 1.0, 1e4];
    let walkers = [
        Vec3::splat(0.3),
        Vec3::new(0.3, 0.8, 0.3),
        Vec3::new(0.1, 1.0, 0.1),
        Vec3::new(0.6, 0.06, 0.6),
    ];
    let rooms = adversarial_rooms();
    let combos = (scales.len() * walkers.len() * rooms.len()) as u64;
    let moves_per_walk = 200u32;
    let walks = target.div_ceil(combos * moves_per_walk as u64).max(1) as u32;
    let started = Instant::now();
    let (mut calls, mut worst, mut failures) = (0u64, 0.0f32, 0u32);
    let mut worst_case = String::new();
    let (mut contacts, mut unresolved) = (0u64, 0u64);
    for (si, &scale) in scales.iter().enumerate() {
        let half = Vec3::new(2.0, 1.5, 2.0) * scale;
        for (ri, (room, soup)) in rooms.iter().enumerate() {
            let soup = soup.scaled(scale);
            for (wi, radii) in walkers.iter().enumerate() {
                let config = WalkConfig {
                    ellipsoid: Ellipsoid::new(*radii * scale).unwrap(),
                    walks,
                    moves_per_walk,
                    seed: (si * 100 + ri * 10 + wi) as u64,
                    interior: Aabb::from_corners(-half, half),
                    max_move: 0.5 * scale,
                    gravity: Vec3::new(0.0, -0.05 * scale, 0.0),
                    options: SlideOptions::default(),
                };
                let s = random_walks(&soup, &config);
                calls += s.calls;
                contacts += s.with_contacts;
                unresolved += s.unresolved;
                if s.max_penetration() > worst {
                    worst = s.max_penetration();
                    worst_case = format!(
                        "scale {scale}, {room}, radii {radii}: closest call {:?}",
                        s.closest_call
                    );
                }
                if s.max_penetration() > 1e-4 || s.escaped > 0 || s.non_finite > 0 {
                    failures += 1;
                    eprintln!("FAIL scale {scale}, {room}, radii {radii}: {s:?}");
                }
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} moves, {calls} calls ({contacts} with contacts, {unresolved} unresolved overlaps) in {secs:.1} s; max penetration {worst:.2e} eSpace; {failures} failing combinations",
        calls / 2
    );
    if worst > 0.0 {
        println!("deepest: {worst_case}");
    }
    if failures > 0 {
        std::process::exit(1);
    }
}
