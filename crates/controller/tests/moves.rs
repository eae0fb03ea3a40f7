//! The moves beyond walking, each through collide-and-slide at several
//! tick rates: variable jump height, air jumps, dash, wall slide and wall
//! jump, mantling, climbing, launch pads and knockback. The harness checks
//! every tick for penetration.

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, slab};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::test_util::Soup;

const RATES: [f32; 4] = [30.0, 60.0, 144.0, 300.0];

fn floor() -> Soup {
    let mut s = Soup::default();
    slab(&mut s, 40.0, 0.0);
    s
}

fn sim(config: ControllerConfig, course: &Soup, hz: f32) -> Sim {
    let mut sim = Sim::new(config, course, Quat::IDENTITY, Vec3::ZERO, hz);
    sim.run(0.2, Intent::default());
    assert!(sim.state.grounded());
    sim
}

fn cuboid(min: [f32; 3], max: [f32; 3]) -> Soup {
    let mut s = Soup::default();
    s.cuboid(Vec3::from(min), Vec3::from(max));
    s
}

fn press_jump() -> Intent {
    Intent {
        jump: true,
        jump_held: true,
        ..Intent::default()
    }
}

fn toward(direction: Vec3) -> Intent {
    Intent {
        direction,
        ..Intent::default()
    }
}

/// Highest feet over `seconds` of ticks with `intent` after the first.
fn apex(sim: &mut Sim, first: Intent, then: Intent, seconds: f32) -> f32 {
    let mut top = sim.feet().y;
    sim.tick(first);
    top = top.max(sim.feet().y);
    for t in sim.run(seconds, then) {
        top = top.max(t.position.y - sim.state.radii.y);
    }
    top
}

#[test]
fn a_tap_reaches_min_jump_height_and_a_held_jump_jump_height() {
    let config = ControllerConfig {
        jump_height: 1.2,
        min_jump_height: 0.4,
        ..ControllerConfig::default()
    };
    for hz in RATES {
        let mut tap = sim(config, &floor(), hz);
        let start = tap.feet().y;
        let top = apex(&mut tap, press_jump(), Intent::default(), 1.5) - start;
        assert!((top - 0.4).abs() < 0.02, "{hz} Hz: a tap rose {top} m");
        let mut held = sim(config, &floor(), hz);
        let hold = Intent {
            jump_held: true,
            ..Intent::default()
        };
        let top = apex(&mut held, press_jump(), hold, 1.5) - start;
        assert!((top - 1.2).abs() < 0.02, "{hz} Hz: a held jump rose {top} m");
        // Let go halfway up: between the two.
        let mut half = sim(config, &floor(), hz);
        half.tick(press_jump());
        half.run(0.15, hold);
        let top = apex(&mut half, Intent::default(), Intent::default(), 1.5) - start;
        assert!(top > 0.4 && top < 1.2, "{hz} Hz: let go halfway, rose {top} m");
    }
    // Off by default: a tap jumps the full height.
    let mut tap = sim(ControllerConfig::default(), &floor(), 60.0);
    let top = apex(&mut tap, press_jump(), Intent::default(), 1.5);
    assert!((top - 1.0).abs() < 0.02, "{top}");
}

#[test]
fn air_jumps_rise_jump_height_each_and_come_back_on_landing() {
    let config = ControllerConfig {
        air_jumps: 2,
        ..ControllerConfig::default()
    };
    for hz in RATES {
        let mut sim = sim(config, &floor(), hz);
        let mut heights = Vec::new();
        for round in 0..2 {
            sim.tick(press_jump());
            for k in 0..3 {
                // At the apex (rising stops), jump again.
                while sim.state.velocity.y > 0.0 {
                    sim.tick(Intent::default());
                }
                let from = sim.feet().y;
                let report = sim.tick(press_jump()).report;
                if k < 2 {
                    assert!(report.jumped && report.air_jump, "{hz} Hz round {round}: air jump {k}");
                    let top = apex(&mut sim, Intent::default(), Intent::default(), 0.0);
                    let mut top = top;
                    while sim.state.velocity.y > 0.0 {
                        sim.tick(Intent::default());
                        top = top.max(sim.feet().y);
                    }
                    heights.push(top - from);
                } else {
                    assert!(!report.jumped, "{hz} Hz: a third air jump");
                }
            }
            // Land; the count comes back.
            sim.run(3.0, Intent::default());
            assert!(sim.state.grounded() && sim.state.moves.air_jumps_used == 0);
        }
        for h in heights {
            assert!((h - 1.0).abs() < 0.03, "{hz} Hz: an air jump rose {h} m");
        }
    }
}

