//! How deep a character ends a tick inside what should have stopped it:
//! the one measure that level-check, the game's run summary and this
//! crate's test harness share, so the three judge one-way surfaces alike.

use crate::CharacterState;
use glam::Vec3;
use slidewalk_sweep::{
    Candidate, CollisionLayers, Ellipsoid, KeepTriangles, PlacedCollider, penetration_depth_with,
    projects_onto_triangle,
};

/// Whether triangle `slot` of `placed` (collider `index` of the world) is
/// solid for a character that ticked from `before` to `after`, the way the
/// controller's sweeps judge it: every triangle of a two-way collider is;
/// a one-way collider's triangle only where
///
/// * the tick began with the body wholly in front of it (up to
///   [`slidewalk_sweep::ONE_WAY_SLACK`]) in the shape it began with, and in
///   the shape it ended with too (standing up in the air at a platform's
///   rim lets the body pass, as walking off it does);
/// * the tick ended with the centre over the triangle (it projects into
///   it along its normal: a body stepping off a one-way ledge may clip its
///   rim from the side on the way down);
/// * no drop through one-way surfaces was under way at either end of the
///   tick (`drop_through`), nor begun and ended within it (`dropped`, as
///   [`TickReport::dropped`](crate::TickReport::dropped) says).
pub fn solid_after_tick(
    before: &CharacterState,
    after: &CharacterState,
    dropped: bool,
    index: usize,
    placed: &PlacedCollider<'_>,
    slot: usize,
) -> bool {
    let Some(direction) = placed.one_way else {
        return true;
    };
    if dropped || before.drop_through.is_some() || after.drop_through.is_some() {
        return false;
    }
    let corners = placed.mesh.triangle(slot).map(|p| placed.pose.transform_point(p));
    let up = placed.pose.rotation * direction;
    let held = |radii: Vec3| {
        let espace = corners.map(|p| (p - before.position) * radii.recip());
        Candidate::new(index, placed, slot, espace, before.position, radii).one_way_holds(up, 0.0)
    };
    held(before.radii) && held(after.radii) && projects_onto_triangle(after.position, corners)
}

/// How deep the character's ellipsoid ends a tick (from `before` to
/// `after`, `dropped` as the tick's report says) inside the solids of
/// `world` it should not be inside, in eSpace units: a fraction of its
/// radius along the way out (0 when clear, 1 with the centre on a
/// surface). What counts is what a body with `layers` meets, and of a
/// one-way collider only the triangles [`solid_after_tick`] keeps: passing
/// up through a one-way platform, or dropping through one, is no
/// penetration; sinking into one from above is. Radii that are not a
/// valid ellipsoid measure 0.
///
/// A tick the controller reports crushed (a door or lift squeezing the
/// character) may end inside the mover by design; callers leave those out.
pub fn penetration_after_tick(
    before: &CharacterState,
    after: &CharacterState,
    dropped: bool,
    world: &[PlacedCollider<'_>],
    layers: CollisionLayers,
) -> f32 {
    let Ok(ellipsoid) = Ellipsoid::new(after.radii) else {
        return 0.0;
    };
    // One-way colliders judged here, by the tick's start, not by the
    // core's rule (which would judge from the end position).
    let two_way: Vec<PlacedCollider<'_>> = world.iter().map(|p| p.with_one_way(None)).collect();
    let keep = KeepTriangles(|c: &Candidate<'_, '_>| {
        solid_after_tick(before, after, dropped, c.collider(), &world[c.collider()], c.slot())
    });
    penetration_depth_with(&ellipsoid, after.position, &two_way, layers, keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidewalk_sweep::MeshCollider;

    /// The 3 × 3 m top of a slab at y = 0.8 (as the demo's lowest one-way
    /// platform), facing up.
    fn slab() -> MeshCollider {
        let [a, b, c, d] = [(-1.5, -1.5), (-1.5, 1.5), (1.5, 1.5), (1.5, -1.5)].map(|(x, z)| Vec3::new(x, 0.8, z));
        MeshCollider::from_triangles(&[[a, b, c], [a, c, d]]).unwrap()
    }

    /// A crouched character (radii 0.4, 0.55, 0.4) centred at `y`.
    fn crouched_at(y: f32) -> CharacterState {
        let mut s = CharacterState::standing_at(Vec3::ZERO, &crate::ControllerConfig::default());
        s.position = Vec3::new(0.0, y, 0.0);
        s.radii = Vec3::new(0.4, 0.55, 0.4);
        s.crouched = true;
        s
    }

    #[test]
    fn dropping_through_a_one_way_platform_is_no_penetration_sinking_into_it_is() {
        let slab = slab();
        let world = [PlacedCollider::fixed(&slab).with_one_way(Some(Vec3::Y))];
        // Level-check's long run: crouched on the platform, a drop begun;
        // the tick after, 4 mm lower, 1 % of the radius below its top.
        let mut before = crouched_at(1.3492);
        let mut after = crouched_at(1.3451);
        before.drop_through = Some(0.8);
        after.drop_through = Some(0.8);
        let all = CollisionLayers::ALL;
        assert_eq!(penetration_after_tick(&before, &after, false, &world, all), 0.0);
        // The tick the drop began and ended in.
        before.drop_through = None;
        after.drop_through = None;
        assert_eq!(penetration_after_tick(&before, &after, true, &world, all), 0.0);
        // No drop: the platform held it and it sank in.
        let depth = penetration_after_tick(&before, &after, false, &world, all);
        assert!((depth - (0.8 - (1.3451 - 0.55)) / 0.55).abs() < 1e-3, "{depth}");
        // Passing up through it (the tick began below its top) is none.
        let below = crouched_at(0.7);
        assert_eq!(penetration_after_tick(&below, &after, false, &world, all), 0.0);
        // A two-way slab counts whatever the drop.
        let world = [PlacedCollider::fixed(&slab)];
        before.drop_through = Some(0.8);
        assert!(penetration_after_tick(&before, &after, true, &world, all) > 0.0);
    }
}
