//! Walking behaviours on synthetic courses: ground, slopes, stairs, snap,
//! ledges — each at several tick rates and under any gravity. Every tick of
//! every test is checked for penetration and non-finite values by the
//! harness ([`slidewalk_controller::test_util::Sim`]).

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, forward, gravity_frames, ramp, slab, stairs};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::Pose;
use slidewalk_sweep::test_util::Soup;

const RATES: [f32; 4] = [30.0, 60.0, 144.0, 300.0];

fn config() -> ControllerConfig {
    ControllerConfig::default()
}

fn idle() -> Intent {
    Intent::default()
}

#[test]
fn grounded_on_a_floor_with_normal_friction_and_surface_velocity() {
    let mut course = Soup::default();
    slab(&mut course, 20.0, 0.0);
    let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::ZERO, 60.0);
    // A patch of friction 0.3 beside, and a platform sliding along +x.
    let mut patch = Soup::default();
    patch.cuboid(Vec3::new(4.0, 0.0, -1.0), Vec3::new(6.0, 0.05, 1.0));
    sim.add_static(&patch, 0.3);
    let mut deck = Soup::default();
    deck.cuboid(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.1, 1.0));
    sim.add_mover(&deck, 1.0, |t| {
        Pose::from_translation(Vec3::new(-8.0 + 0.5 * t as f32, 0.0, 0.0))
    });
    let t = sim.run(0.2, idle());
    let last = t.last().unwrap();
    let g = last.report.ground.expect("standing on the floor");
    assert!((g.normal - Vec3::Y).length() < 1e-4, "{:?}", g.normal);
    assert_eq!(g.collider, 0);
    assert_eq!(g.friction, 1.0);
    assert!(sim.feet().y.abs() < 0.01, "feet at {}", sim.feet());

    let mut sim2 = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(5.0, 0.05, 0.0), 60.0);
    sim2.add_static(&patch, 0.3);
    let last = sim2.run(0.2, idle()).pop().unwrap();
    let g = last.report.ground.unwrap();
    assert_eq!((g.collider, g.friction), (1, 0.3));

    let mut sim3 = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(-8.0, 0.1, 0.0), 60.0);
    sim3.add_mover(&deck, 1.0, |t| {
        Pose::from_translation(Vec3::new(-8.0 + 0.5 * t as f32, 0.0, 0.0))
    });
    let last = sim3.run(1.0, idle()).pop().unwrap();
    let g = last.report.ground.unwrap();
    assert_eq!(g.collider, 1);
    assert!(
        (g.velocity - Vec3::new(0.5, 0.0, 0.0)).length() < 1e-3,
        "{}",
        g.velocity
    );
    // Carried: about 0.5 m along +x in a second.
    assert!((sim3.position().x - (-7.5)).abs() < 0.02, "{}", sim3.position());
}

/// Walks at a ramp of `angle` from 1 m before its foot; returns (reached the platform, sim).
fn walk_up_ramp(angle: f32, hz: f32, frame: Quat) -> (bool, Sim) {
    let mut course = Soup::default();
    slab(&mut course, 30.0, 0.0);
    let crest = ramp(&mut course, 0.0, angle, 1.5, 3.0, 4.0);
    let mut sim = Sim::new(config(), &course, frame, Vec3::new(0.0, 0.0, 1.5), hz);
    let run = 1.5 / angle.to_radians().tan();
    let ticks = sim.run((run + 3.0) / 4.5 + 0.5, forward());
    let reached = ticks
        .iter()
        .any(|t| t.position.y - 0.9 > 1.49 && t.position.z < crest - 0.5);
    (reached, sim)
}

