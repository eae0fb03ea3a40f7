//! Target `controller`: `Controller::new` with an arbitrary configuration
//! (each field its default, scaled, or anything: NaN, ±inf, 1e30, 0,
//! subnormal), then a few ticks of arbitrary intents and tick lengths on a
//! small generated course (slab, ramp, stairs, walls, a ceiling, random
//! triangles, at any scale) with, sometimes, a moving platform and a
//! one-way platform to jump up through and drop through; sometimes a
//! state with bad values, sometimes a live `reconfigure`.
//!
//! Checked: an invalid configuration is refused with a message naming the
//! field, never a panic later; `tick` refuses exactly a bad `dt` (with
//! `TickError::Dt`) and a bad state (`TickError::BadState`), leaving the
//! state untouched; an accepted tick leaves every number of the state and
//! the report finite, "up" unit and the radii valid; on a still course a
//! character that started free never ends penetrating (a one-way
//! platform counted solid where the tick began in front of it, as
//! `test_util::clearance_after` counts, except in a tick whose shape
//! change more than halves or doubles a radius). Cases may turn on how it
//! feels to move (`feel.rs`): Quake's air control, swimming in water over
//! the course, slides, ledges, a conveyor level.

mod feel;

use crate::draw;
use crate::signature::Signature;
use arbitrary::{Result, Unstructured};
use feel::Feel;
use glam::{Quat, Vec3};
use slidewalk_controller::test_util::clearance_after;
use slidewalk_controller::{
    CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickError, validate_dt,
};
use slidewalk_sweep::test_util::Soup;
use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider, Pose};

/// The target.
pub fn run(data: &[u8]) -> u64 {
    let mut u = Unstructured::new(data);
    match Case::generate(&mut u) {
        Ok(case) => case.check(),
        Err(_) => 0,
    }
}

/// Seeds: random bytes (the generator makes a case of any bytes).
pub fn seeds() -> Vec<Vec<u8>> {
    vec![
        vec![0; 256],
        vec![0x80; 512],
        (0..=255u8).rev().cycle().take(1024).collect(),
    ]
}

/// The case the bytes stand for.
pub fn describe(data: &[u8]) -> String {
    match Case::generate(&mut Unstructured::new(data)) {
        Ok(c) => format!(
            "config {:?}\nreconfigure {:?}\nscale {}\nstatic triangles {}\nplatform {}\nfeet {}\nbad state {:?}\nticks {:?}\none-way top {:?}\nfeel {:?}",
            c.config,
            c.reconfigure,
            c.scale,
            c.course.triangles.len(),
            c.platform.is_some(),
            c.feet,
            c.bad_state,
            c.ticks,
            c.one_way,
            c.feel
        ),
        Err(e) => format!("no case: {e}"),
    }
}

/// One generated case.
#[derive(Debug)]
pub struct Case {
    config: ControllerConfig,
    reconfigure: Option<(usize, ControllerConfig)>,
    scale: f32,
    course: Soup,
    /// The platform's amplitude (metres) and turn rate (rad/s), if any.
    platform: Option<(Vec3, f32)>,
    feet: Vec3,
    bad_state: Option<(u8, Vec3)>,
    ticks: Vec<(Intent, f32)>,
    /// A one-way platform over the start, its top this high (metres).
    one_way: Option<f32>,
    /// How it feels to move: the config's feel, water, a conveyor, the look's pitch.
    feel: Feel,
}

