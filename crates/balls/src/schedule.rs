//! What a tick keeps track of: each ball's clock within the tick
//! ([`Clock`]), the impacts due ([`Event`], earliest first), and the broad
//! phase that finds the pairs of balls worth testing ([`Schedule`]).

use crate::ball::Ball;
use crate::grid::{Bounds, Grid};
use crate::toi::time_of_impact;
use glam::Vec3;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// An impact due at `time`, valid while the balls' versions are unchanged.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Event {
    pub(crate) time: f32,
    pub(crate) a: u32,
    /// The other ball, or `u32::MAX` for an obstacle.
    pub(crate) b: u32,
    pub(crate) version_a: u32,
    pub(crate) version_b: u32,
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
pub(crate) struct Clock {
    /// Seconds into the tick the ball's position is at.
    pub(crate) at: f32,
    pub(crate) version: u32,
    pub(crate) impacts: u32,
    /// Stopped for the rest of the tick (asleep, or past the impact cap):
    /// no more events of its own; it moves at `carry`.
    pub(crate) still: bool,
    /// A still ball's velocity for the rest of the tick, m/s: that of the
    /// moving surface (or ball) its last impact was with, so a ball jammed
    /// in a pile on a lift rides the lift; zero otherwise.
    pub(crate) carry: Vec3,
    /// The velocity of the last moving obstacle (door, lift, player) it
    /// hit this tick, m/s; zero if none.
    pub(crate) ridden: Vec3,
    /// Touched something below it this tick.
    pub(crate) supported: bool,
}

/// The broad phase and the event queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct Schedule {
    pub(crate) grid: Grid,
    pub(crate) events: BinaryHeap<Event>,
    pub(crate) neighbours: Vec<u32>,
}

/// Obstacle events have no second ball.
pub(crate) const OBSTACLE: u32 = u32::MAX;

impl Schedule {
    /// An empty grid and queue, then every ball's path in the grid and the
    /// events of every moving pair (once each); the pair tests made.
    pub(crate) fn first_pairs(&mut self, balls: &[Ball], clocks: &[Clock], dt: f32) -> u32 {
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
    pub(crate) fn pairs(&mut self, balls: &[Ball], clocks: &[Clock], i: u32, dt: f32, first: bool) -> u32 {
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
pub(crate) fn moving(balls: &[Ball], clocks: &[Clock], i: usize) -> Vec3 {
    if clocks[i].still {
        clocks[i].carry
    } else {
        balls[i].velocity
    }
}

/// The box around ball `i`'s path from its clock to the end of the tick.
pub(crate) fn path_bounds(balls: &[Ball], clocks: &[Clock], i: u32, dt: f32) -> Bounds {
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
