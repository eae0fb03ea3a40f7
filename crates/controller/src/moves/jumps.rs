//! Jumps: from the ground (or within the coyote time after leaving it),
//! off a wall, in the air; and the variable jump height (letting go while
//! rising cuts the rise).

use crate::frame::horizontal;
use crate::state::{CharacterState, Intent};
use crate::tick::Run;

/// Two wall normals closer than this (cosine) are the same wall.
const SAME_WALL: f32 = 0.9;

impl Run<'_> {
    /// A jump pressed (now or within the jump buffer): from the ground or
    /// coyote time, else off a wall touched within the coyote time, else in
    /// the air while air jumps are left; then the cut of a rising jump let
    /// go of.
    pub(crate) fn jump(&mut self, state: &mut CharacterState, intent: &Intent) {
        let c = self.c;
        let up = state.up;
        let gravity = c.gravity != glam::Vec3::ZERO;
        if state.jump_buffer > 0.0 && gravity {
            let dashing = state.moves.dash();
            // A hard landing's lag stops jumps from the ground.
            let from_ground = state.moves.landing_lag == 0.0
                && (state.ground.is_some() || (state.coyote_jump && state.air_time <= c.coyote_time));
            let wall = state.moves.wall.filter(|w| {
                c.wall_jump_height > 0.0
                    && state.ground.is_none()
                    && w.since <= c.coyote_time
                    && state
                        .moves
                        .wall_jumped_off
                        .is_none_or(|off| off.dot(w.normal) < SAME_WALL)
            });
            let air_jump = c.jump_height > 0.0 && state.ground.is_none() && state.moves.air_jumps_used < c.air_jumps;
            if let Some(dash) = dashing.filter(|_| (c.jump_height > 0.0 && from_ground) || wall.is_some() || air_jump) {
                // A jump ends the dash (its speed kept up to the sprint speed).
                self.end_dash(state, dash);
            }
            if c.jump_height > 0.0 && from_ground {
                let base = state
                    .ground
                    .map_or(0.0, |g| c.platform_momentum.kept(g.velocity, up).dot(up));
                self.leave_ground(state);
                state.velocity = horizontal(state.velocity, up) + up * (base + c.jump_speed());
                self.jumped(state, c.jump_height);
                self.report.jumped = true;
            } else if let Some(wall) = wall {
                // Away along the wall's normal; the speed along the wall is kept.
                let across = horizontal(state.velocity, up);
                let along_wall = across - wall.normal * across.dot(wall.normal);
                state.velocity = along_wall + wall.normal * c.wall_jump_push + up * c.speed_to_rise(c.wall_jump_height);
                self.jumped(state, c.wall_jump_height);
                let moves = &mut state.moves;
                moves.wall_jumped_off = Some(wall.normal);
                moves.wall = None;
                moves.air_jumps_used = 0;
                self.report.wall_jumped = Some(wall.normal);
            } else if air_jump {
                state.velocity = horizontal(state.velocity, up) + up * c.jump_speed();
                self.jumped(state, c.jump_height);
                state.moves.air_jumps_used += 1;
                self.report.jumped = true;
                self.report.air_jump = true;
            }
        }
        // Let go while rising: the rest of the rise is cut so that the
        // apex is `min_jump_height` above the take-off (exact: the rise so
        // far is known from the speed left, the motion being exact).
        let rising = state.velocity.dot(up);
        match state.moves.jump_cut {
            Some(_) if rising <= 0.0 => state.moves.jump_cut = None,
            Some(cut) if !(intent.jump_held || intent.jump) => {
                let kept = (rising * rising - cut).max(0.0).sqrt();
                state.velocity += up * (kept - rising);
                state.moves.jump_cut = None;
            }
            _ => {}
        }
    }

    /// After any jump to `height`: the coyote jump and the buffer are used
    /// up, the dash ends, this is the last push-off, and a jump that can
    /// be cut remembers by how much.
    fn jumped(&mut self, state: &mut CharacterState, height: f32) {
        let c = self.c;
        let moves = &mut state.moves;
        moves.jump_cut = (c.min_jump_height > 0.0 && c.min_jump_height < height)
            .then(|| 2.0 * c.gravity.length() * (height - c.min_jump_height));
        moves.push_off_height = state.position.dot(state.up) - crate::frame::extent_along(state.radii, state.up);
        state.coyote_jump = false;
        state.jump_buffer = 0.0;
    }
}
