//! The collide-and-slide loop: sweep the remaining motion, stop a skin
//! short of the first contact, and clip what is left to the planes met
//! (Quake-style creases), a bounded number of times.

use super::depenetration::{Pushes, depenetrate_into, effective_skin, touch_distance};
use super::types::{Contact, ContactResponse, SlideOptions, SlidePlane, SlideResult};
use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::filter::ContactFilter;
use crate::query::sweep::{SweepHit, sweep_noting_overlap};
use glam::Vec3;

/// Moves `ellipsoid` from `start` along `motion` (metres) through
/// `colliders`, sliding along every surface it meets.
///
/// Each iteration sweeps the remaining motion; at a hit it stops a skin short
/// of the contact (backing off along the motion so the gap *along the contact
/// normal* is the skin), records the contact, and projects the rest of the
/// motion onto the slide plane. Planes met earlier in the same call stay
/// active while the ellipsoid still touches them: the motion is clipped so it
/// enters none of them, sliding along the crease of two when one plane alone
/// does not do, and stopping when three block it (Quake's clip-plane method;
/// projecting on one plane at a time oscillates in acute corners).
///
/// Before moving, any overlap with geometry (float error, or a door or lift
/// that moved into the ellipsoid) is pushed out along the separating
/// directions, so the call never starts, nor ends, inside geometry.
///
/// Gravity is meant as a second call with the gravity displacement, as in
/// the papers, which lets walking climb steps and ramps; with
/// [`SlideOptions::stop_on_ground`] set for that call, a player standing on
/// walkable ground stays put instead of creeping down the slope.
pub fn collide_and_slide(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    options: &SlideOptions,
) -> SlideResult {
    collide_and_slide_with(ellipsoid, start, motion, colliders, options, |_| ContactResponse::Slide)
}

/// [`collide_and_slide`] with the response to each contact chosen by
/// `respond`, called once per swept contact (not for depenetration pushes)
/// after [`SlideOptions::stop_on_ground`] has had its say. The contact is
/// recorded in the result whatever the answer; with
/// [`ContactResponse::SlideAlso`] its [`Contact::plane`] is the substitute
/// plane.
pub fn collide_and_slide_with(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    options: &SlideOptions,
    respond: impl FnMut(&Contact) -> ContactResponse,
) -> SlideResult {
    collide_and_slide_filtered(ellipsoid, start, motion, colliders, options, (), respond)
}

/// [`collide_and_slide_with`] meeting only the contacts `filter` keeps as
/// well as the built-in rules for a body with [`SlideOptions::layers`]
/// (asked first): the sweeps, the depenetration and its overlap checks
/// all skip what it vetoes. A character dropping through a one-way
/// platform vetoes that platform this way.
pub fn collide_and_slide_filtered(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    options: &SlideOptions,
    filter: impl ContactFilter,
    respond: impl FnMut(&Contact) -> ContactResponse,
) -> SlideResult {
    collide_and_slide_reusing(
        ellipsoid,
        start,
        motion,
        colliders,
        options,
        filter,
        respond,
        Vec::new(),
    )
}

