//! Jumping (grounded, coyote time, buffer, apex height at any tick rate,
//! ceilings), crouching and standing up, new radii from a live panel,
//! gravity changes mid-air.

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, forward, gravity_frames, slab};
use slidewalk_controller::{ControllerConfig, Intent, ReconfigureError};
use slidewalk_sweep::test_util::Soup;

fn jump() -> Intent {
    Intent {
        jump: true,
        ..Intent::default()
    }
}

fn flat() -> Soup {
    let mut course = Soup::default();
    slab(&mut course, 30.0, 0.0);
    course
}

#[test]
fn the_apex_matches_the_jump_height_at_every_tick_rate_and_gravity() {
    for (name, frame) in gravity_frames() {
        for hz in [30.0, 60.0, 144.0, 300.0] {
            for height in [0.5, 1.0, 1.5] {
                let config = ControllerConfig {
                    jump_height: height,
                    ..ControllerConfig::default()
                };
                let mut sim = Sim::new(config, &flat(), frame, Vec3::ZERO, hz);
                sim.run(0.2, Intent::default());
                let start = sim.position().y;
                let first = sim.tick(jump());
                assert!(first.report.jumped, "{name} {hz} Hz: no jump");
                let ticks = sim.run(2.0, Intent::default());
                let apex = ticks.iter().map(|t| t.position.y).fold(first.position.y, f32::max) - start;
                assert!(
                    (apex - height).abs() <= 0.02 * height,
                    "{name} {hz} Hz: apex {apex} for {height}"
                );
                assert!(ticks.last().unwrap().grounded, "{name}: did not land");
            }
        }
    }
}

#[test]
fn no_jump_in_the_air_after_the_coyote_time_but_within_it() {
    for hz in [60.0, 300.0] {
        // Walk off a 2 m block, press jump at given times after leaving it.
        let mut course = flat();
        course.cuboid(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 2.0, 2.0));
        for (delay, expect) in [(0.05, true), (0.3, false)] {
            let mut sim = Sim::new(
                ControllerConfig::default(),
                &course,
                Quat::IDENTITY,
                Vec3::new(0.0, 2.0, 1.0),
                hz,
            );
            sim.run(0.2, Intent::default());
            let off = Intent {
                direction: Vec3::Z,
                ..Intent::default()
            };
            let mut left_at = None;
            for _ in 0..(hz as usize) {
                let t = sim.tick(off);
                if !t.grounded && !t.report.jumped {
                    left_at = Some(t.time);
                    break;
                }
            }
            let left_at = left_at.expect("walked off");
            while sim.time < left_at + delay {
                sim.tick(off);
            }
            let t = sim.tick(Intent { jump: true, ..off });
            assert_eq!(
                t.report.jumped, expect,
                "{hz} Hz: jump {delay} s after leaving the ground"
            );
            // And never a second jump in the air.
            if expect {
                let again = sim.run(0.2, Intent { jump: true, ..off });
                assert!(again.iter().all(|t| !t.report.jumped), "double jump");
            }
        }
    }
}

#[test]
fn a_jump_pressed_shortly_before_landing_fires_on_landing() {
    for hz in [30.0, 60.0, 300.0] {
        let mut sim = Sim::new(
            ControllerConfig::default(),
            &flat(),
            Quat::IDENTITY,
            Vec3::new(0.0, 1.0, 0.0),
            hz,
        );
        // Falling 1 m: lands after ~0.45 s. Press jump at 0.35 s.
        let mut landed_and_jumped = false;
        let mut pressed = false;
        for _ in 0..(hz as usize) {
            let press = !pressed && sim.time >= 0.35;
            pressed |= press;
            let t = sim.tick(Intent {
                jump: press,
                ..Intent::default()
            });
            if t.report.jumped {
                landed_and_jumped = true;
                break;
            }
        }
        assert!(landed_and_jumped, "{hz} Hz: buffered jump lost");
        // Pressed long before landing (0.5 s), it is forgotten.
        let mut sim = Sim::new(
            ControllerConfig::default(),
            &flat(),
            Quat::IDENTITY,
            Vec3::new(0.0, 3.0, 0.0),
            hz,
        );
        sim.tick(jump());
        let ticks = sim.run(1.5, Intent::default());
        assert!(ticks.iter().all(|t| !t.report.jumped), "{hz} Hz: stale jump fired");
    }
}

