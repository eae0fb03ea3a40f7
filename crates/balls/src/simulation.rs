//! The balls and their tick: gravity, then every impact in time order.

use crate::ball::{Ball, BallConfig};
use crate::grid::{Bounds, Grid};
use crate::solids::{Contact, Solids};
use crate::toi::{ball_impulse, surface_response, time_of_impact};
use glam::Vec3;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use sweep::{Ellipsoid, PlacedCollider, SlideOptions, depenetrate};

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

/// An impact due at `time`, valid while the balls' versions are unchanged.
#[derive(Clone, Copy, Debug)]
struct Event {
    time: f32,
    a: u32,
    /// The other ball, or `u32::MAX` for an obstacle.
    b: u32,
    version_a: u32,
    version_b: u32,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    /// Reversed: the earliest event is the heap's greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then_with(|| other.a.cmp(&self.a))
            .then_with(|| other.b.cmp(&self.b))
    }
}

/// Per-ball bookkeeping within a tick.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// Seconds into the tick the ball's position is at.
    at: f32,
    version: u32,
    impacts: u32,
    /// Stopped for the rest of the tick (asleep, or past the impact cap):
    /// no more events of its own; it moves at `carry`.
    still: bool,
    /// A still ball's velocity for the rest of the tick, m/s: that of the
    /// moving surface (or ball) its last impact was with, so a ball jammed
    /// in a pile on a lift rides the lift; zero otherwise.
    carry: Vec3,
    /// The velocity of the last moving obstacle (door, lift, player) it
    /// hit this tick, m/s; zero if none.
    ridden: Vec3,
    /// Touched something below it this tick.
    supported: bool,
}

/// The balls and what they obey.
#[derive(Clone, Debug, Default)]
pub struct BallSimulation {
    /// Every ball.
    pub balls: Vec<Ball>,
    /// The rules.
    pub config: BallConfig,
    clocks: Vec<Clock>,
    schedule: Schedule,
    /// Each ball's next obstacle contact (valid with its event).
    contacts: Vec<Option<Contact>>,
}

/// The broad phase and the event queue.
#[derive(Clone, Debug, Default)]
struct Schedule {
    grid: Grid,
    events: BinaryHeap<Event>,
    neighbours: Vec<u32>,
}

/// Longest tick [`BallSimulation::step`] takes, seconds.
pub const MAX_STEP: f32 = 1.0;

/// Balls swept per helping thread's turn in [`BallSimulation::first_sweeps`].
const SWEEP_CHUNK: usize = 64;

