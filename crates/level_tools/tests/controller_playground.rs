//! The character controller on the demo level itself (`playground.glb`, as
//! generated): its stairs, ledge, ramps, low ceiling, ice patch, lift,
//! door, one-way stack, crowd barrier and grate, walked as a player would,
//! every tick checked for penetration.

use glam::Vec3;
use slidewalk_controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickReport};
use slidewalk_level::layers::PLAYER_LAYERS;
use slidewalk_level::{Level, MoverKind};
use slidewalk_level_tools::generate::playground::*;
use slidewalk_sweep::{Ellipsoid, Pose, closest_point_on_triangle};
use std::path::Path;

fn playground() -> Level {
    slidewalk_level::load_bytes(
        &slidewalk_level_tools::generate::playground_glb(),
        None,
        Path::new("playground.glb"),
    )
    .unwrap()
}

/// A player on the playground: movers posed by time (the lift on its
/// schedule, the door at `door_openness`).
struct Player<'l> {
    level: &'l Level,
    controller: Controller,
    state: CharacterState,
    time: f64,
    dt: f32,
    door_openness: f32,
}

impl<'l> Player<'l> {
    fn at(level: &'l Level, feet: Vec3) -> Self {
        let config = ControllerConfig::default();
        Self {
            level,
            state: CharacterState::standing_at(feet, &config),
            controller: Controller::new(config).unwrap(),
            time: 0.0,
            dt: 1.0 / 60.0,
            door_openness: 0.0,
        }
    }

    fn poses(&self, t: f64) -> Vec<Pose> {
        self.level
            .movers
            .iter()
            .map(|m| match m.kind {
                MoverKind::Lift(lift) => m.pose_at(lift.openness_at(t)),
                MoverKind::Door(_) => m.pose_at(self.door_openness),
            })
            .collect()
    }

    fn tick(&mut self, intent: Intent) -> TickReport {
        let t = self.time + self.dt as f64;
        let (now, before) = (self.poses(t), self.poses(self.time));
        // The level as the game places it: statics, parts, movers.
        let colliders = self.level.placed(&now, &before, self.dt);
        let friction = |c: usize, tri: u32| self.level.friction(c, tri);
        let world = Surroundings::new(&colliders)
            .with_friction(&friction)
            .with_layers(PLAYER_LAYERS);
        let report = self.controller.tick(&mut self.state, &intent, &world, self.dt).unwrap();
        // Never inside anything solid to the player, never NaN (one-way
        // platforms are passed through, and barriers are not met).
        let e = Ellipsoid::new(self.state.radii).unwrap();
        let r = e.radii();
        let p = self.state.position;
        assert!(p.is_finite());
        let solid = colliders
            .iter()
            .filter(|c| c.one_way.is_none() && PLAYER_LAYERS.interacts_with(c.layers));
        for c in solid {
            for tri in c.mesh.triangles() {
                let [a, b, cc] = tri.map(|v| (c.pose.transform_point(v) - p) / r);
                let d = closest_point_on_triangle(Vec3::ZERO, a, b, cc).length();
                assert!(d >= 1.0 - 1e-4, "penetrating by {} at {p}, t = {t}", 1.0 - d);
            }
        }
        self.time = t;
        report
    }

    fn run(&mut self, seconds: f32, intent: Intent) -> Vec<TickReport> {
        (0..(seconds / self.dt).round() as usize)
            .map(|_| self.tick(intent))
            .collect()
    }

    fn feet(&self) -> Vec3 {
        self.state.feet()
    }
}

fn towards(direction: Vec3) -> Intent {
    Intent {
        direction,
        ..Intent::default()
    }
}

#[test]
fn both_flights_of_stairs_are_climbed_and_the_ledge_blocks() {
    let level = playground();
    for flight in [STAIRS_015, STAIRS_030] {
        let mut p = Player::at(&level, flight.base - flight.dir * 1.5);
        p.run(0.2, Intent::default());
        let mut top: f32 = 0.0;
        for _ in 0..120 {
            p.tick(towards(flight.dir));
            top = top.max(p.feet().y);
        }
        assert!(
            top > flight.top() - 0.01,
            "{}: got to {top} of {}",
            flight.name,
            flight.top()
        );
    }
    let (min, max) = LEDGE_070;
    let front = Vec3::new((min.x + max.x) / 2.0, 0.0, max.z + 1.0);
    let mut p = Player::at(&level, front);
    p.run(2.0, towards(Vec3::NEG_Z));
    assert!(p.feet().y < 0.01, "walked onto the 0.7 m ledge: {}", p.feet());
}

