//! Hard landings (Quake's `PMF_TIME_LAND`): landing faster than
//! `hard_landing_speed` stops jumps and halves the walking speed for
//! `hard_landing_time`.

use crate::state::CharacterState;
use crate::tick::Run;

/// The walking speed kept during a hard landing's lag.
pub const HARD_LANDING_SLOWDOWN: f32 = 0.5;

impl Run<'_> {
    /// A landing at `impact` m/s (the speed into the ground): hard when
    /// faster than the config's `hard_landing_speed`.
    pub(crate) fn landed_at(&mut self, state: &mut CharacterState, impact: f32) {
        let c = self.c;
        if c.hard_landing_speed > 0.0 && impact > c.hard_landing_speed {
            state.moves.landing_lag = c.hard_landing_time;
            self.report.hard_landing = true;
        }
    }

    /// The fraction of the top speed walking may reach now.
    pub(crate) fn landing_slowdown(&self, state: &CharacterState) -> f32 {
        if state.moves.landing_lag > 0.0 && state.ground.is_some() {
            HARD_LANDING_SLOWDOWN
        } else {
            1.0
        }
    }
}
