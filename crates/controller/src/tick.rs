//! `Controller::tick`: one fixed tick of the walking rules, as passes of
//! collide-and-slide — shape, platform carry, walk (with step-up) and ground
//! snap, or the air motion with gravity.

use crate::config::{ConfigError, ControllerConfig, validate_dt};
use crate::frame::{extent_along, horizontal, up_from_gravity, world_radii};
use crate::state::{CharacterState, GroundContact, Intent, Pass, PassContact, TickReport};
use crate::support::Support;
use crate::world::World;
use glam::{Quat, Vec3};
use std::fmt;
use sweep::{ContactResponse, Ellipsoid, SlideOptions, SlideResult, collide_and_slide_with, depenetrate};

/// The walking rules with a validated configuration.
#[derive(Clone, Debug)]
pub struct Controller {
    config: ControllerConfig,
}

/// Why a tick was refused (the state is left unchanged).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TickError {
    /// The tick length is not a finite number in (0, 1] seconds.
    Dt(ConfigError),
    /// The state given holds a NaN or infinite value, or invalid radii.
    BadState,
}

impl fmt::Display for TickError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Dt(e) => e.fmt(f),
            Self::BadState => write!(f, "the character state holds a non-finite value or invalid radii"),
        }
    }
}

impl std::error::Error for TickError {}

impl Controller {
    /// A controller with `config`, if every value in it is valid.
    pub fn new(config: ControllerConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Self { config })
    }

    /// The configuration in use.
    pub fn config(&self) -> &ControllerConfig {
        &self.config
    }

    /// Replaces the configuration; an invalid one is refused and the old one kept.
    pub fn set_config(&mut self, config: ControllerConfig) -> Result<(), ConfigError> {
        config.validate()?;
        self.config = config;
        Ok(())
    }

    /// The ellipsoid `state` uses (its current radii).
    pub fn ellipsoid(&self, state: &CharacterState) -> Option<Ellipsoid> {
        Ellipsoid::new(state.radii).ok()
    }

    /// Advances `state` by one tick of `dt` seconds against `world`, as
    /// asked by `intent`.
    ///
    /// The passes, in order (each a collide-and-slide, so no pass ends inside
    /// geometry): change of shape where it fits; carry by the platform stood
    /// on; then, standing, the walking move along the ground (a step-up —
    /// up, forward, down — when a wall-like contact held it back and the
    /// step lands on walkable ground further on) and the snap down onto the
    /// ground; in the air, the motion with gravity (exact for constant
    /// gravity), landing on walkable ground.
    pub fn tick(
        &self,
        state: &mut CharacterState,
        intent: &Intent,
        world: &World<'_>,
        dt: f32,
    ) -> Result<TickReport, TickError> {
        validate_dt(dt).map_err(TickError::Dt)?;
        if !(state.position.is_finite()
            && state.velocity.is_finite()
            && state.up.is_finite()
            && state.air_time.is_finite()
            && state.jump_buffer.is_finite())
            || Ellipsoid::new(state.radii).is_err()
        {
            return Err(TickError::BadState);
        }
        let mut run = Run {
            c: &self.config,
            world,
            dt,
            options: SlideOptions {
                skin: self.config.skin,
                max_iterations: self.config.slide_iterations,
                ..SlideOptions::default()
            },
            report: TickReport::default(),
        };
        run.tick(state, intent);
        Ok(run.report)
    }
}

/// One tick in progress.
struct Run<'a> {
    c: &'a ControllerConfig,
    world: &'a World<'a>,
    dt: f32,
    options: SlideOptions,
    report: TickReport,
}

