//! Bouncing balls in the game (NeHe lesson 30's "Magic Room", solved
//! exactly by `crates/balls`): the player charges a throw while the throw
//! button is held and throws from the eye when it is let go; each tick the
//! balls move against the level's colliders (doors and lifts included),
//! each other and the player, who kicks them and is pushed back by them
//! through its controller; hard impacts become [`BallBlast`] messages for
//! explosions and sounds. A cap on live balls removes the oldest. Level
//! nodes with an analytic collider (the magic room's planes and cylinders)
//! meet the balls as their exact shapes.

use super::colliders::Colliders;
use super::feedback::Feedback;
use super::input::PlayerInput;
use super::level::CurrentLevel;
use super::player::LastTick;
use super::player::Player;
use super::schedule::SimSet;
use crate::notices::Notices;
use balls::{AnalyticSolids, Ball, BallConfig, BallSimulation, ImpactKind, MeshSolids, MovingCapsule, Solids};
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementState};
use std::time::Instant;
use sweep::PlacedCollider;

/// What the panel can change about the balls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallSettings {
    /// Radius of a new ball, metres.
    pub radius: f32,
    /// Speed of a fully charged throw, m/s (a tap throws at 30% of it).
    pub throw_speed: f32,
    /// Live balls at most; throwing past it removes the oldest.
    pub max_balls: usize,
    /// Bounciness, 0 (dead) … 1 (elastic).
    pub restitution: f32,
    /// Coulomb friction factor of an impact, 0 (ice) … 1.
    pub friction: f32,
}

impl Default for BallSettings {
    fn default() -> Self {
        let config = BallConfig::default();
        Self {
            radius: 0.15,
            throw_speed: 20.0,
            max_balls: 500,
            restitution: config.restitution,
            friction: config.friction,
        }
    }
}

/// Ranges the settings must lie in (the panel's sliders use them too).
pub const RADIUS_RANGE: std::ops::RangeInclusive<f32> = 0.02..=1.0;
/// Throw speeds, m/s.
pub const THROW_SPEED_RANGE: std::ops::RangeInclusive<f32> = 1.0..=100.0;
/// Live balls.
pub const MAX_BALLS_RANGE: std::ops::RangeInclusive<usize> = 1..=20_000;

impl BallSettings {
    /// Checks every value; the message names the bad one.
    pub fn validate(&self) -> Result<(), String> {
        let check = |ok: bool, what: &str, got: String| {
            if ok { Ok(()) } else { Err(format!("{what}, got {got}")) }
        };
        check(
            RADIUS_RANGE.contains(&self.radius),
            "ball radius must be from 0.02 to 1 m",
            self.radius.to_string(),
        )?;
        check(
            THROW_SPEED_RANGE.contains(&self.throw_speed),
            "throw speed must be from 1 to 100 m/s",
            self.throw_speed.to_string(),
        )?;
        check(
            MAX_BALLS_RANGE.contains(&self.max_balls),
            "max balls must be from 1 to 20,000",
            self.max_balls.to_string(),
        )?;
        check(
            (0.0..=1.0).contains(&self.restitution),
            "restitution must be from 0 to 1",
            self.restitution.to_string(),
        )?;
        check(
            (0.0..=1.0).contains(&self.friction),
            "friction must be from 0 to 1",
            self.friction.to_string(),
        )
    }
}

/// Seconds of holding the throw button for a full-speed throw.
pub const FULL_CHARGE_SECONDS: f32 = 1.0;
/// A tap throws at this fraction of the full speed.
const TAP_FRACTION: f32 = 0.3;
/// Impacts at least this fast (m/s along the normal) explode.
pub const BLAST_SPEED: f32 = 6.0;
/// The player's mass for ball pushes, kg.
pub const PLAYER_MASS: f32 = 80.0;
/// The most one tick of ball impacts can change the player's velocity, m/s.
const MAX_PUSH: f32 = 3.0;
/// Seconds over which a placement (a throw's start, a drop) is swept, so
/// a moving door or lift barely moves meanwhile.
const PLACEMENT_SWEEP_SECONDS: f32 = 1e-3;
/// The player's number in [`balls::Contact::body`].
const PLAYER_BODY: u32 = 0;

