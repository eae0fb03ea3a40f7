//! Depenetration: pushing an ellipsoid out of the triangles it overlaps
//! (Gauss–Seidel in eSpace, the still colliders last), and measuring how
//! deep it is; and the skin kept from surfaces (raised far from the origin
//! to stay above f32 resolution) and the eSpace distance from the centre to
//! a triangle, which the slide loop shares.

use super::types::{Contact, SlideOptions, SlidePlane};
use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::filter::{CollisionLayers, ContactFilter, StandardRules};
use crate::query::sweep::{NearTriangle, in_push_order, triangles_near};
use crate::triangle::{Feature, closest_point_on_triangle, face_normal, segment_crosses_triangle};
use glam::Vec3;

/// Pushes an ellipsoid centred at `centre` out of every triangle it overlaps
/// and returns the freed centre (metres) and whether it is free. A skin
/// ([`SlideOptions::skin`]) is left between it and each surface it was
/// pushed from. Only what a body with [`SlideOptions::layers`] meets
/// pushes (a one-way surface only a body in front of it).
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
        &mut options.rules(),
        centre,
        Pushes {
            skin,
            iterations: options.depenetration_iterations,
            overlap_known: false,
        },
        &mut Vec::new(),
    )
}

/// How deep an ellipsoid centred at `centre` penetrates the nearest
/// triangle of `colliders` it meets, in eSpace units (a fraction of the
/// radius; 0 when it touches nothing). A check for tests and tools: the
/// BVH finds the triangles near the ellipsoid, each is measured exactly.
/// A body of [`crate::CollisionLayers::ALL`]; a one-way surface counts
/// only where it would push the body out ([`crate::Candidate::one_way_holds`]),
/// not where the body is passing through it.
pub fn penetration_depth(ellipsoid: &Ellipsoid, centre: Vec3, colliders: &[PlacedCollider<'_>]) -> f32 {
    penetration_depth_with(ellipsoid, centre, colliders, CollisionLayers::ALL, ())
}

/// [`penetration_depth`] for a body with `layers`, counting only what
/// `filter` keeps as well (asked as if the body started at `centre`).
pub fn penetration_depth_with(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    colliders: &[PlacedCollider<'_>],
    layers: CollisionLayers,
    filter: impl ContactFilter,
) -> f32 {
    let mut near = Vec::new();
    let mut rules = (StandardRules::for_layers(layers), filter);
    triangles_near(ellipsoid, centre, 1.0, colliders, &mut rules, centre, &mut near);
    let nearest = near
        .iter()
        .map(|t| touch_distance(centre, &t.world, ellipsoid.radii()))
        .fold(f32::INFINITY, f32::min);
    (1.0 - nearest).max(0.0)
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
pub(super) fn depenetrate_into(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    colliders: &[PlacedCollider<'_>],
    filter: &mut impl ContactFilter,
    move_start: Vec3,
    Pushes {
        skin,
        iterations,
        overlap_known,
    }: Pushes,
    contacts: &mut Vec<Contact>,
) -> (Vec3, bool) {
    let r = ellipsoid.radii();
    if !centre.is_finite() {
        return (centre, false);
    }
    let mut near = Vec::new();
    let overlapping = |p: Vec3, t: &NearTriangle| touch_distance(p, &t.world, r) < 1.0;
    if !overlap_known {
        // Cheap check first: is anything within touching distance at all?
        triangles_near(ellipsoid, centre, 1.0, colliders, filter, move_start, &mut near);
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
        triangles_near(ellipsoid, pos, 2.5, colliders, filter, move_start, &mut near);
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
                let push = match front_of_one_way(collider, [a, b, c], r) {
                    // A one-way surface held the body although its centre
                    // is behind it (a walker's step allowance, a shape
                    // change): out to its front, never out of its back.
                    Some((front, behind)) if behind > 0.0 => front * (1.0 + skin + behind),
                    _ => n_e * (1.0 + skin - d),
                };
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
        triangles_near(ellipsoid, pos, 1.0, colliders, filter, move_start, &mut here);
        if !here.iter().any(|t| overlapping(pos, t)) {
            return (pos, true);
        }
        if passes_left == 0 {
            break;
        }
    }
    (pos, false)
}

/// How [`depenetrate_into`] pushes: the gap it leaves (eSpace units), its
/// most passes, and whether an overlap is already known (a sweep saw
/// one), which skips the first check.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pushes {
    pub skin: f32,
    pub iterations: u32,
    pub overlap_known: bool,
}

/// For a triangle of a one-way collider, its front (the unit eSpace
/// normal of its winding, facing the one-way direction) and how far the
/// centre (the eSpace origin; `tri` relative to it) is behind its plane
/// (negative in front). `None` for other colliders.
fn front_of_one_way(collider: &PlacedCollider<'_>, [a, b, c]: [Vec3; 3], r: Vec3) -> Option<(Vec3, f32)> {
    let up = collider.pose.rotation * collider.one_way?;
    let n = (b - a).cross(c - a).normalize_or_zero();
    // The eSpace normal's world direction is n / r.
    let front = if n.dot(up / r) >= 0.0 { n } else { -n };
    (front != Vec3::ZERO).then(|| (front, a.dot(front)))
}

/// Most times [`depenetrate_into`] gathers the triangles near the centre
/// again after its pushes carried it towards others.
const DEPENETRATION_ROUNDS: u32 = 3;

/// Largest skin used, eSpace units: coordinates so far from the origin
/// that f32 cannot resolve a quarter of the radius there get no more (the
/// fuzzer found an infinite skin turning a depenetration into NaN).
const MAX_SKIN: f32 = 0.25;

/// The skin actually used: the requested one, raised to a few f32 ulps of
/// the coordinates involved (eSpace), so rounding never eats it, and at
/// most [`MAX_SKIN`].
pub(super) fn effective_skin(skin: f32, pos: Vec3, motion: Vec3, r: Vec3) -> f32 {
    let scale = ((pos.abs() + motion.abs()) / r).max_element();
    let skin = if skin.is_finite() { skin.max(0.0) } else { 0.0 };
    skin.max(32.0 * f32::EPSILON * scale).clamp(1e-5, MAX_SKIN)
}

/// eSpace distance from the centre `pos` to a world triangle.
pub(super) fn touch_distance(pos: Vec3, tri: &[Vec3; 3], r: Vec3) -> f32 {
    let [a, b, c] = tri.map(|p| (p - pos) / r);
    closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
}
