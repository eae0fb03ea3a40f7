//! The broad phase is exact: `sweep` (an eSpace walk of the 4-wide BVH,
//! four boxes tested at once, nearest first, shrinking with the earliest
//! hit, and cheap per-triangle rejects before the narrow phase) finds the
//! same first contact as the narrow phase run on every triangle, on dense, generated and adversarial
//! meshes, for still, translated and rotated colliders, one or several.

use glam::{Quat, Vec3};
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;
use slidewalk_sweep::test_util::{adversarial_rooms, dense_level, generated_level};
use slidewalk_sweep::{Aabb, Ellipsoid, Feature, MeshCollider, PlacedCollider, Pose, sweep};

/// The first contact as brute force finds it: (time, eSpace normal,
/// feature, collider, input triangle), ties to the earlier collider, then
/// to the lower input triangle index.
type Contact = (f32, Vec3, Feature, usize, u32);

fn brute_force(e: &Ellipsoid, start: Vec3, motion: Vec3, world: &[PlacedCollider<'_>]) -> Option<Contact> {
    let inv_r = e.radii().recip();
    let v = motion * inv_r;
    let mut best: Option<Contact> = None;
    for (ci, placed) in world.iter().enumerate() {
        for slot in 0..placed.mesh.len() {
            // To eSpace as the sweep takes them: a translated collider's
            // corners straight from its frame, a rotated one's through
            // the world.
            let tri = placed.mesh.triangle(slot);
            let tri = if placed.pose.rotation == Quat::IDENTITY {
                let origin = start - placed.pose.translation;
                tri.map(|p| (p - origin) * inv_r)
            } else {
                tri.map(|p| (placed.pose.transform_point(p) - start) * inv_r)
            };
            let t_max = best.map_or(1.0, |b| b.0);
            let Some(hit) = sweep_unit_sphere_triangle(v, tri, t_max) else {
                continue;
            };
            let input = placed.mesh.input_index(slot);
            let earlier = best.is_none_or(|b| hit.t < b.0 || (hit.t == b.0 && ci == b.3 && input < b.4));
            if earlier {
                best = Some((hit.t, hit.normal, hit.feature, ci, input));
            }
        }
    }
    best
}

/// Random sweeps around `world`'s first collider (placed by its pose):
/// every one must give the brute-force answer. Returns how many hit.
fn check(name: &str, e: &Ellipsoid, world: &[PlacedCollider<'_>], sweeps: usize, seed: u64) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let bounds = world[0].mesh.bounds();
    let size = bounds.size();
    let mut hits = 0;
    for k in 0..sweeps {
        let local = bounds.min + Vec3::new(rng.f32(), rng.f32(), rng.f32()) * size;
        let mut start = world[0].pose.transform_point(local);
        let dir = Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5);
        let motion = match k % 5 {
            0 => dir * 0.3,                              // a walking tick
            1 => dir * 4.0,                              // a long move
            2 => Vec3::new(dir.x, 0.0, dir.z) * 0.2,     // horizontal
            3 => Vec3::new(0.0, -0.05 - rng.f32(), 0.0), // gravity
            _ => Vec3::ZERO,
        };
        if k % 7 == 0 {
            // Resting on whatever is below, a hair above it.
            let fall = Vec3::new(0.0, -2.0 * size.y - 4.0, 0.0);
            let high = start + Vec3::Y * (size.y + 2.0);
            if let Some(h) = sweep(e, high, fall, world)
                && !h.started_embedded
            {
                start = high + fall * h.time + Vec3::Y * 0.002 * rng.f32();
            }
        }
        let got = sweep(e, start, motion, world).map(|h| (h.time, h.espace_normal, h.feature, h.collider, h.triangle));
        let expected = brute_force(e, start, motion, world);
        assert_eq!(got, expected, "{name}, sweep {k}: start {start}, motion {motion}");
        hits += usize::from(got.is_some());
    }
    hits
}

fn walkers() -> [Ellipsoid; 3] {
    [
        Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap(),
        Ellipsoid::sphere(0.5).unwrap(),
        Ellipsoid::new(Vec3::new(1.0, 0.3, 0.6)).unwrap(),
    ]
}

#[test]
fn dense_props_give_the_brute_force_contacts() {
    let soup = dense_level(16_000);
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let world = [PlacedCollider::fixed(&mesh)];
    let mut hits = 0;
    for (i, e) in walkers().iter().enumerate() {
        hits += check("dense", e, &world, 700, i as u64);
    }
    assert!(hits > 500, "too few hits to prove anything: {hits}");
}

#[test]
fn generated_levels_give_the_brute_force_contacts() {
    let soup = generated_level(12_000);
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let world = [PlacedCollider::fixed(&mesh)];
    let mut hits = 0;
    for (i, e) in walkers().iter().enumerate() {
        hits += check("generated", e, &world, 500, 10 + i as u64);
    }
    assert!(hits > 300, "too few hits to prove anything: {hits}");
}

/// A collider larger than the caches (65,536 triangles or more) fetches
/// its nodes and triangles ahead of the walk: the same contacts.
#[test]
fn a_level_larger_than_the_caches_gives_the_brute_force_contacts() {
    let soup = generated_level(80_000);
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    assert!(mesh.len() >= 65_536, "{} triangles: too few to fetch ahead", mesh.len());
    let world = [PlacedCollider::fixed(&mesh)];
    // The data near a batch of places asked for first, as the crowd does
    // (fixed and posed): a hint, which changes no answer.
    let b = mesh.bounds();
    let places: Vec<Aabb> = (0..16)
        .map(|i| {
            let p = b.min + (b.max - b.min) * (i as f32 / 15.0);
            Aabb::from_corners(p - Vec3::splat(2.0), p + Vec3::splat(2.0))
        })
        .collect();
    world[0].fetch_near(&places);
    let turned = Pose {
        rotation: Quat::from_rotation_y(0.6),
        translation: Vec3::new(5.0, -1.0, 2.0),
    };
    PlacedCollider::moving(&mesh, turned, Vec3::ZERO, Vec3::ZERO).fetch_near(&places);
    let mut hits = 0;
    for (i, e) in walkers().iter().enumerate() {
        hits += check("large", e, &world, 120, 40 + i as u64);
    }
    assert!(hits > 60, "too few hits to prove anything: {hits}");
}

#[test]
fn adversarial_rooms_give_the_brute_force_contacts() {
    let mut hits = 0;
    for (name, soup) in adversarial_rooms() {
        let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let world = [PlacedCollider::fixed(&mesh)];
        for (i, e) in walkers().iter().enumerate() {
            hits += check(name, e, &world, 300, 20 + i as u64);
        }
    }
    assert!(hits > 1000, "too few hits to prove anything: {hits}");
}

#[test]
fn translated_rotated_and_several_colliders_give_the_brute_force_contacts() {
    let soup = dense_level(8_000);
    let props = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let floor_soup = generated_level(3_000);
    let floor = MeshCollider::build(&floor_soup.positions, &floor_soup.triangles).unwrap();
    let lift = Pose::from_translation(Vec3::new(3.0, 0.7, -2.0));
    let door = Pose {
        rotation: Quat::from_rotation_y(0.6) * Quat::from_rotation_x(0.1),
        translation: Vec3::new(-1.0, 0.2, 0.5),
    };
    let mut hits = 0;
    for (i, e) in walkers().iter().enumerate() {
        let seed = 30 + 10 * i as u64;
        for (name, pose) in [("translated", lift), ("rotated", door)] {
            let world = [PlacedCollider::moving(&props, pose, Vec3::Y, Vec3::ZERO)];
            hits += check(name, e, &world, 400, seed);
            // Overlapping colliders: ties go to the earlier one.
            let world = [
                PlacedCollider::moving(&props, pose, Vec3::Y, Vec3::ZERO),
                PlacedCollider::fixed(&floor),
                PlacedCollider::moving(&props, pose, Vec3::ZERO, Vec3::ZERO),
            ];
            hits += check(name, e, &world, 400, seed + 1);
        }
    }
    assert!(hits > 1000, "too few hits to prove anything: {hits}");
}