impl<'a> Run<'a> {
    fn tick(&mut self, state: &mut CharacterState, intent: &Intent) {
        let c = self.c;
        let dt = self.dt;
        if intent.jump {
            state.jump_buffer = c.jump_buffer.max(0.5 * dt);
        }
        let up = up_from_gravity(c.gravity, state.up);
        if up != state.up {
            state.up = up;
            if state.ground.is_some_and(|g| g.normal.dot(up) < self.cos_walkable()) {
                self.leave_ground(state);
            }
        }
        self.change_shape(state, intent.crouch);
        let e = Ellipsoid::new(state.radii).expect("radii checked");
        self.carry(state, &e);

        // Velocity from the input: across "up", towards the wished velocity.
        let wish = horizontal(
            if intent.direction.is_finite() {
                intent.direction
            } else {
                Vec3::ZERO
            },
            up,
        )
        .clamp_length_max(1.0);
        let target = wish * c.top_speed(state.crouched, intent.sprint);
        if let Some(g) = state.ground {
            let rate = if wish == Vec3::ZERO {
                c.ground_friction
            } else {
                c.ground_acceleration
            };
            state.velocity = move_towards(horizontal(state.velocity, up), target, rate * g.friction * dt);
        } else if wish != Vec3::ZERO {
            let along = state.velocity.dot(up);
            let across = move_towards(horizontal(state.velocity, up), target, c.air_acceleration * dt);
            state.velocity = across + up * along;
        }

        // Jump: standing, or within the coyote time after leaving the ground.
        let can_jump = c.jump_height > 0.0
            && c.gravity != Vec3::ZERO
            && (state.ground.is_some() || (state.coyote_jump && state.air_time <= c.coyote_time));
        if state.jump_buffer > 0.0 && can_jump {
            let base = state.ground.map_or(0.0, |g| g.velocity.dot(up));
            self.leave_ground(state);
            state.velocity = horizontal(state.velocity, up) + up * (base + c.jump_speed());
            state.coyote_jump = false;
            state.jump_buffer = 0.0;
            self.report.jumped = true;
        }

        if state.ground.is_some() {
            self.walk(state, &e);
        } else {
            self.fly(state, &e);
        }

        if state.ground.is_some() {
            state.air_time = 0.0;
            state.coyote_jump = true;
        } else {
            state.air_time += dt;
        }
        state.jump_buffer = (state.jump_buffer - dt).max(0.0);
        self.report.ground = state.ground;
    }

    fn cos_walkable(&self) -> f32 {
        self.c.walkable_slope_deg.to_radians().cos()
    }

