//! How it feels to move, Quake's and Source's rules, each through
//! collide-and-slide at 30, 60, 144 and 300 Hz with the harness checking
//! every tick for penetration: strafe jumping with the air speed cap,
//! friction with a stop speed, surfing a steep ramp, conveyors, what a
//! moving platform leaves with a character, and hard landings.

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, ramp, slab};
use slidewalk_controller::{ControllerConfig, Intent, PlatformMomentum};
use slidewalk_sweep::Pose;
use slidewalk_sweep::test_util::Soup;

const RATES: [f32; 4] = [30.0, 60.0, 144.0, 300.0];

fn floor() -> Soup {
    let mut s = Soup::default();
    slab(&mut s, 60.0, 0.0);
    s
}

fn settled(config: ControllerConfig, course: &Soup, feet: Vec3, hz: f32) -> Sim {
    let mut sim = Sim::new(config, course, Quat::IDENTITY, feet, hz);
    sim.run(0.2, Intent::default());
    sim
}

fn horizontal_speed(v: Vec3) -> f32 {
    Vec3::new(v.x, 0.0, v.z).length()
}

/// How the view turns while strafe jumping.
#[derive(Clone, Copy, Debug)]
enum View {
    /// A fixed turn each tick, degrees, the strafe key held to its side.
    Turning(f32),
    /// The view kept 2° behind square to the velocity (a skilled player).
    Following,
}

/// Strafe jumps: walk, then with jump held (bunny hops) strafe while the
/// view turns, for ten jumps. Returns the horizontal speed at the end, the
/// fastest reached and the mean turn of the wish direction per tick,
/// degrees.
fn strafe_jumps(config: ControllerConfig, hz: f32, view: View) -> (f32, f32, f32) {
    let mut sim = settled(config, &floor(), Vec3::ZERO, hz);
    sim.run(
        0.5,
        Intent {
            direction: Vec3::NEG_Z,
            ..Intent::default()
        },
    );
    let (mut jumps, mut fastest, mut turned, mut ticks) = (0, 0.0f32, 0.0f32, 0);
    let mut last_wish: Option<Vec3> = None;
    let mut yaw = Vec3::NEG_Z;
    while jumps < 10 {
        let v = sim.state.world_velocity();
        let heading = Vec3::new(v.x, 0.0, v.z).normalize_or(Vec3::NEG_Z);
        let wish = match view {
            View::Turning(degrees) => {
                if ticks > 0 {
                    yaw = Quat::from_rotation_y(degrees.to_radians()) * yaw;
                }
                Quat::from_rotation_y(90f32.to_radians()) * yaw
            }
            View::Following => Quat::from_rotation_y(88f32.to_radians()) * heading,
        };
        if let Some(last) = last_wish {
            turned += last.angle_between(wish).to_degrees();
        }
        last_wish = Some(wish);
        let t = sim.tick(Intent {
            direction: wish,
            jump: ticks == 0,
            jump_held: true,
            ..Intent::default()
        });
        ticks += 1;
        jumps += usize::from(t.report.jumped);
        fastest = fastest.max(horizontal_speed(t.velocity));
        assert!(ticks < 10_000, "{hz} Hz: never made ten jumps");
    }
    let end = horizontal_speed(sim.state.velocity);
    (end, fastest, turned / ticks as f32)
}

#[test]
fn strafe_jumping_with_the_air_speed_cap_gains_speed_and_without_it_does_not() {
    let quake = ControllerConfig {
        air_speed_cap: 0.76,
        air_acceleration: 100.0,
        auto_hop: true,
        ..ControllerConfig::default()
    };
    let today = ControllerConfig {
        air_speed_cap: 0.0,
        ..quake
    };
    // A fixed turn of 4–8° a tick where the velocity can follow it: it
    // turns at most air_acceleration / speed rad/s, so 5° a tick at 300 Hz
    // (26 rad/s) holds only below 3.8 m/s; there the view follows instead.
    let views = |hz: f32| match hz as u32 {
        30 | 60 => vec![View::Turning(5.0), View::Following],
        144 => vec![View::Turning(4.0), View::Following],
        _ => vec![View::Following],
    };
    for hz in RATES {
        for view in views(hz) {
            let (end, fastest, turn) = strafe_jumps(quake, hz, view);
            println!(
                "{hz} Hz, {view:?}, cap 0.76: {end:.2} m/s after ten jumps (fastest {fastest:.2}), turning {turn:.1}° a tick"
            );
            assert!(end > 1.5 * quake.walk_speed, "{hz} Hz {view:?}: only {end} m/s");
            let (end, fastest, _) = strafe_jumps(today, hz, view);
            println!("{hz} Hz, {view:?}, cap 0: {end:.2} m/s (fastest {fastest:.2})");
            assert!(
                fastest <= today.sprint_speed + 1e-3,
                "{hz} Hz: {fastest} m/s without the cap"
            );
        }
    }
}

