//! Collide-and-slide: move an ellipsoid along a motion, sliding along what
//! it hits (Fauerby 2003 §4, with Quake-style crease handling and an
//! explicit depenetration step).

use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::query::sweep::{NearTriangle, in_push_order, sweep_noting_overlap, triangles_near};
use crate::triangle::{Feature, closest_point_on_triangle, face_normal, segment_crosses_triangle};
use glam::Vec3;

/// Tunables of [`collide_and_slide`]. Distances are in eSpace units, i.e.
/// fractions of the ellipsoid's radius along each axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideOptions {
    /// Gap kept between the ellipsoid and any surface (Fauerby's
    /// `veryCloseDistance`), eSpace units. Raise it if float error lets the
    /// ellipsoid touch; lower it if the gap is visible. Far from the origin it
    /// is raised automatically to stay above f32 resolution.
    pub skin: f32,
    /// Most sweeps per call (each hit costs one). 4–6 handles creases and
    /// corners; motion still left after the last is dropped.
    pub max_iterations: u32,
    /// Most passes of the depenetration solver per call.
    pub depenetration_iterations: u32,
    /// When set, a contact with walkable ground ends the call: the rest of
    /// the motion is dropped instead of slid along the slope. Meant for the
    /// gravity pass, so a player standing on a walkable ramp stays put; leave
    /// it `None` for the move pass.
    pub stop_on_ground: Option<Ground>,
}

impl Default for SlideOptions {
    fn default() -> Self {
        Self {
            skin: 1e-3,
            max_iterations: 5,
            depenetration_iterations: 8,
            stop_on_ground: None,
        }
    }
}

/// What counts as walkable ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// World up (unit): the opposite of gravity.
    pub up: Vec3,
    /// Steepest walkable slope, radians from horizontal (e.g. 45°–50°).
    pub max_slope: f32,
}

impl Ground {
    /// Walkable ground for the given steepest slope (radians), y up.
    pub fn y_up(max_slope: f32) -> Self {
        Self { up: Vec3::Y, max_slope }
    }

    /// Whether a surface with world normal `normal` is walkable.
    #[inline]
    pub fn supports(&self, normal: Vec3) -> bool {
        normal.dot(self.up) >= self.max_slope.cos()
    }
}

/// The plane the motion slides on after a contact (world space): through the
/// contact point, normal from the surface towards the ellipsoid centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlidePlane {
    /// A point of the plane (the contact point), metres.
    pub origin: Vec3,
    /// Unit normal.
    pub normal: Vec3,
}

/// One contact met during a [`collide_and_slide`] call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Contact point on the surface, metres.
    pub point: Vec3,
    /// Unit world normal from the surface towards the ellipsoid.
    pub normal: Vec3,
    /// The plane the remaining motion was projected on.
    pub plane: SlidePlane,
    /// Fraction of that iteration's motion at which the contact happened
    /// (0 for depenetration contacts).
    pub time: f32,
    /// Sweep iteration (0-based) that met the contact.
    pub iteration: u32,
    /// Index of the collider in the slice given to the call.
    pub collider: usize,
    /// Index of the triangle in that collider's input.
    pub triangle: u32,
    /// Which part of the triangle was touched.
    pub feature: Feature,
    /// Velocity of the collider's surface at the contact, m/s.
    pub surface_velocity: Vec3,
    /// The ellipsoid overlapped this triangle at the start and was pushed out.
    pub depenetration: bool,
}

/// The outcome of [`collide_and_slide`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlideResult {
    /// Final centre, metres.
    pub position: Vec3,
    /// Push applied before moving to leave overlapping geometry, metres.
    pub depenetration: Vec3,
    /// Every contact, in the order met.
    pub contacts: Vec<Contact>,
    /// Sweeps performed.
    pub iterations: u32,
    /// Some of the motion could not be done: it went head-on into a surface,
    /// into a corner of three planes, or ran out of iterations.
    pub blocked: bool,
    /// The start overlapped geometry that depenetration could not clear (for
    /// example squeezed between a closing door and a wall).
    pub unresolved_overlap: bool,
}

impl SlideResult {
    /// Contacts with walkable ground (for a controller's "grounded" state).
    pub fn ground_contacts<'a>(&'a self, ground: &'a Ground) -> impl Iterator<Item = &'a Contact> {
        self.contacts.iter().filter(|c| ground.supports(c.normal))
    }
}

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

