//! Live tuning: the panel (or a test) sends [`Tune`] messages. The view's
//! settings are taken at once; a controller change is checked
//! (`slidewalk_play::tuning`) and written to the player's `CharacterController` at
//! the start of the next tick, where the plugin takes it in (new radii
//! pushed out where the player stands, or refused when they do not fit);
//! after the tick the outcome goes to the panel and the settings file.
//! The settings are read from that file at start; a bad file gives a
//! warning and the defaults.

use super::input::PlayerInput;
use super::launch::LaunchOptions;
use super::schedule::SimSet;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, ConfigRefused, SlidewalkSystems};
use slidewalk_controller::{ControllerConfig, PlatformMomentum};
use slidewalk_play::tuning::{GRAVITY_PRESETS, set_gravity, set_radii, set_switch, set_value};
use slidewalk_play::{Overlay, Settings};
use std::path::PathBuf;

/// Where the settings are read from and saved to (`None`: not kept).
#[derive(Resource, Clone, Debug, Default)]
pub struct SettingsFile(pub Option<PathBuf>);

/// The settings in effect (the controller's are the player's).
#[derive(Resource, Clone, Debug, Default)]
pub struct CurrentSettings(pub Settings);

/// The outcome of the last change, for the panel.
#[derive(Resource, Clone, Debug, Default)]
pub struct TuningStatus {
    /// Why the last change was refused, if it was.
    pub refused: Option<String>,
    /// A controller change was written this tick: the plugin's verdict
    /// comes after its step.
    pending: bool,
}

