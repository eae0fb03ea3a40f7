//! The checks printed outside the timings: the BVH's sweeps against brute
//! force (every triangle through the narrow phase), and our sphere sweep
//! against parry3d's cast, judged by the true gap at the reported time.

use crate::moves::Move;
use glam::Vec3;
use parry3d::math::{Pose as PPose, Vector as PVec};
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;
use slidewalk_sweep::{Aabb, Ellipsoid, MeshCollider, PlacedCollider, distance_to_triangle, sweep};

/// Sphere radius of the comparison with parry3d, metres.
pub(crate) const SPHERE_RADIUS: f32 = 0.5;

/// Sweeps the ellipsoid against every triangle: what `sweep` does without
/// the broad phase. Returns the time and slot of the earliest hit.
pub(crate) fn brute_force_sweep(
    ellipsoid: &Ellipsoid,
    triangles: &[[Vec3; 3]],
    start: Vec3,
    motion: Vec3,
) -> Option<(f32, usize)> {
    // eSpace exactly as `sweep` maps it (reciprocal radii), so the two agree bit for bit.
    let inv_r = ellipsoid.radii().recip();
    let v = motion * inv_r;
    let mut best = None;
    let mut best_t = 1.0f32;
    for (slot, tri) in triangles.iter().enumerate() {
        let tri = tri.map(|p| (p - start) * inv_r);
        if let Some(hit) = sweep_unit_sphere_triangle(v, tri, best_t)
            && (best.is_none() || hit.t < best_t)
        {
            best_t = hit.t;
            best = Some((hit.t, slot));
        }
    }
    best
}

/// The BVH must find exactly the brute-force earliest times.
pub(crate) fn check_brute_force(
    triangles: &[[Vec3; 3]],
    player: &Ellipsoid,
    moves: &[Move],
    world: &[PlacedCollider<'_>],
) {
    let mismatches: Vec<String> = moves
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let bvh = sweep(player, m.start, m.motion, world).map(|h| h.time);
            let brute = brute_force_sweep(player, triangles, m.start, m.motion).map(|(t, _)| t);
            (bvh != brute).then(|| format!("move {i}: bvh {bvh:?}, brute force {brute:?}"))
        })
        .collect();
    if mismatches.is_empty() {
        println!("BVH vs brute force: same earliest time on all {} moves", moves.len());
    } else {
        println!(
            "BVH vs brute force: {} MISMATCHES, first: {}",
            mismatches.len(),
            mismatches[0]
        );
    }
}

/// Compares our sphere sweep with parry3d's cast on the same moves. Where
/// either reports a hit, the true gap at that time (centre to nearest
/// triangle, minus the radius) says how exact it is: 0 is touching.
pub(crate) fn check_parry(
    mesh: &MeshCollider,
    sphere: &Ellipsoid,
    moves: &[Move],
    world: &[PlacedCollider<'_>],
    parry_moves: &[(PPose, PVec)],
    parry_cast: impl Fn(&PPose, PVec) -> Option<f32>,
) {
    let radius = sphere.radii().x;
    let gap = |centre: Vec3| {
        let mut d = f32::INFINITY;
        mesh.query(
            &Aabb::from_corners(centre, centre).expand(Vec3::splat(2.0 * radius)),
            |slot| {
                d = d.min(distance_to_triangle(centre, mesh.triangle(slot)));
            },
        );
        d - radius
    };
    let (mut both, mut only_ours, mut only_parry) = (0, 0, 0);
    let (mut worst_ours, mut worst_parry, mut worst_along) = (0.0f32, 0.0f32, 0.0f32);
    for (m, (pose, vel)) in moves.iter().zip(parry_moves) {
        let ours = sweep(sphere, m.start, m.motion, world).map(|h| h.time);
        let parry = parry_cast(pose, *vel);
        match (ours, parry) {
            (Some(a), Some(b)) => {
                both += 1;
                worst_along = worst_along.max((a - b).abs() * m.motion.length());
            }
            (Some(_), None) => only_ours += 1,
            (None, Some(_)) => only_parry += 1,
            (None, None) => {}
        }
        if let Some(t) = ours {
            worst_ours = worst_ours.max(gap(m.start + m.motion * t).abs());
        }
        if let Some(t) = parry {
            worst_parry = worst_parry.max(gap(m.start + m.motion * t).abs());
        }
    }
    println!(
        "sphere r={SPHERE_RADIUS} vs parry3d: {both} hit in both, {only_ours} only ours, {only_parry} only parry3d; \
         largest |gap| at the reported time: ours {:.4} mm, parry3d {:.4} mm; \
         largest difference along the motion {:.3} mm",
        worst_ours * 1e3,
        worst_parry * 1e3,
        worst_along * 1e3
    )
}