#[test]
fn ramps_up_to_the_walkable_limit_are_climbed_and_one_degree_steeper_is_not() {
    for (name, frame) in gravity_frames() {
        for angle in [10.0, 20.0, 30.0, 40.0, 44.0] {
            for hz in [30.0, 300.0] {
                let (reached, sim) = walk_up_ramp(angle, hz, frame);
                assert!(reached, "{name}: {angle}° at {hz} Hz: stopped at {}", sim.position());
            }
        }
        for angle in [46.0, 55.0, 70.0] {
            for hz in RATES {
                let (reached, sim) = walk_up_ramp(angle, hz, frame);
                assert!(!reached, "{name}: {angle}° climbed at {hz} Hz");
                assert!(
                    sim.feet().y < 0.35,
                    "{name}: {angle}° at {hz} Hz: got up to {}",
                    sim.feet()
                );
            }
        }
    }
}

#[test]
fn walking_up_a_walkable_ramp_keeps_walking_speed() {
    let (_, mut sim) = {
        let mut course = Soup::default();
        slab(&mut course, 30.0, 0.0);
        ramp(&mut course, 0.0, 30.0, 5.0, 3.0, 4.0);
        let sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, 0.0, 1.5), 60.0);
        (true, sim)
    };
    let ticks = sim.run(2.0, forward());
    // On the slope (after 0.6 s), z advances at walking speed.
    let a = &ticks[60];
    let b = &ticks[100];
    let speed = (a.position.z - b.position.z) / (b.time - a.time) as f32;
    assert!(
        (speed - 4.5).abs() < 0.05,
        "speed across up on the 30° ramp: {speed} m/s"
    );
    assert!(ticks[60..].iter().all(|t| t.grounded));
}

#[test]
fn a_player_on_a_too_steep_slope_slides_back_down() {
    let mut course = Soup::default();
    slab(&mut course, 30.0, 0.0);
    ramp(&mut course, 0.0, 50.0, 3.0, 3.0, 2.0);
    // Feet on the slope 1.5 m up.
    let d = 1.5 / 50f32.to_radians().tan();
    let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, 1.6, -d + 0.3), 60.0);
    sim.run(3.0, forward());
    assert!(sim.feet().y < 0.05, "still on the 50° slope at {}", sim.feet());
}

#[test]
fn idle_on_the_40_degree_ramp_drifts_less_than_a_millimetre_in_10_s() {
    for hz in RATES {
        let mut course = Soup::default();
        slab(&mut course, 30.0, 0.0);
        ramp(&mut course, 0.0, 40.0, 3.0, 3.0, 2.0);
        let z = -1.5;
        let y = -z * 40f32.to_radians().tan();
        let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, y + 0.2, z), hz);
        sim.run(0.5, idle());
        let settled = sim.position();
        let ticks = sim.run(10.0, idle());
        assert!(ticks.iter().all(|t| t.grounded), "{hz} Hz: lost the ground");
        let drift = (sim.position() - settled).length();
        assert!(drift < 1e-3, "{hz} Hz: drifted {drift} m");
    }
}

/// A flight of 6 risers of `rise` from z = 0, with a wall along its right
/// side (x = 1.5) from z = 4 on; the walker starts `start` (canonical feet).
fn stairs_course(rise: f32) -> (Soup, f32) {
    let mut course = Soup::default();
    slab(&mut course, 30.0, 0.0);
    let end = stairs(&mut course, 0.0, rise, 0.4, 6, 3.0, 3.0);
    course.cuboid(Vec3::new(1.5, 0.0, end), Vec3::new(2.0, 3.0, 4.0));
    (course, rise * 6.0)
}

/// Highest the feet of the standing (0.9 m tall-radius) walker got, canonical frame.
fn highest_feet(ticks: &[slidewalk_controller::test_util::Tick]) -> f32 {
    ticks.iter().map(|t| t.position.y - 0.9).fold(f32::MIN, f32::max)
}