#[test]
fn a_dash_covers_its_distance_slides_along_walls_and_never_passes_one() {
    let config = ControllerConfig {
        dash_distance: 4.0,
        dash_time: 0.2,
        ..ControllerConfig::default()
    };
    let dash = |direction: Vec3| Intent {
        direction,
        dash: true,
        ..Intent::default()
    };
    for hz in RATES {
        // Open ground, from rest, with no walking direction: along the facing.
        let mut s = sim(config, &floor(), hz);
        let start = s.position();
        let first = s.tick(Intent {
            dash: true,
            facing: Vec3::NEG_Z,
            ..Intent::default()
        });
        assert_eq!(first.report.dashed, Some(Vec3::NEG_Z));
        while s.state.moves.dash().is_some() {
            s.tick(Intent::default());
        }
        let moved = s.position() - start;
        assert!(
            (-moved.z - 4.0).abs() < 0.08 && moved.x.abs() < 1e-3,
            "{hz} Hz: dashed {moved}"
        );
        assert!(s.state.grounded());
        // Again at once: the cooldown refuses it; after it, a dash again.
        assert!(s.tick(dash(Vec3::NEG_Z)).report.dashed.is_none());
        s.run(0.6, Intent::default());
        assert!(s.tick(dash(Vec3::NEG_Z)).report.dashed.is_some());

        // A wall at 45° 1.5 m ahead: shorter along the dash, sliding along it.
        let mut course = floor();
        let p = |x: f32, z: f32, y: f32| Vec3::new(x, y, z);
        course.quad(
            p(-10.0, 8.5, 0.0),
            p(10.0, -11.5, 0.0),
            p(10.0, -11.5, 3.0),
            p(-10.0, 8.5, 3.0),
        );
        let mut s = sim(config, &course, hz);
        let start = s.position();
        s.tick(dash(Vec3::NEG_Z));
        while s.state.moves.dash().is_some() {
            s.tick(Intent::default());
        }
        let moved = s.position() - start;
        assert!(
            -moved.z < 3.5 && -moved.z > 1.0 && moved.x > 0.5,
            "{hz} Hz: along a 45° wall {moved}"
        );
    }
    // A 5 cm wall against the fastest dash the config accepts (1000 m/s).
    let fastest = ControllerConfig {
        dash_distance: 100.0,
        dash_time: 0.1,
        ..ControllerConfig::default()
    };
    for hz in RATES {
        let mut course = floor();
        course.cuboid(Vec3::new(-5.0, 0.0, -3.05), Vec3::new(5.0, 3.0, -3.0));
        let mut s = sim(fastest, &course, hz);
        s.tick(dash(Vec3::NEG_Z));
        s.run(0.3, dash(Vec3::NEG_Z));
        assert!(s.position().z > -3.0, "{hz} Hz: through the wall at {}", s.position());
        assert!(s.state.moves.dash().is_none(), "the dash ends against the wall");
    }
}

/// Two facing walls `gap` metres apart (inner faces at x = ±gap/2), or
/// one (at x = −gap/2), 30 m tall.
fn shaft(gap: f32, both: bool) -> Soup {
    let mut s = floor();
    s.cuboid(Vec3::new(-gap / 2.0 - 1.0, 0.0, -3.0), Vec3::new(-gap / 2.0, 30.0, 3.0));
    if both {
        s.cuboid(Vec3::new(gap / 2.0, 0.0, -3.0), Vec3::new(gap / 2.0 + 1.0, 30.0, 3.0));
    }
    s
}

fn wall_config() -> ControllerConfig {
    ControllerConfig {
        wall_slide_speed: 2.0,
        wall_jump_height: 1.0,
        wall_jump_push: 5.0,
        ..ControllerConfig::default()
    }
}

