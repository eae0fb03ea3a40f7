//! Sweeping an ellipsoid along a motion against placed colliders: the
//! broad phase (an eSpace walk of the BVH that shrinks with the earliest
//! hit, or a box query for rotated colliders) and a cheap per-triangle
//! reject feeding the eSpace narrow phase.

use super::sphere_triangle::{TriangleHit, sweep_unit_sphere_triangle_noting_overlap};
use crate::aabb::Aabb;
use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::filter::{Candidate, CollisionLayers, ContactFilter, StandardRules};
use crate::triangle::{Feature, closest_point_on_triangle, voronoi_walk};
use glam::{Quat, Vec3};

/// The earliest contact of a swept ellipsoid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Fraction of the motion travelled at first contact, in `[0, 1]`.
    pub time: f32,
    /// Contact point on the surface, world space (metres).
    pub point: Vec3,
    /// Unit contact normal in world space, pointing from the surface towards
    /// the ellipsoid (the ellipsoid's surface normal at the contact, negated).
    pub normal: Vec3,
    /// Unit contact normal in eSpace (what the slide plane is built from).
    pub espace_normal: Vec3,
    /// Which part of the triangle was hit.
    pub feature: Feature,
    /// Index of the collider in the slice given to the sweep.
    pub collider: usize,
    /// Index of the triangle in that collider's input (as given to
    /// [`crate::MeshCollider::build`]).
    pub triangle: u32,
    /// BVH slot of the triangle in the collider (for [`crate::MeshCollider::triangle`]).
    pub slot: usize,
    /// The ellipsoid already overlapped the triangle at the start and the
    /// motion went deeper (time is 0).
    pub started_embedded: bool,
}

impl SweepHit {
    /// The hit `hit` (eSpace, relative to the ellipsoid's start `start`,
    /// metres) on input triangle `triangle` in BVH slot `slot` of collider
    /// `collider`, in world terms.
    #[inline]
    pub(crate) fn of_triangle(
        ellipsoid: &Ellipsoid,
        start: Vec3,
        hit: &TriangleHit,
        collider: usize,
        triangle: u32,
        slot: usize,
    ) -> Self {
        Self {
            time: hit.t,
            point: start + hit.point * ellipsoid.radii(),
            normal: ellipsoid.normal_from_espace(hit.normal),
            espace_normal: hit.normal,
            feature: hit.feature,
            collider,
            triangle,
            slot,
            started_embedded: hit.embedded,
        }
    }
}

/// Whether `hit` on input triangle `triangle` of collider `collider` is the
/// sweep's contact rather than `best` so far: earlier, or at the same time
/// on a lower triangle of the same collider (the colliders are asked in
/// order, so the order the tree gives the candidates in does not matter).
#[inline]
pub(crate) fn goes_first(hit: &TriangleHit, best: Option<&SweepHit>, collider: usize, triangle: u32) -> bool {
    best.is_none_or(|b| hit.t < b.time || (hit.t == b.time && b.collider == collider && triangle < b.triangle))
}

/// Calls `visit(slot, corners)` for each triangle of `collider` in a BVH
/// leaf overlapping the world box `query`, its corners in eSpace relative
/// to `start` (metres) exactly as the sweep takes them (an unrotated
/// collider's through its own frame, a rotated one's through the world).
pub(crate) fn espace_triangles_in(
    collider: &PlacedCollider<'_>,
    start: Vec3,
    inv_r: Vec3,
    query: &Aabb,
    mut visit: impl FnMut(usize, [Vec3; 3]),
) {
    let (mesh, pose) = (collider.mesh, collider.pose);
    if pose.rotation == Quat::IDENTITY {
        let origin = start - pose.translation;
        let local = Aabb::from_corners(query.min - pose.translation, query.max - pose.translation);
        mesh.query(&local, |slot| {
            visit(slot, mesh.triangle(slot).map(|p| (p - origin) * inv_r))
        });
    } else {
        collider.query_world(query, |slot, world| visit(slot, world.map(|p| (p - start) * inv_r)));
    }
}

