//! Movement events: each fires as documented (once per jump, landing,
//! wall touch; footsteps by distance), with the figures they carry; a
//! game's own message written once per tick ([`ShownEvents::write_once`]).

use super::*;
use bevy::ecs::message::Messages;
use bevy::ecs::system::RunSystemOnce;
use bevy_slidewalk::ShownEvents;

/// A landing faster than `hard_landing_speed` is a hard one, a slower
/// one is not.
#[test]
fn a_landing_faster_than_the_hard_landing_speed_is_hard() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        log::<Landed>(&mut app);
        let c = CharacterController::new(ControllerConfig {
            hard_landing_speed: 5.0,
            ..ControllerConfig::default()
        })
        .unwrap();
        // √(2 g 2.5 m) = 7.0 m/s, then a jump of 1 m: 4.4 m/s.
        let e = app
            .world_mut()
            .spawn((c.transform_at_feet(Vec3::new(0.0, 2.5, 0.0)), c))
            .id();
        run(&mut app, ticks(1.5));
        app.world_mut().get_mut::<MovementIntent>(e).unwrap().jump = true;
        run(&mut app, ticks(1.5));
        let landed: Vec<(f32, bool)> = logged::<Landed>(&app)
            .iter()
            .map(|l| (l.impact_speed, l.hard))
            .collect();
        println!("{pacing:?}: landings (m/s, hard) {landed:?}");
        assert_eq!(landed.len(), 2, "{landed:?}");
        assert!(landed[0].1 && !landed[1].1, "{landed:?}");
        assert!(report(&app, e).tick.ground.is_some());
    });
}

#[test]
fn events_fire_as_documented() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        let ground = floor(&mut app);
        app.world_mut().entity_mut(ground).insert(Surface::new("stone"));
        log::<Jumped>(&mut app);
        log::<Landed>(&mut app);
        log::<Footstep>(&mut app);
        log::<HitWall>(&mut app);
        // A fall of 2.5 m from rest.
        let faller = character(&mut app, Vec3::new(-10.0, 2.5, 0.0));
        run(&mut app, ticks(1.5));
        let landed = logged::<Landed>(&app);
        assert_eq!(landed.len(), 1, "{landed:?}");
        let expected = (2.0f32 * 9.81 * 2.5).sqrt();
        assert!(
            (landed[0].impact_speed / expected - 1.0).abs() < 0.02,
            "impact {} m/s, √(2gh) = {expected}",
            landed[0].impact_speed
        );
        assert_eq!(
            (landed[0].character, &*landed[0].surface.tag, landed[0].ground),
            (faller, "stone", Some(ground))
        );
        // No `hard_landing_speed`: never hard.
        assert!(!landed[0].hard);
        // Three jumps, one event each.
        for _ in 0..3 {
            app.world_mut().get_mut::<MovementIntent>(faller).unwrap().jump = true;
            run(&mut app, ticks(1.2));
        }
        let jumps = logged::<Jumped>(&app);
        assert_eq!(jumps.len(), 3, "{jumps:?}");
        assert!(
            jumps
                .iter()
                .all(|j| (j.speed - (2.0f32 * 9.81 * 1.0).sqrt()).abs() < 0.05)
        );
        assert_eq!(logged::<Landed>(&app).len(), 4);
        // Footsteps over 10 m at the default stride of 0.8 m.
        let walker = character(&mut app, Vec3::new(0.0, 0.0, 5.0));
        run(&mut app, 5);
        let before = logged::<Footstep>(&app).len();
        let start = get(&app, walker).feet();
        walk(&mut app, walker, Vec3::X);
        while (get(&app, walker).feet() - start).length() < 10.0 {
            frames(&mut app, 1);
        }
        let steps: Vec<Footstep> = logged::<Footstep>(&app)[before..].to_vec();
        assert!((11..=13).contains(&steps.len()), "{} footsteps over 10 m", steps.len());
        assert!(
            steps
                .iter()
                .all(|s| s.character == walker && &*s.surface.tag == "stone" && s.speed > 1.0)
        );
        // A wall met once, however long it is leaned on.
        solid_box(&mut app, Vec3::new(1.0, 3.0, 6.0), Vec3::new(14.0, 1.5, 5.0));
        run(&mut app, ticks(1.0));
        let walls = logged::<HitWall>(&app);
        assert_eq!(walls.len(), 1, "{walls:?}");
        assert!(walls[0].normal.x < -0.99 && walls[0].speed > 3.0, "{walls:?}");
    });
}

