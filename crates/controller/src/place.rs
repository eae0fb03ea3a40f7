//! A placed character's first tick (a spawn, a respawn, a teleport): the
//! ground under it is found before the tick decides anything, as Quake's
//! pmove traces the ground before `PM_CheckJump`, so that a jump or a dash
//! pressed on that tick starts from the ground it stands on.

use crate::frame::horizontal;
use crate::state::CharacterState;
use crate::tick::Run;
use slidewalk_sweep::Ellipsoid;

impl Run<'_> {
    /// Finds the ground under a [`placed`](CharacterState::placed)
    /// character: ground within the snap distance below (at least twice the
    /// gap [`CharacterState::standing_at`] leaves under the feet), while it
    /// is not moving up off it, is stood on (the centre put down onto it);
    /// else it is in the air, with no coyote time. Either way its air time
    /// starts at 0. Its velocity is taken as relative to the ground it is
    /// found on: a character placed at rest on a moving platform or lift
    /// stands still on it and rides it, as one that walked on would.
    pub(crate) fn find_placed_ground(&mut self, state: &mut CharacterState, e: &Ellipsoid) {
        let up = state.up;
        // Whatever ground the placed state names is not known to be there.
        self.leave_ground(state);
        state.air_time = 0.0;
        state.coyote_jump = false;
        let distance = self.c.snap_distance.max(8.0 * self.skin_metres(state));
        let (probe, found) = self.ground_below(state, e, distance);
        match found.filter(|_| state.velocity.dot(up) <= 1e-3) {
            Some((position, ground)) => {
                // The rest of the tick judges one-way surfaces from where
                // the character was placed: snapped down onto the rim of a
                // one-way platform it was wholly above, it hangs a little
                // behind the top's plane, and a launch down from there
                // must not sink through it (found by the world fuzz target).
                self.keep_one_way_step((state.position - position).dot(up));
                state.position = position;
                state.velocity = horizontal(state.velocity, up);
                state.ground = Some(ground);
                self.report.found_ground = true;
            }
            None => state.position += probe.depenetration,
        }
    }
}