/// An arbitrary configuration: each field default, scaled, or anything.
fn config(u: &mut Unstructured<'_>) -> Result<ControllerConfig> {
    let d = ControllerConfig::default();
    let radii = |u: &mut Unstructured<'_>, r: Vec3| -> Result<Vec3> {
        Ok(match u.int_in_range(0u8..=7)? {
            0 => draw::any_vec3(u, 2.0)?,
            1 => r * draw::in_range(u, 0.02, 20.0)?,
            _ => r,
        })
    };
    Ok(ControllerConfig {
        standing_radii: radii(u, d.standing_radii)?,
        crouched_radii: radii(u, d.crouched_radii)?,
        walk_speed: draw::maybe_f32(u, d.walk_speed, 100.0)?,
        sprint_speed: draw::maybe_f32(u, d.sprint_speed, 100.0)?,
        crouch_speed: draw::maybe_f32(u, d.crouch_speed, 100.0)?,
        ground_acceleration: draw::maybe_f32(u, d.ground_acceleration, 1000.0)?,
        air_acceleration: draw::maybe_f32(u, d.air_acceleration, 1000.0)?,
        ground_friction: draw::maybe_f32(u, d.ground_friction, 1000.0)?,
        jump_height: draw::maybe_f32(u, d.jump_height, 10.0)?,
        gravity: match u.int_in_range(0u8..=7)? {
            0 => draw::any_vec3(u, 50.0)?,
            1 => draw::sane_vec3(u, 30.0)?,
            2 => Vec3::ZERO,
            _ => d.gravity,
        },
        walkable_slope_deg: draw::maybe_f32(u, d.walkable_slope_deg, 90.0)?,
        step_height: draw::maybe_f32(u, d.step_height, 1.0)?,
        snap_distance: draw::maybe_f32(u, d.snap_distance, 5.0)?,
        skin: draw::maybe_f32(u, d.skin, 0.05)?,
        slide_iterations: if u.ratio(1u8, 8)? {
            u.int_in_range(0u32..=40)?
        } else {
            d.slide_iterations
        },
        coyote_time: draw::maybe_f32(u, d.coyote_time, 1.0)?,
        jump_buffer: draw::maybe_f32(u, d.jump_buffer, 1.0)?,
        max_fall_speed: draw::maybe_f32(u, d.max_fall_speed, 100.0)?,
        // The moves: off (the default), a game's values, or anything.
        ..if u.ratio(1u8, 3)? {
            d
        } else {
            let on = |u: &mut Unstructured<'_>, v: f32, max: f32| draw::maybe_f32(u, v, max);
            let count = |u: &mut Unstructured<'_>| -> Result<u32> {
                Ok(if u.ratio(1u8, 8)? {
                    u.int_in_range(0u32..=200)?
                } else {
                    1
                })
            };
            ControllerConfig {
                min_jump_height: on(u, 0.4, 10.0)?,
                air_jumps: count(u)?,
                dash_distance: on(u, 4.0, 200.0)?,
                dash_time: on(u, 0.2, 1.0)?,
                dash_cooldown: on(u, 0.5, 2.0)?,
                air_dashes: count(u)?,
                wall_slide_speed: on(u, 2.0, 100.0)?,
                wall_jump_height: on(u, 1.0, 10.0)?,
                wall_jump_push: on(u, 5.0, 100.0)?,
                mantle_height: on(u, 1.5, 10.0)?,
                mantle_time: on(u, 0.35, 2.0)?,
                climb_speed: on(u, 2.5, 100.0)?,
                ..d
            }
        }
    })
}

