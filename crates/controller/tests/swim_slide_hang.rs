//! Swimming, the crouch-slide and hanging from ledges, through
//! collide-and-slide at 30, 60, 144 and 300 Hz, the harness checking every
//! tick for penetration.

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, ramp, slab};
use slidewalk_controller::{ControllerConfig, EYES, Intent, WaterLevel};
use slidewalk_sweep::test_util::Soup;

const RATES: [f32; 4] = [30.0, 60.0, 144.0, 300.0];

fn floor() -> Soup {
    let mut s = Soup::default();
    slab(&mut s, 60.0, 0.0);
    s
}

fn go(direction: Vec3) -> Intent {
    Intent {
        direction,
        facing: direction,
        ..Intent::default()
    }
}

fn swimmer() -> ControllerConfig {
    ControllerConfig {
        swim_speed: 3.0,
        water_drag: 4.0,
        ..ControllerConfig::default()
    }
}

fn eyes(sim: &Sim) -> f32 {
    sim.position().y + EYES * sim.state.radii.y
}

#[test]
fn a_still_swimmer_floats_with_its_eyes_above_the_surface() {
    for hz in RATES {
        let mut sim = Sim::new(swimmer(), &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        // 3 m of water over the floor: the swimmer starts on the bottom.
        sim.add_water(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 3.0, 50.0));
        let ticks = sim.run(8.0, Intent::default());
        assert!(ticks[0].report.entered_water && ticks[0].report.submerged);
        let last = ticks.last().unwrap();
        let above = eyes(&sim) - 3.0;
        println!("{hz} Hz: eyes {above:.3} m above the surface, {:?}", last.report.water);
        assert!(last.report.swimming && last.report.water == WaterLevel::Waist);
        assert!(above > 0.0 && above < 0.2, "{hz} Hz: eyes {above} m above");
        assert!(sim.state.velocity.length() < 0.05);
    }
}

#[test]
fn swimming_10_m_takes_10_over_swim_speed_seconds_and_the_look_steers() {
    for hz in RATES {
        let mut sim = Sim::new(swimmer(), &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        sim.add_water(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 3.0, 50.0));
        sim.run(6.0, Intent::default());
        let from = sim.position();
        let mut t = 0.0;
        while from.z - sim.position().z < 10.0 {
            let tick = sim.tick(go(Vec3::NEG_Z));
            assert!(tick.report.swimming);
            t += sim.dt;
            assert!(t < 10.0);
        }
        let ideal = 10.0 / swimmer().swim_speed;
        println!("{hz} Hz: 10 m in {t:.3} s (ideal {ideal:.3} s)");
        assert!((t - ideal).abs() < 0.1 * ideal, "{hz} Hz: {t} s");
        // Looking 45° down, forward dives; crouch dives straight down,
        // jump held swims up.
        let depth = sim.position().y;
        sim.run(
            1.0,
            Intent {
                pitch: -std::f32::consts::FRAC_PI_4,
                ..go(Vec3::NEG_Z)
            },
        );
        assert!(
            sim.position().y < depth - 1.0,
            "{hz} Hz: did not dive: {}",
            sim.position()
        );
        let dived = sim.run(
            0.3,
            Intent {
                crouch: true,
                ..Intent::default()
            },
        );
        assert!(dived.iter().any(|t| t.report.water == WaterLevel::Eyes));
        let low = sim.position().y;
        sim.run(
            0.5,
            Intent {
                jump_held: true,
                ..Intent::default()
            },
        );
        assert!(sim.position().y > low + 0.5, "{hz} Hz: did not swim up");
    }
}

#[test]
fn a_water_jump_climbs_onto_a_ledge_half_a_metre_above_the_surface() {
    let mut course = floor();
    // The pool's far side: a bank 3.5 m high, the water's surface at 3 m.
    course.cuboid(Vec3::new(-20.0, 0.0, -30.0), Vec3::new(20.0, 3.5, -5.0));
    for hz in RATES {
        let mut sim = Sim::new(swimmer(), &course, Quat::IDENTITY, Vec3::ZERO, hz);
        sim.add_water(Vec3::new(-20.0, -1.0, -5.0), Vec3::new(20.0, 3.0, 20.0));
        sim.run(5.0, Intent::default());
        // Swim to the bank, then press jump once.
        sim.run(2.0, go(Vec3::NEG_Z));
        assert!(sim.position().z < -4.5, "{hz} Hz: {}", sim.position());
        let t = sim.tick(Intent {
            jump: true,
            jump_held: true,
            ..go(Vec3::NEG_Z)
        });
        let jumped = t.report.water_jumped;
        sim.run(1.0, go(Vec3::NEG_Z));
        assert!(jumped, "{hz} Hz: no water jump");
        sim.run(0.2, Intent::default());
        println!("{hz} Hz: out of the water, feet at {}", sim.feet());
        assert!(sim.state.grounded() && (sim.feet().y - 3.5).abs() < 0.01 && sim.feet().z < -5.0);
        let t = sim.tick(Intent::default());
        assert_eq!(t.report.water, WaterLevel::Dry);
    }
}