/// The balls and their bookkeeping.
#[derive(Resource, Debug)]
pub struct BallPit {
    /// The simulation, oldest ball first.
    pub simulation: BallSimulation,
    /// The panel's settings.
    pub settings: BallSettings,
    /// Each ball's centre before the last tick, metres (for drawing between ticks).
    pub previous: Vec<Vec3>,
    /// Wall-clock time of the last balls tick, microseconds.
    pub last_micros: f32,
    /// Impacts in the last tick.
    pub last_impacts: usize,
    /// Balls thrown so far.
    pub thrown: u64,
}

impl Default for BallPit {
    fn default() -> Self {
        let settings = BallSettings::default();
        // The tick's first sweeps on every core (the outcome does not
        // depend on the count; below a few hundred balls it uses one).
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        let mut pit = Self {
            simulation: BallSimulation::new(BallConfig {
                threads,
                ..BallConfig::default()
            }),
            settings,
            previous: Vec::new(),
            last_micros: 0.0,
            last_impacts: 0,
            thrown: 0,
        };
        pit.apply(settings);
        pit
    }
}

impl BallPit {
    /// Takes new settings (already checked): the rules change for every
    /// ball, the radius for new ones, the cap at once.
    fn apply(&mut self, settings: BallSettings) {
        self.settings = settings;
        self.simulation.config.restitution = settings.restitution;
        self.simulation.config.friction = settings.friction;
        self.trim(settings.max_balls);
    }

    /// Removes the oldest balls until at most `keep` are left.
    fn trim(&mut self, keep: usize) {
        let extra = self.simulation.balls.len().saturating_sub(keep);
        if extra > 0 {
            // Balls resting on the ones removed wake, and fall if they must.
            // (Many removed at once: every ball wakes.)
            let removed: Vec<Ball> = self.simulation.balls.drain(..extra).collect();
            if removed.len() > 64 {
                self.simulation
                    .wake_within(Vec3::splat(f32::MIN), Vec3::splat(f32::MAX));
            } else {
                for b in &removed {
                    self.simulation.wake_around(b);
                }
            }
            self.previous.drain(..extra.min(self.previous.len()));
        }
    }

    /// Adds a ball, removing the oldest past the cap.
    fn add(&mut self, ball: Ball) {
        self.trim(self.settings.max_balls.saturating_sub(1));
        self.previous.push(ball.position);
        self.simulation.balls.push(ball);
        self.thrown += 1;
    }

    /// Removes every ball.
    pub fn clear(&mut self) {
        self.simulation.balls.clear();
        self.previous.clear();
    }
}

/// Asks something of the balls (the panel, a key, a test).
#[derive(Message, Clone, Debug, PartialEq)]
pub enum BallControl {
    /// New settings (checked first; refused with a message when bad).
    Settings(BallSettings),
    /// Remove every ball.
    Clear,
    /// Drop this many balls onto the player's head from 6 m above it (just
    /// under a ceiling if one is lower), in a loose cloud.
    Rain(usize),
}

/// A hard impact, for an explosion (and a sound).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct BallBlast {
    /// Where, metres.
    pub point: Vec3,
    /// Unit normal there, towards the ball's side.
    pub normal: Vec3,
    /// How hard, m/s along the normal.
    pub speed: f32,
    /// The ball's radius, metres (sets the explosion's size).
    pub radius: f32,
}

/// The throw being charged: seconds the button has been held.
#[derive(Component, Debug, Default)]
pub struct ThrowCharge {
    /// Seconds held so far (0 when not held).
    pub held_s: f32,
    /// Held in the last tick.
    was_held: bool,
}

impl ThrowCharge {
    /// How charged, 0 … 1.
    pub fn fraction(&self) -> f32 {
        (self.held_s / FULL_CHARGE_SECONDS).clamp(0.0, 1.0)
    }
}

/// A throw asked for this tick: how charged, 0 … 1.
#[derive(Resource, Debug, Default)]
struct PendingThrow(Option<f32>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BallPit>()
        .register_required_components::<Player, ThrowCharge>()
        .init_resource::<PendingThrow>()
        .add_message::<BallControl>()
        .add_message::<BallBlast>()
        .add_systems(
            FixedUpdate,
            (
                charge_throw.after(SimSet::Input).before(SimSet::Player),
                (control_balls, tick_balls).chain().in_set(SimSet::Balls),
            ),
        )
        .add_systems(FixedUpdate, clear_on_new_level.in_set(SimSet::Place));
}