#[test]
fn a_held_jump_hops_on_landing_before_friction_only_with_auto_hop() {
    for hz in RATES {
        for auto_hop in [false, true] {
            let config = ControllerConfig {
                auto_hop,
                ..ControllerConfig::default()
            };
            let mut sim = settled(config, &floor(), Vec3::ZERO, hz);
            let held = Intent {
                jump_held: true,
                ..Intent::default()
            };
            let first = sim.tick(Intent { jump: true, ..held });
            assert!(first.report.jumped);
            let hops = sim.run(3.0, held).iter().filter(|t| t.report.jumped).count();
            println!("{hz} Hz, auto_hop {auto_hop}: {hops} hops in 3 s");
            if auto_hop {
                // A 1 m jump lasts 0.90 s: three more in 3 s.
                assert_eq!(hops, 3, "{hz} Hz");
            } else {
                assert_eq!(hops, 0, "{hz} Hz");
            }
        }
    }
}

#[test]
fn friction_with_a_stop_speed_brakes_as_quake_does() {
    let config = ControllerConfig {
        stop_speed: 2.5,
        ground_friction: 15.0,
        // Above 6/s × 7.5 m/s, or friction holds the sprint below 7.5 m/s.
        ground_acceleration: 100.0,
        ..ControllerConfig::default()
    };
    // From 7.5 m/s: exponential at 6/s down to 2.5 m/s (0.83 m), then
    // 15 m/s² to rest (0.21 m): 1.04 m, against 0.70 m with the
    // constant 40 m/s² of ground_friction alone.
    for hz in RATES {
        let mut sim = settled(config, &floor(), Vec3::ZERO, hz);
        let sprint = Intent {
            direction: Vec3::NEG_Z,
            sprint: true,
            ..Intent::default()
        };
        sim.run(1.0, sprint);
        let from = sim.position().z;
        let speed = horizontal_speed(sim.state.velocity);
        assert!((speed - 7.5).abs() < 1e-3);
        sim.run(1.5, Intent::default());
        let stopped = from - sim.position().z;
        println!("{hz} Hz: stopped from 7.5 m/s in {stopped:.3} m");
        assert!(horizontal_speed(sim.state.velocity) == 0.0);
        assert!((stopped - 1.04).abs() < 0.15, "{hz} Hz: {stopped} m");
    }
}

#[test]
fn a_body_in_the_air_surfs_a_60_degree_ramp_keeping_its_speed_along_it() {
    let mut course = Soup::default();
    let foot = 20.0;
    ramp(&mut course, foot, 60.0, 30.0, 80.0, 1.0);
    let slope = 60f32.to_radians();
    let normal = Vec3::new(0.0, slope.cos(), slope.sin());
    let down_slope = Vec3::new(0.0, -slope.sin(), slope.cos());
    let config = ControllerConfig::default();
    let g = config.gravity.length();
    for hz in RATES {
        // Against the slope at 15 m up, moving 10 m/s along it (across the
        // fall line).
        let z = foot - 15.0 / slope.tan();
        let touch = (config.standing_radii * normal).length() + 0.002;
        let centre = Vec3::new(-20.0, 15.0, z) + normal * touch;
        let mut sim = Sim::new(config, &course, Quat::IDENTITY, Vec3::ZERO, hz);
        sim.state.teleport(centre);
        sim.state.velocity = Vec3::new(10.0, 0.0, 0.0);
        sim.state.placed = false;
        let mut worst: f32 = 0.0;
        for t in sim.run(1.0, Intent::default()) {
            assert!(!t.grounded, "{hz} Hz: stood on a 60° slope");
            let along = t.velocity.dot(down_slope);
            let expected = g * slope.sin() * t.time as f32;
            worst = worst.max((t.velocity.x - 10.0).abs()).max((along - expected).abs());
            assert!(t.velocity.dot(normal) < 1e-3, "{hz} Hz: left the slope");
        }
        println!("{hz} Hz: worst change of the speed along the slope beyond gravity's, {worst:.2e} m/s");
        assert!(worst < 0.2 + g * 1.5 / hz, "{hz} Hz: {worst}");
    }
}