impl Case {
    /// Draws a case from the bytes.
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let config = config(u)?;
        let reconfigure = if u.ratio(1u8, 6)? {
            Some((u.int_in_range(0usize..=5)?, self::config(u)?))
        } else {
            None
        };
        let scale = match u.int_in_range(0u8..=5)? {
            0 => draw::in_range(u, 0.05, 20.0)?,
            _ => 1.0,
        };
        let s = scale;
        let mut course = Soup::default();
        slidewalk_controller::test_util::slab(&mut course, 12.0 * s, 0.0);
        for _ in 0..u.int_in_range(0u8..=4)? {
            match u.int_in_range(0u8..=5)? {
                0 => {
                    let angle = draw::in_range(u, 5.0, 85.0)?;
                    slidewalk_controller::test_util::ramp(&mut course, -s, angle, 1.5 * s, 3.0 * s, 2.0 * s);
                }
                1 => {
                    let rise = draw::in_range(u, 0.02, 0.8)? * s;
                    slidewalk_controller::test_util::stairs(&mut course, -s, rise, 0.3 * s, 4, s, 3.0 * s);
                }
                2 => {
                    // A wall across the way.
                    let z = draw::in_range(u, -4.0, -0.5)? * s;
                    course.cuboid(Vec3::new(-3.0 * s, 0.0, z - 0.2 * s), Vec3::new(3.0 * s, 3.0 * s, z));
                }
                3 => {
                    // A ceiling, maybe lower than the character.
                    let h = draw::in_range(u, 0.5, 3.0)? * s;
                    course.cuboid(
                        Vec3::new(-4.0 * s, h, -4.0 * s),
                        Vec3::new(4.0 * s, h + 0.3 * s, 4.0 * s),
                    );
                }
                4 => {
                    let (a, b, c) = (
                        draw::sane_vec3(u, 3.0 * s)?,
                        draw::sane_vec3(u, 3.0 * s)?,
                        draw::sane_vec3(u, 3.0 * s)?,
                    );
                    course.tri(a, b, c);
                }
                _ => {
                    // A narrow gap between two walls.
                    let w = draw::in_range(u, 0.1, 1.2)? * s;
                    course.cuboid(Vec3::new(-w - s, 0.0, -6.0 * s), Vec3::new(-w, 2.5 * s, -s));
                    course.cuboid(Vec3::new(w, 0.0, -6.0 * s), Vec3::new(w + s, 2.5 * s, -s));
                }
            }
        }
        let platform = if u.ratio(1u8, 3)? {
            Some((draw::sane_vec3(u, 2.0 * s)?, draw::unit(u)? * 3.0))
        } else {
            None
        };
        let feet = match u.int_in_range(0u8..=7)? {
            0 => draw::any_vec3(u, 5.0)?,
            1 => draw::sane_vec3(u, 4.0 * s)?,
            _ => Vec3::new(draw::unit(u)? * 2.0 * s, 0.0, draw::unit(u)? * 2.0 * s + 2.0 * s),
        };
        let bad_state = if u.ratio(1u8, 10)? {
            Some((u.int_in_range(0u8..=5)?, draw::any_vec3(u, 1.0)?))
        } else {
            None
        };
        let mut ticks = Vec::new();
        for _ in 0..u.int_in_range(1u8..=10)? {
            let direction = match u.int_in_range(0u8..=7)? {
                0 => draw::any_vec3(u, 2.0)?,
                _ => draw::sane_vec3(u, 1.2)?,
            };
            let intent = Intent {
                direction,
                jump: u.ratio(1u8, 4)?,
                crouch: u.ratio(1u8, 5)?,
                sprint: u.arbitrary()?,
                drop: false,
                jump_held: u.arbitrary()?,
                dash: u.ratio(1u8, 6)?,
                facing: if u.ratio(1u8, 8)? {
                    draw::any_vec3(u, 10.0)?
                } else {
                    Vec3::NEG_Z
                },
                launch: match u.int_in_range(0u8..=15)? {
                    0 => draw::any_vec3(u, 100.0)?,
                    1 => draw::sane_vec3(u, 20.0)?,
                    _ => Vec3::ZERO,
                },
                // Drawn last (feel.rs).
                pitch: 0.0,
            };
            let dt = match u.int_in_range(0u8..=9)? {
                0 => draw::any_f32(u, 1.0)?,
                1 => draw::in_range(u, 0.0001, 1.0)?,
                _ => 1.0 / 60.0,
            };
            ticks.push((intent, dt));
        }
        // Drawn last, so older corpus files keep their meaning.
        let drops: u16 = u.arbitrary()?;
        for (k, (intent, _)) in ticks.iter_mut().enumerate() {
            intent.drop = drops & (1 << k) != 0;
        }
        let one_way = if u.ratio(1u8, 3)? {
            Some(draw::in_range(u, 0.1, 2.5)? * scale)
        } else {
            None
        };
        let feel = Feel::generate(u, ticks.len(), scale)?;
        for ((intent, _), pitch) in ticks.iter_mut().zip(&feel.pitches) {
            intent.pitch = *pitch;
        }
        Ok(Self {
            config: feel.apply(config),
            feel,
            reconfigure,
            scale,
            course,
            platform,
            feet,
            bad_state,
            ticks,
            one_way,
        })
    }

    /// Runs the ticks and checks the invariants; panics on a violation.
    pub fn check(&self) -> u64 {
        let mut sig = Signature::default();
        let mut controller = match Controller::new(self.config) {
            Ok(c) => c,
            Err(e) => {
                let message = e.to_string();
                assert!(!message.is_empty());
                // The message starts with the field's name.
                let field = message.split(' ').next().unwrap_or("");
                sig.add_text(field);
                return sig.finish();
            }
        };
        let statics = MeshCollider::build(&self.course.positions, &self.course.triangles).expect("the course builds");
        let mut platform_soup = Soup::default();
        let s = self.scale;
        platform_soup.cuboid(Vec3::new(-1.0, -0.2, -1.0) * s, Vec3::new(1.0, 0.0, 1.0) * s);
        let platform = MeshCollider::build(&platform_soup.positions, &platform_soup.triangles).expect("builds");
        let one_way = self.one_way.map(|top| {
            let mut soup = Soup::default();
            soup.cuboid(Vec3::new(-2.0 * s, top - 0.2 * s, -s), Vec3::new(2.0 * s, top, 4.0 * s));
            MeshCollider::build(&soup.positions, &soup.triangles).expect("builds")
        });
        let pose_at = |t: f32, (amplitude, turn): (Vec3, f32)| Pose {
            rotation: Quat::from_rotation_y(turn * t),
            translation: Vec3::new(3.0, 0.5, 0.0) * s + amplitude * (2.0 * t).sin(),
        };

        let mut state = CharacterState::standing_at(self.feet, controller.config());
        if let Some((field, v)) = self.bad_state {
            match field {
                0 => state.position = v,
                1 => state.velocity = v,
                2 => state.up = v,
                3 => state.radii = v,
                4 => state.air_time = v.x,
                _ => state.jump_buffer = v.y,
            }
        }
        let mut time = 0.0f32;
        for (k, &(intent, dt)) in self.ticks.iter().enumerate() {
            let mut placed = vec![PlacedCollider::fixed(&statics)];
            if let Some(one_way) = &one_way {
                placed.push(PlacedCollider::fixed(one_way).with_one_way(Some(Vec3::Y)));
            }
            if let Some(p) = self.platform {
                let step = if dt.is_finite() && dt > 0.0 { dt } else { 1.0 / 60.0 };
                let (before, now) = (pose_at(time, p), pose_at(time + step, p));
                placed.push(PlacedCollider::from_poses(&platform, before, now, step));
            }
            let colliders: &[PlacedCollider<'_>] = &placed;
            // The static level is climbable; the one-way platform a launch pad.
            let climbable = |c: usize| c == 0;
            let launch_pad = |c: usize| (c == 1 && one_way.is_some()).then_some(Vec3::new(0.0, 8.0, 2.0));
            let conveyor = |c: usize| (c == 0).then_some(self.feel.conveyor).flatten();
            let water = |p: Vec3, up: Vec3| self.feel.depth(p, up);
            let world = Surroundings::new(colliders)
                .with_climbable(&climbable)
                .with_launch_pads(&launch_pad)
                .with_conveyors(&conveyor)
                .with_water(&water);
            if let Some((at, config)) = self.reconfigure
                && at == k
            {
                let old = *controller.config();
                let before = state;
                match controller.reconfigure(config, &mut state, &world) {
                    Ok(()) => {
                        config.validate().expect("an accepted configuration is valid");
                        sig.add(1);
                    }
                    Err(e) => {
                        assert!(!e.to_string().is_empty());
                        assert_eq!(
                            *controller.config(),
                            old,
                            "a refused configuration changed the controller"
                        );
                        assert!(same(&state, &before), "a refused configuration changed the state");
                        sig.add(2);
                    }
                }
            }
            let before = state;
            let free_before = Ellipsoid::new(state.radii)
                .ok()
                .filter(|_| state.position.is_finite())
                .is_some_and(|_| clearance_after(&state, &state, false, colliders) >= 1.0);
            let bad_state = !(state.position.is_finite()
                && state.velocity.is_finite()
                && state.velocity.length() <= slidewalk_controller::MAX_STATE_SPEED
                && state.up.is_finite()
                && state.air_time.is_finite()
                && state.air_time >= 0.0
                && state.jump_buffer.is_finite()
                && state.jump_buffer >= 0.0)
                || Ellipsoid::new(state.radii).is_err();
            match controller.tick(&mut state, &intent, &world, dt) {
                Err(TickError::Dt(e)) => {
                    assert!(validate_dt(dt).is_err(), "dt {dt} refused: {e}");
                    assert!(e.to_string().starts_with("dt"), "{e}");
                    assert!(same(&state, &before), "a refused tick changed the state");
                    sig.add(10);
                }
                Err(TickError::BadState) => {
                    assert!(bad_state, "a good state refused: {before:?}");
                    assert!(same(&state, &before), "a refused tick changed the state");
                    sig.add(11);
                    return sig.finish();
                }
                Ok(report) => {
                    assert!(validate_dt(dt).is_ok(), "dt {dt} accepted");
                    assert!(!bad_state, "a bad state accepted: {before:?}");
                    check_state(&state, &before, dt);
                    assert!(
                        report.pushed.is_finite() && report.carried.is_finite() && report.heading_delta.is_finite(),
                        "report {report:?}"
                    );
                    if self.platform.is_none() && free_before && !report.crushed {
                        // A shape change that more than halves or doubles
                        // a radius (the arbitrary configs' 33 m-tall
                        // standing shape crouching to 1.1 m) moves the
                        // centre by metres: which one-way surfaces the
                        // new shape is in front of is then the controller's
                        // judgement made there, which this check cannot
                        // redo; such a tick counts them as passable.
                        let ratio = (state.radii / before.radii)
                            .max(before.radii / state.radii)
                            .max_element();
                        let passable = report.dropped || ratio > 2.0;
                        // A placed character that found its ground was put
                        // down onto it before its moves, by up to the
                        // search's reach: below a one-way top beside it
                        // that it began above. Judged from that low, a
                        // surface holds only if it held wherever it began.
                        let mut from = before;
                        if before.placed && report.found_ground {
                            let reach = controller.config().snap_distance
                                + 8.0 * controller.config().skin * before.radii.max_element();
                            // The up the tick went by (a bad state's own may be anything).
                            from.position -= state.up * reach;
                        }
                        let depth = 1.0 - clearance_after(&from, &state, passable, colliders);
                        let scale = ((state.position.abs() + before.position.abs()) / state.radii).max_element()
                            + (12.0 * s / state.radii.min_element());
                        let tol = 1e-4 + 64.0 * f32::EPSILON * scale;
                        assert!(
                            depth <= tol,
                            "tick {k} from a free start at {} ends {depth} deep at {} (tolerance {tol})",
                            before.position,
                            state.position
                        );
                    }
                    sig.add(20 + report.grounded_code());
                    time += dt;
                }
            }
        }
        sig.finish()
    }
}

