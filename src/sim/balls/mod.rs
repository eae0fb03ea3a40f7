//! Bouncing balls in the game (NeHe lesson 30's "Magic Room", solved
//! exactly by `crates/balls`): the player charges a throw while the throw
//! button is held and throws from the eye when it is let go; each tick the
//! balls move against the level's colliders (doors and lifts included),
//! each other and the player, who kicks them and is pushed back by them
//! through its controller; hard impacts become [`BallBlast`] messages for
//! explosions and sounds. A cap on live balls removes the oldest. Level
//! nodes with an analytic collider (the magic room's planes and cylinders)
//! meet the balls as their exact shapes.
//!
//! * `pit`: the balls, their settings and the messages about them;
//! * `solids`: the level as the balls meet it, and placing a ball in it;
//! * `throw`: charging and throwing;
//! * `control`: the panel's and the keys' asks (settings, clear, rain);
//! * `tick`: the balls' tick.

mod control;
mod pit;
mod solids;
mod throw;
mod tick;

pub use pit::{
    BLAST_SPEED, BallBlast, BallControl, BallPit, BallSettings, MAX_BALLS_RANGE, PLAYER_MASS, RADIUS_RANGE,
    THROW_SPEED_RANGE,
};
pub use throw::{FULL_CHARGE_SECONDS, ThrowCharge};

use bevy::prelude::*;

/// The balls' plugins.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((pit::plugin, throw::plugin, control::plugin, tick::plugin));
}

/// The balls' state that a rollback restores: the balls, the throws
/// being charged and the throws asked for this tick.
pub fn rollback(app: &mut App) {
    use bevy_slidewalk::bevy_ggrs::RollbackApp;
    app.rollback_resource_with_clone::<BallPit>()
        .rollback_resource_with_clone::<throw::PendingThrow>()
        .rollback_component_with_copy::<ThrowCharge>();
}