/// Jumps at the left wall, then off each wall touched, steering into the
/// next: the height reached after `seconds`.
fn wall_climb(course: &Soup, hz: f32, seconds: f32) -> (f32, u32) {
    let mut s = sim(wall_config(), course, hz);
    s.tick(Intent {
        direction: Vec3::NEG_X,
        ..press_jump()
    });
    let mut towards = Vec3::NEG_X;
    let mut jumps = 0;
    let mut top = 0.0f32;
    for _ in 0..(seconds * hz) as usize {
        let touching = s.state.moves.wall.is_some_and(|w| w.since == 0.0);
        let intent = if touching {
            Intent {
                direction: towards,
                ..press_jump()
            }
        } else {
            toward(towards)
        };
        let report = s.tick(intent).report;
        if report.wall_jumped.is_some() {
            jumps += 1;
            towards = -towards;
        }
        top = top.max(s.feet().y);
    }
    (top, jumps)
}

#[test]
fn a_shaft_is_climbed_by_wall_jumps_and_a_single_wall_is_not() {
    for hz in RATES {
        let (top, jumps) = wall_climb(&shaft(1.5, true), hz, 8.0);
        assert!(top > 10.0, "{hz} Hz: up the shaft to {top} m in {jumps} wall jumps");
        let (top, jumps) = wall_climb(&shaft(1.5, false), hz, 8.0);
        assert!(
            top < 2.5 && jumps <= 1,
            "{hz} Hz: up one wall to {top} m in {jumps} wall jumps"
        );
    }
}

#[test]
fn pushing_into_a_wall_while_falling_slides_down_it_slowly() {
    for hz in RATES {
        let course = shaft(1.5, false);
        let mut s = Sim::new(wall_config(), &course, Quat::IDENTITY, Vec3::new(-0.3, 10.0, 0.0), hz);
        let mut started = 0;
        let mut fastest = 0.0f32;
        let ticks = s.run(0.3, toward(Vec3::NEG_X));
        for t in s.run(1.0, toward(Vec3::NEG_X)).iter().chain(&ticks) {
            started += t.report.wall_slide_started as u32;
            if t.report.wall_sliding {
                fastest = fastest.max(-t.velocity.y);
            }
        }
        assert_eq!(started, 1, "{hz} Hz");
        assert!(fastest <= 2.0 + 1e-3 && fastest > 1.9, "{hz} Hz: slid at {fastest} m/s");
    }
}

fn mantle_config() -> ControllerConfig {
    ControllerConfig {
        mantle_height: 1.5,
        mantle_time: 0.3,
        ..ControllerConfig::default()
    }
}

/// A ledge `height` tall whose face is at z = −1 (the character stands at
/// the origin facing −z), with `ceiling` metres of room above its top if given.
fn ledge(height: f32, ceiling: Option<f32>) -> Soup {
    let mut s = floor();
    s.cuboid(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, height, -1.0));
    if let Some(room) = ceiling {
        s.cuboid(
            Vec3::new(-2.0, height + room, -5.0),
            Vec3::new(2.0, height + room + 0.3, -1.0),
        );
    }
    s
}

#[test]
fn ledges_within_mantle_height_are_mantled_and_higher_ones_not() {
    for hz in RATES {
        for (height, room, mantled) in [
            (0.9, None, true),
            (1.3, None, true),
            (1.8, None, false),
            (0.9, Some(0.5), false),
            (0.9, Some(1.2), true),
        ] {
            let mut s = sim(mantle_config(), &ledge(height, room), hz);
            // Walk into it, then press jump (and keep walking into it).
            s.run(0.5, toward(Vec3::NEG_Z));
            let first = s.tick(Intent {
                direction: Vec3::NEG_Z,
                ..press_jump()
            });
            let mut mantles: Vec<f32> = first.report.mantled.into_iter().collect();
            // Pressing on into it until the mantle is over, then at rest.
            for t in s.run(0.4, toward(Vec3::NEG_Z)) {
                mantles.extend(t.report.mantled);
            }
            for t in s.run(1.5, Intent::default()) {
                mantles.extend(t.report.mantled);
            }
            let on_top = s.state.grounded() && (s.feet().y - height).abs() < 0.01;
            let what = format!(
                "{hz} Hz, ledge {height} m, room {room:?}: mantles {mantles:?}, feet {}",
                s.feet()
            );
            if mantled {
                assert!(first.report.mantled.is_some() && !first.report.jumped, "{what}");
                assert!(
                    on_top && mantles.len() == 1 && (mantles[0] - height).abs() < 0.02,
                    "{what}"
                );
                // With 1.2 m of room, crouched on top.
                assert_eq!(s.state.crouched, room.is_some(), "{what}");
            } else {
                assert!(mantles.is_empty() && !on_top, "{what}");
            }
        }
    }
}

