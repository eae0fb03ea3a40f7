//! The benchmark's input: one scripted cycle of walking and jumping, and
//! each player's place in it (its own phase and turn of the headings).

use super::{CYCLE, DT, PLAN_RADIUS};
use glam::{Quat, Vec3};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::test_util::Lcg;

/// One cycle of input (`CYCLE` ticks, unit directions in the xz plane):
/// legs of random heading, 0.5–2 s long (one in ten standing still for
/// 0.5 s) for the first half, the same legs reversed and walked back for the
/// second, a jump pressed about every 5 s (held 0.5 s). The planned path (at walking speed, collisions
/// aside) stays within `PLAN_RADIUS` of the start, so started at any phase it
/// stays within twice that of the spawn.
pub fn script(seed: u64) -> Vec<Intent> {
    let mut rng = Lcg::new(seed);
    let step = ControllerConfig::default().walk_speed * DT;
    let half = CYCLE / 2;
    let mut legs: Vec<(usize, Vec3)> = Vec::new();
    let (mut ticks, mut at) = (0, Vec3::ZERO);
    while ticks < half {
        let still = rng.next_f32() < 0.1;
        let seconds = if still { 0.5 } else { rng.range(0.5, 2.0) };
        let mut len = ((seconds / DT).round() as usize).min(half - ticks);
        let mut direction = Vec3::ZERO;
        if !still {
            // A heading with room for at least half a second of walking.
            let room = |d: Vec3| {
                // How far along d before leaving the circle (|at| <= radius).
                let b = at.dot(d);
                -b + (b * b - at.length_squared() + PLAN_RADIUS * PLAN_RADIUS)
                    .max(0.0)
                    .sqrt()
            };
            let mut heading = rng.range(0.0, std::f32::consts::TAU);
            direction = Vec3::new(heading.cos(), 0.0, heading.sin());
            while room(direction) < 30.0 * step {
                heading = rng.range(0.0, std::f32::consts::TAU);
                direction = Vec3::new(heading.cos(), 0.0, heading.sin());
            }
            len = len.min((room(direction) / step) as usize);
        }
        at += direction * step * len as f32;
        legs.push((len, direction));
        ticks += len;
    }
    let out = legs.iter().copied();
    let back = legs.iter().rev().map(|&(len, d)| (len, -d));
    let mut intents: Vec<Intent> = out
        .chain(back)
        .flat_map(|(len, direction)| {
            std::iter::repeat_n(
                Intent {
                    direction,
                    ..Intent::default()
                },
                len,
            )
        })
        .collect();
    for intent in &mut intents {
        intent.jump = rng.next_f32() < DT / 5.0;
    }
    // Each jump is held for half a second: a full jump with the variable
    // jump height on (with it off, holding changes nothing).
    let mut held = 0;
    for intent in &mut intents {
        if intent.jump {
            held = (0.5 / DT) as usize;
        }
        intent.jump_held = held > 0;
        held = held.saturating_sub(1);
    }
    intents
}

/// Where a player is in the script: ticks into its cycle, the phase it
/// started the script at, and the turn of its headings.
#[derive(Clone, Copy)]
pub struct Cursor {
    pub tick: usize,
    pub phase: usize,
    pub turn: Quat,
}

impl Cursor {
    /// This tick's input, and whether a new cycle starts (the player goes
    /// back to its spawn first).
    pub fn next(&mut self, script: &[Intent]) -> (Intent, bool) {
        let restart = self.tick == script.len();
        if restart {
            self.tick = 0;
        }
        let mut intent = script[(self.tick + self.phase) % script.len()];
        intent.direction = self.turn * intent.direction;
        self.tick += 1;
        (intent, restart)
    }
}
