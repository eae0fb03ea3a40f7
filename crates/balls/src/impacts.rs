//! A tick's impacts: every moving ball's first sweep against the solids
//! (on several threads), a ball's next contact with them as an event, and
//! what an impact does, with a solid or another ball: the response, the
//! support noted for sleep, and the rides and jams of balls past the
//! impact cap.

use crate::ball::Ball;
use crate::schedule::{Event, OBSTACLE, moving};
use crate::simulation::{BallSimulation, Impact, ImpactKind, StepReport};
use crate::solids::{Contact, Solids};
use crate::toi::{ball_impulse, surface_response};
use glam::Vec3;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

/// Balls swept per helping thread's turn in [`BallSimulation::first_sweeps`].
const SWEEP_CHUNK: usize = 64;

impl BallSimulation {
    /// Every moving ball's first contact with the obstacles over the whole
    /// tick, and the broad phase with the first pair events. With
    /// [`crate::BallConfig::threads`] above 1 the sweeps start on the other
    /// threads (turns of [`SWEEP_CHUNK`] balls) while this one builds the
    /// grid, then this one sweeps too. Each ball's sweep is independent of
    /// the others, so the outcome does not depend on the threads.
    pub(crate) fn first_sweeps(&mut self, dt: f32, solids: &impl Solids, report: &mut StepReport) {
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
    pub(crate) fn ride_after(&self, id: u32, event: Event) -> Vec3 {
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
    pub(crate) fn jam(&mut self, id: u32, ride: Vec3, dt: f32, solids: &impl Solids) {
        let i = id as usize;
        let at = self.clocks[i].at;
        let blocked = ride != Vec3::ZERO && blocks(solids, &self.balls[i], ride, at, dt);
        let carry = if blocked { Vec3::ZERO } else { ride };
        self.clocks[i].still = true;
        self.clocks[i].carry = carry;
        self.balls[i].velocity = carry;
    }

    pub(crate) fn schedule_obstacle(&mut self, i: u32, dt: f32, solids: &impl Solids, report: &mut StepReport) {
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

    pub(crate) fn obstacle_impact(&mut self, event: Event, report: &mut StepReport) {
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

    pub(crate) fn ball_impact(&mut self, event: Event, dt: f32, solids: &impl Solids, report: &mut StepReport) {
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

/// Whether moving ball `b` at `carry` (m/s) from `at` to the end of the
/// tick runs into an obstacle: a contact the motion presses into, not one
/// it slides along (a ball riding a lift up beside a wall).
fn blocks(solids: &impl Solids, b: &Ball, carry: Vec3, at: f32, dt: f32) -> bool {
    solids
        .sweep(b.position, b.radius, carry, at, dt - at)
        .is_some_and(|c| c.normal.dot(carry - c.surface_velocity) < -1e-3 * carry.length().max(1e-3))
}
