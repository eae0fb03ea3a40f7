//! Where a character can stand: the one spawn search the game, headless
//! runs and level-check share.
//!
//! The rule: the level's first spawn node, the feet on it when the
//! standing ellipsoid fits there, else at the nearest place straight below
//! or above it where it fits ([`place_at_node`]: a node too close to a
//! ceiling sends the character down, one inside a step onto it); for a
//! level without a spawn node, drop the standing ellipsoid straight down
//! from above the level's bounds, first over the centre of the bounds
//! (x, z), then over points on a spiral around it (out to the bounds'
//! half-size), onto the first surface facing up within the walkable slope
//! (a face that does, on either side: triangles are two-sided; the top edge
//! of a wall does not count); the feet stand there, a centimetre up,
//! looking along −z.
//!
//! The search meets the level as the player does
//! ([`crate::layers::PLAYER_LAYERS`]): a part whose layers let the player
//! through is not a floor, a one-way platform is one from above (the drop
//! lands on it), and sensors are not solid at all.

use crate::layers::{PLAYER_LAYERS, met_by};
use crate::level::{Level, Spawn};
use glam::Vec3;
use slidewalk_sweep::{Aabb, Ellipsoid, PlacedCollider};

/// Points tried on the spiral before a level is said to have no place to stand.
const SPIRAL_POINTS: usize = 400;

/// How far above the surface the feet are put, metres.
const FEET_CLEARANCE: f32 = 0.01;

/// Farthest a spawn node's feet are moved up or down looking for room to
/// stand, metres.
pub const MAX_NODE_SHIFT: f32 = 10.0;

/// The step of that search, metres.
const NODE_SHIFT_STEP: f32 = 0.02;

/// The lowest point of a standing ellipsoid that fits is free anywhere from
/// this far above the feet up to [`FEET_CLEARANCE`] above them, metres:
/// where a character is put on its feet (`slidewalk_controller::CharacterState::standing_at`
/// lifts it four skins of its half-height, 3.6 mm by default).
const FIT_LOW: f32 = 0.001;

/// Where a character of the standing `radii` (metres) starts: the level's
/// first spawn node, placed by [`place_at_node`] (the node itself when no
/// place within [`MAX_NODE_SHIFT`] fits), or the first walkable place
/// found by the drop search (see the module docs); `None` when the level
/// has no spawn node and the search finds nowhere to stand. `walkable_cos`
/// is the cosine of the steepest walkable slope. The level is met as the
/// player meets it ([`PLAYER_LAYERS`]).
pub fn start_point(level: &Level, radii: Vec3, walkable_cos: f32) -> Option<Spawn> {
    let colliders = met_by(&level.placed_at_rest(), PLAYER_LAYERS);
    let e = Ellipsoid::new(radii).ok();
    if let Some(s) = level.spawns.first() {
        let position = e.and_then(|e| place_at_node(&e, s.position, &colliders));
        return Some(Spawn {
            position: position.unwrap_or(s.position),
            ..*s
        });
    }
    let e = e?;
    let bounds = PlacedCollider::world_bounds_of(&colliders);
    if !(bounds.min.is_finite() && bounds.max.is_finite()) {
        return None;
    }
    let centre = bounds.center();
    let half = (bounds.max - bounds.min) * 0.5;
    (0..SPIRAL_POINTS).find_map(|k| {
        let f = k as f32 / SPIRAL_POINTS as f32;
        let angle = k as f32 * 2.4;
        let x = centre.x + libm::cosf(angle) * half.x * f;
        let z = centre.z + libm::sinf(angle) * half.z * f;
        let above = Vec3::new(x, bounds.max.y + radii.y + 0.1, z);
        drop_onto(&e, above, bounds, &colliders, walkable_cos).map(|feet| Spawn {
            position: feet,
            yaw: 0.0,
        })
    })
}

