//! The crouch-slide: crouch pressed while sprinting on the ground faster
//! than `slide_min_speed` slides in the crouched shape, with a boost at
//! the start, low friction, gravity's pull down slopes and weak steering;
//! it ends when slower than `slide_min_speed`, when crouch is let go with
//! room to stand, or in the air (a jump keeps its speed).

use super::{Move, Slide};
use crate::config::MAX_MOVE_SPEED;
use crate::frame::horizontal;
use crate::state::{CharacterState, GroundContact, Intent};
use crate::tick::Run;
use glam::{Quat, Vec3};

/// How fast a slide turns towards the wish direction, radians per second
/// (1: weak steering, a quarter turn takes 1.6 s).
pub const SLIDE_TURN_RATE: f32 = 1.0;

impl Run<'_> {
    /// Starts a slide: crouch pressed this tick (the caller checks it was
    /// not held the tick before) while sprinting on the ground faster than
    /// `slide_min_speed`.
    pub(crate) fn start_slide(&mut self, state: &mut CharacterState, intent: &Intent) {
        let c = self.c;
        if c.slide_min_speed <= 0.0
            || !state.crouched
            || !intent.sprint
            || state.ground.is_none()
            || state.moves.under_way.is_some()
        {
            return;
        }
        let v = horizontal(state.velocity, state.up);
        let speed = v.length();
        if speed <= c.slide_min_speed {
            return;
        }
        let boosted = (speed + c.slide_speed_boost).min(MAX_MOVE_SPEED);
        state.velocity = v * (boosted / speed);
        state.moves.under_way = Some(Move::Slide(Slide { elapsed: 0.0 }));
        self.report.slide_started = true;
    }

    /// Ends the slide under way when it is too slow or the character
    /// stood up (crouch let go, with room).
    pub(crate) fn end_slide_if_over(&mut self, state: &mut CharacterState) {
        if state.moves.slide().is_none() {
            return;
        }
        let speed = horizontal(state.velocity, state.up).length();
        if !state.crouched || speed < self.c.slide_min_speed || state.ground.is_none() {
            state.moves.under_way = None;
            self.report.slide_ended = true;
        }
    }

    /// One tick of a slide's velocity on `ground`: gravity's pull along the
    /// slope (its part across "up"), the slide's friction, and a turn
    /// towards the wish direction at [`SLIDE_TURN_RATE`].
    pub(crate) fn slide_velocity(&mut self, state: &mut CharacterState, wish: Vec3, ground: GroundContact) {
        let c = self.c;
        let up = state.up;
        let dt = self.dt;
        let n = ground.normal;
        let downhill = horizontal(c.gravity - n * c.gravity.dot(n), up);
        let mut v = horizontal(state.velocity, up) + downhill * dt;
        let speed = v.length();
        if speed > 0.0 {
            let slowed = (speed - c.slide_friction * ground.friction * dt).max(0.0);
            v *= slowed / speed;
        }
        let heading = v.normalize_or_zero();
        let towards = wish.normalize_or_zero();
        if heading != Vec3::ZERO && towards != Vec3::ZERO {
            let angle = heading.angle_between(towards);
            let turn = angle.min(SLIDE_TURN_RATE * dt);
            let side = heading.cross(towards).dot(up).signum();
            if angle > 1e-4 && angle < std::f32::consts::PI - 1e-3 {
                v = Quat::from_axis_angle(up, side * turn) * v;
            }
        }
        state.velocity = v;
        if let Some(Move::Slide(slide)) = &mut state.moves.under_way {
            slide.elapsed += dt;
        }
    }
}
