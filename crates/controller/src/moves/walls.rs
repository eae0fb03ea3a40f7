//! Walls in the air: which wall was touched (for the wall jump), the wall
//! slide (the fall capped while pushing into one) and the start of a climb
//! on a climbable face walked or flown into.

use super::{Climb, Move, WallTouch};
use crate::frame::horizontal;
use crate::state::{CharacterState, Pass};
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::Contact;

/// How much of the wish must point into a wall (cosine) to push into it.
const INTO: f32 = 0.3;

impl Run<'_> {
    /// The fastest fall allowed this tick in the air, m/s: the wall slide
    /// speed while pushing into the wall touched last tick, else the
    /// config's top fall speed. The velocity is capped before it moves.
    pub(crate) fn wall_slide(&mut self, state: &mut CharacterState, wish: Vec3) -> f32 {
        let c = self.c;
        let up = state.up;
        let was = state.moves.wall.is_some_and(|w| w.sliding);
        let sliding = c.wall_slide_speed > 0.0
            && state.velocity.dot(up) < 0.0
            && state
                .moves
                .wall
                // Touched this tick or the one before (a slow push into it
                // does not meet it every tick).
                .is_some_and(|w| w.since <= 1.5 * self.dt && wish.dot(w.normal) < -INTO * wish.length().max(1e-6));
        if let Some(w) = &mut state.moves.wall {
            w.sliding = sliding;
        }
        if !sliding {
            return c.max_fall_speed;
        }
        self.report.wall_sliding = true;
        self.report.wall_slide_started = !was;
        let max_fall = c.wall_slide_speed.min(c.max_fall_speed);
        let fall = -state.velocity.dot(up);
        if fall > max_fall {
            state.velocity += up * (fall - max_fall);
        }
        max_fall
    }

    /// After the tick's move: remembers the wall touched in the air (its
    /// normal across "up"), or counts the time since the last one; a
    /// climbable face pushed into starts a climb.
    pub(crate) fn touch_walls(&mut self, state: &mut CharacterState, wish: Vec3) {
        let up = state.up;
        let cos_walkable = self.cos_walkable();
        let is_wall = |ct: &Contact| !ct.depenetration && ct.normal.dot(up) < cos_walkable && ct.normal.dot(up) > -0.5;
        let pushed_into = |ct: &Contact| {
            let n = horizontal(ct.normal, up).normalize_or_zero();
            wish.dot(n) < -INTO * wish.length().max(1e-6)
        };
        let moved = |p: Pass| matches!(p, Pass::Move | Pass::Air | Pass::Dash);
        let contacts = self
            .report
            .contacts
            .iter()
            .filter(|pc| moved(pc.pass))
            .map(|pc| pc.contact);
        let mut touched = None;
        let mut climbable = None;
        // A climbable face touched no higher than the step height above
        // the feet is a step (walked up), not a face to climb.
        let step_top = state.feet().dot(up) + self.c.step_height;
        for ct in contacts.filter(is_wall) {
            let n = horizontal(ct.normal, up).normalize_or_zero();
            if n == Vec3::ZERO {
                continue;
            }
            if climbable.is_none()
                && self.c.climb_speed > 0.0
                && ct.point.dot(up) > step_top
                && (self.world.climbable)(ct.collider)
                && pushed_into(&ct)
            {
                climbable = Some(Climb {
                    normal: n,
                    collider: Some(ct.collider),
                    triangle: ct.triangle,
                });
            }
            touched.get_or_insert(n);
        }
        if let Some(climb) = climbable
            && state.moves.dash().is_none()
        {
            // A slide into a climbable face ends in the climb.
            self.report.slide_ended |= state.moves.slide().is_some();
            self.leave_ground(state);
            state.velocity = Vec3::ZERO;
            state.moves.under_way = Some(Move::Climb(climb));
            state.moves.jump_cut = None;
            state.moves.wall = None;
            self.report.climb_started = true;
            self.report.climbing = true;
            return;
        }
        if state.ground.is_some() {
            return;
        }
        let moves = &mut state.moves;
        match touched {
            Some(normal) => {
                if moves.wall_jumped_off.is_some_and(|off| off.dot(normal) < 0.9) {
                    // Another wall: the one jumped off may be jumped off again.
                    moves.wall_jumped_off = None;
                }
                let sliding = moves.wall.is_some_and(|w| w.sliding);
                moves.wall = Some(WallTouch {
                    normal,
                    since: 0.0,
                    sliding,
                });
            }
            None => {
                if let Some(w) = &mut moves.wall {
                    w.since += self.dt;
                }
            }
        }
    }
}
