//! Hanging from ledges: falling past a ledge while moving towards it (or
//! walking off one with crouch held) catches it; the character hangs
//! below the rim with no gravity, moves sideways along it with the stick,
//! is pulled up onto it (the mantle's pull) with jump or forward, and lets
//! go with back or crouch.

use super::{Hang, Move};
use crate::frame::{extent_along, horizontal};
use crate::scratch::Slid;
use crate::state::{CharacterState, Intent, Pass};
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid};

/// How far below the ledge's top the top of the head hangs, metres (the
/// hands, above the head, hold the rim).
pub const HANG_BELOW_RIM: f32 = 0.1;

/// How far above the top of the head the hands reach for a ledge, metres.
pub const HAND_REACH: f32 = 0.3;

/// A wall is caught only when it is this close to upright (the cosine of
/// its normal with "up" at most this, in size): a surf ramp is not a ledge.
const UPRIGHT: f32 = 0.3;

/// How much of the stick must point a way to count (cosine).
const STICK: f32 = 0.5;

/// How far a ledge's top may change along a shimmy and still be the same
/// ledge, metres.
const SAME_LEDGE: f32 = 0.1;

impl Run<'_> {
    /// Falling against a wall (touched this tick, moved into) whose ledge
    /// the hands passed this tick (its top between the head's height now,
    /// less [`HAND_REACH`], and at the tick's start, `head_before`, plus
    /// it): caught.
    pub(crate) fn grab_ledge_falling(
        &mut self,
        state: &mut CharacterState,
        wish: Vec3,
        e: &Ellipsoid,
        head_before: f32,
    ) {
        let up = state.up;
        if !self.c.ledge_grab || state.moves.under_way.is_some() || state.velocity.dot(up) > 0.0 {
            return;
        }
        let Some(wall) = state.moves.wall.filter(|w| w.since == 0.0) else {
            return;
        };
        if wish.dot(wall.normal) >= -STICK * wish.length() || wish == Vec3::ZERO || !self.upright_wall(wall.normal, up)
        {
            return;
        }
        let head = state.position.dot(up) + extent_along(state.radii, up);
        let Some(top) = self.ledge_top(state, -wall.normal, head_before.max(head) + HAND_REACH) else {
            return;
        };
        if top < head - HAND_REACH {
            return;
        }
        self.catch(state, e, wall.normal, top, state.position, false);
    }

    /// Walked off a ledge with crouch held this tick: caught from above,
    /// hanging below the rim just left (its top at `top`, metres along
    /// "up"), facing it.
    pub(crate) fn grab_ledge_below(&mut self, state: &mut CharacterState, e: &Ellipsoid, top: f32) {
        let c = self.c;
        let up = state.up;
        if !c.ledge_grab || state.moves.under_way.is_some() {
            return;
        }
        let out = horizontal(state.velocity, up).normalize_or_zero();
        if out == Vec3::ZERO {
            return;
        }
        // Out past the rim, then down beside the face.
        let clear = state.radii.x.max(state.radii.z) + 0.05;
        let outward = self
            .world
            .slide(e, state.position, out * clear, &self.options, self.drop, |_| {
                ContactResponse::Slide
            });
        if horizontal(outward.position - state.position, up).dot(out) < 0.9 * clear {
            return;
        }
        self.catch(state, e, out, top, outward.position, true);
    }

    /// Hangs from the ledge of `top` (metres along "up") on the wall of
    /// outward `normal`, from `from`: down (or up) to the hanging height,
    /// then against the wall. `from_above`: the stick and crouch that
    /// walked off count as not let go of yet.
    fn catch(
        &mut self,
        state: &mut CharacterState,
        e: &Ellipsoid,
        normal: Vec3,
        top: f32,
        from: Vec3,
        from_above: bool,
    ) {
        let up = state.up;
        let extent = extent_along(state.radii, up);
        let centre = top - HANG_BELOW_RIM - extent;
        let slide = |start: Vec3, motion: Vec3, response: ContactResponse| -> Slid {
            self.world
                .slide(e, start, motion, &self.options, self.drop, |_| response)
        };
        let drop = slide(from, up * (centre - from.dot(up)), ContactResponse::Slide);
        if (drop.position.dot(up) - centre).abs() > 0.02 || drop.unresolved_overlap {
            return;
        }
        let reach = if from_above {
            state.radii.x.max(state.radii.z) + 0.3
        } else {
            0.2
        };
        let against = slide(drop.position, -normal * reach, ContactResponse::Stop);
        let touches = against
            .contacts
            .iter()
            .any(|ct| !ct.depenetration && horizontal(ct.normal, up).normalize_or_zero().dot(normal) > 0.7);
        if !touches || against.unresolved_overlap {
            return;
        }
        let hanging = CharacterState {
            position: against.position,
            ..*state
        };
        // The same ledge seen from where it hangs.
        if self
            .ledge_top(&hanging, -normal, top + SAME_LEDGE)
            .is_none_or(|t| (t - top).abs() > SAME_LEDGE)
        {
            return;
        }
        self.record(Pass::Hang, &drop);
        self.record(Pass::Hang, &against);
        self.leave_ground(state);
        state.position = against.position;
        state.velocity = Vec3::ZERO;
        state.coyote_jump = false;
        let moves = &mut state.moves;
        moves.jump_cut = None;
        moves.wall = None;
        moves.under_way = Some(Move::Hang(Hang {
            normal,
            top,
            armed: false,
        }));
        self.report.ledge_grabbed = true;
    }

    /// One tick hanging, if hanging (true: the tick's move is done):
    /// pulled up with jump (or forward once the stick was let go), let go
    /// with back or crouch (likewise), moved along the ledge by the stick.
    pub(crate) fn hang(&mut self, state: &mut CharacterState, intent: &Intent, wish: Vec3, e: &Ellipsoid) -> bool {
        let Some(mut hang) = state.moves.hang() else {
            return false;
        };
        let c = self.c;
        let up = state.up;
        let n = hang.normal;
        let length = wish.length();
        let forward = wish.dot(-n) > STICK * length && length > 0.1;
        let back = wish.dot(n) > STICK * length && length > 0.1;
        if !hang.armed && !intent.crouch && !forward && !back {
            hang.armed = true;
        }
        state.velocity = Vec3::ZERO;
        if state.jump_buffer > 0.0 || (hang.armed && forward) {
            let reach = hang.top + SAME_LEDGE;
            if let Some(ledge) = self.find_ledge(state, -n, reach) {
                self.report.mantled = Some(ledge.height);
                state.moves.under_way = None;
                self.begin_pull(state, ledge, c.mantle_time);
                return true;
            }
        }
        if hang.armed && (back || intent.crouch) {
            state.moves.under_way = None;
            self.report.ledge_let_go = true;
            return true;
        }
        // Sideways along the ledge, where it goes on.
        let side = wish - n * wish.dot(n);
        let side = horizontal(side, up);
        if side.length() > 0.1 {
            let motion = side.clamp_length_max(1.0) * c.crouch_speed * self.dt;
            let moved = self
                .world
                .slide(e, state.position, motion, &self.options, self.drop, |_| {
                    ContactResponse::Slide
                });
            let there = CharacterState {
                position: moved.position,
                ..*state
            };
            let still = self
                .ledge_top(&there, -n, hang.top + SAME_LEDGE)
                .is_some_and(|t| (t - hang.top).abs() <= SAME_LEDGE);
            if still && !moved.unresolved_overlap {
                self.record(Pass::Hang, &moved);
                state.position = moved.position;
            }
        }
        state.moves.under_way = Some(Move::Hang(hang));
        true
    }

    /// Whether a wall of outward normal `normal` (across `up`) is upright
    /// enough to hang from: judged by the contacts of this tick's move.
    fn upright_wall(&self, normal: Vec3, up: Vec3) -> bool {
        self.report.contacts.iter().any(|pc| {
            let ct = pc.contact;
            !ct.depenetration
                && ct.normal.dot(up).abs() <= UPRIGHT
                && horizontal(ct.normal, up).normalize_or_zero().dot(normal) > 0.9
        })
    }
}