/// A new level: the balls of the old one go.
fn clear_on_new_level(current: Res<CurrentLevel>, mut pit: ResMut<BallPit>, mut seen: Local<u32>) {
    if current.generation != *seen {
        *seen = current.generation;
        pit.clear();
    }
}

/// Holding the throw button charges; letting go (or a tap between two
/// ticks) throws.
fn charge_throw(
    time: Res<Time<Fixed>>,
    mut pending: ResMut<PendingThrow>,
    mut players: Query<(&PlayerInput, &mut ThrowCharge), With<Player>>,
) {
    let dt = time.timestep().as_secs_f32();
    for (input, mut charge) in &mut players {
        let held = input.held.throw;
        if held {
            charge.held_s += dt;
        } else if charge.was_held || input.pressed.throw {
            pending.0 = Some(charge.fraction());
            charge.held_s = 0.0;
        }
        charge.was_held = held;
    }
}

fn control_balls(
    mut controls: MessageReader<BallControl>,
    mut pit: ResMut<BallPit>,
    mut notices: ResMut<Notices>,
    colliders: Colliders,
    players: Query<&MovementState, With<Player>>,
) {
    for control in controls.read() {
        match control {
            BallControl::Settings(s) => match s.validate() {
                Ok(()) => pit.apply(*s),
                Err(e) => notices.error(format!("balls: {e}")),
            },
            BallControl::Clear => {
                pit.clear();
                notices.info("balls cleared");
            }
            BallControl::Rain(count) => {
                let Some(body) = players.iter().next() else { continue };
                let up = body.up;
                let head = body.position + up * controller::frame::extent_along(body.radii, up);
                let eye = super::player::eye(body.position, body.radii, up);
                let radius = pit.settings.radius;
                let for_balls = BallLevel::new(&colliders);
                let level = for_balls.obstacles();
                let mut placed = 0;
                for k in 0..*count {
                    // A golden-angle spiral 6 m up, so the drops do not start
                    // inside each other; each as high as the level leaves room
                    // for between the head and there (under a ceiling, just under it).
                    let angle = k as f32 * 2.399_963;
                    let spread = radius * 3.0 * (k as f32).sqrt();
                    let across = Vec3::new(angle.cos(), 0.0, angle.sin()) * spread;
                    // Swept from the eye (the player fits under any
                    // ceiling above it), over the head, up and out.
                    let from = eye;
                    let path = head + up * (radius + 0.05) - eye + across + up * (6.0 + (k % 7) as f32 * radius * 3.0);
                    let to = match level.sweep(
                        from,
                        radius,
                        path / PLACEMENT_SWEEP_SECONDS,
                        0.0,
                        PLACEMENT_SWEEP_SECONDS,
                    ) {
                        Some(hit) if hit.time <= 1e-4 * PLACEMENT_SWEEP_SECONDS => continue,
                        Some(hit) => from + path * (hit.time / PLACEMENT_SWEEP_SECONDS - 1e-3 / path.length()).max(0.0),
                        None => from + path,
                    };
                    let clear_of_others = pit
                        .simulation
                        .balls
                        .iter()
                        .all(|b| (b.position - to).length() > b.radius + radius);
                    if clear_of_others {
                        pit.add(Ball::new(to, Vec3::ZERO, radius));
                        placed += 1;
                    }
                }
                if placed < *count {
                    notices.info(format!("{placed} of {count} balls dropped: no room for more above you"));
                }
            }
        }
    }
}

/// The level as balls meet it this tick: its colliders at their poses at
/// the tick's start, the exact planes and cylinders of nodes that asked
/// for one instead of their triangles (the player still walks the
/// triangles), and every other triangle.
struct BallLevel<'c> {
    placed: Vec<PlacedCollider<'c>>,
    shapes: AnalyticSolids,
    friction: Box<dyn Fn(usize, u32) -> f32 + Sync + 'c>,
    analytic: Box<dyn Fn(usize, u32) -> bool + Sync + 'c>,
    any_analytic: bool,
    /// The static collider's index when a sphere meets only its exact shapes.
    analytic_statics: Option<usize>,
}