fn slider() -> ControllerConfig {
    ControllerConfig {
        slide_min_speed: 5.0,
        slide_speed_boost: 2.0,
        slide_friction: 2.0,
        ..ControllerConfig::default()
    }
}

fn sprint(direction: Vec3, crouch: bool) -> Intent {
    Intent {
        direction,
        sprint: true,
        crouch,
        ..Intent::default()
    }
}

#[test]
fn a_slide_from_sprint_goes_further_than_crouch_walking_and_ends() {
    for hz in RATES {
        let mut distances = Vec::new();
        for slide in [true, false] {
            let mut sim = Sim::new(slider(), &floor(), Quat::IDENTITY, Vec3::new(0.0, 0.0, 20.0), hz);
            sim.run(1.0, sprint(Vec3::NEG_Z, false));
            let from = sim.position().z;
            let crouch = Intent {
                sprint: slide,
                ..sprint(Vec3::NEG_Z, true)
            };
            let ticks = sim.run(2.5, crouch);
            let started = ticks.iter().filter(|t| t.report.slide_started).count();
            let ended = ticks.iter().filter(|t| t.report.slide_ended).count();
            assert_eq!((started, ended), if slide { (1, 1) } else { (0, 0) }, "{hz} Hz");
            assert!(ticks.iter().all(|t| t.grounded));
            assert!(sim.state.crouched);
            distances.push(from - sim.position().z);
        }
        println!(
            "{hz} Hz: in 2.5 s a slide went {:.2} m, crouch walking {:.2} m",
            distances[0], distances[1]
        );
        assert!(distances[0] > distances[1] + 3.0, "{hz} Hz: {distances:?}");
    }
}

#[test]
fn a_slide_speeds_up_down_a_20_degree_slope_and_a_jump_keeps_its_speed() {
    let mut course = floor();
    ramp(&mut course, 30.0, 20.0, 15.0, 10.0, 5.0);
    let slope = 20f32.to_radians();
    for hz in RATES {
        // On the slope, 8 m up, facing down it (+z).
        let z = 30.0 - 8.0 / slope.tan();
        let mut sim = Sim::new(slider(), &course, Quat::IDENTITY, Vec3::new(0.0, 8.0, z), hz);
        sim.run(0.3, sprint(Vec3::Z, false));
        assert!(sim.state.grounded());
        let t = sim.tick(sprint(Vec3::Z, true));
        assert!(t.report.slide_started, "{hz} Hz");
        let at_start = sim.state.velocity.length();
        sim.run(0.5, sprint(Vec3::Z, true));
        let later = sim.state.velocity.length();
        println!("{hz} Hz: sliding down 20°, {at_start:.2} m/s → {later:.2} m/s in 0.5 s");
        assert!(later > at_start + 0.3, "{hz} Hz");
        let jump = sim.tick(Intent {
            jump: true,
            ..sprint(Vec3::Z, true)
        });
        assert!(jump.report.jumped && jump.report.slide_ended);
        let v = sim.state.velocity;
        assert!(
            Vec3::new(v.x, 0.0, v.z).length() > later - 0.1,
            "{hz} Hz: the jump lost the speed"
        );
    }
}

/// A block 3 m high from z = −10 to z = −2 (its face at z = −2, facing +z).
fn ledge_course() -> Soup {
    let mut course = floor();
    course.cuboid(Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 3.0, -2.0));
    course
}

fn hanger() -> ControllerConfig {
    ControllerConfig {
        ledge_grab: true,
        ..ControllerConfig::default()
    }
}