#[test]
fn risers_up_to_the_step_height_are_climbed_at_any_tick_rate_and_taller_ones_block() {
    for (name, frame) in gravity_frames() {
        for rise in [0.05, 0.15, 0.25, 0.30, 0.34, 0.40, 0.45, 0.70] {
            let (course, top) = stairs_course(rise);
            for hz in RATES {
                // Standing right against the first riser.
                let mut sim = Sim::new(config(), &course, frame, Vec3::new(0.0, 0.0, 0.45), hz);
                sim.run(0.3, idle());
                let ticks = sim.run(1.5, forward());
                let climbed = highest_feet(&ticks) > top - 0.01;
                assert_eq!(
                    climbed,
                    rise <= 0.35,
                    "{name}: {rise} m risers at {hz} Hz from standing: feet at {}",
                    sim.feet()
                );
                if rise > 0.35 {
                    assert!(sim.feet().y < 0.01, "{name}: {rise} m got onto the first step");
                } else {
                    // Never airborne on the way up (the landing ends at z = −5).
                    let airborne = ticks.iter().filter(|t| !t.grounded && t.position.z > -4.5).count();
                    assert_eq!(airborne, 0, "{name}: {rise} m at {hz} Hz: {airborne} airborne ticks");
                }
                // Sliding along the wall at 30° towards it.
                let mut sim = Sim::new(config(), &course, frame, Vec3::new(0.8, 0.0, 2.0), hz);
                let along_wall = Intent {
                    direction: Vec3::new(0.5, 0.0, -0.866),
                    ..Intent::default()
                };
                let ticks = sim.run(2.0, along_wall);
                let climbed = highest_feet(&ticks) > top - 0.01;
                assert_eq!(
                    climbed,
                    rise <= 0.35,
                    "{name}: {rise} m risers at {hz} Hz along the wall: feet at {}",
                    sim.feet()
                );
            }
        }
    }
}

#[test]
fn walking_down_stairs_and_over_crests_stays_grounded_every_tick() {
    for sprint in [false, true] {
        for hz in RATES {
            // Down the 0.30 m stairs: start on the landing, walk +z down.
            let (course, top) = stairs_course(0.30);
            let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, top, -5.0), hz);
            sim.run(0.3, idle());
            assert!(sim.state.grounded());
            let down = Intent {
                direction: Vec3::Z,
                sprint,
                ..Intent::default()
            };
            let ticks = sim.run(2.0, down);
            assert!(sim.feet().y < 0.01, "did not get down: {}", sim.feet());
            let airborne = ticks.iter().filter(|t| !t.grounded).count();
            assert_eq!(
                airborne, 0,
                "down the stairs at {hz} Hz, sprint {sprint}: {airborne} airborne ticks"
            );
            // No bounce: the height never goes up on the way down.
            for w in ticks.windows(2) {
                assert!(w[1].position.y <= w[0].position.y + 1e-4, "bounce at {hz} Hz");
            }

            // Up a 30° ramp, over its crest onto the platform, and back down over it.
            let mut course = Soup::default();
            slab(&mut course, 30.0, 0.0);
            let crest = ramp(&mut course, 0.0, 30.0, 1.5, 3.0, 3.0);
            let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, 0.0, 1.0), hz);
            sim.run(0.2, idle());
            let up = Intent {
                direction: Vec3::NEG_Z,
                sprint,
                ..Intent::default()
            };
            let reach = (1.0 + 1.5 / 30f32.to_radians().tan() + 1.0) / if sprint { 7.5 } else { 4.5 };
            let ticks = sim.run(reach, up);
            assert!(sim.position().z < crest, "not over the crest");
            assert!(
                ticks.iter().all(|t| t.grounded),
                "over the crest at {hz} Hz, sprint {sprint}"
            );
            let ticks = sim.run(reach + 0.3, down);
            assert!(sim.feet().y < 0.01);
            assert!(
                ticks.iter().all(|t| t.grounded),
                "down over the crest at {hz} Hz, sprint {sprint}"
            );
        }
    }
}

