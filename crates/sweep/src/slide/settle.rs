//! Settling a body onto the ground it rests a hair above: the answer of a
//! collide-and-slide that stops at its first contact, found among the
//! triangles a box query gives near the start, without a sweep's walk.

use super::collide::{MIN_MOTION, safe_time, usable_motion};
use super::depenetration::effective_skin;
use super::types::{Contact, SlideOptions};
use crate::aabb::Aabb;
use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::filter::{Candidate, ContactFilter};
use crate::query::sphere_triangle::sweep_unit_sphere_triangle_noting_overlap;
use crate::query::sweep::{SweepHit, espace_triangles_in, goes_first};
use crate::triangle::closest_point_on_triangle;
use glam::Vec3;

/// How far (eSpace units) beyond the reach the box looks, above the
/// rounding of the corners.
const MARGIN: f32 = 1e-4;

/// Where a settle ends and what it met: a slide's position and its one
/// contact (see [`settle`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settled {
    /// Final centre, metres.
    pub position: Vec3,
    /// The contact that stopped it.
    pub contact: Contact,
}

/// What [`collide_and_slide_filtered`](super::collide_and_slide_filtered)
/// with every contact answered [`Stop`](super::ContactResponse::Stop) gives
/// for `ellipsoid` moving from `start` along `motion` (metres), when its
/// first contact comes before the body has moved `reach` (eSpace units):
/// the slide's position and its one contact (the slide has no
/// depenetration and is not blocked); `None` otherwise, and when the start
/// overlaps anything (the slide would push out first).
///
/// The triangles the filter keeps in the box the body can reach by then
/// (a box query of each collider's tree, not the walk of a swept volume)
/// are swept exactly as the sweep sweeps them: the same narrow phase on the
/// same eSpace corners, the earliest by the same order. Nothing outside
/// the box can be met first, so the contact is the sweep's, bit for bit,
/// and so is the position; no slide iteration was swept.
///
/// A walking character settling back onto the ground it walked along (a
/// hair below) asks this first with a reach of a few skins: on the ground
/// it is the whole snap, at a fraction of a sweep's cost.
pub fn settle(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    options: &SlideOptions,
    filter: impl ContactFilter,
    reach: f32,
) -> Option<Settled> {
    let r = ellipsoid.radii();
    let inv_r = r.recip();
    // A slide allowed no sweep moves nowhere and meets nothing.
    if options.max_iterations == 0
        || !usable_motion(start, motion, r)
        || !start.is_finite()
        || reach.is_nan()
        || reach <= 0.0
    {
        return None;
    }
    let remaining_e = motion / r;
    let length = remaining_e.length();
    if length < MIN_MOTION {
        return None;
    }
    // The contact must come by `until` (a fraction of the motion); the
    // corners round by a few ulps of the start's size, which the box
    // covers beyond the reach.
    let until = (reach / length).min(1.0);
    let scale = (start.abs() * inv_r).max_element();
    let within = 1.0 + reach + MARGIN + 8.0 * f32::EPSILON * scale;
    let query = Aabb::from_corners(start, start).expand(r * within + Vec3::splat(1e-6));
    let v = motion * inv_r;
    let mut rules = (options.rules(), filter);
    let mut best: Option<SweepHit> = None;
    let mut best_t = until;
    let mut overlap = false;
    for (ci, collider) in colliders.iter().enumerate() {
        if !rules.keeps_collider(ci, collider) {
            continue;
        }
        espace_triangles_in(collider, start, inv_r, &query, |slot, tri| {
            let [a, b, c] = tri;
            let w = Vec3::splat(within);
            if a.min(b).min(c).cmpgt(w).any()
                || a.max(b).max(c).cmplt(-w).any()
                || closest_point_on_triangle(Vec3::ZERO, a, b, c).length_squared() > within * within
            {
                return;
            }
            let candidate = Candidate::new(ci, collider, slot, tri, start, r);
            if !rules.keeps_triangle(&candidate) {
                return;
            }
            let triangle = candidate.triangle();
            let Some(hit) = sweep_unit_sphere_triangle_noting_overlap(v, tri, best_t, &mut overlap) else {
                return;
            };
            if goes_first(&hit, best.as_ref(), ci, triangle) {
                best_t = hit.t;
                best = Some(SweepHit::of_triangle(ellipsoid, start, &hit, ci, triangle, slot));
            }
        });
    }
    let hit = best.filter(|_| !overlap)?;
    let skin = effective_skin(options.skin, start, motion, r);
    let t_safe = safe_time(&hit, remaining_e, skin);
    Some(Settled {
        position: start + motion * t_safe,
        contact: Contact::swept(&hit, &colliders[hit.collider], 0),
    })
}