impl<'c> BallLevel<'c> {
    fn new(colliders: &'c Colliders) -> Self {
        let shapes = colliders.analytic_shapes();
        Self {
            placed: colliders.placed_at_tick_start(),
            shapes: AnalyticSolids::new(&shapes),
            friction: Box::new(|c, t| colliders.friction(c, t)),
            analytic: Box::new(|c, t| colliders.is_analytic(c, t)),
            any_analytic: !shapes.is_empty(),
            analytic_statics: colliders.all_analytic_statics(),
        }
    }

    fn obstacles(&self) -> (&AnalyticSolids, MeshSolids<'_>) {
        let meshes = MeshSolids::new(&self.placed).with_friction(&*self.friction);
        let meshes = if let Some(statics) = self.analytic_statics {
            meshes.without(statics)
        } else if self.any_analytic {
            meshes.skipping(&*self.analytic)
        } else {
            meshes
        };
        (&self.shapes, meshes)
    }
}

/// The tick: a pending throw leaves the eye, every ball moves, impacts push
/// the player and hard ones explode.
#[allow(clippy::too_many_arguments)]
fn tick_balls(
    time: Res<Time<Fixed>>,
    colliders: Colliders,
    mut pit: ResMut<BallPit>,
    mut pending: ResMut<PendingThrow>,
    mut feedback: ResMut<Feedback>,
    mut notices: ResMut<Notices>,
    mut blasts: MessageWriter<BallBlast>,
    players: Query<(&CharacterController, &MovementState, &PlayerInput, &LastTick), With<Player>>,
) {
    let started = Instant::now();
    let dt = time.timestep().as_secs_f32();
    let for_balls = BallLevel::new(&colliders);
    let placed = &for_balls.placed;
    let level = for_balls.obstacles();
    let player = players.iter().next().map(|(body, state, input, last)| {
        let capsule = MovingCapsule::around_ellipsoid(
            last.from,
            state.radii,
            state.up,
            (last.to - last.from) / dt,
            PLAYER_BODY,
        );
        (capsule, body, state, input)
    });
    pit.simulation.config.gravity = player
        .as_ref()
        .map_or(Vec3::new(0.0, -9.81, 0.0), |(_, body, _, _)| body.config.gravity);
    if let (Some(charge), Some((_, body, state, input))) = (pending.0.take(), &player)
        && !super::player::flying(body)
    {
        match throw(&pit.settings, charge, state, input, &level) {
            Some(ball) => pit.add(ball),
            None => notices.info("no room to throw a ball here"),
        }
    }
    if pit.simulation.balls.is_empty() {
        pit.last_micros = started.elapsed().as_secs_f32() * 1e6;
        pit.last_impacts = 0;
        return;
    }
    // Whatever moves near a sleeping ball wakes it: the player, doors, lifts.
    if let Some((capsule, ..)) = &player {
        let reach = Vec3::splat(capsule.radius + capsule.half_segment);
        let (a, b) = (capsule.centre, capsule.centre + capsule.velocity * dt);
        pit.simulation.wake_within(a.min(b) - reach, a.max(b) + reach);
    }
    let mut mover_boxes = Vec::new();
    for c in placed
        .iter()
        .filter(|c| c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO)
    {
        let sweep::Aabb { min, max } = c.world_bounds();
        let margin =
            Vec3::splat((c.linear_velocity.length() + c.angular_velocity.length() * (max - min).length()) * dt + 0.05);
        pit.simulation.wake_within(min - margin, max + margin);
        mover_boxes.push((min - margin, max + margin));
    }
    let pit = &mut *pit;
    pit.previous.clear();
    pit.previous.extend(pit.simulation.balls.iter().map(|b| b.position));
    let report = match &player {
        Some((capsule, body, ..)) if !super::player::flying(body) => pit.simulation.step(dt, &(level, *capsule)),
        _ => pit.simulation.step(dt, &level),
    };
    let mut pushed = Vec3::ZERO;
    for impact in &report.impacts {
        if let ImpactKind::Body(PLAYER_BODY) = impact.kind {
            pushed -= impact.impulse / PLAYER_MASS;
        }
        if impact.speed >= BLAST_SPEED {
            let radius = pit.simulation.balls.get(impact.ball as usize).map_or(0.1, |b| b.radius);
            blasts.write(BallBlast {
                point: impact.point,
                normal: impact.normal,
                speed: impact.speed,
                radius,
            });
        }
    }
    feedback.ball_push = pushed.clamp_length_max(MAX_PUSH);
    // Near doors and lifts, no ball ends the tick inside one: a ball jammed
    // this tick does not answer a surface moving into it, so it is pushed
    // out; one that cannot be (crushed) bursts.
    if !mover_boxes.is_empty() {
        let now = colliders.placed();
        let mut crushed: Vec<usize> = mover_boxes
            .into_iter()
            .flat_map(|(min, max)| pit.simulation.push_out_of(&now, min, max))
            .collect();
        crushed.sort_unstable();
        crushed.dedup();
        for &k in crushed.iter().rev() {
            let ball = pit.simulation.balls.remove(k);
            if k < pit.previous.len() {
                pit.previous.remove(k);
            }
            pit.simulation.wake_around(&ball);
            blasts.write(BallBlast {
                point: ball.position,
                normal: Vec3::Y,
                speed: BLAST_SPEED,
                radius: ball.radius,
            });
        }
    }
    // Balls that left the level for good go.
    if let Some(bounds) = colliders.level_bounds() {
        let floor = bounds.min.y - 50.0;
        let keep: Vec<bool> = pit
            .simulation
            .balls
            .iter()
            .map(|b| b.position.is_finite() && b.position.y >= floor)
            .collect();
        if keep.contains(&false) {
            let mut k = keep.iter();
            pit.simulation.balls.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep.iter();
            pit.previous.retain(|_| *k.next().unwrap_or(&true));
        }
    }
    pit.last_impacts = report.impacts.len();
    pit.last_micros = started.elapsed().as_secs_f32() * 1e6;
}

