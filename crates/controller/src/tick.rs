//! `Controller::tick`: one fixed tick of the walking rules, as passes of
//! collide-and-slide — shape, platform carry, walk (with step-up) and ground
//! snap, or the air motion with gravity.

use crate::config::{ConfigError, ControllerConfig, validate_dt};
use crate::drop::{DROP_MARGIN, DropThrough};
use crate::frame::{bounded_direction, extent_along, horizontal, move_towards, up_from_gravity};
use crate::moves::WaterLevel;
use crate::scratch::Slid;
use crate::state::{CharacterState, Intent, MAX_STATE_SPEED, Pass, PassContact, TickReport, state_is_valid};
use crate::support::Support;
use crate::surroundings::Surroundings;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid, SlideOptions, SlideResult};
use std::fmt;

/// The walking rules with a validated configuration.
#[derive(Clone, Debug)]
pub struct Controller {
    config: ControllerConfig,
    /// [`cos_walkable`] of `config`, computed when it is set.
    cos_walkable: f32,
}

/// Cosine of `config`'s walkable slope, a hair lenient: a ramp at exactly
/// the limit is walkable despite its normal's rounding.
fn cos_walkable(config: &ControllerConfig) -> f32 {
    libm::cosf(config.walkable_slope_deg.to_radians()) - 1e-5
}

/// Why a tick was refused (the state is left unchanged).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TickError {
    /// The tick length is not a finite number in (0, 1] seconds.
    Dt(ConfigError),
    /// The state given holds a NaN or infinite value, a speed above
    /// [`MAX_STATE_SPEED`], a negative time (`air_time`, `jump_buffer`) or
    /// invalid radii.
    BadState,
}

impl fmt::Display for TickError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Dt(e) => e.fmt(f),
            Self::BadState => write!(
                f,
                "the character state holds a non-finite value, a speed above {MAX_STATE_SPEED} m/s, a negative time or invalid radii"
            ),
        }
    }
}

impl std::error::Error for TickError {}

/// Why [`Controller::reconfigure`] refused a configuration (nothing was changed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReconfigureError {
    /// A value is invalid.
    Invalid(ConfigError),
    /// The new radii do not fit where the character is, even pushed out by
    /// the change of radii.
    DoesNotFit,
}

impl fmt::Display for ReconfigureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(e) => e.fmt(f),
            Self::DoesNotFit => write!(
                f,
                "the new radii do not fit here: move to open space or choose smaller radii"
            ),
        }
    }
}

impl std::error::Error for ReconfigureError {}

impl Default for Controller {
    /// The walking rules with [`ControllerConfig::default`].
    fn default() -> Self {
        Self::with(ControllerConfig::default())
    }
}

