//! Every kind of Avian shape is solid where Avian has it: a character
//! dropped onto a ball, a capsule, a cylinder, a cone, a compound, a
//! triangle mesh, a convex hull and a rounded box lands on its top (never
//! below it, at most 2% of its size above: curved shapes are polyhedra
//! that hold them), a half-space is a floor, a sensor and an ignored
//! collider are not solid, and a removed collider stops being solid.

use super::*;
use avian3d::prelude::{Collider as AvianCollider, RigidBody, Sensor as AvianSensor};
use bevy_slidewalk_avian::{IgnoredByCharacters, Mirrored};

/// (name, collider, height of its top above its centre, metres).
fn shapes() -> Vec<(&'static str, AvianCollider, f32)> {
    let hull = AvianCollider::convex_hull(vec![
        Vec3::new(-1.0, -0.5, -1.0),
        Vec3::new(1.0, -0.5, -1.0),
        Vec3::new(1.0, -0.5, 1.0),
        Vec3::new(-1.0, -0.5, 1.0),
        Vec3::new(0.0, 0.7, 0.0),
        Vec3::new(0.3, 0.7, 0.0),
        Vec3::new(0.0, 0.7, 0.3),
    ])
    .expect("a hull");
    let (vertices, indices) = avian3d::parry::shape::Cuboid::new(Vec3::new(1.0, 0.4, 1.0)).to_trimesh();
    vec![
        ("ball", AvianCollider::sphere(1.0), 1.0),
        ("capsule", AvianCollider::capsule(0.5, 1.0), 1.0),
        ("cylinder", AvianCollider::cylinder(1.0, 1.2), 0.6),
        ("cone", AvianCollider::cone(1.0, 0.6), 0.3),
        (
            "compound",
            AvianCollider::compound(vec![
                (Vec3::ZERO, Quat::IDENTITY, AvianCollider::cuboid(2.0, 0.4, 2.0)),
                (
                    Vec3::new(0.0, 0.4, 0.0),
                    Quat::IDENTITY,
                    AvianCollider::cuboid(1.0, 0.4, 1.0),
                ),
            ]),
            0.6,
        ),
        ("triangle mesh", AvianCollider::trimesh(vertices, indices), 0.4),
        ("convex hull", hull, 0.7),
        ("rounded box", AvianCollider::round_cuboid(1.6, 0.6, 1.6, 0.2), 0.5),
    ]
}

