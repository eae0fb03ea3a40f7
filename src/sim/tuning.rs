//! Live tuning: the panel (or a test) sends [`Tune`] messages; each is
//! checked (`play::tuning`), applied to the player's controller where the
//! player stands (new radii pushed out, or refused when they do not fit),
//! and the settings are saved to the settings file. The settings are read
//! from that file at start; a bad file gives a warning and the defaults.

use super::LaunchOptions;
use super::colliders::Colliders;
use super::input::Player;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::CharacterController;
use controller::{ControllerConfig, Surroundings};
use play::tuning::{GRAVITY_PRESETS, set_gravity, set_radii, set_value};
use play::{Overlay, Settings};
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
}

/// A change asked for from the panel.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Tune {
    /// One tunable (`play::tuning::TUNABLES` key) to a value.
    Value(&'static str, f64),
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
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsFile>()
        .init_resource::<TuningStatus>()
        .add_message::<Tune>()
        .add_systems(PreStartup, load_settings)
        .add_systems(Update, apply_tuning);
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
        Tune::Radii(r) => set_radii(config, *r),
        Tune::Gravity(direction, magnitude) => set_gravity(config, *direction, *magnitude),
        Tune::GravityPreset(i) => match GRAVITY_PRESETS.get(*i) {
            Some((_, g)) => set_gravity(config, *g, g.length()),
            None => Err(format!("there is no gravity preset {i}")),
        },
        Tune::ResetController => Ok(ControllerConfig::default()),
        _ => return None,
    })
}

fn apply_tuning(
    mut changes: MessageReader<Tune>,
    mut settings: ResMut<CurrentSettings>,
    mut status: ResMut<TuningStatus>,
    file: Res<SettingsFile>,
    colliders: Colliders,
    mut notices: ResMut<Notices>,
    mut players: Query<&mut CharacterController, With<Player>>,
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
            _ => {}
        }
        // The player's configuration is the one in effect (a script may have set it).
        let base = players.iter().next().map_or(s.controller, |b| *b.config_in_use());
        let Some(wanted) = wanted_config(change, &base) else {
            changed = true;
            continue;
        };
        let placed = colliders.placed();
        let world = Surroundings::new(&placed);
        let result = wanted.and_then(|config| {
            for mut body in &mut players {
                body.reconfigure(config, &world).map_err(|e| e.to_string())?;
            }
            Ok(config)
        });
        match result {
            Ok(config) => {
                s.controller = config;
                status.refused = None;
                changed = true;
            }
            Err(e) => {
                warn!("refused: {e}");
                status.refused = Some(e);
            }
        }
    }
    if changed
        && let Some(path) = &file.0
        && let Err(e) = settings.0.save(path)
    {
        notices.error(e);
    }
}
