//! What characters do to Avian's bodies: a 10 kg crate walked into slides
//! away, a 5 t container stays and stops the character at its face, a
//! plank on a pivot tips under the character standing on its end, and a
//! platform Avian drives along a prismatic joint carries the character
//! without a tick in the air or a dip.

use super::*;
use avian3d::prelude::{
    Collider as AvianCollider, LinearMotor, Mass, MotorModel, PrismaticJoint, RevoluteJoint, RigidBody, Rotation,
};

/// A box body of `size` metres and `mass` kg, its bottom on the floor at `at` (x, z).
fn crate_body(app: &mut App, size: Vec3, mass: f32, x: f32, z: f32) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            AvianCollider::cuboid(size.x, size.y, size.z),
            Mass(mass),
            Transform::from_xyz(x, size.y / 2.0, z),
        ))
        .id()
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
        let start = |app: &App, e: Entity| app.world().get::<Transform>(e).unwrap().translation;
        let (light_from, heavy_from) = (start(&app, light), start(&app, heavy));
        walk(&mut app, a, Vec3::NEG_Z);
        walk(&mut app, b, Vec3::NEG_Z);
        run(&mut app, fpt, 2.0, |_| {});
        let light_moved = (start(&app, light) - light_from).length();
        let heavy_moved = (start(&app, heavy) - heavy_from).length();
        println!("{fpt} frames a tick: 10 kg crate {light_moved:.2} m, 5 t container {heavy_moved:.4} m in 2 s");
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
fn a_plank_on_a_pivot_tips_under_a_character_on_its_end() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        floor(&mut app);
        let pivot = app
            .world_mut()
            .spawn((RigidBody::Static, Transform::from_xyz(0.0, 1.0, 0.0)))
            .id();
        let plank = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                AvianCollider::cuboid(4.0, 0.1, 1.0),
                Mass(20.0),
                Transform::from_xyz(0.0, 1.0, 0.0),
            ))
            .id();
        app.world_mut()
            .spawn(RevoluteJoint::new(pivot, plank).with_hinge_axis(Vec3::Z));
        // On the right (+x) end.
        character(&mut app, Vec3::new(1.5, 1.05, 0.0));
        let mut tipped: f32 = 0.0;
        run(&mut app, fpt, 2.0, |app| {
            let rotation = app.world().get::<Rotation>(plank).unwrap().0;
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
fn a_platform_avian_drives_carries_the_character_without_a_tick_in_the_air() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        floor(&mut app);
        let anchor = app
            .world_mut()
            .spawn((RigidBody::Static, Transform::from_xyz(0.0, 1.0, 0.0)))
            .id();
        let platform = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                AvianCollider::cuboid(3.0, 0.2, 3.0),
                Mass(200.0),
                Transform::from_xyz(0.0, 1.0, 0.0),
            ))
            .id();
        // Velocity control only (no spring back to where it began).
        let motor = LinearMotor::new(MotorModel::ForceBased {
            stiffness: 0.0,
            damping: 2000.0,
        })
        .with_target_velocity(2.0)
        .with_max_force(1e5);
        app.world_mut().spawn(
            PrismaticJoint::new(anchor, platform)
                .with_slider_axis(Vec3::X)
                .with_motor(motor),
        );
        let ch = character(&mut app, Vec3::new(0.0, 1.1, 0.0));
        // Standing on it first.
        run(&mut app, fpt, 0.3, |_| {});
        let mut airborne = 0;
        let mut dip: f32 = 0.0;
        let mut moved = 0.0;
        let from = app.world().get::<Transform>(platform).unwrap().translation.x;
        run(&mut app, fpt, 2.0, |app| {
            let s = state(app, ch);
            if s.ground.is_none() {
                airborne += 1;
            }
            let motion = app.world().get::<ColliderMotion>(platform).unwrap().pose().unwrap();
            // Feet against the platform's top as the tick placed it.
            dip = dip.max((motion.translation.y + 0.1 - s.feet().y).abs());
            moved = app.world().get::<Transform>(platform).unwrap().translation.x - from;
        });
        println!("{fpt} frames a tick: platform moved {moved:.2} m, {airborne} frames in the air, dip {dip:.4} m");
        assert!(moved > 2.0, "{fpt} frames a tick: the platform moved {moved} m");
        assert_eq!(airborne, 0, "{fpt} frames a tick: {airborne} frames in the air");
        assert!(
            dip < 0.01,
            "{fpt} frames a tick: the feet left the top by up to {dip} m"
        );
        assert_no_overlap(&app, &format!("platform at {fpt} frames a tick"));
    }
}

#[test]
fn a_push_that_the_bodys_mass_does_not_slow_keeps_the_characters_speed() {
    // A 400 kg crate pushed with a strength that never caps (1e5 N): with
    // the mass slowing (the default) each push shares the speed as two
    // bodies meeting and the crate's friction holds it back; without, each
    // push brings it up to the character's speed. (At the default 500 N
    // the cap decides and both push alike.)
    let mut moved = Vec::new();
    for slows in [true, false] {
        let mut app = app(1.0);
        floor(&mut app);
        let heavy = crate_body(&mut app, Vec3::splat(1.0), 400.0, 0.0, -2.0);
        let ch = character(&mut app, Vec3::ZERO);
        app.world_mut().get_mut::<CharacterController>(ch).unwrap().config = bevy_slidewalk::ControllerConfig {
            pushed_mass_slows: slows,
            max_push_force: 1e5,
            ..default()
        };
        run(&mut app, 1.0, 0.5, |_| {});
        let from = app.world().get::<Transform>(heavy).unwrap().translation;
        walk(&mut app, ch, Vec3::NEG_Z);
        run(&mut app, 1.0, 2.0, |_| {});
        let to = app.world().get::<Transform>(heavy).unwrap().translation;
        println!(
            "pushed_mass_slows = {slows}: the 400 kg crate moved {:.2} m in 2 s",
            (to - from).length()
        );
        moved.push((to - from).length());
        assert_no_overlap(&app, &format!("pushed_mass_slows = {slows}"));
    }
    assert!(
        moved[1] > moved[0] + 0.3,
        "not slowed by the mass: {} m, slowed: {} m",
        moved[1],
        moved[0]
    );
}
