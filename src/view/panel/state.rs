//! Everything the panel reads, bundled in one system parameter
//! ([`PanelState`]): the settings and their status, the rewind, the
//! balls, the crowd, the timings, the player.

use crate::sim::balls::BallPit;
use crate::sim::crowd::CrowdSim;
use crate::sim::player::{LocalPlayer, PlayerCharacter};
use crate::sim::rewind::Rewind;
use crate::sim::schedule::SimTiming;
use crate::sim::tuning::{CurrentSettings, SettingsFile, TuningStatus};
use crate::view::hud::FrameRate;
use bevy::prelude::*;

/// Everything the panel reads, bundled.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct PanelState<'w, 's> {
    pub(super) settings: Res<'w, CurrentSettings>,
    pub(super) status: Res<'w, TuningStatus>,
    pub(super) file: Res<'w, SettingsFile>,
    pub(super) rewind: Res<'w, Rewind>,
    pub(super) timing: Res<'w, SimTiming>,
    pub(super) pit: Res<'w, BallPit>,
    pub(super) crowd: Res<'w, CrowdSim>,
    pub(super) fps: Res<'w, FrameRate>,
    pub(super) fixed: Res<'w, Time<Fixed>>,
    pub(super) players: Query<'w, 's, PlayerCharacter, With<LocalPlayer>>,
}
