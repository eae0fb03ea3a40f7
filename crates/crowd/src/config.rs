//! `CrowdConfig`: the agents' sizes, walking rules, wandering, the shape
//! other agents see, and how many threads step them.

use crate::hull::HullResolution;
use crate::wander::WanderConfig;
use glam::Vec3;
use slidewalk_controller::{ConfigError, ControllerConfig};
use std::fmt;

/// The tunables of a [`crate::Crowd`].
#[derive(Clone, Debug, PartialEq)]
pub struct CrowdConfig {
    /// The walking rules every agent follows (speeds, slopes, step height,
    /// gravity…), as the player's. Its radii are replaced by each size's.
    pub controller: ControllerConfig,
    /// The agents' sizes: standing radii in metres (x and z across, y
    /// along "up"); each agent gets one of them at random. Default: four
    /// sizes from (0.25, 0.6, 0.25), a child, to (0.4, 0.9, 0.4), the
    /// player's. Every y radius must exceed the controller's step height.
    pub sizes: Vec<Vec3>,
    /// How agents wander.
    pub wander: WanderConfig,
    /// The polytope that stands for an agent in the others' collisions
    /// (and for the player, see [`crate::Crowd::step`]).
    pub hull: HullResolution,
    /// Agents collide with each other (default). Off, they walk through
    /// each other and the step costs only the controller's ticks: a
    /// baseline for the benchmark and for the tests.
    pub collide_agents: bool,
    /// Threads the step uses; 0 (default) is one per core. Any number
    /// gives the same crowd, to the bit.
    pub threads: usize,
}

impl Default for CrowdConfig {
    fn default() -> Self {
        Self {
            controller: ControllerConfig::default(),
            sizes: vec![
                Vec3::new(0.25, 0.6, 0.25),
                Vec3::new(0.3, 0.7, 0.3),
                Vec3::new(0.35, 0.8, 0.35),
                Vec3::new(0.4, 0.9, 0.4),
            ],
            wander: WanderConfig::default(),
            hull: HullResolution::default(),
            collide_agents: true,
            threads: 0,
        }
    }
}

/// Why a crowd could not be made or stepped.
#[derive(Clone, Debug, PartialEq)]
pub enum CrowdError {
    /// No sizes given, or more than 256.
    Sizes(usize),
    /// The controller refused the configuration for a size.
    Controller {
        /// Index in [`CrowdConfig::sizes`].
        size: usize,
        /// What was wrong.
        error: ConfigError,
    },
    /// The tick length is not a finite number in (0, 1] seconds.
    Dt(ConfigError),
}

impl fmt::Display for CrowdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sizes(n) => write!(f, "a crowd needs between 1 and 256 agent sizes, got {n}"),
            Self::Controller { size, error } => write!(f, "agent size {size}: {error}"),
            Self::Dt(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CrowdError {}

impl CrowdConfig {
    /// The controller configuration of agents of size `size`: the shared
    /// rules with that size's radii, standing and crouched alike (agents do
    /// not crouch).
    pub fn controller_for(&self, size: usize) -> ControllerConfig {
        let r = self.sizes[size];
        ControllerConfig {
            standing_radii: r,
            crouched_radii: r,
            ..self.controller
        }
    }

    /// The threads a step of `agents` agents uses: [`CrowdConfig::threads`]
    /// if set (at most one per 64 agents), else one per core but no more
    /// than one per 256 agents (a thread started for fewer costs more than
    /// it saves).
    pub fn threads_for(&self, agents: usize) -> usize {
        if self.threads == 0 {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            cores.clamp(1, agents / 256 + 1)
        } else {
            self.threads.clamp(1, agents.div_ceil(64).max(1))
        }
    }
}