#[test]
fn walkable_ramps_are_climbed_and_the_55_degree_one_is_not() {
    let level = playground();
    for ramp in RAMPS {
        let mut p = Player::at(&level, ramp.base() - ramp.dir * 1.0);
        p.run(0.2, Intent::default());
        let reports = p.run((ramp.run() + 2.0) / 4.5, towards(ramp.dir));
        let on_platform = (p.feet().y - ramp.height).abs() < 0.02;
        assert_eq!(on_platform, ramp.walkable, "{}: feet at {}", ramp.name, p.feet());
        if ramp.walkable {
            assert!(
                reports[30..].iter().all(|r| r.ground.is_some()),
                "{}: airborne on the way up",
                ramp.name
            );
        }
    }
}

#[test]
fn idle_on_the_40_degree_ramp_stays_put() {
    let level = playground();
    let ramp = RAMPS[2];
    let mut p = Player::at(&level, ramp.surface_at(1.0) + Vec3::Y * 0.1);
    p.run(0.5, Intent::default());
    let settled = p.state.position;
    p.run(10.0, Intent::default());
    assert!((p.state.position - settled).length() < 1e-3);
}

#[test]
fn the_low_ceiling_needs_a_crouch_and_standing_waits_until_clear() {
    let level = playground();
    let c = LOW_CEILING.centre();
    let mut p = Player::at(&level, Vec3::new(c.x, 0.0, LOW_CEILING.max.y + 1.5));
    p.run(0.2, Intent::default());
    p.run(2.0, towards(Vec3::NEG_Z));
    assert!(
        p.state.position.z > LOW_CEILING.max.y,
        "standing, got under the 1.3 m ceiling"
    );
    let crouched = Intent {
        direction: Vec3::NEG_Z,
        crouch: true,
        ..Intent::default()
    };
    p.run(1.5, crouched);
    assert!(
        p.state.position.z < LOW_CEILING.max.y - 0.5,
        "crouched, did not get under"
    );
    let report = p.tick(Intent::default());
    assert!(report.stand_blocked && p.state.crouched);
    p.run(3.0, towards(Vec3::NEG_Z));
    assert!(
        !p.state.crouched && p.state.position.z < LOW_CEILING.min.y,
        "at {}",
        p.state.position
    );
}

#[test]
fn the_ice_patch_is_slippery() {
    let level = playground();
    let c = ICE_PATCH.centre();
    let mut p = Player::at(&level, Vec3::new(c.x, 0.0, ICE_PATCH.max.y - 0.5));
    let reports = p.run(0.3, Intent::default());
    assert_eq!(reports.last().unwrap().ground.unwrap().friction, ICE_FRICTION);
    // Run onto the ice from normal ground and let go: it carries on (on
    // normal ground it would stop within 0.25 m).
    let mut p = Player::at(&level, Vec3::new(c.x, 0.0, ICE_PATCH.max.y + 2.5));
    p.run(0.2, Intent::default());
    p.run(0.9, towards(Vec3::NEG_Z));
    let released = p.state.position;
    assert!(released.z < ICE_PATCH.max.y - 0.5, "{released}");
    p.run(0.8, Intent::default());
    assert!((p.state.position - released).length() > 2.0, "stopped short on ice");
}

#[test]
fn the_lift_takes_the_player_to_the_upper_floor() {
    let level = playground();
    let mut p = Player::at(&level, LIFT_REST + Vec3::Y * LIFT_SIZE.y);
    // Ride for one way (pause 2 s + 4 m at 1.5 m/s), then walk off towards −x.
    let reports = p.run(2.0 + 4.0 / 1.5 + 0.3, Intent::default());
    assert!(reports[10..].iter().all(|r| r.ground.is_some()), "lost the lift");
    assert!((p.feet().y - UPPER_FLOOR_HEIGHT).abs() < 0.02, "feet at {}", p.feet());
    p.run(1.0, towards(Vec3::NEG_X));
    assert!(p.feet().x < UPPER_FLOOR.max.x - 1.0 && (p.feet().y - UPPER_FLOOR_HEIGHT).abs() < 0.02);
}