/// Obstacle events have no second ball.
const OBSTACLE: u32 = u32::MAX;

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

    /// Every moving ball's first contact with the obstacles over the whole
    /// tick, and the broad phase with the first pair events. With
    /// [`BallConfig::threads`] above 1 the sweeps start on the other
    /// threads (turns of [`SWEEP_CHUNK`] balls) while this one builds the
    /// grid, then this one sweeps too. Each ball's sweep is independent of
    /// the others, so the outcome does not depend on the threads.
    fn first_sweeps(&mut self, dt: f32, solids: &impl Solids, report: &mut StepReport) {
        let n = self.balls.len();
        self.contacts.clear();
        self.contacts.resize(n, None);
        let (balls, clocks, schedule) = (&self.balls, &self.clocks, &mut self.schedule);
        let sweep = |i: usize| {
            let b = &balls[i];
            solids.sweep(b.position, b.radius, b.velocity, 0.0, dt)
        };
        // Below a few hundred balls a thread costs more than it saves.
        let threads = self.config.threads.clamp(1, n / 256 + 1);
        let next = AtomicUsize::new(0);
        // Sweeps turn by turn until none are left: (ball, contact) pairs.
        let take_turns = || {
            let mut found = Vec::new();
            loop {
                let first = next.fetch_add(SWEEP_CHUNK, AtomicOrdering::Relaxed);
                if first >= n {
                    return found;
                }
                let last = (first + SWEEP_CHUNK).min(n);
                for (i, clock) in clocks.iter().enumerate().take(last).skip(first) {
                    if !clock.still {
                        found.push((i, sweep(i)));
                    }
                }
            }
        };
        let found: Vec<Vec<(usize, Option<Contact>)>> = if threads == 1 {
            report.pair_tests += schedule.first_pairs(balls, clocks, dt);
            vec![take_turns()]
        } else {
            std::thread::scope(|s| {
                let helpers: Vec<_> = (1..threads).map(|_| s.spawn(take_turns)).collect();
                report.pair_tests += schedule.first_pairs(balls, clocks, dt);
                let mut found = vec![take_turns()];
                found.extend(helpers.into_iter().map(|h| h.join().expect("a sweep thread panicked")));
                found
            })
        };
        for (i, contact) in found.into_iter().flatten() {
            self.contacts[i] = contact;
        }
        report.sweeps += clocks.iter().filter(|c| !c.still).count() as u32;
    }

    /// What ball `id` would move on with if `event` jammed it: the moving
    /// obstacle it last met (a ball wedged between a rising lift's edge
    /// and a wall rides up along the wall), or the ride of a jammed ball it
    /// just hit. Zero for the obstacle side of an event.
    fn ride_after(&self, id: u32, event: Event) -> Vec3 {
        if id == OBSTACLE {
            return Vec3::ZERO;
        }
        let ridden = self.clocks[id as usize].ridden;
        if event.b == OBSTACLE {
            return ridden;
        }
        let other = if id == event.a { event.b } else { event.a };
        let passed_on = self.clocks[other as usize].carry;
        if passed_on != Vec3::ZERO { passed_on } else { ridden }
    }

    /// Ball `id` has had its fill of impacts this tick (wedged in a gap
    /// narrower than itself, or deep in a pile): no more impacts of its
    /// own. It moves on at `ride` (see [`Self::ride_after`]) unless that
    /// would press it into an obstacle; else it stops, and loses its speed
    /// so gravity cannot pile velocity onto a ball that cannot move.
    fn jam(&mut self, id: u32, ride: Vec3, dt: f32, solids: &impl Solids) {
        let i = id as usize;
        let at = self.clocks[i].at;
        let blocked = ride != Vec3::ZERO && blocks(solids, &self.balls[i], ride, at, dt);
        let carry = if blocked { Vec3::ZERO } else { ride };
        self.clocks[i].still = true;
        self.clocks[i].carry = carry;
        self.balls[i].velocity = carry;
    }

    fn schedule_obstacle(&mut self, i: u32, dt: f32, solids: &impl Solids, report: &mut StepReport) {
        let (b, clock) = (&self.balls[i as usize], self.clocks[i as usize]);
        report.sweeps += 1;
        let contact = solids.sweep(b.position, b.radius, b.velocity, clock.at, dt - clock.at);
        self.contacts[i as usize] = contact;
        if let Some(c) = contact {
            self.schedule.events.push(Event {
                time: clock.at + c.time,
                a: i,
                b: OBSTACLE,
                version_a: clock.version,
                version_b: 0,
            });
        }
    }

    fn advance(&mut self, i: usize, to: f32) {
        let v = moving(&self.balls, &self.clocks, i);
        let clock = &mut self.clocks[i];
        self.balls[i].position += v * (to - clock.at);
        clock.at = to;
    }

    fn obstacle_impact(&mut self, event: Event, report: &mut StepReport) {
        let i = event.a as usize;
        let b = self.balls[i];
        let Some(contact) = self.contacts[i] else { return };
        // Stop a skin short of the contact along the path relative to the
        // surface: to the touch, then back along the relative motion, but
        // never back past where the ball was (never sideways or backwards
        // into a neighbour). Backing off along the ball's own path instead
        // would leave a ball that a faster surface catches (a lift rising
        // under a rising ball) inside it.
        let relative = b.velocity - contact.surface_velocity;
        let back = (self.config.skin / relative.length().max(1e-6)).min(event.time - self.clocks[i].at);
        self.advance(i, event.time);
        self.balls[i].position -= relative * back.max(0.0);
        let config = &self.config;
        let closing = -(b.velocity - contact.surface_velocity).dot(contact.normal);
        let e = if closing < config.rest_speed {
            0.0
        } else {
            config.restitution
        };
        let ball = &mut self.balls[i];
        ball.velocity = surface_response(
            ball.velocity,
            contact.surface_velocity,
            contact.normal,
            e,
            config.friction * contact.friction,
        );
        let up = -config.gravity.normalize_or_zero();
        if contact.normal.dot(up) > 0.5 {
            self.clocks[i].supported = true;
        }
        if contact.surface_velocity != Vec3::ZERO {
            self.clocks[i].ridden = contact.surface_velocity;
        }
        report.impacts.push(Impact {
            ball: event.a,
            kind: contact.body.map_or(ImpactKind::Surface, ImpactKind::Body),
            point: contact.point,
            normal: contact.normal,
            speed: closing.max(0.0),
            time: event.time,
            impulse: (ball.velocity - b.velocity) * b.mass,
        });
    }

    fn ball_impact(&mut self, event: Event, dt: f32, solids: &impl Solids, report: &mut StepReport) {
        let (i, j) = (event.a as usize, event.b as usize);
        self.advance(i, event.time);
        self.advance(j, event.time);
        // A hit wakes a sleeping ball: it moves from now on.
        for k in [i, j] {
            if self.balls[k].asleep {
                self.balls[k].asleep = false;
                self.balls[k].slow_for = 0.0;
                self.clocks[k].still = self.clocks[k].impacts + 1 >= self.config.max_impacts_per_ball;
            }
        }
        let (bi, bj) = (self.balls[i], self.balls[j]);
        let n = (bj.position - bi.position).normalize_or_zero();
        if n == Vec3::ZERO {
            return;
        }
        if self.clocks[i].still && self.clocks[j].still {
            // Two jammed balls, one carried into the other (a pile riding
            // a lift): the one met rides along, unless that would take it
            // into an obstacle, or either has been through this too often
            // this tick; then both stop. Either way they end with one
            // velocity and close no more, and stopping is for good (a ball
            // with no carry is never a pusher), so this ends.
            let (ci, cj) = (self.clocks[i].carry, self.clocks[j].carry);
            let (pusher, pushed) = if ci.dot(n) >= -cj.dot(n) { (i, j) } else { (j, i) };
            let carry = self.clocks[pusher].carry;
            let b = &self.balls[pushed];
            let at = self.clocks[pushed].at;
            let limit = 2 * self.config.max_impacts_per_ball;
            let passed_on_enough = self.clocks[pushed].impacts >= limit || self.clocks[pusher].impacts >= limit;
            if passed_on_enough || blocks(solids, b, carry, at, dt) {
                for k in [pusher, pushed] {
                    self.clocks[k].carry = Vec3::ZERO;
                    self.balls[k].velocity = Vec3::ZERO;
                }
            } else {
                self.clocks[pushed].carry = carry;
                self.balls[pushed].velocity = carry;
            }
            return;
        }
        // A ball stopped for the rest of the tick (by the impact cap) is
        // immovable until the tick ends: infinite mass, no velocity.
        let (vi, vj) = (
            moving(&self.balls, &self.clocks, i),
            moving(&self.balls, &self.clocks, j),
        );
        let inverse_mass = |k: usize, m: f32| if self.clocks[k].still { 0.0 } else { 1.0 / m };
        let (wi, wj) = (inverse_mass(i, bi.mass), inverse_mass(j, bj.mass));
        if wi + wj == 0.0 {
            return;
        }
        let closing = -(vj - vi).dot(n);
        let e = if closing < self.config.rest_speed {
            0.0
        } else {
            self.config.restitution
        };
        let (vi, vj) = ball_impulse(vi, wi, vj, wj, n, e);
        if !self.clocks[i].still {
            self.balls[i].velocity = vi;
        }
        if !self.clocks[j].still {
            self.balls[j].velocity = vj;
        }
        let up = -self.config.gravity.normalize_or_zero();
        // Resting on the other ball counts as support.
        if n.dot(up) < -0.5 {
            self.clocks[i].supported = true;
        }
        if n.dot(up) > 0.5 {
            self.clocks[j].supported = true;
        }
        report.impacts.push(Impact {
            ball: event.a,
            kind: ImpactKind::Ball(event.b),
            point: bi.position + n * bi.radius,
            normal: -n,
            speed: closing.max(0.0),
            time: event.time,
            impulse: (self.balls[i].velocity - bi.velocity) * bi.mass,
        });
    }
}

