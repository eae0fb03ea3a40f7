//! Every kind of Rapier shape is solid where Rapier has it: a character
//! dropped onto a ball, a capsule, a cylinder, a cone, a compound, a
//! triangle mesh, a convex hull and a rounded box lands on its top (never
//! below it, at most 2% of its size above: curved shapes are polyhedra
//! that hold them), a half-space is a floor, a sensor, an ignored and a
//! disabled collider are not solid, and a removed collider stops being
//! solid.

use super::*;
use bevy_rapier3d::prelude::{Collider as RapierCollider, ColliderDisabled, RigidBody, Sensor as RapierSensor};
use bevy_slidewalk_rapier::{IgnoredByCharacters, Mirrored};

/// (name, collider, height of its top above its centre, metres).
fn shapes() -> Vec<(&'static str, RapierCollider, f32)> {
    let hull = RapierCollider::convex_hull(&[
        Vec3::new(-1.0, -0.5, -1.0),
        Vec3::new(1.0, -0.5, -1.0),
        Vec3::new(1.0, -0.5, 1.0),
        Vec3::new(-1.0, -0.5, 1.0),
        Vec3::new(0.0, 0.7, 0.0),
        Vec3::new(0.3, 0.7, 0.0),
        Vec3::new(0.0, 0.7, 0.3),
    ])
    .expect("a hull");
    let (vertices, indices) = bevy_rapier3d::parry::shape::Cuboid::new(Vec3::new(1.0, 0.4, 1.0)).to_trimesh();
    vec![
        ("ball", RapierCollider::ball(1.0), 1.0),
        ("capsule", RapierCollider::capsule_y(0.5, 0.5), 1.0),
        ("cylinder", RapierCollider::cylinder(0.6, 1.0), 0.6),
        ("cone", RapierCollider::cone(0.7, 1.0), 0.7),
        (
            "compound",
            RapierCollider::compound(vec![
                (Vec3::ZERO, Quat::IDENTITY, RapierCollider::cuboid(1.0, 0.2, 1.0)),
                (
                    Vec3::new(0.0, 0.4, 0.0),
                    Quat::IDENTITY,
                    RapierCollider::cuboid(0.5, 0.2, 0.5),
                ),
            ]),
            0.6,
        ),
        (
            "triangle mesh",
            RapierCollider::trimesh(vertices, indices).expect("a triangle mesh"),
            0.4,
        ),
        ("convex hull", hull, 0.7),
        ("rounded box", RapierCollider::round_cuboid(0.6, 0.3, 0.6, 0.2), 0.5),
    ]
}

#[test]
fn every_kind_of_rapier_shape_is_stood_on_where_rapier_has_it() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        // A half-space floor.
        app.world_mut().spawn((
            RigidBody::Fixed,
            RapierCollider::halfspace(Vec3::Y).expect("a half-space"),
            Transform::default(),
        ));
        let mut cases = Vec::new();
        for (k, (name, collider, top)) in shapes().into_iter().enumerate() {
            let x = 6.0 * k as f32;
            app.world_mut()
                .spawn((RigidBody::Fixed, collider, Transform::from_xyz(x, 2.0, 0.0)));
            let ch = character(&mut app, Vec3::new(x, 2.0 + top + 1.0, 0.0));
            cases.push((name, ch, 2.0 + top));
        }
        let on_floor = character(&mut app, Vec3::new(-6.0, 0.5, 0.0));
        run(&mut app, fpt, 1.5, |_| {});
        for (name, ch, top) in cases {
            let feet = state(&app, ch).feet().y;
            assert!(
                report(&app, ch).grounded(),
                "{fpt} frames a tick: not standing on the {name}"
            );
            assert!(
                feet >= top - 1e-3 && feet <= top + 0.02 * 2.0,
                "{fpt} frames a tick: feet at {feet} on the {name}, its top is at {top}"
            );
        }
        assert!(state(&app, on_floor).feet().y.abs() < 1e-2, "the half-space floor");
        assert_no_overlap(&app, &format!("shapes at {fpt} frames a tick"));
    }
}

