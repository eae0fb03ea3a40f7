//! The command line the game was started with, as a resource the
//! simulation's plugins read (the tick rate, the level, the spawn, …).

use bevy::prelude::*;
use slidewalk_play::Options;

/// The command line the game was started with.
#[derive(Resource, Clone, Debug)]
pub struct LaunchOptions(pub Options);
