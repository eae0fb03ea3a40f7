//! A placed character (a spawn, a respawn, a teleport) standing on the
//! floor stands from its first tick: a jump pressed on that tick leaves the
//! ground (the air jump is left for later), a dash pressed then goes. Its
//! ground is found before the tick decides anything, at every tick rate;
//! placed higher than the snap distance above the floor, it falls. Placed
//! on ground that moves (a platform, a lift going up or down), it stands
//! at rest on it and rides it from its first tick, neither slipping back
//! nor leaving it.

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, slab};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::Pose;
use slidewalk_sweep::test_util::Soup;

const RATES: [f32; 4] = [30.0, 60.0, 144.0, 300.0];

/// One air jump, a 5 m dash over 0.2 s.
fn config() -> ControllerConfig {
    ControllerConfig {
        air_jumps: 1,
        dash_distance: 5.0,
        dash_time: 0.2,
        ..ControllerConfig::default()
    }
}

fn floor() -> Soup {
    let mut s = Soup::default();
    slab(&mut s, 40.0, 0.0);
    s
}

/// Placed with its feet at `feet` (`CharacterState::standing_at`), not yet ticked.
fn placed(feet: Vec3, hz: f32) -> Sim {
    Sim::new(config(), &floor(), Quat::IDENTITY, feet, hz)
}

fn press_jump() -> Intent {
    Intent {
        jump: true,
        jump_held: true,
        ..Intent::default()
    }
}

fn held() -> Intent {
    Intent {
        jump_held: true,
        ..Intent::default()
    }
}

/// Jump pressed on the first tick and again 0.3 s later: the highest the
/// feet reach, metres above the floor.
fn two_jumps_apex(s: &mut Sim) -> f32 {
    let first = s.tick(press_jump());
    assert!(
        first.report.jumped && !first.report.air_jump,
        "{} Hz: the first tick's jump was not from the ground: {:?}",
        1.0 / s.dt,
        first.report
    );
    let mut top = s.feet().y;
    for t in s.run(0.3 - s.dt, held()) {
        top = top.max(t.position.y - s.state.radii.y);
    }
    let second = s.tick(press_jump());
    assert!(second.report.air_jump, "{} Hz: no air jump 0.3 s later", 1.0 / s.dt);
    for t in s.run(1.5, held()) {
        top = top.max(t.position.y - s.state.radii.y);
    }
    top
}

/// Dash pressed on the first tick, facing −z: metres moved along −z by
/// the dash's end.
fn first_tick_dash(s: &mut Sim) -> f32 {
    let start = s.position();
    let first = s.tick(Intent {
        dash: true,
        facing: Vec3::NEG_Z,
        ..Intent::default()
    });
    assert_eq!(first.report.dashed, Some(Vec3::NEG_Z), "{} Hz", 1.0 / s.dt);
    assert!(first.grounded, "{} Hz: a ground dash left the ground", 1.0 / s.dt);
    while s.state.moves.dash().is_some() {
        s.tick(Intent::default());
    }
    start.z - s.position().z
}

#[test]
fn a_jump_on_a_spawned_character_s_first_tick_is_from_the_ground() {
    // Ground jump (1 m), then at 0.3 s (0.89 m up) an air jump of 1 m more.
    for hz in RATES {
        let apex = two_jumps_apex(&mut placed(Vec3::ZERO, hz));
        assert!((apex - 1.888).abs() < 0.04, "{hz} Hz: apex {apex} m");
    }
}

#[test]
fn a_dash_on_a_spawned_character_s_first_tick_goes_its_distance() {
    for hz in RATES {
        let moved = first_tick_dash(&mut placed(Vec3::ZERO, hz));
        assert!((moved - 5.0).abs() < 0.1, "{hz} Hz: dashed {moved} m");
    }
}

