//! Where a character can stand: the one spawn search the game, headless
//! runs and level-check share.
//!
//! The rule: the level's first spawn node; for a level without one, drop
//! the standing ellipsoid straight down from above the level's bounds,
//! first over the centre of the bounds (x, z), then over points on a spiral
//! around it (out to the bounds' half-size), onto the first surface facing
//! up within the walkable slope (a face that does, on either side:
//! triangles are two-sided; the top edge of a wall does not count); the
//! feet stand there, a centimetre up, looking along −z.

use crate::level::{Level, Spawn};
use glam::Vec3;
use sweep::{Aabb, Ellipsoid, PlacedCollider};

/// Points tried on the spiral before a level is said to have no place to stand.
const SPIRAL_POINTS: usize = 400;

/// How far above the surface the feet are put, metres.
const FEET_CLEARANCE: f32 = 0.01;

/// Where a character of the standing `radii` (metres) starts: the level's
/// first spawn node, or the first walkable place found by the drop search
/// (see the module docs); `None` when the level has no spawn node and the
/// search finds nowhere to stand. `walkable_cos` is the cosine of the
/// steepest walkable slope.
pub fn start_point(level: &Level, radii: Vec3, walkable_cos: f32) -> Option<Spawn> {
    if let Some(s) = level.spawns.first() {
        return Some(*s);
    }
    let colliders = level.placed_at_rest();
    let bounds = PlacedCollider::world_bounds_of(&colliders);
    let e = Ellipsoid::new(radii).ok()?;
    if !(bounds.min.is_finite() && bounds.max.is_finite()) {
        return None;
    }
    let centre = bounds.center();
    let half = (bounds.max - bounds.min) * 0.5;
    (0..SPIRAL_POINTS).find_map(|k| {
        let f = k as f32 / SPIRAL_POINTS as f32;
        let angle = k as f32 * 2.4;
        let x = centre.x + angle.cos() * half.x * f;
        let z = centre.z + angle.sin() * half.z * f;
        let above = Vec3::new(x, bounds.max.y + radii.y + 0.1, z);
        drop_onto(&e, above, bounds, &colliders, walkable_cos).map(|feet| Spawn {
            position: feet,
            yaw: 0.0,
        })
    })
}

/// Drops the ellipsoid `e` straight down from the centre `from` to just
/// below `bounds`: the feet on the first surface it meets, when that
/// surface faces up within the walkable slope (either face: triangles are
/// two-sided) and the ellipsoid was free at `from`.
pub fn drop_onto(
    e: &Ellipsoid,
    from: Vec3,
    bounds: Aabb,
    colliders: &[PlacedCollider<'_>],
    walkable_cos: f32,
) -> Option<Vec3> {
    let ry = e.radii().y;
    let drop = Vec3::new(0.0, (bounds.min.y - ry - 0.1 - from.y).min(0.0), 0.0);
    let hit = sweep::sweep(e, from, drop, colliders)?;
    // The face itself must be walkable: resting on the top edge of a wall
    // meets it with an upward normal too.
    let c = &colliders[hit.collider];
    let face = c.mesh.triangle(hit.slot).map(|p| c.pose.transform_point(p));
    (!hit.started_embedded && hit.normal.y >= walkable_cos && is_walkable(face, walkable_cos))
        .then(|| from + drop * hit.time - Vec3::Y * (ry - FEET_CLEARANCE))
}

/// Whether a triangle faces up within the walkable slope on either side.
pub fn is_walkable(triangle: [Vec3; 3], walkable_cos: f32) -> bool {
    let n = (triangle[1] - triangle[0]).cross(triangle[2] - triangle[0]);
    let len = n.length();
    len > 0.0 && (n.y / len).abs() >= walkable_cos
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_level_spawn_wins_and_a_level_without_one_gets_one_on_its_geometry() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
        let playground = crate::load(&path).unwrap();
        let s = start_point(&playground, Vec3::new(0.4, 0.9, 0.4), 0.7).unwrap();
        // The demo level's spawn node (`level_tools::generate::playground::SPAWN`).
        assert_eq!(s.position, Vec3::new(0.0, 0.0, 30.0));
        let mut no_spawn = playground.clone();
        no_spawn.spawns.clear();
        let s = start_point(&no_spawn, Vec3::new(0.4, 0.9, 0.4), 0.7).unwrap();
        // On something at the middle of the level, feet at most 5 m up.
        assert!(s.position.y >= -0.01 && s.position.y < 5.0, "{s:?}");
    }

    #[test]
    fn walkable_means_facing_up_on_either_side() {
        let floor = [Vec3::ZERO, Vec3::Z, Vec3::X];
        assert!(is_walkable(floor, 0.7));
        assert!(is_walkable([floor[0], floor[2], floor[1]], 0.7));
        assert!(!is_walkable([Vec3::ZERO, Vec3::Y, Vec3::X], 0.7));
        assert!(!is_walkable([Vec3::ZERO, Vec3::X, Vec3::X * 2.0], 0.7));
    }
}