#[test]
fn running_off_ledges_is_a_real_fall() {
    for (height, hz) in [(0.7, 60.0), (0.7, 300.0), (2.5, 60.0), (2.5, 30.0)] {
        let mut course = Soup::default();
        slab(&mut course, 30.0, 0.0);
        course.cuboid(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, height, 2.0));
        let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, height, 0.0), hz);
        sim.run(0.2, idle());
        let ticks = sim.run(
            2.0,
            Intent {
                direction: Vec3::Z,
                sprint: true,
                ..Intent::default()
            },
        );
        let airborne = ticks.iter().filter(|t| !t.grounded).count() as f32 / hz;
        // Falling the last (height − step height) takes sqrt(2h/g).
        let fall = (2.0 * (height - 0.35) / 9.81f32).sqrt();
        assert!(
            airborne > 0.8 * fall,
            "{height} m at {hz} Hz: airborne only {airborne} s"
        );
        assert!(sim.feet().y < 0.01, "{height} m: did not land below");
        let landing = ticks.iter().position(|t| t.report.landed).expect("landed");
        assert!(ticks[landing - 1].velocity.y < -1.0, "no real fall off {height} m");
    }
}

#[test]
fn standing_just_past_a_ledge_edge_does_not_creep_off() {
    for past in [0.02, 0.1, 0.2, 0.25] {
        for hz in [30.0, 60.0, 300.0] {
            let mut course = Soup::default();
            slab(&mut course, 30.0, 0.0);
            course.cuboid(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 0.7, 2.0));
            // The centre `past` metres beyond the +z edge.
            let mut sim = Sim::new(config(), &course, Quat::IDENTITY, Vec3::new(0.0, 0.72, 2.0 + past), hz);
            sim.run(0.5, idle());
            let settled = sim.position();
            assert!(
                sim.state.grounded(),
                "{past} m past at {hz} Hz: not standing ({settled})"
            );
            sim.run(10.0, idle());
            let creep = (sim.position() - settled).length();
            assert!(creep < 0.01, "{past} m past the edge at {hz} Hz: crept {creep} m");
            // Walking off still works.
            sim.run(
                1.0,
                Intent {
                    direction: Vec3::Z,
                    ..Intent::default()
                },
            );
            assert!(sim.feet().y < 0.01, "could not walk off: {}", sim.feet());
        }
    }
}

/// Found by the fuzzer (`crates/fuzz/regressions/controller/`): a huge
/// but finite input direction (-3.4e38, -3.4e38, 0) under a tilted
/// gravity overflowed to infinity when its part along "up" was taken
/// off, the wish became NaN and so did the velocity (a climber's, here
/// one in the air, walking and climbing alike). The direction is only a
/// direction: any finite one is as good as its unit-or-less scaling.
#[test]
fn a_huge_finite_input_direction_keeps_the_state_finite() {
    use slidewalk_controller::{CharacterState, Controller, Surroundings};
    let config = ControllerConfig {
        gravity: Vec3::new(-30.0, 1.171875, -30.0),
        ..ControllerConfig::default()
    };
    let controller = Controller::new(config).unwrap();
    let mut course = Soup::default();
    slab(&mut course, 12.0, 0.0);
    let floor = slidewalk_sweep::MeshCollider::build(&course.positions, &course.triangles).unwrap();
    let placed = [slidewalk_sweep::PlacedCollider::fixed(&floor)];
    let world = Surroundings::new(&placed);
    let huge = Vec3::new(-f32::MAX, -f32::MAX, 0.0);
    let small = Vec3::new(-1.0, -1.0, 0.0);
    for standing in [true, false] {
        let mut state = CharacterState::standing_at(Vec3::new(0.0, 3.0, 0.0), controller.config());
        // Standing or in the air, a tick with the huge direction moves as
        // one with the same direction scaled down.
        let mut reference = state;
        if !standing {
            state.ground = None;
            reference.ground = None;
        }
        let go = |d| Intent {
            direction: d,
            ..Intent::default()
        };
        for _ in 0..3 {
            controller.tick(&mut state, &go(huge), &world, 1.0 / 60.0).unwrap();
            controller.tick(&mut reference, &go(small), &world, 1.0 / 60.0).unwrap();
            assert!(
                state.velocity.is_finite() && state.position.is_finite(),
                "standing {standing}: {state:?}"
            );
            assert!(
                (state.velocity - reference.velocity).length() < 1e-4,
                "standing {standing}: {} against {}",
                state.velocity,
                reference.velocity
            );
        }
    }
}
