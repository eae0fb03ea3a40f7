//! Rapier's prelude and bevy_slidewalk's glob-imported together (with
//! Bevy's): no name of ours is ambiguous, and an app uses both crates'
//! colliders side by side.
//!
//! One name is in two of the globs, and not ours: `Real`, Bevy's real-time
//! clock (`Time<Real>`, bevy_time's prelude) and Rapier's scalar type
//! (`bevy_rapier3d::math::Real = f32`). A glob clash is an error only
//! where the name is used; this file uses it, through the one explicit
//! import below, which shadows both globs (what an app that wants either
//! does). Without that line and without a use of `Real`, the file
//! compiles as well.
#![deny(ambiguous_glob_imports)]

use bevy::prelude::*;
use bevy_rapier3d::math::Real;
use bevy_rapier3d::prelude::*;
use bevy_slidewalk::prelude::*;

#[test]
fn both_preludes_glob_imported_name_nothing_twice() {
    let mut app = super::app(1.0);
    let world = app.world_mut();
    let radius: Real = 1.0;
    // Rapier's names.
    world.spawn((
        RigidBody::Fixed,
        Collider::cuboid(20.0, 0.5, 20.0),
        CollisionGroups::new(Group::ALL, Group::ALL),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    world.spawn((Collider::ball(radius), Sensor, Transform::from_xyz(0.0, 1.0, -5.0)));
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
    assert!(super::report(&app, ch).grounded(), "not standing on Rapier's floor");
}