#[test]
fn a_teleported_character_stands_from_its_first_tick_where_it_lands() {
    for hz in RATES {
        // Walked for a while, jumped; teleported mid-air onto the floor 10 m away.
        let mut s = placed(Vec3::ZERO, hz);
        s.run(0.5, slidewalk_controller::test_util::forward());
        s.tick(press_jump());
        s.run(0.1, held());
        assert!(!s.state.grounded() && s.state.moves.air_jumps_used == 0);
        let centre = s.state.position + Vec3::new(10.0, 0.0, 0.0) - Vec3::Y * (s.state.position.y - s.state.radii.y);
        s.state.teleport(centre);
        let apex = two_jumps_apex(&mut s);
        assert!((apex - 1.888).abs() < 0.04, "{hz} Hz: apex {apex} m");

        let mut s = placed(Vec3::ZERO, hz);
        s.run(0.5, slidewalk_controller::test_util::forward());
        s.state.teleport(Vec3::new(-10.0, s.state.position.y, 0.0));
        let moved = first_tick_dash(&mut s);
        assert!((moved - 5.0).abs() < 0.1, "{hz} Hz: dashed {moved} m");
    }
}

#[test]
fn placed_within_the_snap_distance_it_stands_and_above_it_it_falls() {
    let snap = config().snap_distance;
    for hz in RATES {
        // A hair less than the snap distance up: on the floor at once.
        let mut s = placed(Vec3::Y * (snap - 0.05), hz);
        let first = s.tick(Intent::default());
        assert!(first.grounded && !first.report.landed, "{hz} Hz: {:?}", first.report);
        assert!(s.feet().y.abs() < 0.01, "{hz} Hz: feet at {}", s.feet());

        // 1 m up: in the air, a jump pressed there is the air jump.
        let mut s = placed(Vec3::Y, hz);
        let first = s.tick(press_jump());
        assert!(!first.grounded && first.report.air_jump, "{hz} Hz: {:?}", first.report);
        let landed = s.run(2.0, Intent::default());
        assert!(landed.iter().any(|t| t.report.landed) && s.state.grounded());
    }
}

#[test]
fn placed_on_moving_ground_it_rides_it_at_rest_from_its_first_tick() {
    // A 6 m square platform 0.2 m thick, top at y = 0 when t = 0, moving
    // at `velocity`; the floor far below.
    let mut platform = Soup::default();
    platform.cuboid(Vec3::new(-3.0, -0.2, -3.0), Vec3::new(3.0, 0.0, 3.0));
    let mut far_floor = Soup::default();
    slab(&mut far_floor, 40.0, -20.0);
    for velocity in [
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
        Vec3::new(3.0, -2.0, 1.0),
    ] {
        for hz in RATES {
            let mut s = Sim::new(config(), &far_floor, Quat::IDENTITY, Vec3::ZERO, hz);
            s.add_mover(&platform, 1.0, move |t| Pose {
                rotation: Quat::IDENTITY,
                translation: velocity * t as f32,
            });
            // Not carried on its first tick by the motion its ground made
            // before it was there (at most one tick's worth behind), then
            // at rest on it.
            let first = s.tick(Intent::default());
            assert!(first.grounded, "{velocity} at {hz} Hz: not standing on its first tick");
            let put = s.feet() - velocity * s.time as f32;
            assert!(
                put.length() <= velocity.length() / hz + 1e-3,
                "{velocity} at {hz} Hz: first tick to {put}"
            );
            let mut worst: f32 = 0.0;
            for _ in 0..(hz as usize) {
                let tick = s.tick(Intent::default());
                assert!(
                    tick.grounded,
                    "{velocity} at {hz} Hz: off the platform after {} s",
                    s.time
                );
                let on_platform = s.feet() - velocity * s.time as f32;
                worst = worst.max((on_platform - put).length());
            }
            assert!(
                worst < 0.01,
                "{velocity} at {hz} Hz: slipped {worst} m on the platform in 1 s"
            );
        }
    }
}