/// How the motion continues after a contact, decided by the caller of
/// [`collide_and_slide_with`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ContactResponse {
    /// Slide along the contact's own plane (what [`collide_and_slide`] does).
    Slide,
    /// Slide as if the surface's normal were this unit world vector as well:
    /// the motion enters neither the contact's own plane nor this one. A
    /// character controller turns a too-steep slope into a wall this way
    /// (its normal with the "up" part removed), so walking into it does not
    /// climb it.
    SlideAlso(Vec3),
    /// Stop here: the rest of the motion is dropped.
    Stop,
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
    mut respond: impl FnMut(&Contact) -> ContactResponse,
) -> SlideResult {
    let r = ellipsoid.radii();
    let skin = effective_skin(options.skin, start, motion, r);
    let mut result = SlideResult::default();
    let mut pos = start;
    let mut remaining = if usable_motion(start, motion, r) {
        motion
    } else {
        Vec3::ZERO
    };
    let depenetrate_here = |pos: Vec3, result: &mut SlideResult, known_overlap: bool| {
        let (freed, resolved) = depenetrate_into(
            ellipsoid,
            pos,
            colliders,
            skin,
            options.depenetration_iterations,
            known_overlap,
            &mut result.contacts,
        );
        result.depenetration = freed - start;
        result.unresolved_overlap = !resolved;
        freed
    };
    if (remaining / r).length_squared() < MIN_MOTION * MIN_MOTION {
        // No sweep will look at the start: check it for overlap explicitly.
        result.position = depenetrate_here(pos, &mut result, false);
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
        let hit = sweep_noting_overlap(ellipsoid, pos, remaining, colliders, &mut overlap);
        if overlap && !checked_overlap {
            // The first sweep saw the start overlapping something (float
            // error, or a door or lift moved into us): push out, sweep again.
            checked_overlap = true;
            pos = depenetrate_here(pos, &mut result, true);
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
        let approach = -remaining_e.dot(hit.espace_normal);
        let t_safe = if hit.started_embedded || approach <= 0.0 {
            0.0
        } else {
            (hit.time - skin / approach).max(0.0)
        };
        pos += remaining * t_safe;
        remaining *= 1.0 - t_safe;

        let collider = &colliders[hit.collider];
        result.contacts.push(Contact {
            point: hit.point,
            normal: hit.normal,
            plane: SlidePlane {
                origin: hit.point,
                normal: hit.normal,
            },
            time: hit.time,
            iteration: iteration - 1,
            collider: hit.collider,
            triangle: hit.triangle,
            feature: hit.feature,
            surface_velocity: collider.velocity_at(hit.point),
            depenetration: false,
        });
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

/// Pushes an ellipsoid centred at `centre` out of every triangle it overlaps
/// and returns the freed centre (metres) and whether it is free. A skin
/// ([`SlideOptions::skin`]) is left between it and each surface it was
/// pushed from.
pub fn depenetrate(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    colliders: &[PlacedCollider<'_>],
    options: &SlideOptions,
) -> (Vec3, bool) {
    let skin = effective_skin(options.skin, centre, Vec3::ZERO, ellipsoid.radii());
    depenetrate_into(
        ellipsoid,
        centre,
        colliders,
        skin,
        options.depenetration_iterations,
        false,
        &mut Vec::new(),
    )
}

/// How deep an ellipsoid centred at `centre` penetrates the nearest
/// triangle of `colliders`, in eSpace units (a fraction of the radius; 0
/// when it touches nothing). A check for tests and tools: the BVH finds the
/// triangles near the ellipsoid, each is measured exactly.
pub fn penetration_depth(ellipsoid: &Ellipsoid, centre: Vec3, colliders: &[PlacedCollider<'_>]) -> f32 {
    let mut near = Vec::new();
    triangles_near(ellipsoid, centre, 1.0, colliders, &mut near);
    let nearest = near
        .iter()
        .map(|t| touch_distance(centre, &t.world, ellipsoid.radii()))
        .fold(f32::INFINITY, f32::min);
    (1.0 - nearest).max(0.0)
}

/// Motions shorter than this (eSpace units) are not swept.
const MIN_MOTION: f32 = 1e-6;

/// Most slide planes kept active at once in one call.
const MAX_PLANES: usize = 8;

/// Whether a motion can be swept from `start` with radii `r`: finite, its
/// end finite in world space and its length finite in eSpace. Any other
/// motion (NaN, or near `f32::MAX`: the fuzzer found one that ended the
/// slide at infinity) is treated as no motion.
fn usable_motion(start: Vec3, motion: Vec3, r: Vec3) -> bool {
    motion.is_finite()
        && (start.abs() + Vec3::splat(motion.length())).is_finite()
        && (motion / r).length_squared().is_finite()
}

/// Largest skin used, eSpace units: coordinates so far from the origin
/// that f32 cannot resolve a quarter of the radius there get no more (the
/// fuzzer found an infinite skin turning a depenetration into NaN).
const MAX_SKIN: f32 = 0.25;

/// The skin actually used: the requested one, raised to a few f32 ulps of
/// the coordinates involved (eSpace), so rounding never eats it, and at
/// most [`MAX_SKIN`].
fn effective_skin(skin: f32, pos: Vec3, motion: Vec3, r: Vec3) -> f32 {
    let scale = ((pos.abs() + motion.abs()) / r).max_element();
    let skin = if skin.is_finite() { skin.max(0.0) } else { 0.0 };
    skin.max(32.0 * f32::EPSILON * scale).clamp(1e-5, MAX_SKIN)
}

/// eSpace distance from the centre `pos` to a world triangle.
fn touch_distance(pos: Vec3, tri: &[Vec3; 3], r: Vec3) -> f32 {
    let [a, b, c] = tri.map(|p| (p - pos) / r);
    closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
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

/// Gauss–Seidel depenetration in eSpace: each overlapping triangle in turn
/// pushes the centre along its separating direction to `1 + skin` from it,
/// never carrying the centre through another triangle.
///
/// Within each round the moving colliders push first and the still ones
/// (the static level, a door at rest) last, so when a mover squeezes the
/// ellipsoid against the level and no place is free (crushed), the level
/// wins: the ellipsoid is left overlapping the mover, not pressed into the
/// floor or wall behind it (a lift coming down on a walker would otherwise
/// press it through the floor, tick after tick).
fn depenetrate_into(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    colliders: &[PlacedCollider<'_>],
    skin: f32,
    iterations: u32,
    known_overlap: bool,
    contacts: &mut Vec<Contact>,
) -> (Vec3, bool) {
    let r = ellipsoid.radii();
    if !centre.is_finite() {
        return (centre, false);
    }
    let mut near = Vec::new();
    let overlapping = |p: Vec3, t: &NearTriangle| touch_distance(p, &t.world, r) < 1.0;
    if !known_overlap {
        // Cheap check first: is anything within touching distance at all?
        triangles_near(ellipsoid, centre, 1.0, colliders, &mut near);
        if !near.iter().any(|t| overlapping(centre, t)) {
            return (centre, true);
        }
        near.clear();
    }
    let still = |t: &NearTriangle| {
        let c = &colliders[t.collider];
        c.linear_velocity == Vec3::ZERO && c.angular_velocity == Vec3::ZERO
    };
    let mut pos = centre;
    // Triangles already reported as pushing (collider, slot).
    let mut pushed: Vec<(usize, usize)> = Vec::new();
    let mut passes_left = iterations.max(1);
    let mut here = Vec::new();
    for _ in 0..DEPENETRATION_ROUNDS {
        // Pushes move the centre by up to about one radius a pass: gather
        // what it may reach from where it is now.
        near.clear();
        triangles_near(ellipsoid, pos, 2.5, colliders, &mut near);
        in_push_order(ellipsoid, pos, colliders, &mut near);
        near.sort_by_key(still);
        while passes_left > 0 {
            passes_left -= 1;
            let mut moved = false;
            for (k, t) in near.iter().enumerate() {
                let [a, b, c] = t.world.map(|p| (p - pos) / r);
                let q = closest_point_on_triangle(Vec3::ZERO, a, b, c);
                let d = q.length();
                if d >= 1.0 {
                    continue;
                }
                let collider = &colliders[t.collider];
                let n_e = if d > 1e-6 {
                    -q / d
                } else {
                    // Centre on the surface: push along the face normal, on the
                    // side the collider moves to (it is pushing us), else +normal.
                    let face = face_normal([a, b, c]);
                    let v_e = collider.velocity_at(pos) / r;
                    if face.dot(v_e) < 0.0 { -face } else { face }
                };
                if n_e == Vec3::ZERO {
                    // No way out of a triangle that has no normal here (one
                    // made degenerate by rounding far from the origin: the
                    // fuzzer found a contact with a zero normal).
                    continue;
                }
                let push = n_e * (1.0 + skin - d);
                // Never push the centre through another surface (a thin door or
                // wall behind): stop a hair before it; the overlap then stays
                // unresolved rather than teleporting the ellipsoid.
                let allowed = near
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .filter_map(|(_, o)| segment_crosses_triangle(Vec3::ZERO, push, o.world.map(|p| (p - pos) / r)))
                    .fold(1.0f32, f32::min);
                let step = if allowed < 1.0 {
                    (allowed - 1e-3 / push.length()).max(0.0)
                } else {
                    1.0
                };
                if step <= 0.0 {
                    continue;
                }
                let point = pos + q * r;
                pos += push * step * r;
                moved = true;
                if !pushed.contains(&(t.collider, t.slot)) {
                    pushed.push((t.collider, t.slot));
                    let normal = ellipsoid.normal_from_espace(n_e);
                    contacts.push(Contact {
                        point,
                        normal,
                        plane: SlidePlane { origin: point, normal },
                        time: 0.0,
                        iteration: 0,
                        collider: t.collider,
                        triangle: collider.mesh.input_index(t.slot),
                        feature: Feature::Face,
                        surface_velocity: collider.velocity_at(point),
                        depenetration: true,
                    });
                }
            }
            if !pos.is_finite() {
                // Pushed out of f32's range (coordinates near f32::MAX): stay.
                return (centre, false);
            }
            if !moved {
                break;
            }
        }
        // Free is judged against everything at the end position, not only
        // what was gathered: pushes can carry the centre into triangles that
        // were out of reach at the start (the fuzzer found one pushed 1.8
        // radii along a flight of stairs into a wall, called free).
        here.clear();
        triangles_near(ellipsoid, pos, 1.0, colliders, &mut here);
        if !here.iter().any(|t| overlapping(pos, t)) {
            return (pos, true);
        }
        if passes_left == 0 {
            break;
        }
    }
    (pos, false)
}

/// Most times [`depenetrate_into`] gathers the triangles near the centre
/// again after its pushes carried it towards others.
const DEPENETRATION_ROUNDS: u32 = 3;

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