#[test]
fn a_ladder_is_climbed_to_its_top_and_stepped_off() {
    let config = ControllerConfig {
        climb_speed: 2.5,
        ..ControllerConfig::default()
    };
    for hz in RATES {
        let mut s = Sim::new(config, &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        s.add_climbable(&cuboid([-1.5, 0.0, -5.0], [1.5, 4.0, -1.0]));
        s.run(0.2, Intent::default());
        let mut started = 0;
        let mut ended = 0;
        let mut climbing = 0;
        for _ in 0..(4.0 * hz) as usize {
            let t = s.tick(toward(Vec3::NEG_Z));
            started += t.report.climb_started as u32;
            ended += t.report.climb_ended as u32;
            climbing += t.report.climbing as u32;
            if ended > 0 && s.state.moves.mantle().is_none() {
                break;
            }
        }
        s.run(0.5, Intent::default());
        assert_eq!((started, ended), (1, 1), "{hz} Hz");
        assert!(climbing as f32 / hz > 1.0, "{hz} Hz: climbed {climbing} ticks");
        assert!(
            s.state.grounded() && (s.feet().y - 4.0).abs() < 0.01 && s.feet().z < -1.2,
            "{hz} Hz: feet {}",
            s.feet()
        );
        assert!(s.state.moves.climb().is_none());

        // Down again from halfway: back to the ground, standing.
        let mut s = Sim::new(config, &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        s.add_climbable(&cuboid([-1.5, 0.0, -5.0], [1.5, 4.0, -1.0]));
        s.run(0.2, Intent::default());
        s.run(1.0, toward(Vec3::NEG_Z));
        assert!(s.state.moves.climb().is_some() && s.feet().y > 0.5);
        s.run(3.0, toward(Vec3::Z));
        assert!(s.state.grounded() && s.feet().y.abs() < 0.01 && s.state.moves.climb().is_none());

        // Jump lets go, pushed away.
        let mut s = Sim::new(config, &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        s.add_climbable(&cuboid([-1.5, 0.0, -5.0], [1.5, 4.0, -1.0]));
        s.run(0.2, Intent::default());
        s.run(1.0, toward(Vec3::NEG_Z));
        assert!(s.tick(press_jump()).report.climb_ended);
        s.run(2.0, Intent::default());
        assert!(
            s.state.grounded() && s.position().z > -0.3,
            "{hz} Hz: let go to {}",
            s.position()
        );
    }
}

#[test]
fn a_launch_pad_throws_to_v_squared_over_2g_and_a_knockback_leaves_the_ground() {
    for hz in RATES {
        let mut s = Sim::new(ControllerConfig::default(), &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        s.add_launch_pad(&cuboid([-1.0, 0.0, -4.0], [1.0, 0.1, -2.0]), Vec3::new(0.0, 12.0, 0.0));
        s.run(0.2, Intent::default());
        let mut launches = 0;
        let mut top = 0.0f32;
        let mut from = 0.0;
        for t in s.run(3.0, toward(Vec3::NEG_Z)) {
            if t.report.launched.is_some() {
                launches += 1;
                from = t.position.y - t.velocity.y * (1.0 / hz) + 0.5 * -9.81 / (hz * hz);
            }
            if launches == 1 {
                top = top.max(t.position.y);
            }
            if launches == 1 && t.velocity.y < 0.0 {
                break;
            }
        }
        let rise = top - from;
        let expected = 12.0f32 * 12.0 / (2.0 * 9.81);
        assert!(
            launches == 1 && (rise / expected - 1.0).abs() < 0.02,
            "{hz} Hz: rose {rise} m, expected {expected}"
        );
    }
    // A knockback up and back: off the ground while it carries the body up.
    let mut s = sim(ControllerConfig::default(), &floor(), 60.0);
    let t = s.tick(Intent {
        launch: Vec3::new(0.0, 3.0, 6.0),
        ..Intent::default()
    });
    assert!(t.report.launched.is_some() && !t.grounded && t.velocity.y > 0.0);
    let ticks = s.run(1.0, Intent::default());
    let landed = ticks.iter().position(|t| t.grounded).expect("lands");
    assert!(landed as f32 / 60.0 > 0.5, "off the ground for {landed} ticks");
    assert!(s.position().z > 1.0);
}