#[test]
fn a_conveyor_carries_a_still_character_at_its_speed() {
    let mut belt = Soup::default();
    belt.cuboid(Vec3::new(-20.0, 0.0, -2.0), Vec3::new(20.0, 0.2, 2.0));
    for hz in RATES {
        let mut sim = Sim::new(
            ControllerConfig::default(),
            &floor(),
            Quat::IDENTITY,
            Vec3::new(0.0, 0.2, 0.0),
            hz,
        );
        sim.add_conveyor(&belt, Vec3::new(2.0, 0.0, 0.0));
        sim.run(0.5, Intent::default());
        let from = sim.position();
        let ticks = sim.run(1.0, Intent::default());
        assert!(ticks.iter().all(|t| t.grounded));
        let moved = sim.position() - from;
        println!("{hz} Hz: carried {:.4} m in 1 s", moved.x);
        assert!(
            (moved.x - 2.0).abs() < 0.04 && moved.y.abs() < 1e-3 && moved.z.abs() < 1e-3,
            "{hz} Hz: {moved}"
        );
        // Walking off the belt's end keeps its speed (platform_momentum "all").
        let walked = sim.run(
            0.2,
            Intent {
                direction: Vec3::Z,
                ..Intent::default()
            },
        );
        let _ = walked;
        assert!((sim.state.world_velocity().x - 2.0).abs() < 0.05);
    }
}

#[test]
fn what_a_moving_platform_leaves_with_a_jumper_follows_platform_momentum() {
    let mut deck = Soup::default();
    deck.cuboid(Vec3::new(-3.0, -0.3, -3.0), Vec3::new(3.0, 0.0, 3.0));
    let config = ControllerConfig::default();
    for hz in RATES {
        for (mode, kept_x, kept_y) in [
            (PlatformMomentum::All, 3.0, 1.0),
            (PlatformMomentum::Horizontal, 3.0, 0.0),
            (PlatformMomentum::None, 0.0, 0.0),
        ] {
            let config = ControllerConfig {
                platform_momentum: mode,
                ..config
            };
            let mut sim = Sim::new(config, &floor(), Quat::IDENTITY, Vec3::new(0.0, 1.0, 0.0), hz);
            // 3 m/s along x and rising at 1 m/s.
            sim.add_mover(&deck, 1.0, |t| {
                Pose::from_translation(Vec3::new(3.0 * t as f32, 1.0 + t as f32, 0.0))
            });
            sim.run(0.5, Intent::default());
            assert!(sim.state.grounded());
            let t = sim.tick(Intent {
                jump: true,
                jump_held: true,
                ..Intent::default()
            });
            assert!(t.report.jumped && !t.grounded);
            let v = sim.state.velocity;
            let rise = v.y - config.jump_speed() + config.gravity.length() / hz;
            println!(
                "{hz} Hz, {}: left with {:.3} m/s along x, {:.3} m/s of the rise",
                mode.name(),
                v.x,
                rise
            );
            assert!((v.x - kept_x).abs() < 1e-3, "{hz} Hz {mode:?}: {v}");
            assert!((rise - kept_y).abs() < 1e-3, "{hz} Hz {mode:?}: {rise}");
        }
    }
}

#[test]
fn a_hard_landing_stops_a_jump_pressed_at_once_and_slows_walking() {
    let config = ControllerConfig {
        hard_landing_speed: 10.0,
        hard_landing_time: 0.4,
        ..ControllerConfig::default()
    };
    for hz in RATES {
        for (height, hard) in [(6.0, true), (3.0, false)] {
            let mut sim = Sim::new(config, &floor(), Quat::IDENTITY, Vec3::new(0.0, height, 0.0), hz);
            let mut landing = None;
            for _ in 0..(3.0 * hz) as usize {
                let t = sim.tick(Intent::default());
                if t.report.landed {
                    landing = Some(t);
                    break;
                }
            }
            let landing = landing.expect("landed");
            assert_eq!(landing.report.hard_landing, hard, "{hz} Hz from {height} m");
            let jumped = sim.tick(Intent {
                jump: true,
                jump_held: true,
                direction: Vec3::X,
                ..Intent::default()
            });
            assert_eq!(jumped.report.jumped, !hard, "{hz} Hz from {height} m");
            if hard {
                // Walking at half speed until the lag is over, then a jump works.
                let ticks = sim.run(
                    0.2,
                    Intent {
                        direction: Vec3::X,
                        ..Intent::default()
                    },
                );
                assert!(
                    ticks
                        .iter()
                        .all(|t| horizontal_speed(t.velocity) <= 0.5 * config.walk_speed + 1e-3)
                );
                sim.run(0.3, Intent::default());
                assert!(
                    sim.tick(Intent {
                        jump: true,
                        ..Intent::default()
                    })
                    .report
                    .jumped,
                    "{hz} Hz"
                );
            }
        }
    }
}
