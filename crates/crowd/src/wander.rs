//! The agents' wander brain: walk on a heading, pick a new one now and
//! then, wait a moment and turn when blocked, stand still for a while now
//! and then. Each
//! agent draws from its own seeded generator, so a crowd's walk is the same
//! on every run and on any number of threads.

use glam::Vec3;
use slidewalk_controller::Intent;
use std::f32::consts::TAU;

/// A small deterministic generator (PCG-style LCG with an xorshift output),
/// one per agent: 8 bytes, copied with the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentRng(u64);

impl AgentRng {
    /// The generator for agent number `index` of a crowd spawned with `seed`
    /// (SplitMix64 of both, so neighbouring agents' streams differ).
    pub fn new(seed: u64, index: u64) -> Self {
        let mut z = seed
            ^ index
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(0x632b_e59b_d9b4_e019);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Self(z ^ (z >> 31))
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f32(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let x = self.0 ^ (self.0 >> 33);
        (x >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }
}

/// How agents wander (seconds, fractions of the walking speed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderConfig {
    /// Shortest time on one heading, seconds (1).
    pub min_leg_s: f32,
    /// Longest time on one heading, seconds (5).
    pub max_leg_s: f32,
    /// Chance that a new leg is a pause (standing still), 0…1 (0.15).
    pub pause_chance: f32,
    /// Slowest walking pace, a fraction of the controller's walking speed
    /// (0.4); each leg picks a pace up to 1.
    pub min_pace: f32,
    /// Longest wait after being blocked before walking on a new heading,
    /// seconds (1; each wait is 0.2 of it to all of it). 0: turn at once.
    pub blocked_wait_s: f32,
}

impl Default for WanderConfig {
    fn default() -> Self {
        Self {
            min_leg_s: 1.0,
            max_leg_s: 5.0,
            pause_chance: 0.15,
            min_pace: 0.4,
            blocked_wait_s: 1.0,
        }
    }
}

/// One agent's wandering state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wander {
    /// The agent's generator.
    pub rng: AgentRng,
    /// Heading about +y, radians (0 walks towards −z, as the player's yaw).
    pub heading: f32,
    /// Pace of this leg, 0 (standing) … 1 (walking speed).
    pub pace: f32,
    /// Seconds left on this leg.
    pub leg_left: f32,
    /// The last tick got (almost) nowhere although it walked: wait a
    /// moment and take a new heading.
    pub blocked: bool,
}

impl Wander {
    /// A brain starting on a random leg.
    pub fn new(mut rng: AgentRng, config: &WanderConfig) -> Self {
        let mut w = Self {
            heading: 0.0,
            pace: 0.0,
            leg_left: 0.0,
            blocked: false,
            rng: AgentRng(0),
        };
        w.new_leg(&mut rng, config);
        w.rng = rng;
        w
    }

    fn new_leg(&mut self, rng: &mut AgentRng, config: &WanderConfig) {
        self.heading = rng.range(0.0, TAU);
        self.pace = if rng.next_f32() < config.pause_chance {
            0.0
        } else {
            rng.range(config.min_pace.clamp(0.0, 1.0), 1.0)
        };
        let (lo, hi) = (config.min_leg_s.max(0.0), config.max_leg_s.max(config.min_leg_s));
        self.leg_left = rng.range(lo, hi);
        self.blocked = false;
    }

    /// This tick's intent (`dt` seconds): the leg's heading and pace; a new
    /// leg when this one is over; when the last tick was blocked, a short
    /// wait (standing still, [`WanderConfig::blocked_wait_s`]) facing a new
    /// heading, then a new leg.
    pub fn decide(&mut self, config: &WanderConfig, dt: f32) -> Intent {
        self.leg_left -= dt;
        let mut rng = self.rng;
        if self.blocked && config.blocked_wait_s > 0.0 {
            self.heading = rng.range(0.0, TAU);
            self.pace = 0.0;
            self.leg_left = config.blocked_wait_s * rng.range(0.2, 1.0);
            self.blocked = false;
        } else if self.leg_left <= 0.0 || self.blocked {
            self.new_leg(&mut rng, config);
        }
        self.rng = rng;
        Intent {
            direction: Vec3::new(self.heading.sin(), 0.0, -self.heading.cos()) * self.pace,
            ..Intent::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_walk_and_agents_differ() {
        let config = WanderConfig::default();
        let mut a = Wander::new(AgentRng::new(7, 3), &config);
        let mut b = a;
        let mut c = Wander::new(AgentRng::new(7, 4), &config);
        let (mut same, mut differ) = (true, false);
        for _ in 0..600 {
            let (ia, ib, ic) = (
                a.decide(&config, 1.0 / 60.0),
                b.decide(&config, 1.0 / 60.0),
                c.decide(&config, 1.0 / 60.0),
            );
            same &= ia == ib;
            differ |= ia != ic;
            assert!(ia.direction.length() <= 1.0 + 1e-6);
        }
        assert!(same && differ);
    }

    #[test]
    fn a_blocked_agent_turns() {
        let config = WanderConfig::default();
        let mut a = Wander::new(AgentRng::new(1, 1), &config);
        a.leg_left = 100.0;
        let before = a.heading;
        a.blocked = true;
        a.decide(&config, 1.0 / 60.0);
        assert_ne!(a.heading, before);
        assert!(!a.blocked);
    }
}
