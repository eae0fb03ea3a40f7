//! Changes of shape — crouching, standing up, a new "up", new radii —
//! taken only where the new ellipsoid fits.

use crate::frame::{extent_along, world_radii};
use crate::state::CharacterState;
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid, SlideOptions};

impl Run<'_> {
    /// Crouching, standing up, a new "up" or new radii: the new shape (feet
    /// kept on the floor when standing) is taken where it fits, pushed out
    /// by at most the change of radii; otherwise the old shape stays and
    /// the change is tried again next tick.
    pub(crate) fn change_shape(&mut self, state: &mut CharacterState, crouch: bool) {
        let c = self.c;
        let radii = world_radii(if crouch { c.crouched_radii } else { c.standing_radii }, state.up);
        if radii == state.radii {
            state.crouched = crouch;
            return;
        }
        let up = state.up;
        let centre = if state.ground.is_some() {
            state.position - up * (extent_along(state.radii, up) - extent_along(radii, up))
        } else {
            state.position
        };
        let e = Ellipsoid::new(radii).expect("config radii are valid");
        // A slide of no motion is a depenetration with this tick's filter.
        let options = self.new_shape_options(state, radii, centre);
        let growth = options.one_way_step;
        let fitted = self
            .world
            .slide(&e, centre, Vec3::ZERO, &options, self.drop, |_| ContactResponse::Slide);
        let (freed, free) = (fitted.position, !fitted.unresolved_overlap);
        let allowed = (radii - state.radii).abs().max_element() + c.skin * radii.max_element();
        if free && (freed - centre).length() <= allowed {
            // The rest of the tick judges one-way surfaces as this pass did,
            // from where the tick found the character: the allowance
            // covers the growth and the whole move of the centre, the
            // push out included.
            let moved = (radii - state.radii).max_element().max(0.0) + (freed - state.position).length();
            self.keep_one_way_step(growth.max(moved));
            state.position = freed;
            state.radii = radii;
            state.crouched = crouch;
            if freed != centre {
                self.report.pushed += freed - centre;
            }
        } else if !crouch && state.crouched {
            self.report.stand_blocked = true;
        }
    }

    /// The slide options for trying a new shape (`radii` at `centre`)
    /// where the character is now. A one-way surface the old shape was on
    /// is judged as it was: the new shape may reach further by its growth
    /// along any axis, and by the move of its centre (standing up in the
    /// air over a platform; crouching onto one under a tilted gravity,
    /// where the feet kept along "up" are not the lowest point along the
    /// platform's direction), and the surface must hold it, not let it
    /// sink in.
    pub(crate) fn new_shape_options(&self, state: &CharacterState, radii: Vec3, centre: Vec3) -> SlideOptions {
        let growth = (radii - state.radii).max_element().max(0.0) + (centre - state.position).length();
        SlideOptions {
            one_way_step: self.options.one_way_step.max(growth),
            ..self.options
        }
    }
}
