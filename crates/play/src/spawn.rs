//! Where the player starts: the level's first spawn point, or — for a
//! level without one — on top of its geometry.
//!
//! The rule for a level without a spawn node: drop the standing ellipsoid
//! straight down from above the level's bounds, first over the centre of
//! the bounds (x, z), then over points on a spiral around it (up to the
//! bounds' half-size), onto the first surface facing up within the
//! walkable slope; the feet stand there, looking along −z. With no such
//! surface at all, the feet start at the centre of the bounds' top.

use glam::Vec3;
use level::{Level, Spawn};
use sweep::{Aabb, Ellipsoid, PlacedCollider};

/// The spawn point to use: the level's first, or one found on its geometry.
pub fn spawn_point(level: &Level, radii: Vec3, walkable_cos: f32) -> Spawn {
    if let Some(s) = level.spawns.first() {
        return *s;
    }
    let colliders: Vec<PlacedCollider<'_>> = level
        .statics
        .iter()
        .map(PlacedCollider::fixed)
        .chain(
            level
                .movers
                .iter()
                .map(|m| PlacedCollider::moving(&m.collider, m.rest, Vec3::ZERO, Vec3::ZERO)),
        )
        .collect();
    let bounds = colliders.iter().fold(Aabb::EMPTY, |b, c| {
        b.union(Aabb::from_points(
            c.mesh.bounds().corners().map(|p| c.pose.transform_point(p)),
        ))
    });
    let centre = bounds.center();
    let top = Vec3::new(centre.x, bounds.max.y, centre.z);
    let fallback = Spawn {
        position: top,
        yaw: 0.0,
    };
    let Ok(e) = Ellipsoid::new(radii) else { return fallback };
    if !bounds.min.is_finite() {
        return fallback;
    }
    let half = (bounds.max - bounds.min) * 0.5;
    let start_y = bounds.max.y + radii.y + 0.1;
    let drop = Vec3::new(0.0, bounds.min.y - radii.y - 0.1 - start_y, 0.0);
    for k in 0..400 {
        // A spiral of points: radius grows to the bounds' half-size.
        let f = k as f32 / 400.0;
        let angle = k as f32 * 2.4;
        let offset = Vec3::new(angle.cos() * half.x * f, 0.0, angle.sin() * half.z * f);
        let from = Vec3::new(centre.x + offset.x, start_y, centre.z + offset.z);
        if let Some(hit) = sweep::sweep(&e, from, drop, &colliders)
            && !hit.started_embedded
            && hit.normal.y >= walkable_cos
        {
            let centre_at = from + drop * hit.time;
            return Spawn {
                position: centre_at - Vec3::Y * radii.y + Vec3::Y * 0.01,
                yaw: 0.0,
            };
        }
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_level_spawn_wins_and_a_level_without_one_gets_one_on_its_geometry() {
        let playground = level::load_bytes(&level::generate::playground_glb(), None, Path::new("p.glb")).unwrap();
        let s = spawn_point(&playground, Vec3::new(0.4, 0.9, 0.4), 0.7);
        assert_eq!(s.position, level::generate::playground::SPAWN);
        let mut no_spawn = playground.clone();
        no_spawn.spawns.clear();
        let s = spawn_point(&no_spawn, Vec3::new(0.4, 0.9, 0.4), 0.7);
        // On something at the middle of the level, feet at most 5 m up.
        assert!(s.position.y >= -0.01 && s.position.y < 5.0, "{s:?}");
    }
}
