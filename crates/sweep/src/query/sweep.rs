//! Sweeping an ellipsoid along a motion against placed colliders: the
//! broad phase (BVH box query) feeding the eSpace narrow phase.

use super::sphere_triangle::sweep_unit_sphere_triangle_noting_overlap;
use crate::aabb::Aabb;
use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::triangle::Feature;
use glam::Vec3;

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

/// Sweeps `ellipsoid`, centred at `start` (metres), along `motion` (metres)
/// against `colliders` (each at its current pose) and returns the earliest
/// contact, or `None` when the whole motion is free.
///
/// The candidate triangles are those whose BVH leaves overlap the box swept
/// by the ellipsoid; each is brought to eSpace relative to `start` (which
/// keeps coordinates small and precise far from the origin) and tested with
/// [`super::sphere_triangle::sweep_unit_sphere_triangle`].
pub fn sweep(ellipsoid: &Ellipsoid, start: Vec3, motion: Vec3, colliders: &[PlacedCollider<'_>]) -> Option<SweepHit> {
    sweep_noting_overlap(ellipsoid, start, motion, colliders, &mut false)
}

/// [`sweep`] against only the triangles for which `keep(collider, triangle)`
/// is true (`collider` the index in `colliders`, `triangle` the input index
/// as in [`SweepHit::triangle`]). A sphere that meets a level's analytic
/// colliders exactly skips their triangles this way.
pub fn sweep_filtered(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    mut keep: impl FnMut(usize, u32) -> bool,
) -> Option<SweepHit> {
    sweep_kept(ellipsoid, start, motion, colliders, &mut false, &mut keep)
}

/// [`sweep`] that also sets `*overlap` when the ellipsoid overlaps any
/// triangle at the start, whichever way it moves.
pub(crate) fn sweep_noting_overlap(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    overlap: &mut bool,
) -> Option<SweepHit> {
    sweep_kept(ellipsoid, start, motion, colliders, overlap, &mut |_, _| true)
}

/// The sweep over the triangles `keep` accepts, noting overlap.
fn sweep_kept(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    overlap: &mut bool,
    keep: &mut impl FnMut(usize, u32) -> bool,
) -> Option<SweepHit> {
    let r = ellipsoid.radii();
    let inv_r = r.recip();
    let v = motion * inv_r;
    let query = Aabb::from_corners(start, start + motion).expand(r * 1.001 + Vec3::splat(1e-6));
    let mut best: Option<SweepHit> = None;
    let mut best_t = 1.0f32;
    for (ci, collider) in colliders.iter().enumerate() {
        collider.query_world(&query, |slot, world| {
            if !keep(ci, collider.mesh.input_index(slot)) {
                return;
            }
            let tri = world.map(|p| (p - start) * inv_r);
            if let Some(hit) = sweep_unit_sphere_triangle_noting_overlap(v, tri, best_t, overlap)
                && (best.is_none() || hit.t < best_t)
            {
                best_t = hit.t;
                best = Some(SweepHit {
                    time: hit.t,
                    point: start + hit.point * r,
                    normal: ellipsoid.normal_from_espace(hit.normal),
                    espace_normal: hit.normal,
                    feature: hit.feature,
                    collider: ci,
                    triangle: collider.mesh.input_index(slot),
                    slot,
                    started_embedded: hit.embedded,
                });
            }
        });
    }
    best
}

/// Every triangle within `reach` (eSpace units, 1 = touching) of the
/// ellipsoid centred at `centre`, as eSpace triangles relative to `centre`,
/// with its collider and slot. Used by depenetration and contact tracking.
pub(crate) fn triangles_near(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    reach: f32,
    colliders: &[PlacedCollider<'_>],
    out: &mut Vec<NearTriangle>,
) {
    let r = ellipsoid.radii();
    let query = Aabb::from_corners(centre, centre).expand(r * reach * 1.001 + Vec3::splat(1e-6));
    for (ci, collider) in colliders.iter().enumerate() {
        collider.query_world(&query, |slot, world| {
            out.push(NearTriangle {
                collider: ci,
                slot,
                world,
            });
        });
    }
}

/// A candidate triangle in world space with where it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearTriangle {
    pub collider: usize,
    pub slot: usize,
    pub world: [Vec3; 3],
}
