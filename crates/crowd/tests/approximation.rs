//! The error of the crowd's conservative approximation, measured: an agent
//! sweeps its ellipsoid against another's circumscribed polytope and stops
//! short of the other's ellipsoid by a gap. Over many random approaches
//! between the default sizes, the gap along the line of approach (how much
//! further it could have come before the ellipsoids touch, metres) never
//! goes below zero (the polytope contains the ellipsoid) nor above the
//! polytope's farthest point from the ellipsoid; its distribution is
//! printed (`cargo test -p slidewalk_crowd --test approximation -- --nocapture`).

mod common;

use glam::Vec3;
use slidewalk_crowd::{CrowdConfig, HullResolution, separation::espace_distance};
use slidewalk_sweep::{Ellipsoid, PlacedCollider};

/// How far agent `a` (radii `ra`) coming along `dir` from 3 m away gets
/// before its sweep meets agent `b`'s polytope (b centred at the origin),
/// and before the two ellipsoids would touch (bisection on the exact
/// distance), metres.
fn approach(ra: Vec3, rb: Vec3, from: Vec3, dir: Vec3, hull: &slidewalk_sweep::MeshCollider) -> Option<(f32, f32)> {
    let reach = 3.0;
    let start = from - dir * reach;
    let e = Ellipsoid::new(ra).unwrap();
    let hit = slidewalk_sweep::sweep(&e, start, dir * reach, &[PlacedCollider::fixed(hull)])?;
    assert!(!hit.started_embedded);
    let touching = |s: f32| espace_distance(start + dir * s, ra, Vec3::ZERO, rb) < 1.0;
    if !touching(reach) {
        return None;
    }
    let (mut lo, mut hi) = (0.0f32, reach);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if touching(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((hit.time * reach, lo))
}

fn percentile(sorted: &[f32], p: f32) -> f32 {
    sorted[((sorted.len() - 1) as f32 * p).round() as usize]
}

#[test]
fn agents_stop_short_of_each_other_by_at_most_the_polytopes_error() {
    let config = CrowdConfig::default();
    let res = HullResolution::default();
    let sizes = &config.sizes;
    let hulls: Vec<_> = sizes.iter().map(|r| res.collider(*r).unwrap()).collect();
    let mut rng = slidewalk_sweep::test_util::Lcg::new(5);
    for (case, same_floor) in [("side by side on one floor", true), ("from any direction", false)] {
        let mut gaps = Vec::new();
        let mut relative = Vec::new();
        for _ in 0..20_000 {
            let (a, b) = (
                (rng.next_f32() * sizes.len() as f32) as usize % sizes.len(),
                (rng.next_f32() * sizes.len() as f32) as usize % sizes.len(),
            );
            let (ra, rb) = (sizes[a], sizes[b]);
            let (from, dir) = if same_floor {
                // Feet on one floor: a's centre at its height above b's feet.
                let t = rng.range(0.0, std::f32::consts::TAU);
                (Vec3::new(0.0, ra.y - rb.y, 0.0), Vec3::new(t.cos(), 0.0, t.sin()))
            } else {
                (Vec3::ZERO, rng.direction())
            };
            let Some((hull, exact)) = approach(ra, rb, from, dir, &hulls[b]) else {
                continue;
            };
            let gap = exact - hull;
            // Never inside the other's ellipsoid (0 where the polytope's
            // face touches it; the controller's skin keeps 1 ‰ of the
            // radius more); never farther than the polytope's farthest
            // point from it.
            assert!(gap > -1e-5, "{case}: {gap}");
            assert!(
                gap <= res.max_gap() * rb.max_element() + 2e-3 * ra.max_element(),
                "{case}: {gap}"
            );
            gaps.push(gap);
            relative.push(gap / rb.x.min(ra.x));
        }
        assert!(gaps.len() > 19_000);
        gaps.sort_by(f32::total_cmp);
        relative.sort_by(f32::total_cmp);
        let mean = gaps.iter().sum::<f32>() / gaps.len() as f32;
        eprintln!(
            "{case}: gap along the approach over {} approaches: mean {:.1} mm, median {:.1} mm, 95th percentile {:.1} mm, max {:.1} mm; \
             relative to the smaller horizontal radius: median {:.1} %, max {:.1} %",
            gaps.len(),
            mean * 1e3,
            percentile(&gaps, 0.5) * 1e3,
            percentile(&gaps, 0.95) * 1e3,
            gaps[gaps.len() - 1] * 1e3,
            percentile(&relative, 0.5) * 100.0,
            relative[relative.len() - 1] * 100.0
        );
    }
    eprintln!(
        "polytope: {} triangles, farthest point {:.1} % of the radius from the ellipsoid",
        res.triangle_count(),
        res.max_gap() * 100.0
    );
}
