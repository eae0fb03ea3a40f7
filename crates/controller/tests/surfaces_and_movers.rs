//! Friction per surface, moving platforms (lift, turntable), a moving
//! ladder carrying its climber, and pushers (a door swinging into the
//! player, a squeeze against a wall).

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, slab};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::Pose;
use slidewalk_sweep::test_util::Soup;

fn flat() -> Soup {
    let mut course = Soup::default();
    slab(&mut course, 40.0, 0.0);
    course
}

fn towards(direction: Vec3) -> Intent {
    Intent {
        direction,
        ..Intent::default()
    }
}

/// Distance slid after releasing the input at top speed on a floor of `friction`.
fn stopping_distance(friction: f32, sprint: bool) -> f32 {
    let mut sim = Sim::new(
        ControllerConfig::default(),
        &flat(),
        Quat::IDENTITY,
        Vec3::new(0.0, 0.0, 20.0),
        60.0,
    );
    let mut floor = Soup::default();
    floor.cuboid(Vec3::new(-30.0, 0.0, -35.0), Vec3::new(30.0, 0.02, 35.0));
    sim.add_static(&floor, friction);
    sim.run(0.3, Intent::default());
    sim.run(
        2.5,
        Intent {
            sprint,
            ..towards(Vec3::NEG_Z)
        },
    );
    let released = sim.position();
    sim.run(8.0, Intent::default());
    (released - sim.position()).length()
}

#[test]
fn normal_ground_stops_within_the_documented_distance_and_ice_carries_on() {
    // Documented: walking speed to rest in 0.25 m, sprint in 0.70 m (v² / 2·braking).
    let walk = stopping_distance(1.0, false);
    let sprint = stopping_distance(1.0, true);
    assert!((walk - 0.253).abs() < 0.08, "walk stops in {walk} m");
    assert!((sprint - 0.703).abs() < 0.13, "sprint stops in {sprint} m");
    let ice = stopping_distance(0.05, false);
    assert!(ice > 4.0, "ice: stopped in {ice} m");
}

#[test]
fn turning_on_ice_is_slow() {
    let mut sim = Sim::new(
        ControllerConfig::default(),
        &flat(),
        Quat::IDENTITY,
        Vec3::new(0.0, 0.0, 20.0),
        60.0,
    );
    let mut ice = Soup::default();
    ice.cuboid(Vec3::new(-30.0, 0.0, -35.0), Vec3::new(30.0, 0.02, 35.0));
    sim.add_static(&ice, 0.05);
    sim.run(0.3, Intent::default());
    sim.run(4.0, towards(Vec3::NEG_Z));
    assert!(
        sim.state.velocity.length() > 4.0,
        "not up to speed on ice: {}",
        sim.state.velocity
    );
    // Half a second of steering to +x barely changes the velocity (2 m/s² on ice).
    let ticks = sim.run(0.5, towards(Vec3::X));
    let v = ticks.last().unwrap().velocity;
    assert!(v.z < -3.0 && v.x < 1.1, "turned too fast on ice: {v}");
    // The same on normal ground turns at once.
    let mut sim = Sim::new(ControllerConfig::default(), &flat(), Quat::IDENTITY, Vec3::ZERO, 60.0);
    sim.run(0.3, Intent::default());
    sim.run(1.0, towards(Vec3::NEG_Z));
    let v = sim.run(0.5, towards(Vec3::X)).last().unwrap().velocity;
    assert!((v - Vec3::new(4.5, 0.0, 0.0)).length() < 0.01, "{v}");
}

fn deck() -> Soup {
    let mut deck = Soup::default();
    deck.cuboid(Vec3::new(-1.2, -0.2, -1.2), Vec3::new(1.2, 0.0, 1.2));
    deck
}

/// Height of a lift that waits `pause` s, rises 4 m at 1.5 m/s, waits, returns.
fn lift_height(t: f64, pause: f64) -> f32 {
    let go = 4.0 / 1.5;
    let cycle = 2.0 * (pause + go);
    let s = t.rem_euclid(cycle);
    let h = if s < pause {
        0.0
    } else if s < pause + go {
        (s - pause) / go
    } else if s < 2.0 * pause + go {
        1.0
    } else {
        1.0 - (s - 2.0 * pause - go) / go
    };
    4.0 * h as f32
}