impl Schedule {
    /// An empty grid and queue, then every ball's path in the grid and the
    /// events of every moving pair (once each); the pair tests made.
    fn first_pairs(&mut self, balls: &[Ball], clocks: &[Clock], dt: f32) -> u32 {
        let n = balls.len();
        let widest = balls.iter().map(|b| b.radius).fold(0.0, f32::max);
        self.grid.reset(n, (4.0 * widest).max(0.25));
        for i in 0..n as u32 {
            self.grid.insert(i, path_bounds(balls, clocks, i, dt));
        }
        self.events.clear();
        let mut tests = 0;
        for i in 0..n as u32 {
            if !clocks[i as usize].still {
                tests += self.pairs(balls, clocks, i, dt, true);
            }
        }
        tests
    }

    /// Pair events of ball `i` with its neighbours (at the start, each
    /// moving pair once); the pair tests made.
    fn pairs(&mut self, balls: &[Ball], clocks: &[Clock], i: u32, dt: f32, first: bool) -> u32 {
        let mut neighbours = std::mem::take(&mut self.neighbours);
        self.grid.neighbours(i, &mut neighbours);
        let mut tests = 0;
        for &j in &neighbours {
            if first && j < i && !clocks[j as usize].still {
                continue; // scheduled from j's side
            }
            tests += 1;
            if let Some(event) = pair_event(balls, clocks, i, j, dt) {
                self.events.push(event);
            }
        }
        self.neighbours = neighbours;
        tests
    }
}

