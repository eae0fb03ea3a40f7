//! Avian's prelude and bevy_slidewalk's glob-imported together: no name
//! is ambiguous, and an app uses both crates' colliders side by side.
#![deny(ambiguous_glob_imports)]

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy_slidewalk::prelude::*;

#[test]
fn both_preludes_glob_imported_name_nothing_twice() {
    let mut app = super::app(1.0);
    let world = app.world_mut();
    // Avian's names.
    world.spawn((
        RigidBody::Static,
        Collider::cuboid(40.0, 1.0, 40.0),
        CollisionLayers::default(),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    world.spawn((Collider::sphere(1.0), Sensor, Transform::from_xyz(0.0, 1.0, -5.0)));
    // Ours.
    world.spawn((
        SlidewalkCollider::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Z], vec![[0, 1, 2]]),
        SlidewalkLayers::ALL,
        SlidewalkSensor,
        Transform::from_xyz(5.0, 0.0, 0.0),
    ));
    let body = CharacterController::default();
    let ch = world.spawn((body.transform_at_feet(Vec3::ZERO), body)).id();
    super::run(&mut app, 1.0, 0.5, |_| {});
    assert!(super::report(&app, ch).grounded(), "not standing on Avian's floor");
}