/// A ball thrown from the player's eye along the view, `charge` (0 … 1)
/// of the way from a tap to a full throw, with the player's velocity added;
/// `None` when a wall is so close the ball would start inside it.
fn throw(
    settings: &BallSettings,
    charge: f32,
    state: &MovementState,
    input: &PlayerInput,
    level: &impl Solids,
) -> Option<Ball> {
    let eye = super::player::eye(state.position, state.radii, state.up);
    let look = Quat::from_rotation_y(input.yaw) * Quat::from_rotation_x(input.pitch);
    let direction = look * Vec3::NEG_Z;
    let speed = settings.throw_speed * (TAP_FRACTION + (1.0 - TAP_FRACTION) * charge.clamp(0.0, 1.0));
    let radius = settings.radius;
    // Out of the player's body before it flies, unless a wall is nearer.
    let reach = leave_body(eye - state.position, direction, state.radii + Vec3::splat(radius)) + 0.02;
    let out = direction * reach;
    let start = match level.sweep(eye, radius, out / PLACEMENT_SWEEP_SECONDS, 0.0, PLACEMENT_SWEEP_SECONDS) {
        Some(hit) if hit.time <= 1e-4 * PLACEMENT_SWEEP_SECONDS => return None,
        Some(hit) => eye + out * (hit.time / PLACEMENT_SWEEP_SECONDS - 1e-4 / reach).max(0.0),
        None => eye + out,
    };
    Some(Ball::new(start, direction * speed + state.world_velocity(), radius))
}

/// How far from `from` (relative to the body's centre, metres, inside it)
/// along the unit `direction` a point leaves the axis-aligned ellipsoid
/// with `radii` about the centre. With the ball's radius added to the
/// body's radii, that ellipsoid holds every point within the ball's
/// radius of the body, so a ball centred there is clear of it.
fn leave_body(from: Vec3, direction: Vec3, radii: Vec3) -> f32 {
    // |(from + direction·s) / radii|² = 1, the larger root.
    let (p, d) = (from / radii, direction / radii);
    let (a, b, c) = (d.length_squared(), p.dot(d), p.length_squared() - 1.0);
    let root = (b * b - a * c).max(0.0).sqrt();
    ((-b + root) / a).max(0.0)
}
