//! The plugin's own memory of each character, between ticks and between a
//! tick and the frames that draw it: private, one component the game never
//! sees.

use bevy::prelude::*;
use glam::Vec3;
use slidewalk_controller::{CharacterState, Controller, ControllerConfig, ReconfigureError};

/// What the plugin remembers of a character (added with the
/// [`CharacterController`](crate::CharacterController)).
#[derive(Component, Clone, Debug, Default)]
pub(crate) struct CharacterMemory {
    /// The walking rules with the last valid config (what the tick runs
    /// with; a refused change goes back to it).
    pub(crate) controller: Controller,
    /// A config change this tick refused, for its message.
    pub(crate) refused: Option<ReconfigureError>,
    /// Time in collide-and-slide this tick (timed with
    /// [`StepTimings`](crate::StepTimings)).
    pub(crate) sweep_time: std::time::Duration,
    /// Centre at the start of the last tick (interpolation), metres.
    pub(crate) previous: Vec3,
    /// Centre at the end of the last tick, metres.
    pub(crate) last_end: Vec3,
    /// The translation the plugin last wrote to the transform (a different
    /// one was written by the game: a teleport).
    pub(crate) drawn: Option<Vec3>,
    /// The entity of the ground stood on (collider indices change).
    pub(crate) ground_entity: Option<Entity>,
    /// The entity of the collider climbed (collider indices change).
    pub(crate) climb_entity: Option<Entity>,
    /// The collision world's layout the state's ground index refers to.
    pub(crate) layout: u64,
    /// What the movement events remember between ticks.
    pub(crate) events: EventMemory,
    /// The state at the start of this tick, from the step to its events.
    pub(crate) tick_start: Option<CharacterState>,
    /// The state as the last tick left it: a different one was given by
    /// the game (a respawn, a rewind).
    pub(crate) left: Option<CharacterState>,
}

/// What the movement events of a character remember between ticks.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventMemory {
    /// The mover stood on, for boarded/left events.
    pub(crate) riding: Option<Entity>,
    /// A wall was touched last tick (a hit is the start of a touch).
    pub(crate) touching_wall: bool,
    /// Metres walked on the ground since the last footstep.
    pub(crate) walked: f32,
}

impl CharacterMemory {
    /// A new character's memory: running with `config`, at `centre`, its
    /// transform at `drawn`.
    pub(crate) fn new(config: ControllerConfig, centre: Vec3, drawn: Vec3) -> Self {
        Self {
            controller: Controller::new(config).unwrap_or_default(),
            previous: centre,
            last_end: centre,
            drawn: Some(drawn),
            ..Self::default()
        }
    }

    /// Whether the game wrote a translation of its own since the plugin
    /// last drew the character: a teleport the next tick takes.
    pub(crate) fn moved_by_the_game(&self, transform: &Transform) -> bool {
        self.drawn.is_some_and(|d| d != transform.translation)
    }

    /// The state was given anew (a teleport, a respawn, a rewind): drawn
    /// there without interpolating, nothing ridden, stood on or climbed by
    /// entity.
    pub(crate) fn cut_to(&mut self, state: &CharacterState) {
        self.previous = state.position;
        self.last_end = state.position;
        self.ground_entity = None;
        self.climb_entity = None;
        self.events.riding = None;
    }

    /// The centre drawn `fraction` (0 … 1) of the way from the previous
    /// tick's end to `now`.
    pub(crate) fn interpolated(&self, now: Vec3, fraction: f32) -> Vec3 {
        self.previous.lerp(now, fraction.clamp(0.0, 1.0))
    }
}