/// The same state, NaN equal to NaN (compared as printed).
fn same(a: &CharacterState, b: &CharacterState) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// A small code of what a tick did, for the signature.
trait Code {
    fn grounded_code(&self) -> u64;
}

impl Code for slidewalk_controller::TickReport {
    fn grounded_code(&self) -> u64 {
        self.ground.is_some() as u64
            | (self.stepped as u64) << 1
            | (self.snapped as u64) << 2
            | (self.landed as u64) << 3
            | (self.jumped as u64) << 4
            | (self.crushed as u64) << 5
            | (self.stand_blocked as u64) << 6
    }
}

/// Every number of an accepted tick's state is usable.
fn check_state(state: &CharacterState, before: &CharacterState, dt: f32) {
    let context = || format!("after a tick of {dt} s from {before:?}: {state:?}");
    assert!(state.position.is_finite(), "position: {}", context());
    assert!(state.velocity.is_finite(), "velocity: {}", context());
    assert!((state.up.length() - 1.0).abs() < 1e-3, "up: {}", context());
    assert!(Ellipsoid::new(state.radii).is_ok(), "radii: {}", context());
    assert!(
        state.air_time.is_finite() && state.air_time >= 0.0,
        "air time: {}",
        context()
    );
    assert!(
        state.jump_buffer.is_finite() && state.jump_buffer >= 0.0,
        "jump buffer: {}",
        context()
    );
    if let Some(g) = state.ground {
        assert!(
            g.point.is_finite() && g.normal.is_finite() && g.velocity.is_finite() && (0.0..=1.0).contains(&g.friction),
            "ground: {}",
            context()
        );
    }
}
