//! What of the game a rollback restores (besides the plugin's own, which
//! `SlidewalkRollbackPlugin` registers), and the digest of the state that
//! two peers compare.

use crate::sim::balls::BallPit;
use crate::sim::feedback::{Feedback, PlayerFeedback};
use crate::sim::input::PlayerInput;
use crate::sim::level::{CurrentLevel, DoorTrigger, MoverBody};
use crate::sim::movers::{LevelClock, SqueezingMovers};
use crate::sim::player::{LastTick, PlacedInGeneration, Player, RunStats, TickStart};
use crate::sim::sensors::{InSensors, PlayerSensors};
use bevy::prelude::*;
use bevy_slidewalk::bevy_ggrs::RollbackApp;
use bevy_slidewalk::{MovementState, digest_of};
use slidewalk_net::Digest;

/// A piece of state left out of the rollback on purpose: the sync test's
/// control, which shows that the test sees a missing piece.
#[doc(hidden)]
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveOutOfRollback {
    /// The balls.
    Balls,
}

/// Registers every piece of the game's simulation state for snapshots.
/// The game's tick reads and writes nothing else that lasts: the level's
/// geometry is fixed once the session starts, the crowd is off over the
/// network, and notices, timings and the rewind buffer are not state.
pub fn register(app: &mut App) {
    app.rollback_component_with_copy::<PlayerInput>()
        .rollback_component_with_clone::<LastTick>()
        .rollback_component_with_clone::<TickStart>()
        .rollback_component_with_copy::<PlayerFeedback>()
        .rollback_component_with_copy::<PlacedInGeneration>()
        .rollback_component_with_clone::<InSensors>()
        .rollback_component_with_clone::<MoverBody>()
        .rollback_component_with_clone::<DoorTrigger>()
        .rollback_resource_with_clone::<Feedback>()
        .rollback_resource_with_clone::<SqueezingMovers>()
        .rollback_resource_with_clone::<LevelClock>()
        .rollback_resource_with_clone::<CurrentLevel>()
        .rollback_resource_with_clone::<PlayerSensors>()
        .rollback_resource_with_clone::<RunStats>()
        // ggrs compares the peers' checksums during the game: the doors,
        // the lifts and the level's clock besides the plugin's state.
        .checksum_component::<MoverBody>(mover_digest)
        .checksum_resource::<LevelClock>(clock_digest);
    if app.world().get_resource::<LeaveOutOfRollback>() != Some(&LeaveOutOfRollback::Balls) {
        crate::sim::balls::rollback(app);
        app.checksum_resource::<BallPit>(balls_digest);
    }
}

/// A door's or lift's digest: its index, pose and door or lift state, bit
/// for bit (their debug text writes every number in full).
fn mover_digest(m: &MoverBody) -> u64 {
    let mut digest = Digest::new();
    digest.write_str(&format!("{} {:?} {:?} {:?}", m.index, m.pose, m.door, m.lift_s));
    digest.finish()
}

fn clock_digest(clock: &LevelClock) -> u64 {
    let mut digest = Digest::new();
    digest.write_u64(clock.seconds.to_bits());
    digest.finish()
}

/// Every ball's position and velocity, bit for bit.
fn balls_digest(pit: &BallPit) -> u64 {
    let mut digest = Digest::new();
    for ball in &pit.simulation.balls {
        for v in [ball.position, ball.velocity] {
            v.to_array().iter().for_each(|x| digest.write_f32(*x));
        }
    }
    digest.finish()
}

/// A digest of the simulation's state, bit for bit: every player's
/// movement state (in slot order), every door and lift, the level's
/// clock, every ball. Equal on two peers (or two builds) that agree.
pub fn state_digest(world: &mut World) -> u64 {
    let mut digest = Digest::new();
    let mut players: Vec<(usize, u64)> = world
        .query::<(&Player, &MovementState)>()
        .iter(world)
        .map(|(p, s)| (p.slot, digest_of(s)))
        .collect();
    players.sort_unstable();
    for (slot, state) in players {
        digest.write_u64(slot as u64);
        digest.write_u64(state);
    }
    let mut movers: Vec<(usize, u64)> = world
        .query::<&MoverBody>()
        .iter(world)
        .map(|m| (m.index, mover_digest(m)))
        .collect();
    movers.sort_unstable();
    for (_, m) in movers {
        digest.write_u64(m);
    }
    if let Some(clock) = world.get_resource::<LevelClock>() {
        digest.write_u64(clock_digest(clock));
    }
    if let Some(pit) = world.get_resource::<BallPit>() {
        digest.write_u64(balls_digest(pit));
    }
    digest.finish()
}
