//! One-way platforms as a character meets them: ground from above
//! (standing, walking, stepping onto, snapping along), passed through
//! from below (a jump lands on top, at 30, 60 and 144 Hz), dropped
//! through on request (only the one stood on), and never ended a tick
//! inside from the solid side (the harness checks every tick).

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, slab};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::test_util::Soup;
use slidewalk_sweep::{MeshCollider, PlacedCollider};

/// A thin box platform (0.2 m thick) with its top at `top`, over
/// `x0..x1` and `z0..z1`.
fn platform(x: (f32, f32), z: (f32, f32), top: f32) -> Soup {
    let mut s = Soup::default();
    s.cuboid(Vec3::new(x.0, top - 0.2, z.0), Vec3::new(x.1, top, z.1));
    s
}

fn floor() -> Soup {
    let mut s = Soup::default();
    slab(&mut s, 30.0, 0.0);
    s
}

fn walk(direction: Vec3) -> Intent {
    Intent {
        direction,
        ..Intent::default()
    }
}

/// `ground` and `pad` built as colliders.
fn ground_and_pad(ground: &Soup, pad: &Soup) -> [MeshCollider; 2] {
    [ground, pad].map(|s| MeshCollider::build(&s.positions, &s.triangles).unwrap())
}

/// Them placed where built, the pad (collider 1) one-way up.
fn with_one_way_pad(meshes: &[MeshCollider; 2]) -> [PlacedCollider<'_>; 2] {
    [
        PlacedCollider::fixed(&meshes[0]),
        PlacedCollider::fixed(&meshes[1]).with_one_way(Some(Vec3::Y)),
    ]
}