#[test]
fn hitting_a_ceiling_clears_the_upward_speed() {
    let mut course = flat();
    course.cuboid(Vec3::new(-3.0, 2.3, -3.0), Vec3::new(3.0, 2.6, 3.0));
    let mut sim = Sim::new(ControllerConfig::default(), &course, Quat::IDENTITY, Vec3::ZERO, 60.0);
    sim.run(0.2, Intent::default());
    sim.tick(jump());
    let ticks = sim.run(0.3, Intent::default());
    let hit = ticks
        .iter()
        .position(|t| t.report.contacts.iter().any(|c| c.contact.normal.y < -0.9))
        .expect("hit the ceiling");
    assert!(
        ticks[hit].velocity.y <= 0.0,
        "still rising after the ceiling: {}",
        ticks[hit].velocity
    );
    assert!(sim.run(1.0, Intent::default()).last().unwrap().grounded);
}

#[test]
fn crouch_keeps_the_feet_and_standing_waits_for_room() {
    let config = ControllerConfig::default();
    let mut course = flat();
    // A 1.3 m ceiling over z in -6..-2.
    course.cuboid(Vec3::new(-3.0, 1.3, -6.0), Vec3::new(3.0, 1.6, -2.0));
    let mut sim = Sim::new(config, &course, Quat::IDENTITY, Vec3::ZERO, 60.0);
    sim.run(0.2, Intent::default());
    let feet = sim.feet();
    let crouch = Intent {
        crouch: true,
        ..Intent::default()
    };
    sim.tick(crouch);
    assert!(sim.state.crouched);
    assert!(
        (sim.feet() - feet).length() < 2e-3,
        "feet moved: {} → {}",
        feet,
        sim.feet()
    );
    assert!((sim.position().y - 0.55).abs() < 3e-3);
    // Standing, the ceiling blocks walking under it; crouched, it does not.
    let walk_crouched = Intent {
        direction: Vec3::NEG_Z,
        crouch: true,
        ..Intent::default()
    };
    sim.run(2.0, walk_crouched);
    assert!(
        sim.position().z < -3.0,
        "did not get under the ceiling: {}",
        sim.position()
    );
    // Release crouch under the ceiling: refused, still crouched.
    let t = sim.tick(Intent::default());
    assert!(t.report.stand_blocked && sim.state.crouched);
    let ticks = sim.run(0.5, Intent::default());
    assert!(ticks.iter().all(|t| t.report.stand_blocked));
    // Walk out (+z) without crouch: stands up by itself once clear.
    let out = Intent {
        direction: Vec3::Z,
        ..Intent::default()
    };
    let ticks = sim.run(2.0, out);
    assert!(!sim.state.crouched, "still crouched at {}", sim.position());
    let stood = ticks.iter().position(|t| !t.report.stand_blocked).unwrap();
    // It stood up only when the standing ellipsoid clears the ceiling's edge (z = -2).
    assert!(
        ticks[stood].position.z > -2.0 - 0.4,
        "stood up under the ceiling at {}",
        ticks[stood].position
    );
    assert!((sim.feet().y).abs() < 0.01);
}

#[test]
fn stairs_ramps_and_jumps_work_the_same_under_any_gravity() {
    // (The walking tests run every frame of `gravity_frames`; here the
    // crouch and a walk on the flat are checked under each, too.)
    for (name, frame) in gravity_frames() {
        let mut sim = Sim::new(ControllerConfig::default(), &flat(), frame, Vec3::ZERO, 60.0);
        sim.run(0.2, Intent::default());
        assert!(sim.state.grounded(), "{name}");
        sim.run(1.0, forward());
        assert!(
            (sim.position().z + 4.5).abs() < 0.3,
            "{name}: walked to {}",
            sim.position()
        );
        sim.tick(Intent {
            crouch: true,
            ..Intent::default()
        });
        assert!(sim.state.crouched && sim.feet().y.abs() < 0.01, "{name}: crouch");
    }
}

