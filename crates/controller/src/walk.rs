//! Standing: the walking move along the ground, the step-up where a
//! wall-like contact held it back, and the snap down onto the ground.

use crate::frame::horizontal;
use crate::scratch::Slid;
use crate::state::{CharacterState, GroundContact, Pass};
use crate::support::Support;
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid, SlideResult};

/// How far down the faces of a V the character slides to find that they
/// hold it up together, metres (see [`Run::settle_in_wedge`]).
pub(crate) const WEDGE_PROBE: f32 = 0.05;

/// How far down (eSpace units) the snap first looks for the ground among
/// the triangles near, without a sweep: a few skins, as far as walking
/// along the ground (and over its gentle folds) leaves a character above it.
pub(crate) const SETTLE_REACH: f32 = 0.01;

/// A step-up that was taken: its three legs and the ground it landed on.
struct StepUp {
    rise: Slid,
    forward: Slid,
    down: Slid,
    ground: GroundContact,
}

impl Run<'_> {
    /// Standing: walk along the ground, step up where a wall-like contact
    /// held the move back, then snap down onto the ground (or leave it).
    pub(crate) fn walk(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let up = state.up;
        let g = state.ground.expect("walking on ground");
        // Along the ground plane, keeping the speed across "up" on slopes.
        let step = state.velocity * self.dt;
        let along = step - up * (step.dot(g.normal) / g.normal.dot(up).max(0.1));
        let start = state.position;
        let support = self.support(state);
        let moved = self.world.slide(e, start, along, &self.options, self.drop, |ct| {
            support.walk_response(ct)
        });
        let wanted = horizontal(along, up);
        let progress = |p: Vec3| horizontal(p - start, up).dot(wanted.normalize_or_zero());
        let held_back = moved.contacts.iter().any(|ct| {
            !ct.depenetration && ct.normal.dot(up) < self.cos_walkable() && (self.world.step_up_onto)(ct.collider)
        });
        if self.c.step_height > 0.0
            && held_back
            && wanted.length() > 1e-6
            && progress(moved.position) < 0.99 * wanted.length()
            && let Some(landing) = self.step_up(state, e, wanted, progress(moved.position))
        {
            self.record(Pass::Move, &moved);
            self.record(Pass::StepUp, &landing.rise);
            self.record(Pass::StepForward, &landing.forward);
            self.record(Pass::StepDown, &landing.down);
            state.position = landing.down.position;
            state.ground = Some(landing.ground);
            self.report.stepped = true;
            return;
        }
        self.record(Pass::Move, &moved);
        // Keep momentum along walls, not into them.
        for ct in moved.contacts.iter().filter(|ct| support.ground_of(ct).is_none()) {
            let n = horizontal(ct.plane.normal, up).normalize_or_zero();
            let into = (state.velocity - ct.surface_velocity).dot(n);
            if into < 0.0 {
                state.velocity -= n * into;
            }
        }
        state.position = moved.position;

        // Snap: find the ground below, within the snap distance.
        let (probe, found) = self.ground_below(state, e, self.c.snap_distance);
        match found {
            Some((position, ground)) => {
                self.report.snapped = (position - state.position).length() > 2.0 * self.skin_metres(state);
                state.position = position;
                state.ground = Some(ground);
            }
            None => {
                // Walked off: the probe is not taken, the fall starts next tick.
                state.position += probe.depenetration;
                self.leave_ground(state);
            }
        }
    }

    /// The search for ground within `distance` metres below the centre
    /// (the snap's, and a placed character's before its tick): the probe,
    /// and where the centre rests on the ground it found with that ground.
    pub(crate) fn ground_below(
        &mut self,
        state: &CharacterState,
        e: &Ellipsoid,
        distance: f32,
    ) -> (Slid, Option<(Vec3, GroundContact)>) {
        let motion = -state.up * distance;
        // Back onto the ground stood on, a hair below: found among the
        // triangles near when it can be, the sweep's answer without one.
        let settled = if state.ground.is_some() {
            self.world
                .settle(e, state.position, motion, &self.options, self.drop, SETTLE_REACH)
        } else {
            None
        };
        let probe = match settled {
            Some(settled) => {
                self.report.settles += 1;
                self.record(Pass::Snap, &settled);
                settled
            }
            None => self.pass(Pass::Snap, e, state.position, motion, |_| ContactResponse::Stop),
        };
        let support = self.support(state);
        let found = probe
            .contacts
            .iter()
            .filter(|ct| !ct.depenetration)
            .find_map(|ct| support.ground_of(ct))
            .map(|ground| (probe.position, ground))
            .or_else(|| self.settle_in_wedge(state, e, &probe));
        (probe, found)
    }

    /// After a pass that met a face facing up but too steep to stand on
    /// (`after`), and found no ground: slides on down from where it ended,
    /// by at most [`WEDGE_PROBE`] metres, and returns where it settles and
    /// the ground there when two faces hold it up together (a V-shaped
    /// trough, see `Support::wedge_of`). Without this the character would
    /// bounce from one side of the V to the other, never standing, and
    /// could not jump out.
    pub(crate) fn settle_in_wedge(
        &mut self,
        state: &CharacterState,
        e: &Ellipsoid,
        after: &SlideResult,
    ) -> Option<(Vec3, GroundContact)> {
        let up = state.up;
        let steep = |ct: &&slidewalk_sweep::Contact| !ct.depenetration && ct.normal.dot(up) > 1e-3;
        after.contacts.iter().find(steep)?;
        let probe = self.world.slide(
            e,
            after.position,
            -up * WEDGE_PROBE.min(self.c.snap_distance),
            &self.options,
            self.drop,
            |_| ContactResponse::Slide,
        );
        let ground = self
            .support(state)
            .wedge_of(after.contacts.iter().chain(&probe.contacts), probe.position)?;
        self.record(Pass::Snap, &probe);
        Some((probe.position, ground))
    }

    /// Up by the step height (less under a ceiling), forward by the wanted
    /// move, down again: taken only when it lands on ground and gets further
    /// than the plain move.
    fn step_up(&self, state: &CharacterState, e: &Ellipsoid, wanted: Vec3, plain_progress: f32) -> Option<StepUp> {
        let up = state.up;
        let start = state.position;
        let slide = |_: &slidewalk_sweep::Contact| ContactResponse::Slide;
        let rise = self
            .world
            .slide(e, start, up * self.c.step_height, &self.options, self.drop, slide);
        let lifted = (rise.position - start).dot(up);
        if lifted <= 2.0 * self.skin_metres(state) || rise.unresolved_overlap {
            return None;
        }
        // Lifted, an edge counts as ground only up to the step height above
        // the feet where the step started (or the lift would climb it too).
        let support = Support {
            step_height: (self.c.step_height - lifted).max(0.0),
            ..self.support(state)
        };
        let forward = self
            .world
            .slide(e, rise.position, wanted, &self.options, self.drop, |ct| {
                support.walk_response(ct)
            });
        let support = self.support(state);
        let feet = state.feet();
        let down_by = lifted + 2.0 * self.skin_metres(state);
        let down = self
            .world
            .slide(e, forward.position, -up * down_by, &self.options, self.drop, |_| {
                ContactResponse::Stop
            });
        let ground = down
            .contacts
            .iter()
            .filter(|ct| !ct.depenetration)
            .find_map(|ct| support.ground_of(ct))?;
        let progress = horizontal(down.position - start, up).dot(wanted.normalize_or_zero());
        let risen = (ground.point - feet).dot(up);
        (progress > plain_progress + 1e-4 * wanted.length().max(1e-3)
            && risen <= self.c.step_height + 1e-4
            && !down.unresolved_overlap)
            .then_some(StepUp {
                rise,
                forward,
                down,
                ground,
            })
    }
}