#[test]
fn the_closed_door_blocks_and_the_open_door_lets_through() {
    let level = playground();
    for (openness, passes) in [(0.0, false), (1.0, true)] {
        let mut p = Player::at(&level, Vec3::new(0.0, 0.0, DIVIDER_Z + 3.0));
        p.door_openness = openness;
        p.run(2.5, towards(Vec3::NEG_Z));
        assert_eq!(
            p.state.position.z < DIVIDER_Z - 1.0,
            passes,
            "door {openness}: at {}",
            p.state.position
        );
    }
}

/// Walks along `dir` until the feet are `target` or beyond along it, then
/// stands until still.
fn walk_to(p: &mut Player<'_>, dir: Vec3, target: f32) {
    for _ in 0..600 {
        if p.feet().dot(dir) >= target {
            break;
        }
        p.tick(towards(dir));
    }
    p.run(0.5, Intent::default());
}

/// Jumps once and lands (the feet's height after landing).
fn jump(p: &mut Player<'_>) -> f32 {
    p.tick(Intent {
        jump: true,
        ..Intent::default()
    });
    let reports = p.run(1.5, Intent::default());
    assert!(
        reports.last().unwrap().ground.is_some(),
        "still in the air at {}",
        p.feet()
    );
    p.feet().y
}

#[test]
fn the_one_way_stack_is_jumped_up_through_and_dropped_down_through() {
    let level = playground();
    let (_, min, max) = ONE_WAY_STACK[0];
    // On the ground under the lowest platform's free end (inside its slab).
    let x = (min.x + max.x) / 2.0;
    let mut p = Player::at(&level, Vec3::new(x, 0.0, max.z - 0.75));
    p.run(0.3, Intent::default());
    assert!(p.feet().y.abs() < 0.01, "{}", p.feet());
    // Up through each, from under the next one's near end.
    for (k, (name, min, max)) in ONE_WAY_STACK.into_iter().enumerate() {
        if k > 0 {
            walk_to(&mut p, Vec3::NEG_Z, -(max.z - 0.75));
        }
        let landed = jump(&mut p);
        assert!((landed - max.y).abs() < 0.02, "{name}: landed at {}", p.feet());
        assert!(p.feet().z > min.z && p.feet().z < max.z);
    }
    // Standing still on the top one holds.
    p.run(1.0, Intent::default());
    assert!((p.feet().y - ONE_WAY_STACK[2].2.y).abs() < 0.02);
    // Dropping goes through the one stood on only: onto the middle one below.
    p.tick(Intent {
        drop: true,
        ..Intent::default()
    });
    p.run(1.5, Intent::default());
    assert!(
        (p.feet().y - ONE_WAY_STACK[1].2.y).abs() < 0.02,
        "dropped to {}",
        p.feet()
    );
    // From the middle one's far end (no platform under it) to the ground.
    p.tick(Intent {
        drop: true,
        ..Intent::default()
    });
    p.run(1.5, Intent::default());
    assert!(p.feet().y.abs() < 0.02, "dropped to {}", p.feet());
}

#[test]
fn the_player_walks_through_the_crowd_barrier_and_not_through_the_grate() {
    let level = playground();
    let entrance = (BALL_ROOM_ENTRANCE.0 + BALL_ROOM_ENTRANCE.1) / 2.0;
    let mut p = Player::at(&level, Vec3::new(entrance, 0.0, BALL_ROOM.max.y + 3.0));
    p.run(0.2, Intent::default());
    p.run(1.5, towards(Vec3::NEG_Z));
    assert!(
        p.feet().z < CROWD_BARRIER.0.z - 2.0,
        "the barrier stopped the player: {}",
        p.feet()
    );
    let mut p = Player::at(&level, Vec3::new(BALL_ROOM.max.x - 2.0, 0.0, -16.0));
    p.run(0.2, Intent::default());
    p.run(2.0, towards(Vec3::X));
    assert!(p.feet().x < GRATE.0.x - 0.39, "through the grate: {}", p.feet());
    assert!(p.feet().x > GRATE.0.x - 0.41, "short of the grate: {}", p.feet());
}
