//! The balls and their tick: gravity, then every impact in time order
//! (the events of [`crate::schedule`], answered as in [`crate::impacts`]),
//! then rest and sleep; and the game's hooks around a tick (waking balls,
//! pushing them out of doors and lifts).

use crate::ball::{Ball, BallConfig};
use crate::schedule::{Clock, Event, OBSTACLE, Schedule, path_bounds};
use crate::solids::{Contact, Solids};
use glam::Vec3;
use slidewalk_sweep::{Ellipsoid, PlacedCollider, SlideOptions, depenetrate};

/// What a ball hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ImpactKind {
    /// An obstacle (the level, a door, a lift).
    Surface,
    /// Another ball, by index.
    Ball(u32),
    /// A body that takes impulses back (the player), by its
    /// [`crate::Contact::body`] number.
    Body(u32),
}

/// One impact in a tick (for explosions and sounds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The ball, by index.
    pub ball: u32,
    /// What it hit.
    pub kind: ImpactKind,
    /// Where they touched, metres.
    pub point: Vec3,
    /// Unit normal at the touch, pointing towards the ball (from the
    /// surface, or from the other ball).
    pub normal: Vec3,
    /// How fast they closed along the normal, m/s.
    pub speed: f32,
    /// Seconds into the tick.
    pub time: f32,
    /// The impulse the ball took, kg·m/s (what it hit took the opposite).
    pub impulse: Vec3,
}

/// What a tick did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Every impact, in time order.
    pub impacts: Vec<Impact>,
    /// Pairs tested for an impact (the broad phase's output).
    pub pair_tests: u32,
    /// Obstacle sweeps.
    pub sweeps: u32,
    /// Balls stopped for the rest of the tick by the impact cap.
    pub capped: u32,
}

/// The balls and what they obey.
#[derive(Clone, Debug, Default)]
pub struct BallSimulation {
    /// Every ball.
    pub balls: Vec<Ball>,
    /// The rules.
    pub config: BallConfig,
    pub(crate) clocks: Vec<Clock>,
    pub(crate) schedule: Schedule,
    /// Each ball's next obstacle contact (valid with its event).
    pub(crate) contacts: Vec<Option<Contact>>,
}

/// Longest tick [`BallSimulation::step`] takes, seconds.
pub const MAX_STEP: f32 = 1.0;

impl BallSimulation {
    /// No balls, the given rules.
    pub fn new(config: BallConfig) -> Self {
        Self {
            config,
            ..Self::default()
        }
    }

    /// Wakes the balls touching the box (metres): a door or lift moving there.
    pub fn wake_within(&mut self, min: Vec3, max: Vec3) {
        for b in &mut self.balls {
            let r = Vec3::splat(b.radius);
            if b.asleep && (b.position + r).cmpge(min).all() && (b.position - r).cmple(max).all() {
                b.asleep = false;
                b.slow_for = 0.0;
            }
        }
    }

    /// Wakes the balls that may rest on `removed` (a ball just taken out
    /// of [`Self::balls`]): those within a millimetre of it.
    pub fn wake_around(&mut self, removed: &Ball) {
        let reach = Vec3::splat(removed.radius + 1e-3);
        self.wake_within(removed.position - reach, removed.position + reach);
    }