    fn support(&self, state: &CharacterState) -> Support<'a> {
        Support {
            up: state.up,
            cos_walkable: self.cos_walkable(),
            step_height: self.c.step_height,
            radii: state.radii,
            extent: extent_along(state.radii, state.up),
            world: self.world,
        }
    }

    /// Runs one collide-and-slide pass and records what it met.
    fn pass(
        &mut self,
        pass: Pass,
        e: &Ellipsoid,
        start: Vec3,
        motion: Vec3,
        respond: impl FnMut(&sweep::Contact) -> ContactResponse,
    ) -> SlideResult {
        let result = collide_and_slide_with(e, start, motion, self.world.colliders, &self.options, respond);
        self.record(pass, &result);
        result
    }

    fn record(&mut self, pass: Pass, result: &SlideResult) {
        self.report.sweeps += result.iterations;
        self.report.pushed += result.depenetration;
        self.report.crushed |= result.unresolved_overlap;
        self.report
            .contacts
            .extend(result.contacts.iter().map(|&contact| PassContact { pass, contact }));
    }

    /// Standing → airborne: the ground's velocity becomes part of the own velocity.
    fn leave_ground(&mut self, state: &mut CharacterState) {
        if let Some(g) = state.ground.take() {
            state.velocity += g.velocity;
        }
    }

    /// Crouching, standing up, a new "up" or new radii: the new shape (feet
    /// kept on the floor when standing) is taken where it fits, pushed out
    /// by at most the change of radii; otherwise the old shape stays and
    /// the change is tried again next tick.
    fn change_shape(&mut self, state: &mut CharacterState, crouch: bool) {
        let c = self.c;
        let radii = world_radii(if crouch { c.crouched_radii } else { c.standing_radii }, state.up);
        if radii == state.radii {
            state.crouched = crouch;
            return;
        }
        let up = state.up;
        let centre = if state.ground.is_some() {
            state.position - up * (extent_along(state.radii, up) - extent_along(radii, up))
        } else {
            state.position
        };
        let e = Ellipsoid::new(radii).expect("config radii are valid");
        let (freed, free) = depenetrate(&e, centre, self.world.colliders, &self.options);
        let allowed = (radii - state.radii).abs().max_element() + c.skin * radii.max_element();
        if free && (freed - centre).length() <= allowed {
            state.position = freed;
            state.radii = radii;
            state.crouched = crouch;
            if freed != centre {
                self.report.pushed += freed - centre;
            }
        } else if !crouch && state.crouched {
            self.report.stand_blocked = true;
        }
    }

    /// Carries a character standing on a moving collider by that
    /// collider's rigid motion over this tick (translation and rotation).
    fn carry(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let Some(g) = state.ground else { return };
        let Some(collider) = self.world.colliders.get(g.collider) else {
            return;
        };
        if collider.linear_velocity == Vec3::ZERO && collider.angular_velocity == Vec3::ZERO {
            return;
        }
        let dt = self.dt;
        let origin = collider.pose.translation;
        let turn = Quat::from_scaled_axis(collider.angular_velocity * dt);
        let previous_origin = origin - collider.linear_velocity * dt;
        let carried = origin + turn * (state.position - previous_origin) - state.position;
        if !carried.is_finite() {
            return;
        }
        let result = self.pass(Pass::Carry, e, state.position, carried, |_| ContactResponse::Slide);
        self.report.carried = result.position - state.position;
        self.report.heading_delta = collider.angular_velocity.dot(state.up) * dt;
        state.position = result.position;
        state.velocity = turn * state.velocity;
    }

    /// Standing: walk along the ground, step up where a wall-like contact
    /// held the move back, then snap down onto the ground (or leave it).
    fn walk(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let up = state.up;
        let g = state.ground.expect("walking on ground");
        // Along the ground plane, keeping the speed across "up" on slopes.
        let step = state.velocity * self.dt;
        let along = step - up * (step.dot(g.normal) / g.normal.dot(up).max(0.1));
        let start = state.position;
        let support = self.support(state);
        let moved = collide_and_slide_with(e, start, along, self.world.colliders, &self.options, |ct| {
            support.walk_response(ct)
        });
        let wanted = horizontal(along, up);
        let progress = |p: Vec3| horizontal(p - start, up).dot(wanted.normalize_or_zero());
        let held_back = moved
            .contacts
            .iter()
            .any(|ct| !ct.depenetration && ct.normal.dot(up) < self.cos_walkable());
        if self.c.step_height > 0.0
            && held_back
            && wanted.length() > 1e-6
            && progress(moved.position) < 0.99 * wanted.length()
            && let Some(landing) = self.step_up(state, e, wanted, progress(moved.position))
        {
            self.record(Pass::Move, &moved);
            self.record(Pass::StepUp, &landing.0);
            self.record(Pass::StepForward, &landing.1);
            self.record(Pass::StepDown, &landing.2);
            state.position = landing.2.position;
            state.ground = Some(landing.3);
            self.report.stepped = true;
            return;
        }
        self.record(Pass::Move, &moved);
        // Keep momentum along walls, not into them.
        for ct in moved.contacts.iter().filter(|ct| support.ground_of(ct).is_none()) {
            let n = horizontal(ct.plane.normal, up).normalize_or_zero();
            let into = (state.velocity - ct.surface_velocity).dot(n);
            if into < 0.0 {
                state.velocity -= n * into;
            }
        }
        state.position = moved.position;

        // Snap: find the ground below, within the snap distance.
        let probe = self.pass(Pass::Snap, e, state.position, -up * self.c.snap_distance, |_| {
            ContactResponse::Stop
        });
        let support = self.support(state);
        let found = probe
            .contacts
            .iter()
            .filter(|ct| !ct.depenetration)
            .find_map(|ct| support.ground_of(ct));
        match found {
            Some(ground) => {
                self.report.snapped = (probe.position - state.position).length() > 2.0 * self.skin_metres(state);
                state.position = probe.position;
                state.ground = Some(ground);
            }
            None => {
                // Walked off: the probe is not taken, the fall starts next tick.
                state.position += probe.depenetration;
                self.leave_ground(state);
            }
        }
    }

    /// Up by the step height (less under a ceiling), forward by the wanted
    /// move, down again: taken only when it lands on ground and gets further
    /// than the plain move.
    fn step_up(
        &self,
        state: &CharacterState,
        e: &Ellipsoid,
        wanted: Vec3,
        plain_progress: f32,
    ) -> Option<(SlideResult, SlideResult, SlideResult, GroundContact)> {
        let up = state.up;
        let start = state.position;
        let colliders = self.world.colliders;
        let slide = |_: &sweep::Contact| ContactResponse::Slide;
        let rise = collide_and_slide_with(e, start, up * self.c.step_height, colliders, &self.options, slide);
        let lifted = (rise.position - start).dot(up);
        if lifted <= 2.0 * self.skin_metres(state) || rise.unresolved_overlap {
            return None;
        }
        // Lifted, an edge counts as ground only up to the step height above
        // the feet where the step started (or the lift would climb it too).
        let support = Support {
            step_height: (self.c.step_height - lifted).max(0.0),
            ..self.support(state)
        };
        let forward = collide_and_slide_with(e, rise.position, wanted, colliders, &self.options, |ct| {
            support.walk_response(ct)
        });
        let support = self.support(state);
        let feet = state.feet();
        let down_by = lifted + 2.0 * self.skin_metres(state);
        let down = collide_and_slide_with(e, forward.position, -up * down_by, colliders, &self.options, |_| {
            ContactResponse::Stop
        });
        let ground = down
            .contacts
            .iter()
            .filter(|ct| !ct.depenetration)
            .find_map(|ct| support.ground_of(ct))?;
        let progress = horizontal(down.position - start, up).dot(wanted.normalize_or_zero());
        let risen = (ground.point - feet).dot(up);
        (progress > plain_progress + 1e-4 * wanted.length().max(1e-3)
            && risen <= self.c.step_height + 1e-4
            && !down.unresolved_overlap)
            .then_some((rise, forward, down, ground))
    }

    /// In the air: move with the velocity and gravity (exact for constant
    /// gravity), land on walkable ground while going down onto it.
    fn fly(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let c = self.c;
        let up = state.up;
        let dt = self.dt;
        let motion = state.velocity * dt + 0.5 * c.gravity * dt * dt;
        let mut velocity = state.velocity + c.gravity * dt;
        let fall = -velocity.dot(up);
        if fall > c.max_fall_speed {
            velocity += up * (fall - c.max_fall_speed);
        }
        let support = self.support(state);
        let mut landing = None;
        let result = collide_and_slide_with(e, state.position, motion, self.world.colliders, &self.options, |ct| {
            let descending = velocity.dot(up) <= ct.surface_velocity.dot(up) + 1e-3;
            match support.ground_of(ct) {
                Some(ground) if descending => {
                    landing = Some(ground);
                    ContactResponse::Stop
                }
                _ => ContactResponse::Slide,
            }
        });
        self.record(Pass::Air, &result);
        if landing.is_none() {
            // Pushed out of something rising into it (a lift from below): landed on it.
            landing = result
                .contacts
                .iter()
                .filter(|ct| ct.depenetration && velocity.dot(up) <= ct.surface_velocity.dot(up) + 1e-3)
                .find_map(|ct| support.ground_of(ct));
        }
        // What was hit takes away the velocity going into it (a ceiling
        // clears the upward speed, a wall the speed into the wall).
        for ct in &result.contacts {
            let into = (velocity - ct.surface_velocity).dot(ct.normal);
            if into < 0.0 {
                velocity -= ct.normal * into;
            }
        }
        state.position = result.position;
        state.velocity = velocity;
        if let Some(ground) = landing {
            state.velocity = horizontal(velocity - ground.velocity, up);
            state.ground = Some(ground);
            self.report.landed = true;
        }
    }

    /// The skin in metres along "up" for this shape.
    fn skin_metres(&self, state: &CharacterState) -> f32 {
        self.c.skin * extent_along(state.radii, state.up)
    }
}

/// `v` moved towards `target` by at most `max_change`.
fn move_towards(v: Vec3, target: Vec3, max_change: f32) -> Vec3 {
    let d = target - v;
    if d.length() <= max_change {
        target
    } else {
        v + d.normalize_or_zero() * max_change
    }
}