#[test]
fn a_ledge_is_caught_falling_past_it_shimmied_along_and_pulled_up_onto() {
    for hz in RATES {
        let mut sim = Sim::new(hanger(), &ledge_course(), Quat::IDENTITY, Vec3::ZERO, hz);
        // In the air by the face, feet below the top, head above it.
        sim.state.teleport(Vec3::new(0.0, 3.0, -1.5));
        let mut grabbed = None;
        for _ in 0..(2.0 * hz) as usize {
            let t = sim.tick(go(Vec3::NEG_Z));
            if t.report.ledge_grabbed {
                grabbed = Some(t);
                break;
            }
        }
        assert!(grabbed.is_some(), "{hz} Hz: not caught; at {}", sim.position());
        let head = sim.position().y + sim.state.radii.y;
        println!("{hz} Hz: hanging, the head {:.3} m below the rim", 3.0 - head);
        assert!((head - 2.9).abs() < 0.01);
        // Held for a second: no gravity.
        let hold = sim.run(1.0, go(Vec3::NEG_Z));
        assert!(
            hold.iter()
                .all(|t| !t.grounded && (t.position.y - sim.position().y).abs() < 1e-4)
        );
        // Sideways along the ledge at the crouch speed (2 m/s): 2 m in 1 s.
        let x = sim.position().x;
        sim.run(1.0, go(Vec3::X));
        let shimmied = sim.position().x - x;
        println!("{hz} Hz: shimmied {shimmied:.3} m");
        assert!((shimmied - 2.0).abs() < 0.02 && (sim.position().y + sim.state.radii.y - 2.9).abs() < 0.01);
        // At the ledge's end (x = 10) it stops, the hands (at the centre) on it.
        sim.run(6.0, go(Vec3::X));
        assert!(
            sim.position().x < 10.05 && sim.state.moves.hang().is_some(),
            "{}",
            sim.position()
        );
        // Forward (the stick let go of since the grab) pulls up onto it.
        let pull = sim.run(1.0, go(Vec3::NEG_Z));
        assert!(pull.iter().any(|t| t.report.mantled.is_some()));
        assert!(
            sim.state.grounded() && (sim.feet().y - 3.0).abs() < 0.01,
            "{hz} Hz: {}",
            sim.feet()
        );
    }
}

#[test]
fn crouch_walking_off_a_ledge_catches_it_and_crouch_lets_go() {
    for hz in RATES {
        let mut sim = Sim::new(hanger(), &ledge_course(), Quat::IDENTITY, Vec3::new(0.0, 3.0, -5.0), hz);
        sim.run(0.2, Intent::default());
        let crouch_off = Intent {
            crouch: true,
            ..go(Vec3::Z)
        };
        let mut caught = false;
        for _ in 0..(3.0 * hz) as usize {
            let t = sim.tick(crouch_off);
            if t.report.ledge_grabbed {
                caught = true;
                break;
            }
        }
        assert!(caught, "{hz} Hz: fell past; at {}", sim.position());
        let top = sim.position().y + sim.state.radii.y;
        println!(
            "{hz} Hz: caught from above, head {:.3} m below the rim, z {:.3}",
            3.0 - top,
            sim.position().z
        );
        assert!((top - 2.9).abs() < 0.01 && sim.position().z > -2.0);
        // Still held while crouch stays held; let go of and pressed again, it lets go.
        sim.run(
            0.5,
            Intent {
                crouch: true,
                ..Intent::default()
            },
        );
        assert!(sim.state.moves.hang().is_some());
        sim.run(0.1, Intent::default());
        let t = sim.tick(Intent {
            crouch: true,
            ..Intent::default()
        });
        assert!(t.report.ledge_let_go);
        sim.run(
            1.5,
            Intent {
                crouch: true,
                ..Intent::default()
            },
        );
        assert!(sim.state.grounded() && sim.feet().y.abs() < 0.01);
    }
}

#[test]
fn a_launch_ends_a_slide_and_a_hang_and_says_so() {
    let config = ControllerConfig {
        ledge_grab: true,
        ..slider()
    };
    let kick = Intent {
        launch: Vec3::new(0.0, 6.0, 3.0),
        ..Intent::default()
    };
    for hz in RATES {
        let mut sim = Sim::new(config, &floor(), Quat::IDENTITY, Vec3::new(0.0, 0.0, 20.0), hz);
        sim.run(1.0, sprint(Vec3::NEG_Z, false));
        assert!(sim.tick(sprint(Vec3::NEG_Z, true)).report.slide_started);
        let t = sim.tick(kick);
        assert!(t.report.slide_ended && t.report.launched.is_some() && sim.state.moves.slide().is_none());

        let mut sim = Sim::new(config, &ledge_course(), Quat::IDENTITY, Vec3::ZERO, hz);
        sim.state.teleport(Vec3::new(0.0, 3.0, -1.5));
        let caught = sim.run(1.0, go(Vec3::NEG_Z)).iter().any(|t| t.report.ledge_grabbed);
        assert!(caught && sim.state.moves.hang().is_some(), "{hz} Hz");
        let t = sim.tick(kick);
        assert!(t.report.ledge_let_go && sim.state.moves.hang().is_none(), "{hz} Hz");
    }
}