/// Ball `i`'s velocity for the rest of the tick (its carry while still).
fn moving(balls: &[Ball], clocks: &[Clock], i: usize) -> Vec3 {
    if clocks[i].still {
        clocks[i].carry
    } else {
        balls[i].velocity
    }
}

/// The box around ball `i`'s path from its clock to the end of the tick.
fn path_bounds(balls: &[Ball], clocks: &[Clock], i: u32, dt: f32) -> Bounds {
    let (b, at) = (&balls[i as usize], clocks[i as usize].at);
    let end = b.position + moving(balls, clocks, i as usize) * (dt - at);
    Bounds::of_path(b.position, end, b.radius)
}

/// The impact of balls `i` and `j` if they meet before the tick ends.
fn pair_event(balls: &[Ball], clocks: &[Clock], i: u32, j: u32, dt: f32) -> Option<Event> {
    let (ci, cj) = (clocks[i as usize], clocks[j as usize]);
    let (bi, bj) = (&balls[i as usize], &balls[j as usize]);
    let (vi, vj) = (moving(balls, clocks, i as usize), moving(balls, clocks, j as usize));
    let t0 = ci.at.max(cj.at);
    let pi = bi.position + vi * (t0 - ci.at);
    let pj = bj.position + vj * (t0 - cj.at);
    let s = time_of_impact(pj - pi, vj - vi, bi.radius + bj.radius, dt - t0)?;
    Some(Event {
        time: t0 + s,
        a: i,
        b: j,
        version_a: ci.version,
        version_b: cj.version,
    })
}

/// Whether moving ball `b` at `carry` (m/s) from `at` to the end of the
/// tick runs into an obstacle: a contact the motion presses into, not one
/// it slides along (a ball riding a lift up beside a wall).
fn blocks(solids: &impl Solids, b: &Ball, carry: Vec3, at: f32, dt: f32) -> bool {
    solids
        .sweep(b.position, b.radius, carry, at, dt - at)
        .is_some_and(|c| c.normal.dot(carry - c.surface_velocity) < -1e-3 * carry.length().max(1e-3))
}
