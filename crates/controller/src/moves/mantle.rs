//! Mantling: moving into a ledge above the step height and within reach
//! (in the air, or on the ground with jump pressed) pulls the character up
//! and onto it over `mantle_time`, crouched when standing does not fit on
//! top. The same pull takes a climber over the top of its face.

use super::{Mantle, Move};
use crate::frame::{extent_along, horizontal, world_radii};
use crate::state::{CharacterState, Pass};
use crate::support::Support;
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid};

/// A ledge found in front: where the centre lands on it and how far above
/// it the centre passes over the rim, whether it needs the crouched shape,
/// and its height above the feet (metres).
pub(crate) struct Ledge {
    to: Vec3,
    clear: f32,
    crouch: bool,
    pub(crate) height: f32,
}

/// How far past the ledge's rim the centre goes, metres: the feet stand
/// on its top, not on the rim.
const OVER_RIM: f32 = 0.3;

/// Radius of the sphere that finds the ledge's top, metres.
const FEELER: f32 = 0.05;

impl Run<'_> {
    /// Starts a mantle onto a ledge the character moves into along `wish`:
    /// in front of the wall `wall` (its outward normal) or, without one, of
    /// a wall found just ahead. True when it started.
    pub(crate) fn start_mantle(
        &mut self,
        state: &mut CharacterState,
        wish: Vec3,
        e: &Ellipsoid,
        wall: Option<Vec3>,
    ) -> bool {
        let c = self.c;
        let up = state.up;
        let moves = &state.moves;
        if c.mantle_height <= c.step_height || wish == Vec3::ZERO || moves.under_way.is_some() {
            return false;
        }
        let ahead = wish.normalize();
        let normal = match wall.or_else(|| self.wall_ahead(state, e, ahead)) {
            Some(n) => n,
            None => return false,
        };
        let feet = state.feet().dot(up);
        let base = if state.ground.is_none() && moves.push_off_height.is_finite() {
            feet.min(moves.push_off_height)
        } else {
            feet
        };
        let Some(ledge) = self.find_ledge(state, -normal, base + c.mantle_height) else {
            return false;
        };
        self.report.mantled = Some(ledge.height);
        self.begin_pull(state, ledge, c.mantle_time);
        true
    }

    /// The outward normal (unit, across "up") of a wall just ahead along
    /// `ahead` (unit), facing the move, if there is one.
    pub(crate) fn wall_ahead(&self, state: &CharacterState, e: &Ellipsoid, ahead: Vec3) -> Option<Vec3> {
        let up = state.up;
        let reach = 0.1 + 0.25 * state.radii.x.min(state.radii.z);
        let probe = self
            .world
            .slide(e, state.position, ahead * reach, &self.options, self.drop, |_| {
                ContactResponse::Stop
            });
        let cos_walkable = self.cos_walkable();
        probe
            .contacts
            .iter()
            .filter(|ct| !ct.depenetration && ct.normal.dot(up) < cos_walkable)
            .map(|ct| horizontal(ct.normal, up).normalize_or_zero())
            .find(|n| n.dot(ahead) < -0.5)
    }

    /// The ledge in front along `towards` (unit, across "up") whose top is
    /// above the step height and at most `reach_top` (metres along "up"),
    /// with room on it for the character, standing or else crouched.
    pub(crate) fn find_ledge(&self, state: &CharacterState, towards: Vec3, reach_top: f32) -> Option<Ledge> {
        let c = self.c;
        let up = state.up;
        let feet = state.feet();
        let lift = reach_top - feet.dot(up);
        if lift <= c.step_height {
            return None;
        }
        // The top: a small sphere from the centre up to the reach, over
        // the rim, and down onto it.
        let top = self.ledge_top(state, towards, reach_top)?;
        let crouched = world_radii(c.crouched_radii, up);
        let shapes = [(state.radii, state.crouched), (crouched, true)];
        for (i, (radii, crouch)) in shapes.into_iter().enumerate() {
            if i == 1 && radii == state.radii {
                break;
            }
            let e = Ellipsoid::new(radii).ok()?;
            let extent = extent_along(radii, up);
            let skin = c.skin * extent;
            let centre = feet + up * (extent + skin);
            let slide = |from: Vec3, motion: Vec3, stop: bool, options: &slidewalk_sweep::SlideOptions| {
                self.world.slide(&e, from, motion, options, self.drop, |_| {
                    if stop {
                        ContactResponse::Stop
                    } else {
                        ContactResponse::Slide
                    }
                })
            };
            // Just clear of the top.
            let lift = top - feet.dot(up) + 4.0 * skin + 0.02;
            // The shape is taken at `centre` (begin_pull) when the rise
            // does not push it out: one-way surfaces are judged as a change
            // of shape judges them. Judged afresh from `centre` (the
            // crouched shape with the feet kept is lower along a tilted
            // "up") a surface the character rests on may count as passed
            // and the new shape's overlap with it go unseen.
            let held = self.new_shape_options(state, radii, centre);
            let rise = slide(centre, up * lift, false, &held);
            if rise.unresolved_overlap || rise.depenetration.length() > 2.0 * skin {
                continue;
            }
            let lifted = (rise.position - centre).dot(up);
            let over = radii.x.max(radii.z) + OVER_RIM;
            let forward = slide(rise.position, towards * over, false, &self.options);
            if horizontal(forward.position - rise.position, up).dot(towards) < 0.5 * over {
                continue;
            }
            let down = slide(forward.position, -up * (lifted + 2.0 * skin), true, &self.options);
            let support = Support {
                radii,
                extent,
                ..self.support(state)
            };
            let Some(ground) = down
                .contacts
                .iter()
                .filter(|ct| !ct.depenetration)
                .find_map(|ct| support.ground_of(ct))
            else {
                continue;
            };
            let height = (ground.point - feet).dot(up);
            if down.unresolved_overlap || height <= c.step_height || ground.point.dot(up) > reach_top + 1e-3 {
                continue;
            }
            return Some(Ledge {
                to: down.position,
                clear: 2.0 * skin + 0.02,
                crouch,
                height,
            });
        }
        None
    }

    /// The height (metres along "up") of the top of the ledge in front
    /// along `towards`, if it is above the step height and at most
    /// `reach_top`: felt for by a small sphere from the centre.
    pub(crate) fn ledge_top(&self, state: &CharacterState, towards: Vec3, reach_top: f32) -> Option<f32> {
        let up = state.up;
        let feeler = Ellipsoid::new(Vec3::splat(FEELER)).ok()?;
        let slide = |from: Vec3, motion: Vec3, response: ContactResponse| {
            self.world
                .slide(&feeler, from, motion, &self.options, self.drop, |_| response)
        };
        let start = state.position;
        let rise = (reach_top + FEELER - start.dot(up)).max(0.0);
        let risen = slide(start, up * rise, ContactResponse::Slide);
        let over = state.radii.x.max(state.radii.z) + OVER_RIM;
        let forward = slide(risen.position, towards * over, ContactResponse::Stop);
        if horizontal(forward.position - risen.position, up).dot(towards) < 0.99 * over {
            return None;
        }
        let depth = (forward.position - state.feet()).dot(up);
        let down = slide(forward.position, -up * depth, ContactResponse::Stop);
        let hit = down.contacts.iter().find(|ct| !ct.depenetration)?;
        let top = (hit.point).dot(up);
        (top - state.feet().dot(up) > self.c.step_height && top <= reach_top + 1e-3).then_some(top)
    }

    /// Starts pulling up onto `ledge` over `duration` seconds: crouched if
    /// the ledge needs it, off the ground, every other move stopped.
    pub(crate) fn begin_pull(&mut self, state: &mut CharacterState, ledge: Ledge, duration: f32) {
        self.leave_ground(state);
        if ledge.crouch && !state.crouched {
            // The crouched shape with the feet where they are: it fits
            // (find_ledge rose from there, one-way surfaces judged as
            // the tick found them).
            let crouched = world_radii(self.c.crouched_radii, state.up);
            let feet = state.feet();
            let centre = feet + state.up * extent_along(crouched, state.up) * (1.0 + self.c.skin);
            // find_ledge let the rise push the shape out by up to two skins
            // (a wall leaning over the feet is nearer the lower shape): out
            // of it now, so that no tick ends inside.
            let options = self.new_shape_options(state, crouched, centre);
            let fitted = Ellipsoid::new(crouched).ok().map(|e| {
                self.world
                    .slide(&e, centre, Vec3::ZERO, &options, self.drop, |_| ContactResponse::Slide)
            });
            state.radii = crouched;
            state.crouched = true;
            state.position = fitted.filter(|f| !f.unresolved_overlap).map_or(centre, |f| f.position);
        }
        state.velocity = Vec3::ZERO;
        state.coyote_jump = false;
        state.jump_buffer = 0.0;
        let moves = &mut state.moves;
        moves.jump_cut = None;
        moves.wall = None;
        moves.under_way = Some(Move::Mantle(Mantle {
            from: state.position,
            to: ledge.to,
            clear: ledge.clear,
            elapsed: 0.0,
            duration,
        }));
    }

    /// One tick of the pull under way, if any (true: the tick's move is
    /// done). Something in the way ends it in the air.
    pub(crate) fn pull_up(&mut self, state: &mut CharacterState, e: &Ellipsoid) -> bool {
        let Some(mut mantle) = state.moves.mantle() else {
            return false;
        };
        let up = state.up;
        mantle.elapsed += self.dt;
        let fraction = (mantle.elapsed / mantle.duration).min(1.0);
        let goal = mantle.at(fraction, up);
        let result = self.pass(Pass::Mantle, e, state.position, goal - state.position, |_| {
            ContactResponse::Slide
        });
        state.position = result.position;
        state.velocity = Vec3::ZERO;
        let skin = self.skin_metres(state);
        if (result.position - goal).length() > 0.05 + 4.0 * skin {
            // Blocked (something moved into the way): let go.
            state.moves.under_way = None;
            return true;
        }
        if fraction < 1.0 {
            state.moves.under_way = Some(Move::Mantle(mantle));
            return true;
        }
        state.moves.under_way = None;
        let probe = self.pass(Pass::Snap, e, state.position, -up * (0.05 + 4.0 * skin), |_| {
            ContactResponse::Stop
        });
        let support = self.support(state);
        if let Some(ground) = probe
            .contacts
            .iter()
            .filter(|ct| !ct.depenetration)
            .find_map(|ct| support.ground_of(ct))
        {
            state.position = probe.position;
            state.ground = Some(ground);
            self.report.landed = true;
        }
        true
    }
}