/// Where the feet of a character standing as the ellipsoid `e` go at a
/// spawn node whose feet are at `node` (metres), among `colliders`: `node`
/// itself when `e` fits there, else the nearest place straight below or
/// above it where `e` fits, within [`MAX_NODE_SHIFT`] in 2 cm steps (above
/// first at the same distance): a node too close to a ceiling for the
/// standing shape puts the feet lower, in the air the character falls from
/// to the floor; a node inside a step or a floor puts them on top of it.
/// `None` when nothing within reach fits (or `node` is not finite). `e`
/// fits when it overlaps nothing with its lowest point anywhere from 1 mm
/// to 1 cm above the feet.
pub fn place_at_node(e: &Ellipsoid, node: Vec3, colliders: &[PlacedCollider<'_>]) -> Option<Vec3> {
    if !node.is_finite() {
        return None;
    }
    let ry = e.radii().y;
    let fits = |feet: Vec3| {
        let low = feet + Vec3::Y * (ry + FIT_LOW);
        slidewalk_sweep::penetration_depth(e, low, colliders) == 0.0
            && slidewalk_sweep::sweep(e, low, Vec3::Y * (FEET_CLEARANCE - FIT_LOW), colliders).is_none()
    };
    if fits(node) {
        return Some(node);
    }
    let steps = (MAX_NODE_SHIFT / NODE_SHIFT_STEP).round() as u32;
    (1..=steps)
        .flat_map(|k| [1.0, -1.0].map(|sign| node + Vec3::Y * (sign * k as f32 * NODE_SHIFT_STEP)))
        .find(|feet| fits(*feet))
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
    let hit = slidewalk_sweep::sweep(e, from, drop, colliders)?;
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
        // The demo level's spawn node (`slidewalk_level_tools::generate::playground::SPAWN`).
        assert_eq!(s.position, Vec3::new(0.0, 0.0, 30.0));
        // The other demo level's nodes are where the feet stand too.
        let magic = crate::load(path.with_file_name("magic_room.glb")).unwrap();
        let s = start_point(&magic, Vec3::new(0.4, 0.9, 0.4), 0.7).unwrap();
        assert_eq!(s, magic.spawns[0]);
        let mut no_spawn = playground.clone();
        no_spawn.spawns.clear();
        let s = start_point(&no_spawn, Vec3::new(0.4, 0.9, 0.4), 0.7).unwrap();
        // On something at the middle of the level, feet at most 5 m up.
        assert!(s.position.y >= -0.01 && s.position.y < 5.0, "{s:?}");
    }

    /// The 12 triangles of the box `min..max`.
    fn cuboid(min: Vec3, max: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let corners = (0..8)
            .map(|k| Vec3::select(glam::BVec3::new(k & 1 != 0, k & 2 != 0, k & 4 != 0), max, min))
            .collect();
        let faces = [
            [0, 1, 3, 2],
            [4, 6, 7, 5],
            [0, 4, 5, 1],
            [2, 3, 7, 6],
            [0, 2, 6, 4],
            [1, 5, 7, 3],
        ];
        let triangles = faces
            .iter()
            .flat_map(|[a, b, c, d]| [[*a, *b, *c], [*a, *c, *d]])
            .collect();
        (corners, triangles)
    }

    #[test]
    fn a_node_the_standing_shape_does_not_fit_on_moves_to_the_nearest_place_straight_below_or_above() {
        let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
        // A closed 10 × 3 × 10 m room, floor at y = 0, a 0.7 m block in it.
        let (mut positions, mut triangles) = cuboid(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 3.0, 5.0));
        let (block, block_triangles) = cuboid(Vec3::new(2.0, 0.0, 2.0), Vec3::new(4.0, 0.7, 4.0));
        let n = positions.len() as u32;
        positions.extend(block);
        triangles.extend(block_triangles.iter().map(|t| t.map(|i| i + n)));
        let room = slidewalk_sweep::MeshCollider::build(&positions, &triangles).unwrap();
        let colliders = [PlacedCollider::fixed(&room)];
        // On the floor, or in the air with room: the node itself.
        for node in [Vec3::ZERO, Vec3::new(-1.0, 0.5, 1.0), Vec3::new(3.0, 0.7, 3.0)] {
            assert_eq!(place_at_node(&e, node, &colliders), Some(node));
        }
        // 1.5 m up: the 1.8 m shape's top would be 0.3 m into the ceiling;
        // the feet go down until it fits, in 2 cm steps.
        let node = Vec3::new(0.0, 1.5, 0.0);
        let feet = place_at_node(&e, node, &colliders).unwrap();
        assert_eq!((feet.x, feet.z), (0.0, 0.0));
        assert!(feet.y < 1.2 && feet.y > 1.15, "{feet}");
        assert_eq!(
            slidewalk_sweep::penetration_depth(&e, feet + Vec3::Y * 0.91, &colliders),
            0.0
        );
        // 10 cm inside the block: on top of it.
        let feet = place_at_node(&e, Vec3::new(3.0, 0.6, 3.0), &colliders).unwrap();
        assert!((feet.y - 0.7).abs() <= NODE_SHIFT_STEP, "{feet}");
        assert_eq!(
            slidewalk_sweep::penetration_depth(&e, feet + Vec3::Y * 0.905, &colliders),
            0.0
        );
        // A 1 m tall room, the shape fits nowhere in it: the nearest fit
        // is on its roof (1 m up) rather than under its floor (1.8 m down).
        let (p, t) = cuboid(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 1.0, 5.0));
        let low = slidewalk_sweep::MeshCollider::build(&p, &t).unwrap();
        let node = Vec3::new(0.0, 0.0, 0.0);
        let feet = place_at_node(&e, node, &[PlacedCollider::fixed(&low)]).unwrap();
        assert!(feet.y > 0.99 && feet.y < 1.05, "{feet}");
        assert_eq!(place_at_node(&e, Vec3::NAN, &colliders), None);
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
