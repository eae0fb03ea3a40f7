//! Riding: a character standing on a moving collider (lift, turntable,
//! door) or a conveyor, or climbing a moving climbable face, is carried by that
//! collider's rigid motion over the tick.

use crate::moves::Move;
use crate::state::{CharacterState, Pass};
use crate::tick::Run;
use glam::{Quat, Vec3};
use slidewalk_sweep::{ContactResponse, Ellipsoid};

impl Run<'_> {
    /// Carries a character standing on a moving collider, or climbing
    /// one, by that collider's rigid motion over this tick (translation
    /// and rotation; a climber's face normal turns with it).
    pub(crate) fn carry(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let held = match (state.ground, state.moves.climb()) {
            (Some(g), _) => g.collider,
            (None, Some(climb)) => {
                let Some(c) = climb.collider else { return };
                c
            }
            (None, None) => return,
        };
        let Some(collider) = self.world.colliders.get(held) else {
            return;
        };
        // A conveyor stood on moves its surface along the ground.
        let belt = state
            .ground
            .map_or(Vec3::ZERO, |g| self.world.belt(g.collider, g.normal));
        if collider.linear_velocity == Vec3::ZERO && collider.angular_velocity == Vec3::ZERO && belt == Vec3::ZERO {
            return;
        }
        let dt = self.dt;
        let origin = collider.pose.translation;
        let turn = Quat::from_scaled_axis(collider.angular_velocity * dt);
        let previous_origin = origin - collider.linear_velocity * dt;
        let carried = origin + turn * (state.position - previous_origin) - state.position + belt * dt;
        if !carried.is_finite() {
            return;
        }
        let result = self.pass(Pass::Carry, e, state.position, carried, |_| ContactResponse::Slide);
        self.report.carried = result.position - state.position;
        self.report.heading_delta = collider.angular_velocity.dot(state.up) * dt;
        state.position = result.position;
        state.velocity = turn * state.velocity;
        if let Some(Move::Climb(climb)) = &mut state.moves.under_way {
            let normal = crate::frame::horizontal(turn * climb.normal, state.up).normalize_or_zero();
            if normal != Vec3::ZERO {
                climb.normal = normal;
            }
        }
    }
}