#[test]
fn every_kind_of_avian_shape_is_stood_on_where_avian_has_it() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        // A half-space floor.
        app.world_mut()
            .spawn((RigidBody::Static, AvianCollider::half_space(Vec3::Y)));
        let mut cases = Vec::new();
        for (k, (name, collider, top)) in shapes().into_iter().enumerate() {
            let x = 6.0 * k as f32;
            app.world_mut()
                .spawn((RigidBody::Static, collider, Transform::from_xyz(x, 2.0, 0.0)));
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
fn sensors_ignored_and_removed_colliders_are_not_solid() {
    let fpt = 2.0;
    let mut app = app(fpt);
    floor(&mut app);
    let box_at = |app: &mut App, x: f32| {
        app.world_mut()
            .spawn((
                RigidBody::Static,
                AvianCollider::cuboid(2.0, 1.0, 2.0),
                Transform::from_xyz(x, 2.0, 0.0),
            ))
            .id()
    };
    let sensor = box_at(&mut app, 0.0);
    app.world_mut().entity_mut(sensor).insert(AvianSensor);
    let ignored = box_at(&mut app, 5.0);
    app.world_mut().entity_mut(ignored).insert(IgnoredByCharacters);
    let removed = box_at(&mut app, 10.0);
    let kept = box_at(&mut app, 15.0);
    let chars: Vec<Entity> = [0.0, 5.0, 10.0, 15.0]
        .map(|x| character(&mut app, Vec3::new(x, 3.0, 0.0)))
        .into();
    run(&mut app, fpt, 0.2, |_| {});
    assert!(app.world().get::<Mirrored>(removed).is_some());
    app.world_mut().entity_mut(removed).remove::<AvianCollider>();
    run(&mut app, fpt, 1.5, |_| {});
    assert!(
        app.world().get::<Mirrored>(removed).is_none(),
        "the mirror stayed on a removed collider"
    );
    for (ch, name) in chars.iter().zip(["sensor", "ignored", "removed"]) {
        let feet = state(&app, *ch).feet().y;
        assert!(
            feet.abs() < 1e-2,
            "fell through the {name} box onto the floor: feet at {feet}"
        );
    }
    let feet = state(&app, chars[3]).feet().y;
    assert!((feet - 2.5).abs() < 1e-2, "stands on the kept box: feet at {feet}");
    let ground = report(&app, chars[3]).ground.and_then(|g| g.entity);
    assert_eq!(ground, Some(kept), "standing on the kept box's entity");
}

#[test]
fn a_child_collider_of_a_moving_body_is_solid_where_the_body_puts_it() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        floor(&mut app);
        // A kinematic body moving along x at 1 m/s, its collider a child
        // 0.5 m up, turned 30° about y and scaled 2× along x.
        let body = app
            .world_mut()
            .spawn((
                RigidBody::Kinematic,
                avian3d::prelude::LinearVelocity(Vec3::X),
                Transform::from_xyz(0.0, 1.0, 0.0),
            ))
            .id();
        let child = app
            .world_mut()
            .spawn((
                AvianCollider::cuboid(2.0, 0.2, 2.0),
                Transform::from_xyz(0.0, 0.5, 0.0)
                    .with_rotation(Quat::from_rotation_y(0.5))
                    .with_scale(Vec3::new(2.0, 1.0, 1.0)),
                ChildOf(body),
            ))
            .id();
        // The top is at 1.6 m.
        let ch = character(&mut app, Vec3::new(0.0, 2.0, 0.0));
        run(&mut app, fpt, 2.0, |_| {});
        let s = state(&app, ch);
        let ground = report(&app, ch).ground.and_then(|g| g.entity);
        assert_eq!(
            ground,
            Some(child),
            "{fpt} frames a tick: not standing on the child collider"
        );
        assert!(
            (s.feet().y - 1.6).abs() < 1e-2,
            "{fpt} frames a tick: feet at {}",
            s.feet().y
        );
        // Carried with the body (about 2 m in 2 s).
        assert!(
            s.position.x > 1.5,
            "{fpt} frames a tick: left behind at x = {}",
            s.position.x
        );
        assert_no_overlap(&app, &format!("child collider at {fpt} frames a tick"));
    }
}

/// The box the mirror built for `collider`, half extents (its frame).
fn built_half_extents(app: &mut App, collider: AvianCollider) -> Vec3 {
    let e = app
        .world_mut()
        .spawn((RigidBody::Static, collider, Transform::default()))
        .id();
    run(app, 1.0, 0.05, |_| {});
    let bounds = app.world().get::<Mirrored>(e).expect("mirrored").shape.bounds();
    (bounds.max - bounds.min) / 2.0
}

#[test]
fn rounded_shapes_are_held_as_large_as_they_are() {
    let mut app = app(1.0);
    // Within 2% of the border of the true shape. A rounded box: 1.0 × 0.5 × 1.0 half extents with its border.
    let half = built_half_extents(&mut app, AvianCollider::round_cuboid(1.6, 0.6, 1.6, 0.2));
    let true_half = Vec3::new(1.0, 0.5, 1.0);
    assert!(
        half.cmpge(true_half - 1e-4).all() && half.cmple(true_half + 0.02 * 0.2).all(),
        "the rounded box is built {half} half, it is {true_half}"
    );
    // A flat rounded triangle: 2 × the border thick, not left out.
    let triangle = avian3d::parry::shape::SharedShape::round_triangle(
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 2.0),
        0.1,
    );
    let half = built_half_extents(&mut app, AvianCollider::from(triangle));
    assert!(
        half.y >= 0.1 - 1e-4 && half.y <= 0.1 + 0.002 && half.x >= 1.1 - 1e-4 && half.x <= 1.1 + 0.002,
        "the rounded triangle is built {half} half"
    );
}
