//! The player's controller settings, as the overlays measure against
//! them (the defaults before there is a player).

use crate::sim::player::{LocalPlayer, PlayerCharacter};
use bevy::prelude::*;
use slidewalk_controller::ControllerConfig;

/// The player's controller settings (the defaults before there is a player).
pub(super) fn player_config(players: &Query<PlayerCharacter, With<LocalPlayer>>) -> ControllerConfig {
    players
        .iter()
        .next()
        .map_or_else(ControllerConfig::default, |b| b.controller.config)
}

pub(super) fn cos_walkable(players: &Query<PlayerCharacter, With<LocalPlayer>>) -> f32 {
    player_config(players).walkable_slope_deg.to_radians().cos()
}