impl Controller {
    /// A controller with `config`, if every value in it is valid.
    pub fn new(config: ControllerConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Self::with(config))
    }

    /// A controller with `config`, validated by the caller.
    fn with(config: ControllerConfig) -> Self {
        Self {
            cos_walkable: cos_walkable(&config),
            config,
        }
    }

    /// The configuration in use.
    pub fn config(&self) -> &ControllerConfig {
        &self.config
    }

    /// Replaces the configuration; an invalid one is refused and the old one kept.
    pub fn set_config(&mut self, config: ControllerConfig) -> Result<(), ConfigError> {
        config.validate()?;
        *self = Self::with(config);
        Ok(())
    }

    /// Replaces the configuration and, when it changes the radii, fits
    /// `state` to them now: the new shape (feet kept on the floor) is taken
    /// where it fits, pushed out by at most the change of radii. When it
    /// does not fit, nothing changes and [`ReconfigureError::DoesNotFit`]
    /// says so (a live tuning panel shows it instead of leaving the
    /// character embedded). A new gravity is always taken: "up" and the
    /// shape turn with the next tick, where they fit.
    pub fn reconfigure(
        &mut self,
        config: ControllerConfig,
        state: &mut CharacterState,
        world: &Surroundings<'_>,
    ) -> Result<(), ReconfigureError> {
        config.validate().map_err(ReconfigureError::Invalid)?;
        let radii_changed =
            config.standing_radii != self.config.standing_radii || config.crouched_radii != self.config.crouched_radii;
        if radii_changed && Ellipsoid::new(state.radii).is_ok() && state.position.is_finite() {
            let mut run = Run {
                c: &config,
                world,
                dt: 0.0,
                options: SlideOptions {
                    skin: config.skin,
                    max_iterations: config.slide_iterations,
                    layers: world.layers,
                    ..SlideOptions::default()
                },
                drop: DropThrough {
                    up: state.up,
                    height: state.drop_through,
                },
                kept_step: 0.0,
                cos_walkable: cos_walkable(&config),
                report: TickReport::default(),
            };
            let mut fitted = *state;
            run.change_shape(&mut fitted, state.crouched);
            let wanted = crate::frame::world_radii(
                if state.crouched {
                    config.crouched_radii
                } else {
                    config.standing_radii
                },
                state.up,
            );
            if fitted.radii != wanted {
                return Err(ReconfigureError::DoesNotFit);
            }
            *state = fitted;
        }
        *self = Self::with(config);
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
    /// geometry): for a [`placed`](CharacterState::placed) character, the
    /// search for the ground under it; change of shape where it fits; carry
    /// by the platform stood on (or the face climbed); then, standing, the
    /// walking move along the ground (a step-up — up, forward, down — when
    /// a wall-like contact held it back and the step lands on walkable
    /// ground further on) and the snap down onto the ground; in the air,
    /// the motion with gravity (exact for constant gravity), landing on
    /// walkable ground.
    pub fn tick(
        &self,
        state: &mut CharacterState,
        intent: &Intent,
        world: &Surroundings<'_>,
        dt: f32,
    ) -> Result<TickReport, TickError> {
        let mut report = TickReport::default();
        self.tick_into(state, intent, world, dt, &mut report)?;
        Ok(report)
    }

    /// [`tick`](Self::tick), writing the report into `report` (replaced
    /// whole; its contact list's memory reused, so a character ticked
    /// every frame allocates only when its contacts outnumber any tick's
    /// before). On an error `report` is left as it was.
    pub fn tick_into(
        &self,
        state: &mut CharacterState,
        intent: &Intent,
        world: &Surroundings<'_>,
        dt: f32,
        report: &mut TickReport,
    ) -> Result<(), TickError> {
        validate_dt(dt).map_err(TickError::Dt)?;
        if !state_is_valid(state) {
            return Err(TickError::BadState);
        }
        let mut contacts = std::mem::take(&mut report.contacts);
        contacts.clear();
        let mut run = Run {
            c: &self.config,
            world,
            dt,
            options: SlideOptions {
                skin: self.config.skin,
                max_iterations: self.config.slide_iterations,
                layers: world.layers,
                ..SlideOptions::default()
            },
            drop: DropThrough {
                up: state.up,
                height: state.drop_through,
            },
            kept_step: 0.0,
            cos_walkable: self.cos_walkable,
            report: TickReport {
                contacts,
                ..TickReport::default()
            },
        };
        run.tick(state, intent);
        *report = run.report;
        Ok(())
    }
}

/// One tick in progress: the passes (in `shape.rs`, `platform.rs`,
/// `walk.rs`, `air.rs`) add to its report.
pub(crate) struct Run<'a> {
    pub(crate) c: &'a ControllerConfig,
    pub(crate) world: &'a Surroundings<'a>,
    pub(crate) dt: f32,
    pub(crate) options: SlideOptions,
    /// What the passes leave out while dropping through a platform.
    pub(crate) drop: DropThrough,
    /// The one-way allowance (metres, as [`SlideOptions::one_way_step`])
    /// that judges one-way surfaces from where the tick found the
    /// character, before its own moves of the centre ahead of the passes:
    /// the placed character's snap onto its ground, the change of shape.
    /// Every later pass of the tick keeps at least it (see
    /// [`Run::set_one_way_step`]).
    pub(crate) kept_step: f32,
    /// [`Run::cos_walkable`], the controller's.
    pub(crate) cos_walkable: f32,
    pub(crate) report: TickReport,
}