#[test]
fn after_gravity_flips_mid_air_the_player_falls_up_onto_the_ceiling() {
    let mut course = flat();
    // A ceiling slab whose underside is at y = 4.
    course.cuboid(Vec3::new(-10.0, 4.0, -10.0), Vec3::new(10.0, 5.0, 10.0));
    let mut sim = Sim::new(ControllerConfig::default(), &course, Quat::IDENTITY, Vec3::ZERO, 60.0);
    sim.run(0.2, Intent::default());
    sim.tick(jump());
    sim.run(0.2, Intent::default());
    let mut config = *sim.controller.config();
    config.gravity = Vec3::new(0.0, 9.81, 0.0);
    sim.controller.set_config(config).unwrap();
    let ticks = sim.run(2.0, Intent::default());
    assert!(ticks.last().unwrap().grounded, "did not land on the ceiling");
    assert!((sim.position().y - (4.0 - 0.9)).abs() < 0.01, "at {}", sim.position());
    assert_eq!(sim.state.up, Vec3::NEG_Y);
    // And walks on it.
    sim.run(0.5, forward());
    assert!(sim.state.grounded() && sim.position().z < -1.5);
    // Gravity back down: falls from the ceiling and lands on the floor.
    config.gravity = Vec3::new(0.0, -9.81, 0.0);
    sim.controller.set_config(config).unwrap();
    sim.run(2.0, Intent::default());
    assert!(sim.state.grounded() && sim.feet().y.abs() < 0.01);
}

#[test]
fn new_radii_are_pushed_out_from_a_wall_or_refused_in_a_narrow_corridor() {
    // A corridor 1.0 m wide along z (walls at x = ±0.5), open at z > 3.
    let mut course = flat();
    course.cuboid(Vec3::new(-1.5, 0.0, -10.0), Vec3::new(-0.5, 3.0, 3.0));
    course.cuboid(Vec3::new(0.5, 0.0, -10.0), Vec3::new(1.5, 3.0, 3.0));
    let config = ControllerConfig::default();
    // Standing against the left wall: x in -0.5..0.3.
    let mut sim = Sim::new(config, &course, Quat::IDENTITY, Vec3::new(-0.099, 0.0, 0.0), 60.0);
    sim.run(0.2, Intent::default());
    let feet = sim.feet();
    // 0.45 m across fits the corridor: pushed away from the wall, feet kept.
    let wider = ControllerConfig {
        standing_radii: Vec3::new(0.45, 0.9, 0.45),
        ..config
    };
    sim.reconfigure(wider).unwrap();
    assert_eq!(sim.state.radii, Vec3::new(0.45, 0.9, 0.45));
    assert!(
        sim.position().x > -0.5 + 0.45 - 1e-3,
        "not pushed out: {}",
        sim.position()
    );
    assert!(
        (sim.feet().y - feet.y).abs() < 2e-3,
        "feet moved: {feet} → {}",
        sim.feet()
    );
    assert_eq!(sim.controller.config().standing_radii, wider.standing_radii);
    // 0.6 m across cannot fit in 1.0 m: refused, nothing changed.
    let before = sim.state;
    let too_wide = ControllerConfig {
        standing_radii: Vec3::new(0.6, 0.9, 0.6),
        ..config
    };
    assert_eq!(sim.reconfigure(too_wide), Err(ReconfigureError::DoesNotFit));
    assert_eq!(sim.state, before);
    assert_eq!(sim.controller.config().standing_radii, wider.standing_radii);
    sim.run(0.5, Intent::default());
    assert_eq!(sim.state.radii, Vec3::new(0.45, 0.9, 0.45));
    // In the open the same radii are taken.
    sim.run(
        2.5,
        Intent {
            direction: Vec3::Z,
            ..Intent::default()
        },
    );
    assert!(sim.position().z > 4.0);
    sim.reconfigure(too_wide).unwrap();
    assert_eq!(sim.state.radii, Vec3::new(0.6, 0.9, 0.6));
    // Invalid values are refused with the field named.
    let bad = ControllerConfig {
        walk_speed: f32::NAN,
        ..config
    };
    let e = sim.reconfigure(bad).unwrap_err().to_string();
    assert!(e.contains("walk_speed"), "{e}");
}

