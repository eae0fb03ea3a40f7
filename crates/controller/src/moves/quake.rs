//! Quake's movement: air acceleration with a capped wish speed (strafe
//! jumping gains speed), friction with a stop speed, and bunny hops (a
//! landing with jump held jumps again before friction). Surfing needs no
//! rule of its own: steep faces are not ground, and what is hit in the
//! air takes only the velocity into it (Source's clip-velocity).

use crate::frame::horizontal;
use crate::state::CharacterState;
use crate::tick::Run;
use glam::Vec3;

/// `v` with speed added along `direction` (unit) up to `wish_speed` of its
/// component along it, by at most `most` (Quake's `PM_Accelerate`).
pub(crate) fn accelerate(v: Vec3, direction: Vec3, wish_speed: f32, most: f32) -> Vec3 {
    let add = wish_speed - v.dot(direction);
    if add <= 0.0 {
        return v;
    }
    v + direction * add.min(most)
}

impl Run<'_> {
    /// Quake's air acceleration: along the wish direction, up to
    /// [`air_speed_cap`](crate::ControllerConfig::air_speed_cap) of the
    /// velocity's component along it, at `air_acceleration`.
    pub(crate) fn quake_air(&self, state: &mut CharacterState, wish: Vec3, target: Vec3) {
        let c = self.c;
        let direction = wish.normalize_or_zero();
        if direction == Vec3::ZERO {
            return;
        }
        let wish_speed = target.length().min(c.air_speed_cap);
        state.velocity = accelerate(state.velocity, direction, wish_speed, c.air_acceleration * self.dt);
    }

    /// Quake's walking: friction with a stop speed (exact over the tick:
    /// exponential above the stop speed, linear below it), then
    /// acceleration along the wish direction up to the top speed.
    /// `grip` is the surface's friction (0 … 1).
    pub(crate) fn quake_ground(&self, state: &mut CharacterState, wish: Vec3, target: Vec3, grip: f32) {
        let c = self.c;
        let up = state.up;
        let dt = self.dt;
        let v = horizontal(state.velocity, up);
        let speed = v.length();
        let rate = c.ground_friction / c.stop_speed * grip; // 1/s above the stop speed
        let mut left = speed;
        if rate > 0.0 && speed > 0.0 {
            // Above the stop speed the speed decays as exp(−rate·t); at or
            // below it, it falls by rate · stop_speed each second.
            let mut t = dt;
            if left > c.stop_speed {
                let to_stop = libm::logf(left / c.stop_speed) / rate;
                if to_stop >= t {
                    left *= libm::expf(-rate * t);
                    t = 0.0;
                } else {
                    left = c.stop_speed;
                    t -= to_stop;
                }
            }
            if t > 0.0 {
                left = (left - rate * c.stop_speed * t).max(0.0);
            }
        }
        let slowed = if speed > 0.0 { v * (left / speed) } else { v };
        let direction = wish.normalize_or_zero();
        state.velocity = if direction == Vec3::ZERO {
            slowed
        } else {
            accelerate(slowed, direction, target.length(), c.ground_acceleration * grip * dt)
        };
    }

    /// Whether this tick on the ground is a bunny hop: `auto_hop` on and a
    /// jump about to fire from the ground (jump held on landing).
    pub(crate) fn hops_now(&self, state: &CharacterState) -> bool {
        let c = self.c;
        c.auto_hop
            && state.ground.is_some()
            && state.jump_buffer > 0.0
            && c.jump_height > 0.0
            && c.gravity != Vec3::ZERO
            && state.moves.landing_lag == 0.0
            && state.moves.slide().is_none()
    }
}
