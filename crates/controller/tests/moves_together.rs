//! The moves meeting each other, steps and the config: a low climbable
//! riser is a step, a jump and a dash pressed together are a jump, climbing
//! down to the ground is a landing, climbing turned off mid-climb lets go
//! unpushed, and a jump cut pending when a climb starts does not cut the
//! climb's let-go.

use glam::{Quat, Vec3};
use slidewalk_controller::test_util::{Sim, slab};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::test_util::Soup;

fn game() -> ControllerConfig {
    ControllerConfig::default().with_every_move()
}

fn course(climbable: [[f32; 3]; 2]) -> Sim {
    let mut floor = Soup::default();
    slab(&mut floor, 40.0, 0.0);
    let mut sim = Sim::new(game(), &floor, Quat::IDENTITY, Vec3::ZERO, 60.0);
    let mut wall = Soup::default();
    wall.cuboid(Vec3::from(climbable[0]), Vec3::from(climbable[1]));
    sim.add_climbable(&wall);
    sim.run(0.2, Intent::default());
    sim
}

fn toward(direction: Vec3) -> Intent {
    Intent {
        direction,
        ..Intent::default()
    }
}

#[test]
fn a_climbable_riser_within_the_step_height_is_walked_up_not_climbed() {
    let mut s = course([[-2.0, 0.0, -8.0], [2.0, 0.3, -2.0]]);
    for t in s.run(1.0, toward(Vec3::NEG_Z)) {
        assert!(
            !t.report.climb_started && !t.report.climbing,
            "climbed a 0.3 m riser at t = {}",
            t.time
        );
    }
    assert!(
        s.state.grounded() && (s.feet().y - 0.3).abs() < 0.01,
        "feet at {}",
        s.feet()
    );
    assert!(s.state.velocity.length() > 4.0, "stopped: {}", s.state.velocity);
}

#[test]
fn a_jump_and_a_dash_pressed_together_are_a_jump_and_the_air_dash_is_left() {
    let mut s = course([[10.0, 0.0, 10.0], [11.0, 1.0, 11.0]]);
    let both = Intent {
        direction: Vec3::NEG_Z,
        jump: true,
        jump_held: true,
        dash: true,
        ..Intent::default()
    };
    let t = s.tick(both);
    assert!(t.report.jumped && t.report.dashed.is_none(), "{:?}", t.report);
    assert_eq!(s.state.moves.dash_cooldown, 0.0);
    // In the air, the dash asked for next is still there.
    let t = s.tick(Intent {
        dash: true,
        jump_held: true,
        ..toward(Vec3::NEG_Z)
    });
    assert_eq!(t.report.dashed, Some(Vec3::NEG_Z));
}

#[test]
fn climbing_down_to_the_ground_lands_and_turning_climbing_off_lets_go_unpushed() {
    let mut s = course([[-2.0, 0.0, -5.0], [2.0, 4.0, -1.0]]);
    s.run(1.0, toward(Vec3::NEG_Z));
    assert!(s.state.moves.climb().is_some() && s.feet().y > 0.5);
    let landed = s.run(3.0, toward(Vec3::Z)).iter().filter(|t| t.report.landed).count();
    assert_eq!(landed, 1);
    assert!(s.state.grounded() && s.state.moves.climb().is_none());

    // Back to the ladder and up again (it walked away from it climbing
    // down), then climbing switched off: it falls straight down, no jump.
    for _ in 0..600 {
        if s.state.moves.climb().is_some() && s.feet().y > 1.0 {
            break;
        }
        s.tick(toward(Vec3::NEG_Z));
    }
    assert!(s.state.moves.climb().is_some());
    let z = s.position().z;
    s.reconfigure(ControllerConfig {
        climb_speed: 0.0,
        ..game()
    })
    .unwrap();
    let t = s.tick(Intent::default());
    assert!(
        t.report.climb_ended && t.velocity.y <= 0.0 && t.velocity.z.abs() < 1e-3,
        "{:?}",
        t.velocity
    );
    s.run(1.5, Intent::default());
    assert!(
        s.state.grounded() && (s.position().z - z).abs() < 0.05,
        "pushed to {}",
        s.position()
    );
}

#[test]
fn a_jump_onto_a_ladder_then_a_let_go_rises_the_wall_jump_height() {
    let mut s = course([[-2.0, 0.0, -5.0], [2.0, 8.0, -1.0]]);
    // A tap jump into the ladder: its cut is pending when the climb starts.
    s.tick(Intent {
        direction: Vec3::NEG_Z,
        jump: true,
        ..Intent::default()
    });
    s.run(1.0, toward(Vec3::NEG_Z));
    assert!(s.state.moves.climb().is_some() && s.state.moves.jump_cut.is_none());
    let from = s.feet().y;
    s.tick(Intent {
        jump: true,
        ..Intent::default()
    });
    let mut top = from;
    while s.state.velocity.y > 0.0 {
        s.tick(Intent::default());
        top = top.max(s.feet().y);
    }
    // wall_jump_height 1 m.
    assert!((top - from - 1.0).abs() < 0.05, "rose {} m", top - from);
}