/// A 1 m pit in a floor at y = 0 whose bottom is a V of two 63° slopes
/// (steeper than walkable) meeting 1 m down, closed by vertical ends: the
/// shape `level-check --soak` found walkers stuck in, in a level made with
/// Blender (`gym.glb` of lovr-firstperson).
fn v_pit() -> Soup {
    let mut s = Soup::default();
    let v = Vec3::new;
    // The floor around the hole x, z ∈ [-0.5, 0.5].
    s.quad(
        v(-10.0, 0.0, -10.0),
        v(-10.0, 0.0, 10.0),
        v(-0.5, 0.0, 10.0),
        v(-0.5, 0.0, -10.0),
    );
    s.quad(
        v(0.5, 0.0, -10.0),
        v(0.5, 0.0, 10.0),
        v(10.0, 0.0, 10.0),
        v(10.0, 0.0, -10.0),
    );
    s.quad(
        v(-0.5, 0.0, -10.0),
        v(-0.5, 0.0, -0.5),
        v(0.5, 0.0, -0.5),
        v(0.5, 0.0, -10.0),
    );
    s.quad(
        v(-0.5, 0.0, 0.5),
        v(-0.5, 0.0, 10.0),
        v(0.5, 0.0, 10.0),
        v(0.5, 0.0, 0.5),
    );
    // The V: two slopes down to the crease along x at y = -1.
    s.quad(
        v(-0.5, 0.0, -0.5),
        v(-0.5, -1.0, 0.0),
        v(0.5, -1.0, 0.0),
        v(0.5, 0.0, -0.5),
    );
    s.quad(
        v(-0.5, -1.0, 0.0),
        v(-0.5, 0.0, 0.5),
        v(0.5, 0.0, 0.5),
        v(0.5, -1.0, 0.0),
    );
    // The vertical ends.
    s.tri(v(-0.5, 0.0, -0.5), v(-0.5, 0.0, 0.5), v(-0.5, -1.0, 0.0));
    s.tri(v(0.5, 0.0, -0.5), v(0.5, 0.0, 0.5), v(0.5, -1.0, 0.0));
    s
}

#[test]
fn wedged_between_two_steep_slopes_stands_and_can_jump_out() {
    for (name, frame) in gravity_frames() {
        let mut sim = Sim::new(
            ControllerConfig::default(),
            &v_pit(),
            frame,
            Vec3::new(0.0, -0.2, 0.0),
            60.0,
        );
        // Drop in and settle in the V.
        let settled = sim.run(1.0, Intent::default());
        let last = settled.last().unwrap();
        assert!(last.position.y < 0.5, "{name}: not in the pit: {}", last.position);
        assert!(
            settled[30..].iter().all(|t| t.velocity.length() < 0.5),
            "{name}: still moving in the pit"
        );
        let standing = settled[30..].iter().filter(|t| t.grounded).count();
        assert!(
            standing == settled.len() - 30,
            "{name}: wedged in the V but standing only {standing} of {} ticks",
            settled.len() - 30
        );
        // Jump out sideways, over the floor's edge.
        let out = Intent {
            direction: Vec3::Z,
            jump: true,
            ..Intent::default()
        };
        sim.run(1.5, out);
        sim.run(0.5, forward());
        let feet = sim.feet();
        assert!(
            feet.y > -1e-3 && feet.z > 0.5,
            "{name}: still in the pit, feet at {feet}"
        );
    }
}
