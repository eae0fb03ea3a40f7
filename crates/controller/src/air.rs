//! In the air: the steering (or Quake's air acceleration), the motion with
//! gravity (exact for constant gravity), what is hit taking the velocity
//! into it, and landing.

use crate::frame::{horizontal, move_towards};
use crate::state::{CharacterState, Pass};
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid};

impl Run<'_> {
    /// In the air: move with the velocity and gravity (exact for constant
    /// gravity), land on walkable ground while going down onto it; fall no
    /// faster than `max_fall` (m/s).
    pub(crate) fn fly(&mut self, state: &mut CharacterState, e: &Ellipsoid, max_fall: f32) {
        let c = self.c;
        let up = state.up;
        let dt = self.dt;
        let motion = state.velocity * dt + 0.5 * c.gravity * dt * dt;
        let mut velocity = state.velocity + c.gravity * dt;
        let fall = -velocity.dot(up);
        if fall > max_fall {
            velocity += up * (fall - max_fall);
        }
        let support = self.support(state);
        let mut landing = None;
        let result = self
            .world
            .slide(e, state.position, motion, &self.options, self.drop, |ct| {
                let descending = velocity.dot(up) <= ct.surface_velocity.dot(up) + 1e-3;
                match support.ground_of(ct) {
                    Some(ground) if descending => {
                        landing = Some(ground);
                        ContactResponse::Stop
                    }
                    _ => ContactResponse::Slide,
                }
            });
        self.record(Pass::Air, &result);
        if landing.is_none() {
            // Pushed out of something rising into it (a lift from below): landed on it.
            landing = result
                .contacts
                .iter()
                .filter(|ct| ct.depenetration && velocity.dot(up) <= ct.surface_velocity.dot(up) + 1e-3)
                .find_map(|ct| support.ground_of(ct));
        }
        let mut position = result.position;
        if landing.is_none()
            && velocity.dot(up) <= 1e-3
            && let Some((settled, ground)) = self.settle_in_wedge(state, e, &result)
            && velocity.dot(up) <= ground.velocity.dot(up) + 1e-3
        {
            // Held up between two steep faces (a V-shaped trough): stands on their crease.
            position = settled;
            landing = Some(ground);
        }
        let falling = velocity;
        // What was hit takes away the velocity going into it (a ceiling
        // clears the upward speed, a wall the speed into the wall).
        for ct in &result.contacts {
            let into = (velocity - ct.surface_velocity).dot(ct.normal);
            if into < 0.0 {
                velocity -= ct.normal * into;
            }
        }
        state.position = position;
        state.velocity = velocity;
        if let Some(ground) = landing {
            let impact = (ground.velocity - falling).dot(up);
            self.landed_at(state, impact);
            state.velocity = horizontal(velocity - ground.velocity, up);
            state.ground = Some(ground);
            self.report.landed = true;
        }
    }

    /// In the air: steering towards the wish velocity `target` (m/s,
    /// across "up"), or Quake's air acceleration with
    /// [`ControllerConfig::air_speed_cap`].
    pub(crate) fn air_control(&self, state: &mut CharacterState, wish: Vec3, target: Vec3) {
        let c = self.c;
        if c.air_speed_cap > 0.0 {
            self.quake_air(state, wish, target);
        } else if wish != Vec3::ZERO {
            let up = state.up;
            let along = state.velocity.dot(up);
            let across = move_towards(horizontal(state.velocity, up), target, c.air_acceleration * self.dt);
            state.velocity = across + up * along;
        }
    }
}
