//! Launches: a change of velocity from outside (`Intent::launch`: a
//! knockback, an explosion) and launch pads (a collider whose top gives a
//! character standing on it a velocity), applied at the tick's start.

use super::Move;
use crate::config::MAX_MOVE_SPEED;
use crate::state::{CharacterState, Intent};
use crate::tick::Run;
use glam::Vec3;

impl Run<'_> {
    /// Applies the launch asked for and the launch pad stood on: off the
    /// ground (it lands again only once going down), every move under way
    /// stopped.
    pub(crate) fn launch(&mut self, state: &mut CharacterState, intent: &Intent) {
        let mut change = if intent.launch.is_finite() {
            intent.launch
        } else {
            Vec3::ZERO
        };
        let pad = state
            .ground
            .and_then(|g| (self.world.launch_pad)(g.collider))
            .filter(|v| v.is_finite());
        if change + pad.map_or(Vec3::ZERO, |pad| pad - state.world_velocity()) == Vec3::ZERO {
            return;
        }
        self.leave_ground(state);
        if let Some(pad) = pad {
            // A pad sets the world velocity, whatever the platform left.
            change += pad - state.velocity;
        }
        state.velocity = (state.velocity + change).clamp_length_max(MAX_MOVE_SPEED);
        state.coyote_jump = false;
        let feet = state.feet().dot(state.up);
        let moves = &mut state.moves;
        match moves.under_way.take() {
            Some(Move::Dash(_)) => moves.dash_cooldown = self.c.dash_cooldown,
            Some(Move::Climb(_)) => self.report.climb_ended = true,
            Some(Move::Slide(_)) => self.report.slide_ended = true,
            Some(Move::Hang(_)) => self.report.ledge_let_go = true,
            _ => {}
        }
        moves.jump_cut = None;
        moves.push_off_height = feet;
        self.report.launched = Some(state.velocity);
    }
}