#[test]
fn the_lift_carries_the_player_up_and_down_without_dips_or_lift_off() {
    for hz in [30.0, 60.0, 144.0, 300.0] {
        for pause in [1.0, 0.0] {
            let mut sim = Sim::new(
                ControllerConfig::default(),
                &flat(),
                Quat::IDENTITY,
                Vec3::new(0.0, 0.5, 0.0),
                hz,
            );
            sim.add_mover(&deck(), 1.0, move |t| {
                Pose::from_translation(Vec3::new(0.0, 0.5 + lift_height(t, pause), 0.0))
            });
            sim.run(0.1, Intent::default());
            let ticks = sim.run(14.0, Intent::default());
            let mut top: f32 = 0.0;
            for t in &ticks {
                // Grounded on the lift every tick (also when it reverses at
                // full speed with no pause), feet on its deck.
                assert!(t.grounded, "{hz} Hz, pause {pause}: lost the lift at t = {}", t.time);
                let deck_top = 0.5 + lift_height(t.time, pause);
                let feet = t.position.y - 0.9;
                assert!(
                    (feet - deck_top).abs() < 0.01,
                    "{hz} Hz: feet {feet}, deck {deck_top} at {}",
                    t.time
                );
                top = top.max(feet);
            }
            assert!(top > 4.49, "{hz} Hz: never reached the top");
        }
    }
}

#[test]
fn walking_across_a_moving_lift_works() {
    let mut sim = Sim::new(
        ControllerConfig::default(),
        &flat(),
        Quat::IDENTITY,
        Vec3::new(0.0, 0.5, 1.0),
        60.0,
    );
    sim.add_mover(&deck(), 1.0, |t| {
        Pose::from_translation(Vec3::new(0.0, 0.5 + lift_height(t + 1.5, 1.0), 0.0))
    });
    sim.run(0.1, Intent::default());
    // Walk −z across the rising deck for 0.4 s: 1.8 m across a 2.4 m deck.
    let ticks = sim.run(0.4, towards(Vec3::NEG_Z));
    assert!(ticks.iter().all(|t| t.grounded));
    assert!((sim.position().z - (1.0 - 1.8)).abs() < 0.15, "{}", sim.position());
    assert!(sim.feet().y > 0.6, "was not carried up: {}", sim.feet());
}

#[test]
fn a_turntable_carries_position_and_heading() {
    for hz in [30.0, 60.0, 300.0] {
        let mut disc = Soup::default();
        disc.cuboid(Vec3::new(-4.0, -0.2, -4.0), Vec3::new(4.0, 0.0, 4.0));
        let rate = 0.5f32;
        let mut sim = Sim::new(
            ControllerConfig::default(),
            &flat(),
            Quat::IDENTITY,
            Vec3::new(2.0, 0.5, 0.0),
            hz,
        );
        sim.add_mover(&disc, 1.0, move |t| Pose {
            rotation: Quat::from_rotation_y(rate * t as f32),
            translation: Vec3::new(0.0, 0.5, 0.0),
        });
        sim.run(0.1, Intent::default());
        let start = sim.position();
        let ticks = sim.run(2.0, Intent::default());
        let heading: f32 = ticks.iter().map(|t| t.report.heading_delta).sum();
        assert!((heading - 1.0).abs() < 0.01, "{hz} Hz: heading turned {heading} rad");
        let expected = Quat::from_rotation_y(1.0) * start;
        assert!(
            (sim.position() - expected).length() < 0.02,
            "{hz} Hz: at {}, expected {expected}",
            sim.position()
        );
        assert!(ticks.iter().all(|t| t.grounded));
    }
}

#[test]
fn a_climber_is_carried_by_the_moving_climbable_it_holds() {
    let config = ControllerConfig {
        climb_speed: 2.5,
        ..ControllerConfig::default()
    };
    // A 10 m wide, 4 m tall climbable block whose face is at z = −1; from
    // t = 1.5 s it moves at 0.5 m/s along x and 0.3 m/s up.
    let mut block = Soup::default();
    block.cuboid(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 4.0, -1.0));
    let moved = |t: f64| (t - 1.5).max(0.0) as f32 * Vec3::new(0.5, 0.3, 0.0);
    for hz in [30.0, 60.0, 144.0, 300.0] {
        let mut sim = Sim::new(config, &flat(), Quat::IDENTITY, Vec3::ZERO, hz);
        sim.add_climbable_mover(&block, move |t| Pose::from_translation(moved(t)));
        sim.run(0.2, Intent::default());
        sim.run(1.0, towards(Vec3::NEG_Z));
        assert!(sim.state.moves.climb().is_some(), "{hz} Hz: not climbing");
        // Held still on the face while it moves for 2 s.
        let start = sim.position();
        let ticks = sim.run(2.3, Intent::default());
        assert!(ticks.iter().all(|t| !t.report.climb_ended), "{hz} Hz: fell off");
        let carried = sim.position() - start;
        let expected = moved(sim.time) - moved(1.2);
        assert!(
            (carried - expected).length() < 0.02,
            "{hz} Hz: carried {carried}, the face moved {expected}"
        );
    }
}

/// A 1.2 m door panel hinged at the origin, closed along +x, swinging by `angle(t)` about y.
fn door() -> Soup {
    let mut panel = Soup::default();
    panel.cuboid(Vec3::new(0.0, 0.0, -0.05), Vec3::new(1.2, 2.2, 0.05));
    panel
}