#[test]
fn a_scaled_collider_is_as_large_as_rapier_makes_it() {
    let fpt = 1.0;
    let mut app = app(fpt);
    floor(&mut app);
    // A 1 m cube scaled 2 × 0.5 × 2: its top 0.25 m above its centre at 1 m.
    app.world_mut().spawn((
        RigidBody::Fixed,
        RapierCollider::cuboid(0.5, 0.5, 0.5),
        Transform::from_xyz(0.0, 1.0, 0.0).with_scale(Vec3::new(2.0, 0.5, 2.0)),
    ));
    let ch = character(&mut app, Vec3::new(0.7, 2.0, 0.0));
    run(&mut app, fpt, 1.0, |_| {});
    let feet = state(&app, ch).feet().y;
    assert!(
        (feet - 1.25).abs() < 1e-2,
        "feet at {feet} on the scaled cube, its top is at 1.25"
    );
    assert_no_overlap(&app, "scaled cube");
}

#[test]
fn sensors_ignored_disabled_and_removed_colliders_are_not_solid() {
    let fpt = 2.0;
    let mut app = app(fpt);
    floor(&mut app);
    let box_at = |app: &mut App, x: f32| {
        app.world_mut()
            .spawn((
                RigidBody::Fixed,
                RapierCollider::cuboid(1.0, 0.5, 1.0),
                Transform::from_xyz(x, 2.0, 0.0),
            ))
            .id()
    };
    let sensor = box_at(&mut app, 0.0);
    app.world_mut().entity_mut(sensor).insert(RapierSensor);
    let ignored = box_at(&mut app, 5.0);
    app.world_mut().entity_mut(ignored).insert(IgnoredByCharacters);
    let disabled = box_at(&mut app, 10.0);
    app.world_mut().entity_mut(disabled).insert(ColliderDisabled);
    let removed = box_at(&mut app, 15.0);
    let kept = box_at(&mut app, 20.0);
    let chars: Vec<Entity> = [0.0, 5.0, 10.0, 15.0, 20.0]
        .map(|x| character(&mut app, Vec3::new(x, 3.0, 0.0)))
        .into();
    run(&mut app, fpt, 0.2, |_| {});
    assert!(app.world().get::<Mirrored>(removed).is_some());
    assert!(app.world().get::<Mirrored>(kept).is_some());
    app.world_mut().entity_mut(removed).remove::<RapierCollider>();
    run(&mut app, fpt, 1.5, |_| {});
    assert!(
        app.world().get::<Mirrored>(removed).is_none(),
        "the mirror stayed on a removed collider"
    );
    for (ch, name) in chars.iter().zip(["sensor", "ignored", "disabled", "removed"]) {
        let feet = state(&app, *ch).feet().y;
        assert!(
            feet.abs() < 1e-2,
            "fell through the {name} box onto the floor: feet at {feet}"
        );
    }
    let feet = state(&app, chars[4]).feet().y;
    assert!((feet - 2.5).abs() < 1e-2, "stands on the kept box: feet at {feet}");
}

/// The box the mirror built for `collider`, half extents (its frame).
fn built_half_extents(app: &mut App, collider: RapierCollider) -> Vec3 {
    let e = app
        .world_mut()
        .spawn((RigidBody::Fixed, collider, Transform::default()))
        .id();
    run(app, 1.0, 0.05, |_| {});
    let bounds = app.world().get::<Mirrored>(e).expect("mirrored").shape.bounds();
    (bounds.max - bounds.min) / 2.0
}

#[test]
fn rounded_shapes_are_held_as_large_as_they_are() {
    let mut app = app(1.0);
    // Within 2% of the border of the true shape. A rounded box: 0.8 × 0.5 × 0.8 half extents with its border.
    let half = built_half_extents(&mut app, RapierCollider::round_cuboid(0.6, 0.3, 0.6, 0.2));
    let true_half = Vec3::new(0.8, 0.5, 0.8);
    assert!(
        half.cmpge(true_half - 1e-4).all() && half.cmple(true_half + 0.02 * 0.2).all(),
        "the rounded box is built {half} half, it is {true_half}"
    );
    // A flat rounded triangle: 2 × the border thick, not left out.
    let half = built_half_extents(
        &mut app,
        RapierCollider::round_triangle(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 2.0), 0.1),
    );
    assert!(
        half.y >= 0.1 - 1e-4 && half.y <= 0.1 + 0.002 && half.x >= 1.1 - 1e-4 && half.x <= 1.1 + 0.002,
        "the rounded triangle is built {half} half"
    );
}
