//! The dash: `dash_distance` along the wish direction (or the facing) over
//! `dash_time`, across "up", gravity suspended, sliding along what it
//! hits; on the ground it walks (stairs, ramps, the snap), in the air it
//! keeps its height.

use super::{Dash, Move};
use crate::frame::{bounded_direction, horizontal};
use crate::state::{CharacterState, Intent, Pass};
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid};

/// A dash tick that gets less than this share of its move along the
/// dash's direction has met a wall it cannot slide along: the dash ends.
const BLOCKED: f32 = 0.25;

impl Run<'_> {
    /// Dash pressed: starts one when dashing is on, the cooldown is over,
    /// no jump started this tick (a jump and a dash pressed together: the
    /// jump) and, in the air, air dashes are left.
    pub(crate) fn start_dash(&mut self, state: &mut CharacterState, intent: &Intent, wish: Vec3) {
        let c = self.c;
        let moves = &state.moves;
        let airborne = state.ground.is_none();
        if !intent.dash
            || self.report.jumped
            || self.report.wall_jumped.is_some()
            || c.dash_distance <= 0.0
            || moves.under_way.is_some()
            || moves.dash_cooldown > 0.0
            || (airborne && moves.air_dashes_used >= c.air_dashes)
        {
            return;
        }
        let up = state.up;
        let facing = horizontal(bounded_direction(intent.facing), up);
        let direction = [wish, facing, horizontal(state.velocity, up)]
            .into_iter()
            .map(Vec3::normalize_or_zero)
            .find(|d| *d != Vec3::ZERO);
        let Some(direction) = direction else { return };
        state.moves.under_way = Some(Move::Dash(Dash {
            direction,
            speed: c.dash_distance / c.dash_time,
            time_left: c.dash_time,
        }));
        if airborne {
            state.moves.air_dashes_used += 1;
        }
        state.moves.jump_cut = None;
        self.report.dashed = Some(direction);
    }

    /// One tick of the dash under way.
    pub(crate) fn dash(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let Some(mut dash) = state.moves.dash() else { return };
        let up = state.up;
        let time = dash.time_left.min(self.dt);
        let asked = dash.speed * time;
        let start = state.position;
        if state.ground.is_some() {
            // A walk at the dash's speed for the dash's share of the tick.
            state.velocity = dash.direction * (asked / self.dt);
            self.set_one_way_step(self.c.step_height);
            self.walk(state, e);
        } else {
            self.set_one_way_step(0.0);
            let support = self.support(state);
            let mut landing = None;
            let result = self.pass(Pass::Dash, e, start, dash.direction * asked, |ct| {
                if landing.is_none() {
                    landing = support.ground_of(ct);
                }
                ContactResponse::Slide
            });
            state.position = result.position;
            if landing.is_some() {
                state.ground = landing;
                self.report.landed = true;
            }
        }
        let progress = horizontal(state.position - start, up).dot(dash.direction);
        dash.time_left -= time;
        if dash.time_left <= 0.0 || progress < BLOCKED * asked {
            self.end_dash(state, dash);
        } else {
            state.velocity = dash.direction * dash.speed;
            state.moves.under_way = Some(Move::Dash(dash));
        }
    }

    /// The dash is over: the speed along it is kept up to the sprint
    /// speed, the cooldown starts.
    pub(crate) fn end_dash(&mut self, state: &mut CharacterState, dash: Dash) {
        let up = state.up;
        let kept = dash.speed.min(self.c.sprint_speed);
        let along = horizontal(state.velocity, up).dot(dash.direction).clamp(0.0, kept);
        state.velocity = dash.direction * along;
        state.moves.under_way = None;
        state.moves.dash_cooldown = self.c.dash_cooldown;
    }
}