#[test]
fn one_way_ground_is_ground_from_above() {
    for hz in [30.0, 60.0, 144.0] {
        let mut sim = Sim::new(ControllerConfig::default(), &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        // A 0.25 m step onto a one-way box, then a staircase of one-way
        // boxes going down 0.2 m each: stepped onto, walked and snapped along.
        sim.add_one_way(&platform((1.5, 5.0), (-2.0, 2.0), 0.25), 1.0);
        sim.add_one_way(&platform((5.0, 7.0), (-2.0, 2.0), 0.05 + 0.0), 1.0);
        let mut stepped = false;
        while sim.feet().x < 3.0 && sim.time < 5.0 {
            stepped |= sim.tick(walk(Vec3::X)).report.stepped;
        }
        assert!(stepped, "{hz} Hz: never stepped up");
        // Standing on top, at rest, for a second: stays there.
        let ticks = sim.run(1.0, Intent::default());
        assert!(ticks.iter().all(|t| t.grounded), "{hz} Hz: lost the one-way ground");
        assert!((sim.feet().y - 0.25).abs() < 0.01, "{hz} Hz: feet at {}", sim.feet());
        // Walk down onto the lower one: snapped, never airborne.
        let mut ticks = Vec::new();
        while sim.feet().x < 6.0 && sim.time < 10.0 {
            ticks.push(sim.tick(walk(Vec3::X)));
        }
        assert!(
            ticks.iter().all(|t| t.grounded),
            "{hz} Hz: left the ground walking down"
        );
        assert!(ticks.iter().any(|t| t.report.snapped), "{hz} Hz: never snapped");
        assert!(
            sim.feet().x > 5.2 && (sim.feet().y - 0.05).abs() < 0.01,
            "{hz} Hz: feet at {}",
            sim.feet()
        );
    }
}

#[test]
fn a_jump_from_below_passes_up_through_and_lands_on_top() {
    for hz in [30.0, 60.0, 144.0] {
        let mut sim = Sim::new(ControllerConfig::default(), &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        // Top at 0.7 m: the default jump (1 m) lifts the feet above it.
        sim.add_one_way(&platform((-2.0, 2.0), (-2.0, 2.0), 0.7), 1.0);
        sim.run(0.3, Intent::default());
        assert!(
            sim.state.grounded() && sim.feet().y.abs() < 0.01,
            "{hz} Hz: feet at {}",
            sim.feet()
        );
        let mut landed_high = false;
        let jump = Intent {
            jump: true,
            ..Intent::default()
        };
        let first = sim.tick(jump);
        assert!(first.report.jumped, "{hz} Hz");
        for _ in 0..(2.0 * hz) as usize {
            let t = sim.tick(Intent::default());
            landed_high |= t.report.landed && sim.feet().y > 0.6;
        }
        assert!(landed_high, "{hz} Hz: did not land on top");
        assert!(
            (sim.feet().y - 0.7).abs() < 0.01 && sim.state.grounded(),
            "{hz} Hz: feet at {}",
            sim.feet()
        );
    }
}

#[test]
fn a_drop_falls_through_the_platform_stood_on_only() {
    for (name, intent) in [
        (
            "drop",
            Intent {
                drop: true,
                ..Intent::default()
            },
        ),
        (
            "crouch and jump",
            Intent {
                jump: true,
                crouch: true,
                ..Intent::default()
            },
        ),
    ] {
        for hz in [30.0, 60.0, 144.0] {
            let mut sim = Sim::new(
                ControllerConfig::default(),
                &floor(),
                Quat::IDENTITY,
                Vec3::new(0.0, 4.0, 0.0),
                hz,
            );
            sim.add_one_way(&platform((-3.0, 3.0), (-3.0, 3.0), 2.0), 1.0);
            sim.add_one_way(&platform((-3.0, 3.0), (-3.0, 3.0), 4.0), 1.0);
            sim.run(0.5, Intent::default());
            assert!(
                (sim.feet().y - 4.0).abs() < 0.01,
                "{name}, {hz} Hz: feet at {}",
                sim.feet()
            );
            let t = sim.tick(intent);
            assert!(t.report.dropped && !t.report.jumped, "{name}, {hz} Hz: {:?}", t.report);
            sim.run(2.0, Intent::default());
            assert!(
                sim.state.grounded() && (sim.feet().y - 2.0).abs() < 0.01,
                "{name}, {hz} Hz: landed at {}",
                sim.feet()
            );
            assert_eq!(sim.state.drop_through, None);
            // And once more, down to the floor.
            sim.tick(intent);
            sim.run(2.0, Intent::default());
            assert!(
                sim.feet().y.abs() < 0.01,
                "{name}, {hz} Hz: second drop to {}",
                sim.feet()
            );
        }
    }
}

#[test]
fn a_drop_on_solid_ground_does_nothing_and_crouch_jump_jumps() {
    let mut sim = Sim::new(ControllerConfig::default(), &floor(), Quat::IDENTITY, Vec3::ZERO, 60.0);
    sim.run(0.3, Intent::default());
    let t = sim.tick(Intent {
        drop: true,
        ..Intent::default()
    });
    assert!(!t.report.dropped && t.grounded);
    let t = sim.tick(Intent {
        jump: true,
        crouch: true,
        ..Intent::default()
    });
    assert!(t.report.jumped && !t.report.dropped);
}

/// Wandering over stacked one-way platforms, jumping and dropping at
/// random: the harness checks after every tick that the character is
/// inside no solid triangle, counting a one-way surface solid where the
/// tick began in front of it (it never sinks into one from above).
#[test]
fn wandering_over_one_way_platforms_never_sinks_into_one() {
    for hz in [30.0, 60.0, 144.0] {
        let mut sim = Sim::new(ControllerConfig::default(), &floor(), Quat::IDENTITY, Vec3::ZERO, hz);
        for (i, top) in [0.6f32, 1.3, 2.1].into_iter().enumerate() {
            let x = -4.0 + 3.0 * i as f32;
            sim.add_one_way(&platform((x, x + 4.0), (-3.0, 3.0), top), 1.0);
        }
        let mut rng = slidewalk_sweep::test_util::Lcg::new(hz as u64);
        let mut direction = Vec3::X;
        let mut on_top = 0;
        for k in 0..(20.0 * hz) as usize {
            if k % hz as usize == 0 {
                let a = rng.next_f32() * std::f32::consts::TAU;
                // Slowly, so that a jump comes down where it went up.
                direction = Vec3::new(a.cos(), 0.0, a.sin()) * 0.3;
                if sim.position().x.abs() > 4.0 || sim.position().z.abs() > 2.5 {
                    direction = -sim.position().with_y(0.0).normalize() * 0.3;
                }
            }
            let t = sim.tick(Intent {
                direction,
                jump: rng.next_f32() < 0.03,
                drop: rng.next_f32() < 0.01,
                crouch: rng.next_f32() < 0.1,
                ..Intent::default()
            });
            on_top += usize::from(t.grounded && sim.feet().y > 0.5);
        }
        assert!(on_top > 100, "{hz} Hz: stood on a platform only {on_top} ticks");
    }
}

/// Found by the fuzzer (`crates/fuzz/regressions/controller/`): standing
/// on the rim of a one-way launch pad under a tilted gravity, a crouch
/// moves the centre down along "up" (the feet kept) and is pushed back
/// out on top by the shape change, which judges the pad as the tick
/// found it; a launch the same tick then takes it off the ground and the
/// air pass judged the pad afresh from the moved centre, a hair less than
/// wholly in front of it: the pad let it through and the tick ended a
/// quarter of the radius inside it.
#[test]
fn a_crouch_then_a_launch_off_a_one_way_rim_does_not_sink_into_it() {
    use slidewalk_controller::test_util::clearance_after;
    use slidewalk_controller::{CharacterState, Controller, GroundContact, MoveState, Surroundings};

    let config = ControllerConfig {
        gravity: Vec3::new(-40.234375, -29.6875, -23.046875),
        ..ControllerConfig::default()
    };
    // The moves are off: only the launch and the crouch act.
    assert_eq!(config.dash_distance, 0.0);
    let controller = Controller::new(config).unwrap();
    let meshes = ground_and_pad(&floor(), &platform((-2.0, 2.0), (-1.0, 4.0), 0.1));
    let placed = with_one_way_pad(&meshes);
    let launch_pad = |c: usize| (c == 1).then_some(Vec3::new(0.0, 8.0, 2.0));
    let world = Surroundings::new(&placed).with_launch_pads(&launch_pad);
    // Standing (tipped over by the gravity) on the pad's edge at x = 2.
    let before = CharacterState {
        position: Vec3::new(2.3692398, 0.46522486, 1.9037696),
        velocity: Vec3::new(-0.26470584, 0.76341414, -0.5212672),
        up: Vec3::new(0.7307722, 0.53921056, 0.41859767),
        crouched: false,
        radii: Vec3::new(0.9, 0.4, 0.4),
        ground: Some(GroundContact {
            point: Vec3::new(2.0, 0.099999994, 1.9030521),
            normal: Vec3::X,
            contact_normal: Vec3::new(0.19557899, 0.980688, -1.3226668e-7),
            collider: 1,
            triangle: 3,
            friction: 1.0,
            velocity: Vec3::ZERO,
            on_edge: true,
        }),
        placed: false,
        air_time: 0.0,
        coyote_jump: true,
        jump_buffer: 0.13333334,
        drop_through: None,
        moves: MoveState::new(2.06702),
    };
    assert!(clearance_after(&before, &before, false, &placed) >= 1.0, "starts free");
    let intent = Intent {
        direction: Vec3::splat(-1.2),
        jump: true,
        crouch: true,
        dash: true,
        launch: Vec3::new(-15.9375, -15.78125, -12.5),
        ..Intent::default()
    };
    let mut state = before;
    let report = controller.tick(&mut state, &intent, &world, 0.1055582).unwrap();
    assert!(report.launched.is_some() && state.crouched, "{report:?}");
    assert!(!report.crushed, "{report:?}");
    let clearance = clearance_after(&before, &state, false, &placed);
    assert!(
        clearance >= 1.0 - 1e-4,
        "ended {} deep at {} (from {}): {report:?}",
        1.0 - clearance,
        state.position,
        before.position
    );
    // Sent down into the pad: held by it (its rim's side, walkable under
    // this gravity, is landed on at once).
    assert!(state.ground.is_some_and(|g| g.collider == 1), "{report:?}");
}

/// Found by the fuzzer (`crates/fuzz/regressions/controller/`): falling
/// (a launch the tick before, standing up) onto a one-way pad under a
/// tilted gravity, under which the pad's top is a wall, the air pass
/// lands the body on the pad's top and moving into it starts a mantle
/// that needs the crouched shape. The crouch keeps the feet along "up",
/// which lowers the centre along the pad's direction; the ledge search
/// judged the pad afresh from that lowered centre, a little less than
/// wholly in front of it, so it did not see the crouched shape overlap
/// the pad, and the mantle's start put the body 0.08 m inside the pad.
#[test]
fn a_mantle_that_crouches_next_to_a_one_way_pad_does_not_sink_into_it() {
    use slidewalk_controller::moves::WallTouch;
    use slidewalk_controller::test_util::{clearance_after, ramp};
    use slidewalk_controller::{CharacterState, Controller, MoveState, Surroundings};

    let config = ControllerConfig {
        walk_speed: 0.00020599365,
        gravity: Vec3::new(-20.625, -7.734375, 13.359375),
        ..ControllerConfig::default().with_every_move()
    };
    let config = ControllerConfig {
        mantle_height: 4.482422,
        ..config
    };
    let controller = Controller::new(config).unwrap();
    let mut course = Soup::default();
    slab(&mut course, 12.0, 0.0);
    ramp(&mut course, -1.0, 5.0, 1.5, 3.0, 2.0);
    let meshes = ground_and_pad(&course, &platform((-2.0, 2.0), (-1.0, 4.0), 0.1));
    let placed = with_one_way_pad(&meshes);
    let climbable = |c: usize| c == 0;
    let launch_pad = |c: usize| (c == 1).then_some(Vec3::new(0.0, 8.0, 2.0));
    let world = Surroundings::new(&placed)
        .with_climbable(&climbable)
        .with_launch_pads(&launch_pad);
    // In the air just over the pad's top (y = 0.1), standing, falling
    // along the tilted gravity.
    let mut moves = MoveState::new(-1.150249);
    moves.wall = Some(WallTouch {
        normal: Vec3::new(-0.25198177, 0.95386887, 0.16321546),
        since: 0.0,
        sliding: true,
    });
    let before = CharacterState {
        position: Vec3::new(-0.105213225, 0.5004, 0.79775965),
        velocity: Vec3::new(-9.734989, 0.0, -20.404543),
        up: Vec3::new(0.80059576, 0.3002234, -0.5185677),
        crouched: false,
        radii: Vec3::new(0.9, 0.4, 0.4),
        ground: None,
        placed: false,
        air_time: 0.033333335,
        coyote_jump: false,
        jump_buffer: 0.0,
        drop_through: None,
        moves,
    };
    assert!(clearance_after(&before, &before, false, &placed) >= 1.0, "starts free");
    let intent = Intent {
        direction: Vec3::splat(-1.2),
        ..Intent::default()
    };
    let mut state = before;
    let report = controller.tick(&mut state, &intent, &world, 1.0 / 60.0).unwrap();
    assert!(!report.crushed, "{report:?}");
    let clearance = clearance_after(&before, &state, false, &placed);
    assert!(
        clearance >= 1.0 - 1e-4,
        "ended {} deep at {} (from {}, crouched {}, mantle {:?}): {report:?}",
        1.0 - clearance,
        state.position,
        before.position,
        state.crouched,
        state.moves.mantle()
    );
}

/// Found by the world fuzz target (`crates/fuzz/regressions/world/
/// placed-on-a-one-way-rim-then-launched-down-into-it.bin`): a character
/// placed wholly above a one-way pad's rim is snapped down onto the rim,
/// where it hangs a little behind the top's plane, and the pad launches it
/// down and across into the pad in the same tick. Judged afresh from the
/// snapped centre the top did not hold it, and the air pass sank it 0.43 m
/// into the pad; judged from where the tick found it (as the change of
/// shape's pushes are) the top holds and it lands there.
#[test]
fn placed_on_a_one_way_rim_and_launched_down_it_does_not_sink_into_it() {
    use slidewalk_controller::test_util::clearance_after;
    use slidewalk_controller::{CharacterState, Controller, Surroundings};

    let config = ControllerConfig::default();
    let meshes = ground_and_pad(&floor(), &platform((-2.0, 2.0), (-2.0, 2.0), 1.0));
    let placed = with_one_way_pad(&meshes);
    let launch_pad = |c: usize| (c == 1).then_some(Vec3::new(-15.0, -15.0, 0.0));
    let world = Surroundings::new(&placed).with_launch_pads(&launch_pad);
    let controller = Controller::new(config).unwrap();
    for hz in [30.0f32, 60.0, 144.0] {
        // The feet a hair over the pad's top (1 m over the floor), the body
        // 0.3 m past its rim.
        let mut before = CharacterState::standing_at(Vec3::new(2.3, 1.0, 0.0), &config);
        before.placed = true;
        assert!(clearance_after(&before, &before, false, &placed) >= 1.0, "starts free");
        let mut state = before;
        let report = controller
            .tick(&mut state, &Intent::default(), &world, 1.0 / hz)
            .unwrap();
        assert!(report.found_ground && report.launched.is_some(), "{hz} Hz: {report:?}");
        let clearance = clearance_after(&before, &state, false, &placed);
        assert!(
            clearance >= 1.0 - 1e-4,
            "{hz} Hz: ended {} deep at {} (placed at {}): {report:?}",
            1.0 - clearance,
            state.position,
            before.position
        );
    }
}