impl<'a> Run<'a> {
    fn tick(&mut self, state: &mut CharacterState, intent: &Intent) {
        let c = self.c;
        let dt = self.dt;
        if intent.jump || (c.auto_hop && intent.jump_held && state.ground.is_some()) {
            state.jump_buffer = c.jump_buffer.max(0.5 * dt);
        }
        let was_crouched = state.crouched;
        let ground_before = state.ground;
        let head_before = if c.ledge_grab {
            state.position.dot(state.up) + extent_along(state.radii, state.up)
        } else {
            0.0
        };
        let up = up_from_gravity(c.gravity, state.up);
        if up != state.up {
            state.up = up;
            if state.ground.is_some_and(|g| g.normal.dot(up) < self.cos_walkable()) {
                self.leave_ground(state);
            }
        }
        // Placed since the last tick: the ground under it first, so that
        // what follows (the shape, a jump, a dash) knows whether it stands.
        let placed = std::mem::take(&mut state.placed);
        if placed {
            let e = Ellipsoid::new(state.radii).expect("radii checked");
            self.find_placed_ground(state, &e);
        }
        let water = self.water_level(state);
        // A mantle and a hang keep the shape they started with until they end.
        if state.moves.mantle().is_none() && state.moves.hang().is_none() {
            self.change_shape(state, intent.crouch);
        }
        let e = Ellipsoid::new(state.radii).expect("radii checked");
        // Placed where its ground is now, not where it was a tick ago.
        if !placed {
            self.carry(state, &e);
        }
        self.launch(state, intent);

        // Velocity from the input: across "up", towards the wished velocity.
        let wish = horizontal(bounded_direction(intent.direction), up).clamp_length_max(1.0);
        if self.pull_up(state, &e) || self.climb(state, intent, wish, &e) || self.hang(state, intent, wish, &e) {
            self.end_tick(state);
            return;
        }
        if water.level >= WaterLevel::Waist && self.swim(state, intent, wish, &e, water) {
            self.end_tick(state);
            return;
        }
        if state.moves.slide().is_some() {
            self.end_slide_if_over(state);
        }
        // Crouch pressed while sprinting: a slide from this tick on, at the speed it had.
        if c.slide_min_speed > 0.0 && intent.crouch && !was_crouched {
            self.start_slide(state, intent);
        }
        let target = wish * c.top_speed(state.crouched, intent.sprint) * self.landing_slowdown(state);
        let hop = self.hops_now(state);
        match state.ground {
            Some(g) if state.moves.slide().is_some() => self.slide_velocity(state, wish, g),
            // A jump on landing (a bunny hop): the tick is the air's, no friction.
            Some(_) if hop => self.air_control(state, wish, target),
            Some(g) if c.stop_speed > 0.0 => self.quake_ground(state, wish, target, g.friction),
            Some(g) => {
                let rate = if wish == Vec3::ZERO {
                    c.ground_friction
                } else {
                    c.ground_acceleration
                };
                state.velocity = move_towards(horizontal(state.velocity, up), target, rate * g.friction * dt);
            }
            None => self.air_control(state, wish, target),
        }

        // Drop through the one-way platform stood on: asked for, or jump
        // pressed while crouching there. It is not a jump too.
        if (intent.drop || (intent.jump && intent.crouch)) && self.on_one_way(state) {
            state.drop_through = Some(state.feet().dot(up));
            self.drop.height = state.drop_through;
            self.leave_ground(state);
            state.coyote_jump = false;
            state.jump_buffer = 0.0;
            self.report.dropped = true;
        }

        // Jump pressed on the ground facing a ledge: pulled up onto it instead.
        if state.ground.is_some() && state.jump_buffer > 0.0 && self.start_mantle(state, wish, &e, None) {
            self.end_tick(state);
            return;
        }
        self.jump(state, intent);
        self.start_dash(state, intent, wish);

        if state.moves.dash().is_some() {
            self.dash(state, &e);
        } else if state.ground.is_some() {
            // Walking, a low one-way platform is a step: stepped onto, not walked into.
            self.set_one_way_step(c.step_height);
            self.walk(state, &e);
        } else {
            self.set_one_way_step(0.0);
            let max_fall = self.wall_slide(state, wish);
            self.fly(state, &e, max_fall);
        }
        self.touch_walls(state, wish);
        if c.ledge_grab && state.ground.is_none() && !self.report.jumped && !self.report.dropped {
            if let Some(rim) = ground_before.filter(|_| intent.crouch) {
                // Walked off a ledge crouching: caught from above.
                self.grab_ledge_below(state, &e, rim.point.dot(up));
            } else if !intent.crouch {
                self.grab_ledge_falling(state, wish, &e, head_before);
            }
        }
        // In the air, moving into the wall touched: a ledge within reach is mantled.
        if state.ground.is_none()
            && state.moves.hang().is_none()
            && let Some(wall) = state.moves.wall.filter(|w| w.since == 0.0)
            && wish.dot(wall.normal) < -0.3 * wish.length()
        {
            self.start_mantle(state, wish, &e, Some(wall.normal));
        }
        self.end_tick(state);
    }