#[test]
fn a_door_swinging_into_the_player_pushes_it_out() {
    for hz in [60.0, 144.0] {
        // Player at 0.8 m along the open door's path; the door swings 90° in 1 s.
        let mut sim = Sim::new(
            ControllerConfig::default(),
            &flat(),
            Quat::IDENTITY,
            Vec3::new(0.3, 0.0, -0.8),
            hz,
        );
        sim.add_mover(&door(), 1.0, |t| Pose {
            rotation: Quat::from_rotation_y((t as f32).clamp(0.0, 1.0) * std::f32::consts::FRAC_PI_2),
            translation: Vec3::new(0.0, 0.01, 0.0),
        });
        let ticks = sim.run(1.5, Intent::default());
        // The harness checked every tick for penetration; the door did push.
        let pushed: f32 = ticks.iter().map(|t| t.report.pushed.length()).sum();
        assert!(pushed > 0.1, "{hz} Hz: pushed only {pushed} m");
        assert!(ticks.iter().all(|t| !t.report.crushed));
        assert!(ticks.iter().all(|t| t.clearance >= 1.0 - 1e-4));
    }
}

#[test]
fn squeezed_between_a_door_and_a_wall_is_crushed() {
    let mut course = flat();
    // A wall at x = -0.05..0.05 along z, the door closes onto it from +x.
    course.cuboid(Vec3::new(-0.2, 0.0, -3.0), Vec3::new(-0.1, 3.0, 0.0));
    let mut sim = Sim::new(
        ControllerConfig::default(),
        &course,
        Quat::IDENTITY,
        Vec3::new(0.35, 0.0, -0.7),
        60.0,
    );
    sim.check = true;
    // The door starts open along +x and closes (rotates +90° about y) to lie along −z against the wall.
    sim.add_mover(&door(), 1.0, |t| Pose {
        rotation: Quat::from_rotation_y((t as f32 * 1.5).clamp(0.0, 1.0) * std::f32::consts::FRAC_PI_2),
        translation: Vec3::new(0.0, 0.01, 0.0),
    });
    let ticks = sim.run(1.5, Intent::default());
    assert!(ticks.iter().any(|t| t.report.crushed), "never reported crushed");
}

#[test]
fn a_lift_coming_down_on_a_walker_under_it_never_presses_it_through_the_floor() {
    // The demo level's lift: a 2.4 × 0.2 × 2.4 m deck resting on the floor,
    // 4 m of travel at 1.5 m/s, 2 s waits. A walker stands (or walks about)
    // under the raised deck as it comes down: it is crushed, and the floor
    // must win — the walker may be left overlapping the deck, never the
    // floor, and its centre never crosses the floor. (Found by
    // `level-check --soak 3600` on `playground.glb`: walkers pressed through.)
    let mut deck = Soup::default();
    deck.cuboid(Vec3::new(-1.2, 0.0, -1.2), Vec3::new(1.2, 0.2, 1.2));
    // Standing under the middle, under the edge, crouching under a corner.
    let crouch = Intent {
        crouch: true,
        ..Intent::default()
    };
    for (feet, intent) in [
        (Vec3::ZERO, Intent::default()),
        (Vec3::new(1.0, 0.0, 0.0), Intent::default()),
        (Vec3::new(0.8, 0.0, -0.8), crouch),
    ] {
        let mut sim = Sim::new(ControllerConfig::default(), &flat(), Quat::IDENTITY, feet, 60.0);
        sim.check = false;
        // Up at t = 0, down from t = 2 s to 4.67 s, waits, up again.
        sim.add_mover(&deck, 1.0, |t| {
            let s = t.rem_euclid(12.0) as f32;
            let y = if s < 2.0 {
                4.0
            } else if s < 2.0 + 4.0 / 1.5 {
                4.0 - (s - 2.0) * 1.5
            } else if s < 6.0 + 4.0 / 1.5 - 2.0 {
                0.0
            } else {
                ((s - (6.0 + 4.0 / 1.5 - 2.0)) * 1.5).min(4.0)
            };
            Pose::from_translation(Vec3::new(0.0, y, 0.0))
        });
        let mut crushed = 0;
        let mut deepest = 0.0f32;
        for _ in 0..24 * 60 {
            let t = sim.tick(intent);
            crushed += t.report.crushed as u32;
            let floor = [slidewalk_sweep::PlacedCollider::fixed(&sim.statics[0].0)];
            let e = slidewalk_sweep::Ellipsoid::new(sim.state.radii).unwrap();
            deepest = deepest.max(slidewalk_sweep::penetration_depth(&e, sim.state.position, &floor));
            assert!(
                t.position.y > 0.0,
                "centre through the floor at t = {}: {}",
                t.time,
                t.position
            );
        }
        assert!(crushed > 0, "never crushed: the test lost its point");
        assert!(
            deepest <= 1e-4,
            "pressed {deepest} of the radius into the floor (feet at {feet})"
        );
    }
}