/// A change asked for from the panel.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Tune {
    /// One tunable (`slidewalk_play::tuning::TUNABLES` key) to a value.
    Value(&'static str, f64),
    /// One on/off setting (`slidewalk_play::tuning::SWITCHES` key) on or off.
    Switch(&'static str, bool),
    /// What a moving platform's velocity leaves with a character leaving it.
    PlatformMomentum(PlatformMomentum),
    /// The standing radii, metres.
    Radii(Vec3),
    /// Gravity along a direction (any length), magnitude in m/s².
    Gravity(Vec3, f32),
    /// A gravity preset by index in `GRAVITY_PRESETS`.
    GravityPreset(usize),
    /// Every controller value back to its default.
    ResetController,
    /// An overlay on or off.
    Overlay(Overlay, bool),
    /// The panel shown or hidden.
    PanelOpen(bool),
    /// The x and z radii locked together.
    LockXz(bool),
    /// The camera behind the player instead of at the eyes.
    ThirdPerson(bool),
    /// The prototype grid on textured materials too.
    GridEverywhere(bool),
    /// The small HUD shown.
    Hud(bool),
    /// Vsync on.
    Vsync(bool),
    /// The gamepad's look speed, a multiple of the default turn rate
    /// (held within `slidewalk_play::settings::GAMEPAD_SENSITIVITY_RANGE`).
    GamepadSensitivity(f32),
    /// The right stick pushed up looks down.
    GamepadInvertY(bool),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsFile>()
        .init_resource::<TuningStatus>()
        .add_message::<Tune>()
        .add_systems(PreStartup, load_settings)
        .add_systems(Update, apply_view_settings)
        .add_systems(
            FixedUpdate,
            (
                apply_tuning.in_set(SimSet::Input),
                settle_tuning.after(SlidewalkSystems::Step).in_set(SimSet::Player),
            ),
        );
}

/// Reads the settings file (`--settings`, or the one the window game was
/// given); warnings go on screen.
fn load_settings(
    options: Option<Res<LaunchOptions>>,
    mut file: ResMut<SettingsFile>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    if let Some(path) = options.and_then(|o| o.0.settings.clone()) {
        file.0 = Some(path);
    }
    let settings = match &file.0 {
        None => Settings::default(),
        Some(path) => {
            let (settings, warning) = Settings::load(path);
            if let Some(w) = warning {
                notices.error(w);
            }
            settings
        }
    };
    commands.insert_resource(CurrentSettings(settings));
}

/// The controller configuration a change asks for, checked.
fn wanted_config(change: &Tune, config: &ControllerConfig) -> Option<Result<ControllerConfig, String>> {
    Some(match change {
        Tune::Value(key, value) => set_value(config, key, *value),
        Tune::Switch(key, on) => set_switch(config, key, *on),
        Tune::PlatformMomentum(m) => Ok(ControllerConfig {
            platform_momentum: *m,
            ..*config
        }),
        Tune::Radii(r) => set_radii(config, *r),
        Tune::Gravity(direction, magnitude) => set_gravity(config, *direction, *magnitude),
        Tune::GravityPreset(i) => match GRAVITY_PRESETS.get(*i) {
            Some((_, g)) => set_gravity(config, *g, g.length()),
            None => Err(format!("there is no gravity preset {i}")),
        },
        // The game's defaults: every move on.
        Tune::ResetController => Ok(slidewalk_play::Settings::default().controller),
        _ => return None,
    })
}

/// The view's settings from the panel, taken at once (paused or not) and
/// saved.
fn apply_view_settings(
    mut changes: MessageReader<Tune>,
    mut settings: ResMut<CurrentSettings>,
    file: Res<SettingsFile>,
    mut notices: ResMut<Notices>,
) {
    let mut changed = false;
    for change in changes.read() {
        let s = &mut settings.0;
        match change {
            Tune::Overlay(o, on) => s.show(*o, *on),
            Tune::PanelOpen(on) => s.panel_open = *on,
            Tune::LockXz(on) => s.lock_xz = *on,
            Tune::ThirdPerson(on) => s.third_person = *on,
            Tune::GridEverywhere(on) => s.grid_everywhere = *on,
            Tune::Hud(on) => s.hud = *on,
            Tune::Vsync(on) => s.vsync = *on,
            Tune::GamepadSensitivity(v) if v.is_finite() => {
                let range = slidewalk_play::settings::GAMEPAD_SENSITIVITY_RANGE;
                s.gamepad_sensitivity = v.clamp(*range.start(), *range.end());
            }
            Tune::GamepadInvertY(on) => s.gamepad_invert_y = *on,
            // The controller's changes are the tick's (apply_tuning).
            _ => continue,
        }
        changed = true;
    }
    if changed {
        save(&settings.0, &file, &mut notices);
    }
}

/// At the start of a tick: the controller changes asked for since the
/// last, checked, written to the player's config for the plugin's step to
/// take in. A value out of its range is refused here.
fn apply_tuning(
    mut changes: MessageReader<Tune>,
    mut status: ResMut<TuningStatus>,
    // The player is the character with a player's input.
    mut players: Query<&mut CharacterController, With<PlayerInput>>,
    net: Option<Res<super::launch::NetPlayers>>,
) {
    if net.is_some() {
        // Both peers simulate with the settings they agreed on at the start
        // (the view's own settings still apply).
        let controller_changes = changes
            .read()
            .filter(|c| wanted_config(c, &ControllerConfig::default()).is_some())
            .count();
        if controller_changes > 0 {
            status.refused = Some("the controller settings are locked during a network game".into());
        }
        return;
    }
    for change in changes.read() {
        let Some(mut body) = players.iter_mut().next() else {
            continue;
        };
        // On top of the player's config (a script may have set it).
        match wanted_config(change, &body.config) {
            None => {}
            Some(Ok(config)) => {
                body.config = config;
                status.refused = None;
                status.pending = true;
            }
            Some(Err(e)) => {
                warn!("refused: {e}");
                status.refused = Some(e);
            }
        }
    }
}

/// After the plugin's step: its verdict on the change (a refusal names the
/// reason; the config it kept is the one in effect), then saved.
fn settle_tuning(
    mut refusals: MessageReader<ConfigRefused>,
    mut status: ResMut<TuningStatus>,
    mut settings: ResMut<CurrentSettings>,
    file: Res<SettingsFile>,
    mut notices: ResMut<Notices>,
    players: Query<(Entity, &CharacterController), With<PlayerInput>>,
) {
    let Some((player, body)) = players.iter().next() else {
        return;
    };
    for refused in refusals.read().filter(|r| r.character == player) {
        warn!("refused: {}", refused.error);
        status.refused = Some(refused.error.to_string());
    }
    if std::mem::take(&mut status.pending) {
        settings.0.controller = body.config;
        save(&settings.0, &file, &mut notices);
    }
}

/// The settings into the settings file, if there is one.
fn save(settings: &Settings, file: &SettingsFile, notices: &mut Notices) {
    if let Some(path) = &file.0
        && let Err(e) = settings.save(path)
    {
        notices.error(e);
    }
}