/// Sweeps `ellipsoid`, centred at `start` (metres), along `motion` (metres)
/// against `colliders` (each at its current pose) and returns the earliest
/// contact, or `None` when the whole motion is free.
///
/// The candidate triangles are those of the BVH leaves the swept ellipsoid
/// may reach before the earliest hit found so far (the tree is walked in
/// eSpace, nearest node first); each is brought to eSpace relative to
/// `start` (which keeps coordinates small and precise far from the origin:
/// a rotated collider's corners through the world point, `(pose(p) −
/// start) / r`, an unrotated one's in its own frame, `(p − (start −
/// translation)) / r`, the frame its tree is walked in, which rounds a
/// little differently from the world point), meets a cheap conservative
/// reject and is tested with
/// [`super::sphere_triangle::sweep_unit_sphere_triangle`]. Contacts at the
/// same time go to the earlier collider, then to the lower input triangle
/// index.
pub fn sweep(ellipsoid: &Ellipsoid, start: Vec3, motion: Vec3, colliders: &[PlacedCollider<'_>]) -> Option<SweepHit> {
    sweep_noting_overlap(
        ellipsoid,
        start,
        motion,
        colliders,
        &mut StandardRules::default(),
        start,
        &mut false,
    )
}

/// [`sweep`] for a body with `layers`, meeting only what `filter` keeps as
/// well (the built-in rules, [`StandardRules`], are asked first; pass `()`
/// for none). A sphere that meets a level's analytic colliders exactly
/// skips their triangles this way.
pub fn sweep_with(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    layers: CollisionLayers,
    filter: impl ContactFilter,
) -> Option<SweepHit> {
    let mut rules = (StandardRules::for_layers(layers), filter);
    sweep_noting_overlap(ellipsoid, start, motion, colliders, &mut rules, start, &mut false)
}

/// Radius of the swept sphere the broad phase and the per-triangle reject
/// look for, eSpace units: the unit sphere plus a margin far above the
/// rounding of the narrow phase's contacts, and below the default skin
/// (1e-3): a body resting a skin above the ground and moving along it
/// leaves the ground's triangles at the reject's normal axis, without
/// their exact test (a fifth of a walking character's tick was those).
const REACH: f32 = 1.0005;

/// The sweep over the triangles `filter` keeps (as part of a move that
/// started at `move_start`), also setting `*overlap` when the ellipsoid
/// overlaps any kept triangle at the start, whichever way it moves.
///
/// For a collider that is not rotated, the BVH is walked in eSpace nearest
/// node first and the walk shrinks to the earliest hit found so far
/// ([`crate::MeshCollider::query_swept`]); a rotated one is asked for the
/// box swept by the ellipsoid. Either way each candidate triangle meets a
/// cheap reject ([`approaches`]) before the filter and the exact test.
/// Contacts at the same time go to the earlier collider, then to the lower
/// input triangle index, so the answer does not depend on the order the
/// tree gives the candidates in.
pub(crate) fn sweep_noting_overlap(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    filter: &mut impl ContactFilter,
    move_start: Vec3,
    overlap: &mut bool,
) -> Option<SweepHit> {
    let r = ellipsoid.radii();
    let inv_r = r.recip();
    let v = motion * inv_r;
    if !start.is_finite() || !v.is_finite() {
        // Nothing can be hit, nor found overlapping, from nowhere or along nowhere.
        return None;
    }
    let mut best: Option<SweepHit> = None;
    let mut best_t = 1.0f32;
    for (ci, collider) in colliders.iter().enumerate() {
        if !filter.keeps_collider(ci, collider) {
            continue;
        }
        let mesh = collider.mesh;
        // A candidate triangle comes in eSpace, relative to the start.
        let mut consider = |slot: usize, tri: [Vec3; 3], best_t: &mut f32| {
            if !approaches(tri, v, *best_t) {
                return;
            }
            // The input index only now (the candidate reads it): most
            // candidates leave at the rejects, and on a large level its
            // load is a cache miss.
            let candidate = Candidate::new(ci, collider, slot, tri, start, r).in_move_from(move_start);
            if !filter.keeps_triangle(&candidate) {
                return;
            }
            let triangle = candidate.triangle();
            crate::counts::add(|c| c.exact += 1);
            let Some(hit) = sweep_unit_sphere_triangle_noting_overlap(v, tri, *best_t, overlap) else {
                return;
            };
            if goes_first(&hit, best.as_ref(), ci, triangle) {
                *best_t = hit.t;
                best = Some(SweepHit::of_triangle(ellipsoid, start, &hit, ci, triangle, slot));
            }
        };
        let pose = collider.pose;
        if pose.rotation == Quat::IDENTITY {
            // Only translated: the start in the collider's frame, and each
            // corner taken to eSpace from there.
            let origin = start - pose.translation;
            mesh.query_swept(origin, inv_r, v, REACH, best_t, |slot| {
                consider(slot, mesh.triangle(slot).map(|p| (p - origin) * inv_r), &mut best_t);
                best_t
            });
        } else {
            let query = Aabb::from_corners(start, start + motion).expand(r * REACH + Vec3::splat(1e-6));
            collider.query_world(&query, |slot, world| {
                consider(slot, world.map(|p| (p - start) * inv_r), &mut best_t)
            });
        }
    }
    best
}

/// Whether the unit sphere moving from the origin along `v · [0, t_max]`
/// may come within [`REACH`] of the eSpace triangle `tri`: first the
/// triangle's box against the box of the swept sphere (the cheapest test,
/// and on a large level most candidates leave there: a leaf's box passed
/// the walk, but most of its triangles lie outside the sweep's box), then
/// the triangle's normal as a separating axis (a cross product and four
/// dot products), then one more axis: the direction `u` to the triangle's
/// closest point from the start. The triangle lies beyond `min(a·u, b·u, c·u) / |u|` along it
/// (its corners span it), and the centre advances along it by at most
/// `t_max · max(v·u, 0) / |u|`; when the first exceeds the second by more
/// than `REACH`, the sweep cannot touch the triangle. Any axis gives a
/// valid bound, so the closest point needs no exactness (the plain Voronoi
/// walk, without the sliver and scale care the narrow phase's closest
/// point takes, which it computes itself when it needs it); near a contact
/// it is the axis that separates best (the triangles around a resting
/// contact lie within a few percent of the radius, but the motion does not
/// go towards them). A margin covers rounding; NaN keeps the triangle.
#[inline]
fn approaches([a, b, c]: [Vec3; 3], v: Vec3, t_max: f32) -> bool {
    // First the boxes: the triangle's against the swept sphere's (a leaf's
    // box holds several triangles; most of a candidate's neighbours in it
    // lie outside the sweep's box). The corners and the motion are finite
    // here: colliders refuse non-finite corners, and a sweep along a
    // non-finite motion stops before any candidate.
    let moved = v * t_max;
    let grow = Vec3::splat(REACH * (1.0 + 1e-6)) + moved.abs() * 1e-6;
    let (lo, hi) = (moved.min(Vec3::ZERO) - grow, moved.max(Vec3::ZERO) + grow);
    if a.min(b).min(c).cmpgt(hi).any() || a.max(b).max(c).cmplt(lo).any() {
        return false;
    }
    let scale = a.abs().max(b.abs()).max(c.abs()).max_element() + t_max * v.abs().max_element();
    let reach = REACH + 1e-6 * scale;
    // Then the triangle's normal as an axis: the corners' span along it
    // more than `reach` beyond the centre's (the far faces of another
    // agent's polytope, ground the sweep passes above). Each corner is
    // projected, not one: on a sliver the f32 cross product is mostly
    // rounding, and the corners do not lie in the plane it gives.
    let n = (b - a).cross(c - a);
    let (na, nb, nc) = (n.dot(a), n.dot(b), n.dot(c));
    let along = n.dot(moved);
    let gap = (na.min(nb).min(nc) - along.max(0.0)).max(along.min(0.0) - na.max(nb).max(nc));
    if gap > 0.0 && gap * gap > reach * reach * n.length_squared() {
        return false;
    }
    let u = voronoi_walk(Vec3::ZERO, a, b, c);
    let beyond = a.dot(u).min(b.dot(u)).min(c.dot(u)) - t_max * v.dot(u).max(0.0);
    // Written so that NaN keeps the triangle.
    let separated = beyond > 0.0 && beyond * beyond > reach * reach * u.length_squared();
    !separated
}

/// Appends every triangle within `reach` (eSpace units, 1 = touching) of
/// the ellipsoid centred at `centre` that `filter` keeps (for a move that
/// started at `move_start`) to `out`, in world space with its collider
/// and slot, in the order the trees give them (a triangle near the box's
/// corners may come too). Used by depenetration and the overlap checks;
/// [`in_push_order`] orders them when the order matters.
pub(crate) fn triangles_near(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    reach: f32,
    colliders: &[PlacedCollider<'_>],
    filter: &mut impl ContactFilter,
    move_start: Vec3,
    out: &mut Vec<NearTriangle>,
) {
    let r = ellipsoid.radii();
    let inv_r = r.recip();
    let query = Aabb::from_corners(centre, centre).expand(r * reach * 1.001 + Vec3::splat(1e-6));
    for (ci, collider) in colliders.iter().enumerate() {
        if !filter.keeps_collider(ci, collider) {
            continue;
        }
        collider.query_world(&query, |slot, world| {
            let espace = world.map(|p| (p - centre) * inv_r);
            if filter.keeps_triangle(&Candidate::new(ci, collider, slot, espace, centre, r).in_move_from(move_start)) {
                out.push(NearTriangle {
                    collider: ci,
                    slot,
                    world,
                });
            }
        });
    }
}

/// Puts `near` (from [`triangles_near`] around `centre`) in a fixed order,
/// whatever order the trees hold them in: depenetration pushes out of them
/// one after another, so the order is part of its result. Shallowest plane
/// first (the centre least far behind the triangle's plane: the smallest
/// pushes go first), among coplanar ones those whose closest point is
/// inside the face before those touched at an edge or corner (whose pushes
/// would tilt), then input order.
pub(crate) fn in_push_order(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    colliders: &[PlacedCollider<'_>],
    near: &mut [NearTriangle],
) {
    let inv_r = ellipsoid.radii().recip();
    let key = |t: &NearTriangle| {
        let [a, b, c] = t.world.map(|p| (p - centre) * inv_r);
        let n = (b - a).cross(c - a).normalize_or_zero();
        let foot = n * n.dot(a);
        let closest = closest_point_on_triangle(Vec3::ZERO, a, b, c);
        let inside = (closest - foot).length_squared() <= 1e-10 * (1.0 + foot.length_squared());
        (foot.length(), !inside)
    };
    let keys: Vec<(f32, bool)> = near.iter().map(key).collect();
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&i, &j| {
        let (x, y) = (&near[i], &near[j]);
        keys[j]
            .0
            .total_cmp(&keys[i].0)
            .then(keys[i].1.cmp(&keys[j].1))
            .then(x.collider.cmp(&y.collider))
            .then(
                colliders[x.collider]
                    .mesh
                    .input_index(x.slot)
                    .cmp(&colliders[y.collider].mesh.input_index(y.slot)),
            )
    });
    let sorted: Vec<NearTriangle> = order.iter().map(|&i| near[i]).collect();
    near.copy_from_slice(&sorted);
}

/// A candidate triangle in world space with where it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearTriangle {
    pub collider: usize,
    pub slot: usize,
    pub world: [Vec3; 3],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::sphere_triangle::sweep_unit_sphere_triangle_noting_overlap;

    /// A random eSpace triangle around the unit sphere's path: small ones of a
    /// tessellated prop, big floor-like ones, slivers and needles, and
    /// some far from the origin.
    fn random_case(rng: &mut fastrand::Rng) -> (Vec3, [Vec3; 3], f32) {
        let dir = |rng: &mut fastrand::Rng| Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5) * 2.0;
        let size = match rng.u32(..4) {
            0 => 0.05,
            1 => 0.5,
            2 => 20.0,
            _ => 1e4,
        };
        let centre = dir(rng) * (1.0 + rng.f32() * 2.0) * if rng.u32(..10) == 0 { 100.0 } else { 1.0 };
        let a = centre + dir(rng) * size;
        let b = if rng.u32(..5) == 0 {
            a + (dir(rng) * size) * 1e-4 // a needle
        } else {
            centre + dir(rng) * size
        };
        let c = if rng.u32(..6) == 0 {
            // A sliver: a corner a hair off the opposite edge, so the f32
            // cross product of the edges is mostly rounding.
            a + (b - a) * rng.f32() + dir(rng) * size * [1e-5, 1e-7][rng.usize(..2)]
        } else {
            centre + dir(rng) * size
        };
        if rng.u32(..3) == 0 {
            // Tangent to the sphere at the start, up to a hair: the
            // neighbours of a resting contact.
            let n = dir(rng).normalize_or(Vec3::Y);
            let (t1, t2) = n.any_orthonormal_pair();
            let at = n * (1.0 + (rng.f32() - 0.3) * 1e-3) + (t1 * (rng.f32() - 0.5) + t2 * (rng.f32() - 0.5)) * size;
            let tilt = n * (rng.f32() - 0.5) * 0.1 * size;
            let tri = [
                at + t1 * size + tilt,
                at - t1 * size * 0.5 + t2 * size,
                at - t2 * size - tilt,
            ];
            let v = dir(rng) * [0.0, 0.01, 0.3][rng.usize(..3)];
            return (v, tri, if rng.bool() { 1.0 } else { rng.f32() });
        }
        let v = match rng.u32(..4) {
            0 => Vec3::ZERO,
            1 => dir(rng) * 0.05,
            2 => dir(rng) * 0.5,
            _ => -centre * rng.f32() * 2.0,
        };
        let t_max = if rng.bool() { 1.0 } else { rng.f32() };
        (v, [a, b, c], t_max)
    }

    #[test]
    fn rejected_triangles_are_never_hit_nor_overlapped() {
        let mut rng = fastrand::Rng::with_seed(3);
        let (mut rejected, mut hit) = (0, 0);
        for _ in 0..400_000 {
            let (v, tri, t_max) = random_case(&mut rng);
            let kept = approaches(tri, v, t_max);
            let mut overlap = false;
            let result = sweep_unit_sphere_triangle_noting_overlap(v, tri, t_max, &mut overlap);
            hit += usize::from(result.is_some());
            if !kept {
                rejected += 1;
                assert!(
                    result.is_none() && !overlap,
                    "rejected but {result:?} (overlap {overlap}): v {v}, {tri:?}, t_max {t_max}"
                );
            }
        }
        assert!(rejected > 100_000 && hit > 20_000, "rejected {rejected}, hit {hit}");
    }
}
