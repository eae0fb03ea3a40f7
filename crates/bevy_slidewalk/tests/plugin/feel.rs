//! How it feels to move, through the plugin: a crouch-slide, a ledge
//! caught and let go of, a dive under water, each told by one message per
//! occurrence at every pacing of frames and ticks.

use super::*;

/// A character whose feet are at `feet`, with the slide, ledges and
/// swimming on.
fn feeler(app: &mut App, feet: Vec3) -> Entity {
    let c = CharacterController::new(ControllerConfig {
        slide_min_speed: 5.0,
        ledge_grab: true,
        swim_speed: 3.0,
        ..ControllerConfig::default()
    })
    .unwrap();
    app.world_mut().spawn((c.transform_at_feet(feet), c)).id()
}

#[test]
fn a_slide_a_ledge_and_a_dive_are_one_message_each() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        log::<SlideStarted>(&mut app);
        log::<SlideEnded>(&mut app);
        log::<LedgeGrabbed>(&mut app);
        log::<LedgeLetGo>(&mut app);
        log::<Submerged>(&mut app);

        // Sprinting, then crouch pressed and held: one slide, ended slow.
        let a = feeler(&mut app, Vec3::new(-15.0, 0.0, 18.0));
        {
            let mut i = intent(&mut app, a);
            i.direction = Vec3::NEG_Z;
            i.sprint = true;
        }
        run(&mut app, ticks(1.0));
        intent(&mut app, a).crouch = true;
        run(&mut app, ticks(3.0));
        let (started, ended) = (logged::<SlideStarted>(&app), logged::<SlideEnded>(&app));
        assert_eq!((started.len(), ended.len()), (1, 1), "{started:?} {ended:?}");
        assert!(started[0].character == a && started[0].speed > 8.0, "{started:?}");

        // A wall 3 m tall; falling by it, pushing into it: caught, then let go with crouch.
        solid_box(&mut app, Vec3::new(8.0, 3.0, 4.0), Vec3::new(10.0, 1.5, 0.0));
        let b = feeler(&mut app, Vec3::new(10.0, 2.1, 2.45));
        walk(&mut app, b, Vec3::NEG_Z);
        run(&mut app, ticks(1.0));
        let grabbed = logged::<LedgeGrabbed>(&app);
        assert_eq!(grabbed.len(), 1, "{grabbed:?}");
        assert!(
            (grabbed[0].top - 3.0).abs() < 0.01 && grabbed[0].normal.z > 0.99,
            "{grabbed:?}"
        );
        let hanging = get(&app, b).position;
        assert!((hanging.y + 0.9 - 2.9).abs() < 0.01, "hangs at {hanging}");
        walk(&mut app, b, Vec3::ZERO);
        run(&mut app, ticks(0.2));
        intent(&mut app, b).crouch = true;
        run(&mut app, ticks(1.5));
        assert_eq!(logged::<LedgeLetGo>(&app).len(), 1);
        assert_eq!(logged::<LedgeGrabbed>(&app).len(), 1);
        assert!(get(&app, b).grounded() && get(&app, b).feet().y.abs() < 0.01);

        // Spawned on the bottom of 3 m of water: under once, then floating.
        let pool = solid_box(&mut app, Vec3::new(6.0, 3.0, 6.0), Vec3::new(-10.0, 1.5, -10.0));
        app.world_mut().entity_mut(pool).insert(Water);
        let c = feeler(&mut app, Vec3::new(-10.0, 0.0, -10.0));
        run(&mut app, ticks(6.0));
        assert_eq!(logged::<Submerged>(&app).len(), 1);
        let eyes = get(&app, c).position.y + 0.8 * 0.9;
        println!(
            "{pacing:?}: slid at {:.2} m/s; hung at {hanging}; eyes {:.3} m above the water",
            started[0].speed,
            eyes - 3.0
        );
        assert!(eyes > 3.0 && eyes < 3.2, "eyes at {eyes}");
        for e in [a, b, c] {
            assert!(penetration(&app, e) < 1e-3);
        }
    });
}
