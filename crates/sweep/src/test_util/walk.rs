//! Randomized walks through a closed mesh, checked by brute force: the
//! invariants of collide-and-slide (never penetrate, never escape, never NaN).

use super::rng::Lcg;
use super::soup::Soup;
use crate::aabb::Aabb;
use crate::collider::{MeshCollider, PlacedCollider};
use crate::ellipsoid::Ellipsoid;
use crate::slide::{SlideOptions, collide_and_slide};
use crate::triangle::closest_point_on_triangle;
use glam::Vec3;
use std::borrow::Borrow;

/// What a batch of random walks does.
#[derive(Clone, Copy, Debug)]
pub struct WalkConfig {
    /// The walker.
    pub ellipsoid: Ellipsoid,
    /// Independent walks (each from a fresh random spawn).
    pub walks: u32,
    /// Moves per walk (each move is one call, plus a gravity call when
    /// `gravity` is not zero).
    pub moves_per_walk: u32,
    /// Seed of the walk generator.
    pub seed: u64,
    /// The closed room's interior (metres): spawns are inside it; ending a
    /// call outside it is an escape.
    pub interior: Aabb,
    /// Longest ordinary move, metres (one in ten moves is up to ten times longer).
    pub max_move: f32,
    /// Displacement of the gravity pass after each move, metres; zero for none.
    pub gravity: Vec3,
    /// Options given to every call.
    pub options: SlideOptions,
}

/// Findings of [`random_walks`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkStats {
    /// `collide_and_slide` calls made.
    pub calls: u64,
    /// Smallest eSpace centre-to-triangle distance after any call (1 = touching).
    pub min_distance: f32,
    /// Calls that ended outside the room's interior.
    pub escaped: u64,
    /// Calls that produced a NaN or infinite position.
    pub non_finite: u64,
    /// Calls that reported an overlap they could not clear.
    pub unresolved: u64,
    /// Calls that hit something.
    pub with_contacts: u64,
    /// The call that came closest: start, motion, end (to reproduce it).
    pub closest_call: (Vec3, Vec3, Vec3),
}

impl WalkStats {
    /// Deepest penetration seen, eSpace units (0 when none).
    pub fn max_penetration(&self) -> f32 {
        (1.0 - self.min_distance).max(0.0)
    }
}

/// Smallest distance, in eSpace units, from an ellipsoid centred at
/// `centre` to any of `triangles`, by brute force (1 = touching, below 1 =
/// penetrating). `triangles` may be a slice of them or
/// [`MeshCollider::triangles`].
pub fn min_espace_distance<T: Borrow<[Vec3; 3]>>(
    ellipsoid: &Ellipsoid,
    centre: Vec3,
    triangles: impl IntoIterator<Item = T>,
) -> f32 {
    let r = ellipsoid.radii();
    triangles
        .into_iter()
        .map(|t| {
            let [a, b, c] = t.borrow().map(|p| (p - centre) / r);
            closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
        })
        .fold(f32::INFINITY, f32::min)
}

/// Runs `config.walks` random walks through `soup` (a closed room) and
/// checks every call's end position by brute force against every triangle.
///
/// Moves are mostly horizontal walking, some in any direction, and one in
/// ten up to ten times longer than `max_move` (tunnelling bait).
///
/// # Panics
/// If the soup has no usable triangle or no spawn point is found.
pub fn random_walks(soup: &Soup, config: &WalkConfig) -> WalkStats {
    let collider = MeshCollider::build(&soup.positions, &soup.triangles).expect("walk mesh has triangles");
    let triangles: Vec<[Vec3; 3]> = collider.triangles().collect();
    let world = [PlacedCollider::fixed(&collider)];
    let e = &config.ellipsoid;
    let mut rng = Lcg::new(config.seed);
    let mut stats = WalkStats {
        calls: 0,
        min_distance: f32::INFINITY,
        escaped: 0,
        non_finite: 0,
        unresolved: 0,
        with_contacts: 0,
        closest_call: (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO),
    };
    let check = |stats: &mut WalkStats, start: Vec3, motion: Vec3, end: Vec3, contacts: bool, unresolved: bool| {
        stats.calls += 1;
        stats.with_contacts += contacts as u64;
        stats.unresolved += unresolved as u64;
        if !end.is_finite() {
            stats.non_finite += 1;
            return;
        }
        if end.cmplt(config.interior.min).any() || end.cmpgt(config.interior.max).any() {
            stats.escaped += 1;
        }
        let d = min_espace_distance(e, end, &triangles);
        if d < stats.min_distance {
            stats.min_distance = d;
            stats.closest_call = (start, motion, end);
        }
    };
    for _ in 0..config.walks {
        let mut pos = spawn(&mut rng, e, &config.interior, &triangles);
        for _ in 0..config.moves_per_walk {
            let kind = rng.next_f32();
            let length = rng.range(0.0, config.max_move) * if kind < 0.1 { 10.0 } else { 1.0 };
            let dir = if kind < 0.3 {
                rng.direction()
            } else {
                let d = rng.direction();
                Vec3::new(d.x, 0.0, d.z).normalize_or(Vec3::X)
            };
            let motion = dir * length;
            let step = collide_and_slide(e, pos, motion, &world, &config.options);
            check(
                &mut stats,
                pos,
                motion,
                step.position,
                !step.contacts.is_empty(),
                step.unresolved_overlap,
            );
            pos = step.position;
            if config.gravity != Vec3::ZERO && pos.is_finite() {
                let fall = collide_and_slide(e, pos, config.gravity, &world, &config.options);
                check(
                    &mut stats,
                    pos,
                    config.gravity,
                    fall.position,
                    !fall.contacts.is_empty(),
                    fall.unresolved_overlap,
                );
                pos = fall.position;
            }
            if !pos.is_finite() {
                break;
            }
        }
    }
    stats
}

/// A random centre inside `interior` clear of every triangle by 5 %.
fn spawn(rng: &mut Lcg, e: &Ellipsoid, interior: &Aabb, triangles: &[[Vec3; 3]]) -> Vec3 {
    let lo = interior.min + e.radii();
    let hi = interior.max - e.radii();
    for _ in 0..10_000 {
        let p = rng.in_box(lo, hi);
        if min_espace_distance(e, p, triangles) >= 1.05 {
            return p;
        }
    }
    panic!("no free spawn point for {e:?} in {interior:?}");
}
