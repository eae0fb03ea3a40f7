//! The moves beyond walking — variable jump height, air jumps, dash, wall
//! slide and wall jump, mantling, climbing, launches — as rules of a tick,
//! and what they keep between ticks ([`MoveState`]). Each is off while its
//! config field is 0 ([`crate::ControllerConfig`]).

mod climb;
mod dash;
mod jumps;
mod launch;
mod mantle;
mod walls;

use glam::Vec3;

/// What the moves keep between ticks: plain data, part of
/// [`crate::CharacterState`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct MoveState {
    /// While a jump rises and may still be cut by letting go: the square of
    /// the speed (m²/s²) a release takes off the rise, `2·g·(jump_height −
    /// min_jump_height)`.
    pub jump_cut: Option<f32>,
    /// Air jumps made since the last landing or wall jump.
    pub air_jumps_used: u32,
    /// Dashes started in the air since the last landing.
    pub air_dashes_used: u32,
    /// The dash under way.
    pub dash: Option<Dash>,
    /// Seconds before another dash may start.
    pub dash_cooldown: f32,
    /// The wall last touched in the air.
    pub wall: Option<WallTouch>,
    /// The outward normal (unit, across "up") of the wall last jumped off:
    /// it cannot be jumped off again until something else is touched.
    pub wall_jumped_off: Option<Vec3>,
    /// The mantle (or climb's pull over the top) under way.
    pub mantle: Option<Mantle>,
    /// The climb under way.
    pub climb: Option<Climb>,
    /// Height along "up" (metres, `up · feet`) of the last push-off: the
    /// ground stood on, an air jump, a wall jump, a launch. A mantle in
    /// the air reaches `mantle_height` above it or the feet, whichever is
    /// lower. A non-finite value counts as the feet's height.
    pub push_off_height: f32,
}

impl MoveState {
    /// No move under way; the last push-off at `height` (metres along "up").
    pub fn new(height: f32) -> Self {
        Self {
            jump_cut: None,
            air_jumps_used: 0,
            air_dashes_used: 0,
            dash: None,
            dash_cooldown: 0.0,
            wall: None,
            wall_jumped_off: None,
            mantle: None,
            climb: None,
            push_off_height: height,
        }
    }

    /// Finite numbers, no negative time.
    pub(crate) fn is_valid(&self) -> bool {
        let time = |t: f32| t.is_finite() && t >= 0.0;
        self.jump_cut.is_none_or(time)
            && self
                .dash
                .is_none_or(|d| d.direction.is_finite() && d.speed.is_finite() && time(d.time_left))
            && time(self.dash_cooldown)
            && self.wall.is_none_or(|w| w.normal.is_finite() && time(w.since))
            && self.wall_jumped_off.is_none_or(Vec3::is_finite)
            && self.mantle.is_none_or(|m| {
                m.path.iter().all(|p| p.is_finite()) && time(m.elapsed) && m.duration.is_finite() && m.duration > 0.0
            })
            && self.climb.is_none_or(|c| c.normal.is_finite())
    }
}

/// A dash under way.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Dash {
    /// Unit direction, across "up".
    pub direction: Vec3,
    /// m/s.
    pub speed: f32,
    /// Seconds left.
    pub time_left: f32,
}

/// A wall touched in the air.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct WallTouch {
    /// Its outward normal across "up", unit.
    pub normal: Vec3,
    /// Seconds since it was last touched (0: this tick).
    pub since: f32,
    /// Sliding down it (pushed into, falling, the fall capped).
    pub sliding: bool,
}

/// A pull up onto a ledge under way: the centre follows `path` (up, over,
/// down onto the ledge) over `duration`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Mantle {
    /// Where the centre starts, the corner above the start, the corner
    /// above the landing, the landing (metres).
    pub path: [Vec3; 4],
    /// Seconds since it started.
    pub elapsed: f32,
    /// Seconds it takes.
    pub duration: f32,
}

impl Mantle {
    /// The point `fraction` (0..1) of the way along the path, by length.
    pub(crate) fn at(&self, fraction: f32) -> Vec3 {
        let legs = [
            self.path[1] - self.path[0],
            self.path[2] - self.path[1],
            self.path[3] - self.path[2],
        ];
        let total: f32 = legs.iter().map(|l| l.length()).sum();
        let mut left = fraction.clamp(0.0, 1.0) * total;
        for (i, leg) in legs.iter().enumerate() {
            let length = leg.length();
            if left <= length && length > 0.0 {
                return self.path[i] + *leg * (left / length);
            }
            left -= length;
        }
        self.path[3]
    }
}

/// A climb under way.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Climb {
    /// The face's outward normal across "up", unit.
    pub normal: Vec3,
}
