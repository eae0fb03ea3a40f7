//! The balls and their bookkeeping ([`BallPit`]), the settings the panel
//! can change, and the messages about them: [`BallControl`] asks,
//! [`BallBlast`] hard impacts. A new level clears the pit.

use crate::sim::level::CurrentLevel;
use crate::sim::schedule::SimSet;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_slidewalk::ShownEvents;
use slidewalk_balls::{Ball, BallConfig, BallSimulation};

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

/// Impacts at least this fast (m/s along the normal) explode.
pub const BLAST_SPEED: f32 = 6.0;
/// The player's mass for ball pushes, kg.
pub const PLAYER_MASS: f32 = 80.0;

/// The balls and their bookkeeping.
#[derive(Resource, Clone, Debug)]
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
    pub(super) fn apply(&mut self, settings: BallSettings) {
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
    pub(super) fn add(&mut self, ball: Ball) {
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

impl BallBlast {
    /// Whether two blasts are one explosion seen twice (a rollback
    /// simulating its tick again, with other inputs, moves it a little):
    /// centres within the larger ball's radius.
    pub fn alike(&self, other: &BallBlast) -> bool {
        self.point.distance(other.point) <= self.radius.max(other.radius)
    }
}

/// Where a tick's blasts go: each written once, even when a rollback
/// simulates its tick again ([`ShownEvents::write_once`]).
#[derive(SystemParam)]
pub struct Blasts<'w> {
    writer: MessageWriter<'w, BallBlast>,
    shown: ResMut<'w, ShownEvents>,
}

impl Blasts<'_> {
    /// Writes `blast` unless an earlier simulation of this tick wrote it.
    pub fn write(&mut self, blast: BallBlast) {
        self.shown.write_once(&mut self.writer, blast, BallBlast::alike);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BallPit>()
        .add_message::<BallControl>()
        .add_message::<BallBlast>()
        .add_systems(FixedUpdate, clear_on_new_level.in_set(SimSet::Place));
}

/// A new level: the balls of the old one go.
fn clear_on_new_level(current: Res<CurrentLevel>, mut pit: ResMut<BallPit>, mut seen: Local<u32>) {
    if current.generation != *seen {
        *seen = current.generation;
        pit.clear();
    }
}
