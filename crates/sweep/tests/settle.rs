//! `settle`: where it answers, it answers exactly what a collide-and-slide
//! that stops at its first contact gives (position and contact, bit for
//! bit), on levels of every kind, posed colliders, layers and one-way
//! platforms, from bodies resting on the ground and from anywhere.

use glam::{Quat, Vec3};
use slidewalk_sweep::test_util::{Lcg, Soup, adversarial_rooms, dense_level, generated_level};
use slidewalk_sweep::{
    CollisionLayers, ContactResponse, Ellipsoid, MeshCollider, PlacedCollider, Pose, SlideOptions, SlideResult,
    collide_and_slide_filtered, collide_and_slide_with, settle,
};

fn stop(
    e: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    placed: &[PlacedCollider<'_>],
    options: &SlideOptions,
) -> SlideResult {
    collide_and_slide_filtered(e, start, motion, placed, options, (), |_| ContactResponse::Stop)
}

/// Settles from `start` with each reach and checks every answer against
/// the slide; returns how many answered.
fn check(e: &Ellipsoid, start: Vec3, motion: Vec3, placed: &[PlacedCollider<'_>], options: &SlideOptions) -> usize {
    let full = stop(e, start, motion, placed, options);
    let mut answered = 0;
    for reach in [0.002, 0.01, 0.05, 0.5, 10.0] {
        let Some(settled) = settle(e, start, motion, placed, options, (), reach) else {
            continue;
        };
        answered += 1;
        let context = format!("start {start:?}, motion {motion:?}, reach {reach}");
        assert_eq!(
            settled.position.to_array().map(f32::to_bits),
            full.position.to_array().map(f32::to_bits),
            "{context}"
        );
        assert_eq!(full.contacts.first(), Some(&settled.contact), "{context}");
        assert_eq!(full.contacts.len(), 1, "{context}");
        assert_eq!(full.depenetration, Vec3::ZERO, "{context}");
        assert!(!full.unresolved_overlap, "{context}");
        let travelled = (settled.position - start) / e.radii();
        assert!(travelled.length() <= reach + 1e-3, "{context}: travelled {travelled}");
    }
    answered
}

/// Bodies dropped onto `placed` at random points of `area` (x, z), walked
/// a little along the ground and settled back down: the snap of a walking
/// character. Returns (cases, answered).
fn walked_and_settled(
    e: &Ellipsoid,
    placed: &[PlacedCollider<'_>],
    area: (Vec3, Vec3),
    options: &SlideOptions,
    seed: u64,
) -> (usize, usize) {
    let mut rng = Lcg::new(seed);
    let (lo, hi) = area;
    let (mut cases, mut answered) = (0, 0);
    for _ in 0..300 {
        let x = lo.x + rng.next_f32() * (hi.x - lo.x);
        let z = lo.z + rng.next_f32() * (hi.z - lo.z);
        let top = Vec3::new(x, hi.y, z);
        let dropped = stop(e, top, Vec3::new(0.0, lo.y - hi.y, 0.0), placed, options);
        if dropped.contacts.is_empty() {
            continue;
        }
        let step = Vec3::new(rng.next_f32() - 0.5, 0.0, rng.next_f32() - 0.5) * 0.3;
        let walked = collide_and_slide_with(e, dropped.position, step, placed, options, |_| ContactResponse::Slide);
        for start in [dropped.position, walked.position] {
            cases += 1;
            answered += usize::from(check(e, start, Vec3::new(0.0, -0.4, 0.0), placed, options) > 0);
        }
    }
    (cases, answered)
}

fn player() -> Ellipsoid {
    Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap()
}

#[test]
fn a_settle_is_the_slide_on_a_generated_level() {
    let soup = generated_level(20_000);
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let placed = [PlacedCollider::fixed(&mesh)];
    let b = mesh.bounds();
    let area = (
        Vec3::new(b.min.x + 2.0, b.min.y - 1.0, b.min.z + 2.0),
        Vec3::new(b.max.x - 2.0, b.max.y + 2.0, b.max.z - 2.0),
    );
    let (cases, answered) = walked_and_settled(&player(), &placed, area, &SlideOptions::default(), 1);
    println!("generated level: {answered} of {cases} settled");
    assert!(answered * 10 >= cases * 8, "only {answered} of {cases} settled");
}

#[test]
fn a_settle_is_the_slide_in_the_adversarial_rooms_and_among_dense_props() {
    let e = player();
    let mut levels = adversarial_rooms();
    levels.push(("dense", dense_level(40_000)));
    for (name, soup) in levels {
        let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let placed = [PlacedCollider::fixed(&mesh)];
        let b = mesh.bounds();
        let area = (b.min - Vec3::Y, b.max + Vec3::Y);
        let (cases, answered) = walked_and_settled(&e, &placed, area, &SlideOptions::default(), 2);
        println!("{name}: {answered} of {cases} settled");
        assert!(cases > 0, "{name}: nothing to stand on");
    }
}

/// From random points anywhere in a room, overlapping walls or not, along
/// random motions: a settle answers only what the slide answers.
#[test]
fn a_settle_from_anywhere_is_the_slide_or_nothing() {
    let e = Ellipsoid::new(Vec3::new(0.3, 0.7, 0.5)).unwrap();
    for (name, soup) in adversarial_rooms() {
        let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let placed = [PlacedCollider::fixed(&mesh)];
        let b = mesh.bounds();
        let mut rng = Lcg::new(3);
        let mut answered = 0;
        for _ in 0..2_000 {
            let p = b.min + (b.max - b.min) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
            let m = (Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) - 0.5) * 2.0;
            answered += check(&e, p, m, &placed, &SlideOptions::default());
        }
        println!("{name}: {answered} answers");
    }
}

/// Posed colliders (translated, rotated), layers and a one-way platform:
/// the same triangles the slide meets, the same answer.
#[test]
fn a_settle_meets_what_the_slide_meets_on_posed_filtered_and_one_way_colliders() {
    let mut floor = Soup::default();
    floor.grid((-6.0, -6.0), (6.0, 6.0), 0.0, 12);
    let floor = MeshCollider::build(&floor.positions, &floor.triangles).unwrap();
    let mut deck = Soup::default();
    deck.cuboid(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 0.4, 2.0));
    let deck = MeshCollider::build(&deck.positions, &deck.triangles).unwrap();
    let e = player();
    let turned = Pose {
        rotation: Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.05),
        translation: Vec3::new(1.5, 0.1, -0.5),
    };
    let cases: Vec<(&str, Vec<PlacedCollider<'_>>, SlideOptions)> = vec![
        (
            "translated",
            vec![PlacedCollider::moving(
                &floor,
                Pose::from_translation(Vec3::new(0.3, 0.2, -0.1)),
                Vec3::X,
                Vec3::ZERO,
            )],
            SlideOptions::default(),
        ),
        (
            "rotated deck",
            vec![
                PlacedCollider::fixed(&floor),
                PlacedCollider::moving(&deck, turned, Vec3::ZERO, Vec3::Y),
            ],
            SlideOptions::default(),
        ),
        (
            "deck on another layer",
            vec![
                PlacedCollider::fixed(&floor),
                PlacedCollider::fixed(&deck).with_layers(CollisionLayers::new(2, 2)),
            ],
            SlideOptions {
                layers: CollisionLayers::new(1, 1),
                ..SlideOptions::default()
            },
        ),
        (
            "one-way deck",
            vec![
                PlacedCollider::fixed(&floor),
                PlacedCollider::fixed(&deck).with_one_way(Some(Vec3::Y)),
            ],
            SlideOptions {
                one_way_step: 0.35,
                ..SlideOptions::default()
            },
        ),
    ];
    for (name, placed, options) in cases {
        let area = (Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 3.0, 5.0));
        let (cases, answered) = walked_and_settled(&e, &placed, area, &options, 4);
        println!("{name}: {answered} of {cases} settled");
        assert!(answered * 10 >= cases * 8, "{name}: only {answered} of {cases} settled");
    }
}

/// A slide allowed no sweep (`max_iterations` 0) moves nowhere and meets
/// nothing: a settle does not answer for it (the fuzzer found it).
#[test]
fn a_settle_does_not_answer_for_a_slide_allowed_no_sweep() {
    let mut floor = Soup::default();
    floor.grid((-6.0, -6.0), (6.0, 6.0), 0.0, 4);
    let floor = MeshCollider::build(&floor.positions, &floor.triangles).unwrap();
    let placed = [PlacedCollider::fixed(&floor)];
    let e = player();
    let start = Vec3::new(0.2, 0.9 * 1.001, 0.1);
    let down = Vec3::new(0.0, -0.4, 0.0);
    let options = SlideOptions::default();
    assert!(settle(&e, start, down, &placed, &options, (), 0.01).is_some());
    let none = SlideOptions {
        max_iterations: 0,
        ..options
    };
    assert_eq!(stop(&e, start, down, &placed, &none).position, start);
    assert!(settle(&e, start, down, &placed, &none, (), 0.01).is_none());
}