    /// The bookkeeping at the end of every tick: air time, coyote time,
    /// the drop, the jump buffer, the moves' counters.
    fn end_tick(&mut self, state: &mut CharacterState) {
        let dt = self.dt;
        let up = state.up;
        if state.ground.is_some() {
            state.air_time = 0.0;
            state.coyote_jump = true;
            let feet = state.feet().dot(up);
            let moves = &mut state.moves;
            moves.air_jumps_used = 0;
            moves.air_dashes_used = 0;
            moves.wall = None;
            moves.wall_jumped_off = None;
            moves.jump_cut = None;
            moves.push_off_height = feet;
        } else {
            state.air_time += dt;
        }
        if state.moves.dash().is_none() {
            state.moves.dash_cooldown = (state.moves.dash_cooldown - dt).max(0.0);
        }
        if let Some(height) = state.drop_through {
            // Over when standing again, or wholly below the surface left.
            let top = state.position.dot(up) + extent_along(state.radii, up);
            if state.ground.is_some() || top < height - DROP_MARGIN {
                state.drop_through = None;
            }
        }
        state.jump_buffer = (state.jump_buffer - dt).max(0.0);
        state.moves.landing_lag = (state.moves.landing_lag - dt).max(0.0);
        if state.ground.is_none() && state.moves.slide().is_some() {
            // A jump or a fall ends a slide; its speed goes on.
            state.moves.under_way = None;
            self.report.slide_ended = true;
        }
        self.note_water(state);
        self.report.ground = state.ground;
    }

    /// Whether the ground stood on is a one-way collider.
    fn on_one_way(&self, state: &CharacterState) -> bool {
        state
            .ground
            .and_then(|g| self.world.colliders.get(g.collider))
            .is_some_and(|c| c.one_way.is_some())
    }

    /// The one-way allowance for the passes that follow: `step`, or more
    /// when the tick moved the centre before them ([`Run::kept_step`]). A
    /// one-way surface a placed character was snapped down onto, or the
    /// shape change found the new shape in front of (and pushed it out on
    /// top of), stays solid for the whole tick: judged
    /// afresh from the moved centre (a crouch under a tilted gravity
    /// lowers it along "up", the push out raises it along the surface's
    /// direction by less) the new shape may count as a hair behind it, and
    /// a pass going down would sink through it.
    pub(crate) fn set_one_way_step(&mut self, step: f32) {
        self.options.one_way_step = step.max(self.kept_step);
    }

    /// Keeps an allowance of at least `step` (metres) for the rest of the
    /// tick, this pass's included: the tick moved the centre by that much
    /// before the passes ([`Run::kept_step`]).
    pub(crate) fn keep_one_way_step(&mut self, step: f32) {
        self.kept_step = self.kept_step.max(step);
        self.options.one_way_step = self.options.one_way_step.max(self.kept_step);
    }

    /// Cosine of the walkable slope, a hair lenient: a ramp at exactly the
    /// limit is walkable despite its normal's rounding.
    pub(crate) fn cos_walkable(&self) -> f32 {
        self.cos_walkable
    }

    pub(crate) fn support(&self, state: &CharacterState) -> Support<'a> {
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
    pub(crate) fn pass(
        &mut self,
        pass: Pass,
        e: &Ellipsoid,
        start: Vec3,
        motion: Vec3,
        respond: impl FnMut(&slidewalk_sweep::Contact) -> ContactResponse,
    ) -> Slid {
        let result = self.world.slide(e, start, motion, &self.options, self.drop, respond);
        self.record(pass, &result);
        result
    }

    pub(crate) fn record(&mut self, pass: Pass, result: &SlideResult) {
        self.report.sweeps += result.iterations;
        self.report.pushed += result.depenetration;
        self.report.crushed |= result.unresolved_overlap;
        self.report
            .contacts
            .extend(result.contacts.iter().map(|&contact| PassContact { pass, contact }));
    }

    /// Standing → airborne: the ground's velocity becomes part of the own
    /// velocity, as much of it as [`ControllerConfig::platform_momentum`] keeps.
    pub(crate) fn leave_ground(&mut self, state: &mut CharacterState) {
        if let Some(g) = state.ground.take() {
            state.velocity += self.c.platform_momentum.kept(g.velocity, state.up);
        }
    }

    /// The skin in metres along "up" for this shape.
    pub(crate) fn skin_metres(&self, state: &CharacterState) -> f32 {
        self.c.skin * extent_along(state.radii, state.up)
    }
}

#[cfg(test)]
#[path = "tick_tests.rs"]
mod tests;