/// [`collide_and_slide_filtered`] recording its contacts in `contacts`
/// (cleared first): a caller that hands back the list of an earlier
/// result allocates nothing once the lists have grown to what a call needs.
#[allow(clippy::too_many_arguments)]
pub fn collide_and_slide_reusing(
    ellipsoid: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    colliders: &[PlacedCollider<'_>],
    options: &SlideOptions,
    filter: impl ContactFilter,
    mut respond: impl FnMut(&Contact) -> ContactResponse,
    mut contacts: Vec<Contact>,
) -> SlideResult {
    let mut rules = (options.rules(), filter);
    let r = ellipsoid.radii();
    let skin = effective_skin(options.skin, start, motion, r);
    contacts.clear();
    let mut result = SlideResult {
        contacts,
        ..SlideResult::default()
    };
    let mut pos = start;
    let mut remaining = if usable_motion(start, motion, r) {
        motion
    } else {
        Vec3::ZERO
    };
    let depenetrate_here = |pos: Vec3, result: &mut SlideResult, known_overlap: bool, rules: &mut _| {
        let (freed, resolved) = depenetrate_into(
            ellipsoid,
            pos,
            colliders,
            rules,
            start,
            Pushes {
                skin,
                iterations: options.depenetration_iterations,
                overlap_known: known_overlap,
            },
            &mut result.contacts,
        );
        result.depenetration = freed - start;
        result.unresolved_overlap = !resolved;
        freed
    };
    if (remaining / r).length_squared() < MIN_MOTION * MIN_MOTION {
        // No sweep will look at the start: check it for overlap explicitly.
        result.position = depenetrate_here(pos, &mut result, false, &mut rules);
        return result;
    }

    // Slide planes met in this call (eSpace normal, world triangle), at most
    // MAX_PLANES; the oldest is dropped when full.
    let mut planes = [(Vec3::ZERO, [Vec3::ZERO; 3]); MAX_PLANES];
    let mut plane_count = 0usize;
    let mut checked_overlap = false;
    let mut iteration = 0;
    while iteration < options.max_iterations {
        let remaining_e = remaining / r;
        if remaining_e.length_squared() < MIN_MOTION * MIN_MOTION {
            remaining = Vec3::ZERO;
            break;
        }
        let mut overlap = false;
        let hit = sweep_noting_overlap(ellipsoid, pos, remaining, colliders, &mut rules, start, &mut overlap);
        if overlap && !checked_overlap {
            // The first sweep saw the start overlapping something (float
            // error, or a door or lift moved into us): push out, sweep again.
            checked_overlap = true;
            pos = depenetrate_here(pos, &mut result, true, &mut rules);
            continue;
        }
        checked_overlap = true;
        iteration += 1;
        result.iterations = iteration;
        let Some(hit) = hit else {
            pos += remaining;
            remaining = Vec3::ZERO;
            break;
        };
        let t_safe = safe_time(&hit, remaining_e, skin);
        pos += remaining * t_safe;
        remaining *= 1.0 - t_safe;

        let collider = &colliders[hit.collider];
        result.contacts.push(Contact::swept(&hit, collider, iteration - 1));
        if let Some(ground) = &options.stop_on_ground
            && ground.supports(hit.normal)
        {
            // Standing on walkable ground: the rest of the motion is dropped,
            // not slid down the slope.
            remaining = Vec3::ZERO;
            break;
        }
        let extra_plane = match respond(result.contacts.last().expect("just pushed")) {
            ContactResponse::Slide => None,
            ContactResponse::SlideAlso(normal) => {
                let normal = normal.normalize_or_zero();
                if let Some(contact) = result.contacts.last_mut() {
                    contact.plane.normal = normal;
                }
                Some(ellipsoid.normal_to_espace(normal)).filter(|n| *n != Vec3::ZERO)
            }
            ContactResponse::Stop => {
                remaining = Vec3::ZERO;
                break;
            }
        };

        // Planes met before stay active only while still touched; a plane
        // parallel to the new one is replaced by it.
        let mut kept = 0;
        for k in 0..plane_count {
            let (n, tri) = planes[k];
            if touch_distance(pos, &tri, r) < 1.0 + 2.0 * skin + 1e-4 && n.dot(hit.espace_normal) < 0.9999 {
                planes[kept] = planes[k];
                kept += 1;
            }
        }
        let world_tri = collider
            .mesh
            .triangle(hit.slot)
            .map(|p| collider.pose.transform_point(p));
        for normal in std::iter::once(hit.espace_normal).chain(extra_plane) {
            if kept == MAX_PLANES {
                planes.copy_within(1.., 0);
                kept -= 1;
            }
            planes[kept] = (normal, world_tri);
            kept += 1;
        }
        plane_count = kept;
        let mut normals = [Vec3::ZERO; MAX_PLANES];
        for (n, (plane, _)) in normals.iter_mut().zip(&planes[..plane_count]) {
            *n = *plane;
        }
        let before = remaining / r;
        let clipped = clip_to_planes(before, &normals[..plane_count]);
        result.blocked |= before.length() >= MIN_MOTION && clipped.length() < MIN_MOTION;
        remaining = clipped * r;
    }
    result.blocked |= (remaining / r).length() >= MIN_MOTION;
    result.position = pos;
    result
}

/// The fraction of the motion (eSpace `remaining_e`) to travel towards
/// `hit`: up to the contact less the skin (eSpace units) measured along
/// the contact's normal, none when it started embedded or does not approach.
#[inline]
pub(super) fn safe_time(hit: &SweepHit, remaining_e: Vec3, skin: f32) -> f32 {
    let approach = -remaining_e.dot(hit.espace_normal);
    if hit.started_embedded || approach <= 0.0 {
        0.0
    } else {
        (hit.time - skin / approach).max(0.0)
    }
}

impl Contact {
    /// The contact a sweep's `hit` on `collider` makes in slide iteration `iteration`.
    #[inline]
    pub(super) fn swept(hit: &SweepHit, collider: &PlacedCollider<'_>, iteration: u32) -> Self {
        Self {
            point: hit.point,
            normal: hit.normal,
            plane: SlidePlane {
                origin: hit.point,
                normal: hit.normal,
            },
            time: hit.time,
            iteration,
            collider: hit.collider,
            triangle: hit.triangle,
            feature: hit.feature,
            surface_velocity: collider.velocity_at(hit.point),
            depenetration: false,
        }
    }
}

/// Motions shorter than this (eSpace units) are not swept.
pub(super) const MIN_MOTION: f32 = 1e-6;

/// Most slide planes kept active at once in one call.
const MAX_PLANES: usize = 8;

/// Whether a motion can be swept from `start` with radii `r`: finite, its
/// end finite in world space and its length finite in eSpace. Any other
/// motion (NaN, or near `f32::MAX`: the fuzzer found one that ended the
/// slide at infinity) is treated as no motion.
pub(super) fn usable_motion(start: Vec3, motion: Vec3, r: Vec3) -> bool {
    motion.is_finite()
        && (start.abs() + Vec3::splat(motion.length())).is_finite()
        && (motion / r).length_squared().is_finite()
}

/// Removes from `m` every component going into one of the planes (eSpace
/// normals): first try one plane at a time, then the crease of two planes;
/// when even a crease enters a third plane, nothing is left.
pub(crate) fn clip_to_planes(m: Vec3, normals: &[Vec3]) -> Vec3 {
    let tol = -1e-6 * m.length();
    let ok = |v: Vec3, skip: &[usize]| {
        normals
            .iter()
            .enumerate()
            .all(|(k, n)| skip.contains(&k) || v.dot(*n) >= tol)
    };
    if ok(m, &[]) {
        return m;
    }
    for (i, n) in normals.iter().enumerate() {
        let d = m.dot(*n);
        if d >= 0.0 {
            continue;
        }
        let v = m - *n * d;
        if ok(v, &[i]) {
            return v;
        }
    }
    for i in 0..normals.len() {
        for j in i + 1..normals.len() {
            let dir = normals[i].cross(normals[j]).normalize_or_zero();
            if dir == Vec3::ZERO {
                continue;
            }
            let v = dir * m.dot(dir);
            if ok(v, &[i, j]) {
                return v;
            }
        }
    }
    Vec3::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_single_plane_crease_and_corner() {
        let m = Vec3::new(1.0, -1.0, 0.0);
        assert_eq!(clip_to_planes(m, &[Vec3::Y]), Vec3::new(1.0, 0.0, 0.0));
        // Floor and a wall facing -x: slide along their crease (z), here none.
        let v = clip_to_planes(Vec3::new(1.0, -1.0, 0.5), &[Vec3::Y, -Vec3::X]);
        assert!((v - Vec3::new(0.0, 0.0, 0.5)).length() < 1e-6, "{v}");
        // Three planes of a corner: stop.
        assert_eq!(
            clip_to_planes(Vec3::new(1.0, -1.0, 1.0), &[Vec3::Y, -Vec3::X, -Vec3::Z]),
            Vec3::ZERO
        );
        // Moving away from all planes is left alone.
        assert_eq!(
            clip_to_planes(Vec3::new(-1.0, 1.0, 0.0), &[Vec3::Y, -Vec3::X]),
            Vec3::new(-1.0, 1.0, 0.0)
        );
    }

    #[test]
    fn acute_corner_does_not_oscillate() {
        // Two walls meeting at 30°: the crease direction is the only way out.
        let n1 = Vec3::new(0.0, 0.0, 1.0);
        let n2 = Vec3::new(-(75f32.to_radians().sin()), 0.0, -(75f32.to_radians().cos())).normalize();
        let v = clip_to_planes(Vec3::new(1.0, 0.3, 0.0), &[n1, n2]);
        assert!(v.dot(n1) >= -1e-6 && v.dot(n2) >= -1e-6, "{v}");
        assert!((v - Vec3::new(0.0, 0.3, 0.0)).length() < 1e-5, "{v}");
    }
}