    /// Pushes every ball whose box touches `min`..`max` (metres) out of the
    /// triangles of `colliders` it overlaps (at their poses now), leaving
    /// the collision core's skin, and returns the balls that cannot be
    /// freed (crushed: under a lift coming down, say), by index. For the
    /// end of a tick near doors and lifts: a ball jammed in that tick (the
    /// impact cap) without a ride does not answer a surface that moves
    /// into it.
    pub fn push_out_of(&mut self, colliders: &[PlacedCollider<'_>], min: Vec3, max: Vec3) -> Vec<usize> {
        let mut crushed = Vec::new();
        for (k, b) in self.balls.iter_mut().enumerate() {
            let r = Vec3::splat(b.radius);
            if (b.position + r).cmplt(min).any() || (b.position - r).cmpgt(max).any() {
                continue;
            }
            let Ok(sphere) = Ellipsoid::sphere(b.radius) else {
                continue;
            };
            match depenetrate(&sphere, b.position, colliders, &SlideOptions::default()) {
                (freed, true) if freed.is_finite() => b.position = freed,
                _ => crushed.push(k),
            }
        }
        crushed
    }

    /// Advances every ball by `dt` seconds against `solids` and each
    /// other; the impacts come back in time order. A tick that is not in
    /// `0 < dt <= `[`MAX_STEP`] seconds moves nothing (the fuzzer's 1e30 s
    /// tick sent balls to infinity).
    pub fn step(&mut self, dt: f32, solids: &impl Solids) -> StepReport {
        let mut report = StepReport::default();
        let n = self.balls.len();
        if n == 0 || !(dt > 0.0 && dt <= MAX_STEP) {
            return report;
        }
        let config = self.config;
        for b in &mut self.balls {
            if !b.asleep {
                b.velocity += config.gravity * dt;
            }
        }
        self.clocks.clear();
        self.clocks.extend(self.balls.iter().map(|b| Clock {
            still: b.asleep,
            ..Clock::default()
        }));
        // The broad phase and the pair events on this thread while the
        // obstacle sweeps run on the others (then here too).
        self.first_sweeps(dt, solids, &mut report);
        for i in 0..n as u32 {
            let clock = self.clocks[i as usize];
            if let Some(c) = self.contacts[i as usize].filter(|_| !clock.still) {
                self.schedule.events.push(Event {
                    time: c.time,
                    a: i,
                    b: OBSTACLE,
                    version_a: clock.version,
                    version_b: 0,
                });
            }
        }
        // A safety valve: past this many events in one tick (never seen),
        // every ball stops where it is for the rest of it.
        let mut budget = 64 * n + 10_000;
        while let Some(event) = self.schedule.events.pop() {
            if event.time > dt {
                break;
            }
            budget -= 1;
            if budget == 0 {
                for (b, clock) in self.balls.iter_mut().zip(&mut self.clocks) {
                    clock.still = true;
                    clock.carry = Vec3::ZERO;
                    b.velocity = Vec3::ZERO;
                }
                report.capped += n as u32;
                break;
            }
            let a = event.a as usize;
            if self.clocks[a].version != event.version_a
                || (event.b != OBSTACLE && self.clocks[event.b as usize].version != event.version_b)
            {
                continue; // a ball in it has changed course since
            }
            if event.b == OBSTACLE {
                self.obstacle_impact(event, &mut report);
            } else {
                self.ball_impact(event, dt, solids, &mut report);
            }
            // (Read before either ball of the event jams.)
            let rides = [event.a, event.b].map(|id| self.ride_after(id, event));
            for (id, ride) in [event.a, event.b].into_iter().zip(rides) {
                if id == OBSTACLE {
                    continue;
                }
                let clock = &mut self.clocks[id as usize];
                clock.version += 1;
                clock.impacts += 1;
                if clock.impacts >= config.max_impacts_per_ball && !clock.still {
                    self.jam(id, ride, dt, solids);
                    report.capped += 1;
                }
                let bounds = path_bounds(&self.balls, &self.clocks, id, dt);
                self.schedule.grid.insert(id, bounds);
            }
            for id in [event.a, event.b] {
                if id == OBSTACLE {
                    continue;
                }
                if !self.clocks[id as usize].still {
                    self.schedule_obstacle(id, dt, solids, &mut report);
                }
                report.pair_tests += self.schedule.pairs(&self.balls, &self.clocks, id, dt, false);
            }
        }
        // A sleeping ball next to one that moves off (a ball it rests on,
        // knocked away) may have lost its support: it wakes, and falls if
        // it has. Its box comes within a millimetre of the box of any ball
        // it rests on.
        let mut neighbours = std::mem::take(&mut self.schedule.neighbours);
        for i in 0..n {
            if !self.balls[i].asleep {
                continue;
            }
            self.schedule.grid.neighbours_within(i as u32, 1e-3, &mut neighbours);
            let moving_off = neighbours.iter().any(|&j| {
                let other = &self.balls[j as usize];
                !other.asleep && other.velocity.length() > config.sleep_speed
            });
            if moving_off {
                self.balls[i].asleep = false;
                self.balls[i].slow_for = 0.0;
            }
        }
        self.schedule.neighbours = neighbours;
        // Every ball to the end of the tick; rest and sleep.
        for (b, clock) in self.balls.iter_mut().zip(&self.clocks) {
            let velocity = if clock.still { clock.carry } else { b.velocity };
            b.position += velocity * (dt - clock.at);
            if b.asleep {
                continue;
            }
            if clock.supported && b.velocity.length() < config.sleep_speed {
                b.slow_for += dt;
                if b.slow_for >= config.sleep_after {
                    b.asleep = true;
                    b.velocity = Vec3::ZERO;
                }
            } else {
                b.slow_for = 0.0;
            }
        }
        report
    }
}
