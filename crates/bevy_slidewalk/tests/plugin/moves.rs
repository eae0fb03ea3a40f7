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

/// How a character is put where it stands.
#[derive(Clone, Copy, Debug)]
enum Placing {
    /// Spawned there.
    Spawned,
    /// Teleported there in mid-air by its `Transform`.
    ByTransform,
    /// Put there in mid-air by [`MovementState::teleport_feet`].
    TeleportFeet,
}

/// A character of [`mover`]'s config placed `how` with its feet at
/// `feet`, not yet ticked there (the teleported ones were jumping when
/// moved).
fn placed(app: &mut App, how: Placing, feet: Vec3) -> Entity {
    if let Placing::Spawned = how {
        return mover(app, feet);
    }
    let e = mover(app, feet + Vec3::new(0.0, 0.0, 20.0));
    run(app, ticks(0.3));
    intent(app, e).jump = true;
    run(app, ticks(0.3));
    assert!(!get(app, e).grounded(), "{how:?}: not in the air when teleported");
    let config = config(app, e);
    match how {
        Placing::ByTransform => {
            let centre = CharacterController::new(config).unwrap().transform_at_feet(feet);
            app.world_mut().get_mut::<Transform>(e).unwrap().translation = centre.translation;
        }
        _ => app
            .world_mut()
            .get_mut::<MovementState>(e)
            .unwrap()
            .teleport_feet(feet, &config),
    }
    e
}

/// A character placed standing on the floor (spawned, or teleported from
/// mid-air by its transform or by `teleport_feet`) stands from its first
/// tick: a jump asked for before that tick is from the ground (an air jump
/// 0.3 s later takes the feet to 1.89 m, not 1.00), a dash asked for then
/// goes its 3 m (not 0).
#[test]
fn a_placed_character_jumps_and_dashes_from_the_ground_on_its_first_tick() {
    at_every_pacing(|pacing| {
        for (k, how) in [Placing::Spawned, Placing::ByTransform, Placing::TeleportFeet]
            .into_iter()
            .enumerate()
        {
            let mut app = app_at(pacing);
            floor(&mut app);
            log::<Jumped>(&mut app);
            log::<Dashed>(&mut app);
            run(&mut app, 2);

            let jumper = placed(&mut app, how, Vec3::new(-10.0 + 5.0 * k as f32, 0.0, 0.0));
            let jumps_before = logged::<Jumped>(&app).len();
            {
                let mut i = intent(&mut app, jumper);
                i.jump = true;
                i.jump_held = true;
            }
            let mut top = f32::MIN;
            run_frames(&mut app, ticks(0.3), |app| top = top.max(get(app, jumper).feet().y));
            intent(&mut app, jumper).jump = true;
            run_frames(&mut app, ticks(1.5), |app| top = top.max(get(app, jumper).feet().y));
            let jumps: Vec<bool> = logged::<Jumped>(&app)[jumps_before..]
                .iter()
                .filter(|j| j.character == jumper)
                .map(|j| j.in_air)
                .collect();
            assert_eq!(jumps, [false, true], "{how:?}");
            assert!((top - 1.888).abs() < 0.05, "{how:?}: apex {top} m");

            let feet = Vec3::new(10.0 + 5.0 * k as f32, 0.0, 0.0);
            let dasher = placed(&mut app, how, feet);
            {
                let mut i = intent(&mut app, dasher);
                i.facing = Vec3::NEG_Z;
                i.dash = true;
            }
            run(&mut app, ticks(1.0));
            let dashes: Vec<bool> = logged::<Dashed>(&app)
                .iter()
                .filter(|d| d.character == dasher)
                .map(|d| d.in_air)
                .collect();
            assert_eq!(dashes, [false], "{how:?}");
            // (Moved by its transform, its state is there from the next tick.)
            let moved = feet.z - get(&app, dasher).feet().z;
            assert!((moved - 3.0).abs() < 0.2, "{how:?}: dashed {moved} m");
        }
    });
}

/// A climbable block (face at z = −2) that stands still until 1.5 s, then
/// moves at 0.5 m/s along x and 0.3 m/s up.
fn moving_ladder(t: f32) -> (Vec3, Quat) {
    let moved = (t - 1.5).max(0.0) * Vec3::new(0.5, 0.3, 0.0);
    (Vec3::new(0.0, 2.0, -3.0) + moved, Quat::IDENTITY)
}

/// A climber on a moving climbable is carried by it; teleported off it
/// mid-climb (by its transform, or by `teleport_feet`), its climb ends
/// with exactly one `ClimbEnded`.
#[test]
fn a_moving_ladder_carries_its_climber_and_a_teleport_ends_the_climb_once() {
    at_every_pacing(|pacing| {
        for by_transform in [true, false] {
            let mut app = app_at(pacing);
            app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
            floor(&mut app);
            let block = solid_box(&mut app, Vec3::new(8.0, 4.0, 2.0), Vec3::new(0.0, 2.0, -3.0));
            app.world_mut()
                .entity_mut(block)
                .insert((Climbable, Moving(moving_ladder)));
            log::<ClimbStarted>(&mut app);
            log::<ClimbEnded>(&mut app);
            let c = mover(&mut app, Vec3::ZERO);
            run(&mut app, ticks(0.2));
            walk(&mut app, c, Vec3::NEG_Z);
            run(&mut app, ticks(0.8));
            walk(&mut app, c, Vec3::ZERO);
            assert!(get(&app, c).moves.climb().is_some(), "not climbing");
            // Held still on the face while it moves for 2 s.
            let start = get(&app, c).position;
            let ladder = |app: &App| app.world().get::<Transform>(block).unwrap().translation;
            let ladder_start = ladder(&app);
            run(&mut app, ticks(2.0));
            let carried = get(&app, c).position - start;
            let moved = ladder(&app) - ladder_start;
            assert!(moved.length() > 0.5, "the ladder moved {moved}");
            assert!(
                (carried - moved).length() < 0.02,
                "carried {carried}, the ladder moved {moved}"
            );
            assert_eq!(
                (logged::<ClimbStarted>(&app).len(), logged::<ClimbEnded>(&app).len()),
                (1, 0)
            );

            // Teleported off the face mid-climb: the climb ends, once.
            let feet = Vec3::new(10.0, 0.0, 10.0);
            if by_transform {
                let centre = CharacterController::new(config(&app, c))
                    .unwrap()
                    .transform_at_feet(feet);
                app.world_mut().get_mut::<Transform>(c).unwrap().translation = centre.translation;
            } else {
                let config = config(&app, c);
                app.world_mut()
                    .get_mut::<MovementState>(c)
                    .unwrap()
                    .teleport_feet(feet, &config);
            }
            run(&mut app, ticks(0.5));
            assert_eq!(
                (logged::<ClimbStarted>(&app).len(), logged::<ClimbEnded>(&app).len()),
                (1, 1),
                "by transform: {by_transform}"
            );
            assert!(get(&app, c).moves.climb().is_none() && get(&app, c).grounded());
            assert!(penetration(&app, c) < 1e-3);
        }
    });
}
