//! Live tuning of the controller: every tunable with its unit, slider range
//! and a one-line explanation (what the panel shows), and the checked
//! changes — one value, the radii, the gravity — that refuse NaN, zero,
//! negative or absurd values with a message instead of passing them on. What
//! is accepted is what the controller's validation accepts
//! ([`slidewalk_controller::FIELD_RANGES`], [`slidewalk_controller::RADIUS_RANGE`],
//! [`slidewalk_controller::MAX_GRAVITY`]); the sliders show a comfortable part of it.
//! The same checks read the settings file.
//!
//! [`TUNABLES`] and the checked changes are in `panel` (the moves' in
//! `moves`, the feel's in `feel`); the on/off settings and the platform
//! momentum, which are not numbers, in `switches`; the whole
//! configuration as JSON (the settings file's and a script's form), each
//! value checked the same way, in `json`.

#[macro_use]
mod tunable;
mod feel;
mod json;
mod moves;
mod panel;
mod switches;

pub use json::{config_from_json, config_to_json};
pub use panel::{GRAVITY_PRESETS, RADIUS_SLIDER, TUNABLES, set_gravity, set_radii, set_value, tunable};
pub use switches::{
    PLATFORM_MOMENTUM_CHOICES, PLATFORM_MOMENTUM_KEY, SWITCHES, Switch, platform_momentum, set_switch, switch,
};
pub use tunable::Tunable;