/// The first `HitWall` of a character dropped from rest, its centre at
/// height `drop_from`, onto a slope 70° steep (too steep to stand on), at
/// `hz` ticks a second.
fn first_hit_on_a_steep_slope(hz: f64, drop_from: f32) -> HitWall {
    let mut app = headless_app();
    app.insert_resource(Time::<Fixed>::from_hz(hz))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / hz)));
    let slab = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::new(20.0, 1.0, 10.0));
    // Its top face's normal is (−sin 70°, cos 70°, 0).
    app.world_mut().spawn((
        Mesh3d(slab),
        Transform::from_rotation(Quat::from_rotation_z(70f32.to_radians())),
        SlidewalkCollider::mesh(),
    ));
    app.world_mut().spawn((
        CharacterController::default(),
        Transform::from_xyz(-3.0, drop_from, 0.0),
    ));
    log::<HitWall>(&mut app);
    app.finish();
    app.cleanup();
    for _ in 0..(3.0 * hz) as usize {
        app.update();
        if let Some(hit) = logged::<HitWall>(&app).first() {
            return hit.clone();
        }
    }
    panic!("no wall hit at {hz} Hz from {drop_from} m");
}

/// `HitWall` says the speed into the wall at the moment of contact, not
/// at the start of the tick it happens in: at 10 and 20 Hz (a fall gains
/// 1 and 0.5 m/s in a tick) it is what a 1,000 Hz tick measures.
#[test]
fn hit_wall_speed_is_the_speed_at_the_moment_of_contact() {
    for drop_from in [-2.0, -1.73, -1.41, -1.17] {
        let reference = first_hit_on_a_steep_slope(1000.0, drop_from);
        assert!(reference.normal.x < -0.9 && reference.speed > 2.0, "{reference:?}");
        for hz in [10.0, 20.0] {
            let hit = first_hit_on_a_steep_slope(hz, drop_from);
            assert!(
                (hit.speed - reference.speed).abs() < 0.02 * reference.speed,
                "from {drop_from} m at {hz} Hz: {} m/s into the wall, {} m/s at 1,000 Hz",
                hit.speed,
                reference.speed
            );
        }
    }
}

/// A game's own message, for [`ShownEvents::write_once`].
#[derive(Message, Clone, Copy, Debug, PartialEq)]
struct Boom(f32);

/// Simulates tick `tick` (again, if it was before), which writes `booms`;
/// returns the ones shown. Two booms within 0.5 are alike.
fn simulate_booms(world: &mut World, tick: Option<i64>, booms: &[f32]) -> Vec<f32> {
    if let Some(tick) = tick {
        world.resource_mut::<ShownEvents>().set_tick(tick);
    }
    let booms = booms.to_vec();
    world
        .run_system_once(move |mut writer: MessageWriter<Boom>, mut shown: ResMut<ShownEvents>| {
            for &b in &booms {
                shown.write_once(&mut writer, Boom(b), |x, y| (x.0 - y.0).abs() < 0.5);
            }
        })
        .unwrap();
    world.resource_mut::<Messages<Boom>>().drain().map(|b| b.0).collect()
}

#[test]
fn a_game_s_own_message_is_shown_once_however_often_its_tick_is_simulated() {
    let mut world = World::new();
    world.init_resource::<ShownEvents>();
    world.init_resource::<Messages<Boom>>();
    // Without tick numbers (no rollback), everything is written.
    assert_eq!(simulate_booms(&mut world, None, &[1.0, 1.0]), [1.0, 1.0]);
    // The first time: two alike in one tick are both written.
    assert_eq!(simulate_booms(&mut world, Some(1), &[1.0, 1.1]), [1.0, 1.1]);
    assert_eq!(simulate_booms(&mut world, Some(2), &[5.0]), [5.0]);
    // Tick 1 again with other inputs: the two booms moved a little are the
    // ones shown; a new one is written (late, but once).
    assert_eq!(simulate_booms(&mut world, Some(1), &[1.05, 1.2, 3.0]), [3.0]);
    // And a third time, one boom fewer: nothing new.
    assert_eq!(simulate_booms(&mut world, Some(1), &[1.0, 3.1]), Vec::<f32>::new());
    // Three alike where two were shown: the third is new.
    assert_eq!(simulate_booms(&mut world, Some(1), &[1.0, 1.0, 1.0]), [1.0]);
    assert_eq!(simulate_booms(&mut world, Some(2), &[5.2]), Vec::<f32>::new());
    assert_eq!(simulate_booms(&mut world, Some(3), &[5.2]), [5.2]);
    // Numbered from the start again (a new session): shown anew.
    assert_eq!(simulate_booms(&mut world, Some(0), &[1.0]), [1.0]);
    // A new session whose first tick is numbered as a remembered one.
    assert_eq!(simulate_booms(&mut world, Some(1), &[7.0]), [7.0]);
    world.resource_mut::<ShownEvents>().between_sessions();
    assert_eq!(simulate_booms(&mut world, Some(1), &[7.0]), [7.0]);
}
