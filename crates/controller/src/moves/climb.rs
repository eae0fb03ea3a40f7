//! Climbing a climbable face: forward (into it) climbs up, back climbs
//! down, sideways moves along it; its top is stepped onto, the ground
//! stands, jump lets go with a push away.

use super::Move;
use crate::frame::horizontal;
use crate::state::{CharacterState, Intent, Pass};
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid};

/// Speed a climber letting go is pushed away at least, m/s.
const LET_GO_PUSH: f32 = 1.5;

impl Run<'_> {
    /// One tick of the climb under way, if any (true: the tick's move is
    /// done).
    pub(crate) fn climb(&mut self, state: &mut CharacterState, intent: &Intent, wish: Vec3, e: &Ellipsoid) -> bool {
        let Some(mut climb) = state.moves.climb() else {
            return false;
        };
        let c = self.c;
        let up = state.up;
        let n = climb.normal;
        if c.climb_speed <= 0.0 {
            // Climbing turned off (a new config): let go, no push.
            state.moves.under_way = None;
            state.velocity = Vec3::ZERO;
            self.report.climb_ended = true;
            return false;
        }
        if state.jump_buffer > 0.0 || intent.drop {
            // Let go, pushed away (and up, by a wall jump's height).
            state.velocity = n * c.wall_jump_push.max(LET_GO_PUSH) + up * c.speed_to_rise(c.wall_jump_height);
            state.moves.under_way = None;
            state.jump_buffer = 0.0;
            state.coyote_jump = false;
            self.report.climb_ended = true;
            return false;
        }
        self.report.climbing = true;
        let into = -wish.dot(n);
        let side = up.cross(n).normalize_or_zero();
        let velocity = (up * into + side * wish.dot(side)) * c.climb_speed;
        if into > 0.0 {
            // Over the top when it is below the centre: pulled onto it.
            let reach = state.position.dot(up);
            if let Some(ledge) = self.find_ledge(state, -n, reach) {
                let duration = (ledge.height / c.climb_speed).clamp(0.1, 1.0);
                self.report.climb_ended = true;
                self.begin_pull(state, ledge, duration);
                return true;
            }
        }
        // Pressed to the face so that its contact (and normal) is kept.
        let hold = -n * (0.05 * state.radii.x.min(state.radii.z));
        let support = self.support(state);
        let mut ground = None;
        let result = self.pass(Pass::Climb, e, state.position, velocity * self.dt + hold, |ct| {
            if into < 0.0 && ground.is_none() {
                ground = support.ground_of(ct);
            }
            ContactResponse::Slide
        });
        state.position = result.position;
        state.velocity = velocity;
        if let Some(ground) = ground {
            // Climbed down to the ground: standing.
            state.ground = Some(ground);
            state.velocity = Vec3::ZERO;
            state.moves.under_way = None;
            self.report.climb_ended = true;
            self.report.landed = true;
            return true;
        }
        let cos_walkable = self.cos_walkable();
        let face = result
            .contacts
            .iter()
            .filter(|ct| {
                !ct.depenetration
                    && (self.world.climbable)(ct.collider)
                    && ct.normal.dot(up) < cos_walkable
                    && ct.normal.dot(up) > -0.5
            })
            .map(|ct| (horizontal(ct.normal, up).normalize_or_zero(), ct))
            .find(|(n, _)| *n != Vec3::ZERO);
        match face {
            Some((normal, ct)) => {
                climb.normal = normal;
                climb.collider = Some(ct.collider);
                climb.triangle = ct.triangle;
                state.moves.under_way = Some(Move::Climb(climb));
            }
            None => {
                // Off the face's side or edge: falling.
                state.moves.under_way = None;
                self.report.climb_ended = true;
            }
        }
        true
    }
}
