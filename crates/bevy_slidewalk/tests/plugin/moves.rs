//! The moves' events: each written once per occurrence (a dash, an air
//! jump, a wall slide and a wall jump, a mantle, a climb, a launch pad, an
//! impulse), at every pacing of frames and ticks.

use super::*;

/// A character whose feet are at `feet`, with every move on.
fn mover(app: &mut App, feet: Vec3) -> Entity {
    let c = CharacterController::new(ControllerConfig {
        air_jumps: 1,
        dash_distance: 3.0,
        dash_time: 0.2,
        wall_slide_speed: 2.0,
        wall_jump_height: 1.0,
        wall_jump_push: 5.0,
        mantle_height: 1.5,
        climb_speed: 2.5,
        ..ControllerConfig::default()
    })
    .unwrap();
    app.world_mut().spawn((c.transform_at_feet(feet), c)).id()
}

fn intent(app: &mut App, e: Entity) -> Mut<'_, MovementIntent> {
    app.world_mut().get_mut::<MovementIntent>(e).unwrap()
}

#[test]
fn each_move_is_one_event() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        log::<Jumped>(&mut app);
        log::<Dashed>(&mut app);
        log::<WallSlideStarted>(&mut app);
        log::<WallJumped>(&mut app);
        log::<Mantled>(&mut app);
        log::<ClimbStarted>(&mut app);
        log::<ClimbEnded>(&mut app);
        log::<Launched>(&mut app);

        // A dash, facing −z.
        let a = mover(&mut app, Vec3::new(-15.0, 0.0, 15.0));
        run(&mut app, 5);
        let start = get(&app, a).position;
        {
            let mut i = intent(&mut app, a);
            i.facing = Vec3::NEG_Z;
            i.dash = true;
        }
        run(&mut app, ticks(1.0));
        let dashes = logged::<Dashed>(&app);
        assert_eq!(dashes.len(), 1, "{dashes:?}");
        assert!(dashes[0].direction.z < -0.99 && !dashes[0].in_air);
        let moved = start.z - get(&app, a).position.z;
        assert!((moved - 3.0).abs() < 0.2, "dashed {moved} m");

        // A jump and an air jump at its top.
        intent(&mut app, a).jump = true;
        run(&mut app, ticks(0.45));
        intent(&mut app, a).jump = true;
        run(&mut app, ticks(1.5));
        let jumps = logged::<Jumped>(&app);
        assert_eq!(jumps.iter().map(|j| j.in_air).collect::<Vec<_>>(), [false, true]);

        // A ledge 1 m tall walked into with jump pressed: mantled.
        solid_box(&mut app, Vec3::new(3.0, 1.0, 3.0), Vec3::new(-5.0, 0.5, 10.0));
        let b = mover(&mut app, Vec3::new(-5.0, 0.0, 13.0));
        walk(&mut app, b, Vec3::NEG_Z);
        run(&mut app, ticks(0.3));
        intent(&mut app, b).jump = true;
        run(&mut app, ticks(0.5));
        walk(&mut app, b, Vec3::ZERO);
        run(&mut app, ticks(0.5));
        let mantles = logged::<Mantled>(&app);
        assert_eq!(mantles.len(), 1, "{mantles:?}");
        assert!((mantles[0].height - 1.0).abs() < 0.02 && mantles[0].character == b);
        assert!((get(&app, b).feet().y - 1.0).abs() < 0.01);

        // A climbable wall 3 m tall: climbed, then stood on.
        let wall = solid_box(&mut app, Vec3::new(3.0, 3.0, 8.0), Vec3::new(5.0, 1.5, 7.0));
        app.world_mut().entity_mut(wall).insert(Climbable);
        let c = mover(&mut app, Vec3::new(5.0, 0.0, 12.5));
        walk(&mut app, c, Vec3::NEG_Z);
        run(&mut app, ticks(2.5));
        walk(&mut app, c, Vec3::ZERO);
        run(&mut app, ticks(0.5));
        assert_eq!(
            (logged::<ClimbStarted>(&app).len(), logged::<ClimbEnded>(&app).len()),
            (1, 1)
        );
        let feet = get(&app, c).feet();
        assert!(
            (feet.y - 3.0).abs() < 0.01 && get(&app, c).grounded(),
            "climber at {feet}"
        );

        // A launch pad: launched once, landing beside it.
        let pad = solid_box(&mut app, Vec3::new(2.0, 0.1, 2.0), Vec3::new(12.0, 0.05, -10.0));
        app.world_mut().entity_mut(pad).insert(LaunchPad {
            velocity: Vec3::new(0.0, 6.0, 4.0),
        });
        let d = mover(&mut app, Vec3::new(12.0, 0.5, -10.0));
        run(&mut app, ticks(2.0));
        let launches = logged::<Launched>(&app);
        assert_eq!(launches.len(), 1, "{launches:?}");
        assert!((launches[0].velocity - Vec3::new(0.0, 6.0, 4.0)).length() < 1e-3);
        // An impulse up: launched, off the ground.
        intent(&mut app, d).impulse = Vec3::new(0.0, 5.0, 0.0);
        run(&mut app, 2);
        assert_eq!(logged::<Launched>(&app).len(), 2);
        assert!(!get(&app, d).grounded());

        // Falling beside a wall, pushed into it: a slide, then a wall jump.
        solid_box(&mut app, Vec3::new(1.0, 20.0, 6.0), Vec3::new(-15.0, 10.0, -12.0));
        let e = mover(&mut app, Vec3::new(-14.0, 8.0, -12.0));
        walk(&mut app, e, Vec3::NEG_X);
        run(&mut app, ticks(0.8));
        let slides = logged::<WallSlideStarted>(&app);
        assert_eq!(slides.len(), 1, "{slides:?}");
        assert!(slides[0].normal.x > 0.99);
        intent(&mut app, e).jump = true;
        run(&mut app, ticks(0.3));
        let walls = logged::<WallJumped>(&app);
        assert_eq!(walls.len(), 1, "{walls:?}");
        for (name, e) in [
            ("dasher", a),
            ("mantler", b),
            ("climber", c),
            ("launched", d),
            ("wall", e),
        ] {
            assert!(penetration(&app, e) < 1e-3, "{name} inside geometry");
        }
    });
}

/// A teleport leaves the wall last jumped off and the height last pushed
/// off from behind (a mantle's reach counts from the new place), but keeps
/// the air jumps used.
#[test]
fn a_teleport_starts_the_moves_afresh_where_it_lands() {
    let mut state = MovementState::default();
    state.moves.push_off_height = 0.0;
    state.moves.wall_jumped_off = Some(Vec3::X);
    state.moves.air_jumps_used = 1;
    state.teleport(Vec3::new(0.0, 10.0, 0.0));
    assert_eq!(state.moves.push_off_height, state.feet().y);
    assert!(state.feet().y > 9.0);
    assert_eq!(state.moves.wall_jumped_off, None);
    assert_eq!(state.moves.air_jumps_used, 1);
}
