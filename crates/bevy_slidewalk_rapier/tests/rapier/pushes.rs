//! What characters do to Rapier's bodies: a 10 kg crate walked into slides
//! away, a 5 t container stays and stops the character at its face, a
//! plank on a revolute joint tips under the character standing on its
//! end, and a platform Rapier drives along a prismatic joint with a motor
//! carries the character without a tick in the air or a dip.

use super::*;
use bevy_rapier3d::prelude::{
    Collider as RapierCollider, ColliderMassProperties, ImpulseJoint, PrismaticJointBuilder, RevoluteJointBuilder,
    RigidBody,
};

/// A box body of `size` metres and `mass` kg, its bottom on the floor at `at` (x, z).
fn crate_body(app: &mut App, size: Vec3, mass: f32, x: f32, z: f32) -> Entity {
    let half = size / 2.0;
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            RapierCollider::cuboid(half.x, half.y, half.z),
            ColliderMassProperties::Mass(mass),
            Transform::from_xyz(x, half.y, z),
        ))
        .id()
}

fn position(app: &App, e: Entity) -> Vec3 {
    app.world().get::<Transform>(e).unwrap().translation
}

#[test]
fn a_light_crate_is_shoved_and_a_container_holds_like_a_wall() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        floor(&mut app);
        let light = crate_body(&mut app, Vec3::splat(1.0), 10.0, 0.0, -2.0);
        let heavy = crate_body(&mut app, Vec3::new(6.0, 2.6, 2.4), 5000.0, 10.0, -3.0);
        let a = character(&mut app, Vec3::ZERO);
        let b = character(&mut app, Vec3::new(10.0, 0.0, 0.0));
        // Settled first.
        run(&mut app, fpt, 0.5, |_| {});
        let (light_from, heavy_from) = (position(&app, light), position(&app, heavy));
        walk(&mut app, a, Vec3::NEG_Z);
        walk(&mut app, b, Vec3::NEG_Z);
        run(&mut app, fpt, 2.0, |_| {});
        let light_moved = (position(&app, light) - light_from).length();
        let heavy_moved = (position(&app, heavy) - heavy_from).length();
        println!("{fpt} frames a tick: 10 kg crate moved {light_moved:.2} m, 5 t container {heavy_moved:.4} m");
        assert!(
            light_moved >= 1.0,
            "{fpt} frames a tick: the 10 kg crate moved {light_moved} m in 2 s"
        );
        assert!(
            heavy_moved < 0.01,
            "{fpt} frames a tick: the 5 t container moved {heavy_moved} m"
        );
        // Stopped at the container's face (z = −1.8), its radius away.
        let face = heavy_from.z + 1.2;
        let front = state(&app, b).position.z - state(&app, b).radii.z;
        assert!(
            (front - face).abs() < 0.02,
            "{fpt} frames a tick: stopped with its front at z = {front}, the face is at {face}"
        );
        assert_no_overlap(&app, &format!("crates at {fpt} frames a tick"));
    }
}

#[test]
fn a_plank_on_a_revolute_joint_tips_under_a_character_on_its_end() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        floor(&mut app);
        let pivot = app
            .world_mut()
            .spawn((RigidBody::Fixed, Transform::from_xyz(0.0, 1.0, 0.0)))
            .id();
        // A 4 m plank, its centre on the pivot (the joint's anchors at
        // both bodies' origins), turning about z.
        let plank = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                RapierCollider::cuboid(2.0, 0.05, 0.5),
                ColliderMassProperties::Mass(20.0),
                Transform::from_xyz(0.0, 1.0, 0.0),
                ImpulseJoint::new(pivot, RevoluteJointBuilder::new(Vec3::Z)),
            ))
            .id();
        // On the right (+x) end.
        character(&mut app, Vec3::new(1.5, 1.05, 0.0));
        let mut tipped: f32 = 0.0;
        run(&mut app, fpt, 2.0, |app| {
            let rotation = app.world().get::<Transform>(plank).unwrap().rotation;
            // The right end down: a turn about −z.
            tipped = tipped.max(-rotation.to_scaled_axis().z.to_degrees());
        });
        println!("{fpt} frames a tick: the plank tipped {tipped:.1}°");
        assert!(
            tipped > 10.0,
            "{fpt} frames a tick: the plank tipped right by {tipped}° in 2 s"
        );
        assert_no_overlap(&app, &format!("plank at {fpt} frames a tick"));
    }
}

#[test]
fn a_platform_rapier_drives_carries_the_character_without_a_tick_in_the_air() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        floor(&mut app);
        let anchor = app
            .world_mut()
            .spawn((RigidBody::Fixed, Transform::from_xyz(0.0, 1.0, 0.0)))
            .id();
        // A velocity motor along x: 2 m/s, up to 100 kN (the factor is the
        // motor's damping: large, so it holds the speed under the load).
        let slider = PrismaticJointBuilder::new(Vec3::X)
            .motor_velocity(2.0, 1000.0)
            .motor_max_force(1e5);
        let platform = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                RapierCollider::cuboid(1.5, 0.1, 1.5),
                ColliderMassProperties::Mass(200.0),
                Transform::from_xyz(0.0, 1.0, 0.0),
                ImpulseJoint::new(anchor, slider),
            ))
            .id();
        let ch = character(&mut app, Vec3::new(0.0, 1.1, 0.0));
        // Standing on it first.
        run(&mut app, fpt, 0.3, |_| {});
        let mut airborne = 0;
        let mut dip: f32 = 0.0;
        let mut moved = 0.0;
        let from = position(&app, platform).x;
        run(&mut app, fpt, 2.0, |app| {
            let s = state(app, ch);
            if s.ground.is_none() {
                airborne += 1;
            }
            let motion = app.world().get::<ColliderMotion>(platform).unwrap().pose().unwrap();
            // Feet against the platform's top as the tick placed it.
            dip = dip.max((motion.translation.y + 0.1 - s.feet().y).abs());
            moved = position(app, platform).x - from;
        });
        println!("{fpt} frames a tick: the platform moved {moved:.2} m, {airborne} frames in the air, dip {dip:.4} m");
        assert!(moved > 2.0, "{fpt} frames a tick: the platform moved {moved} m");
        assert_eq!(airborne, 0, "{fpt} frames a tick: {airborne} frames in the air");
        assert!(
            dip < 0.01,
            "{fpt} frames a tick: the feet left the top by up to {dip} m"
        );
        assert_no_overlap(&app, &format!("platform at {fpt} frames a tick"));
    }
}
