//! One tunable of the controller's configuration ([`Tunable`]: its key,
//! label, unit, slider and help, and how it reads and writes its field),
//! and the macro that makes one from an f32 field.

use slidewalk_controller::{ControllerConfig, FieldRange};

/// One scalar tunable of [`ControllerConfig`].
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    /// Field name (the settings file's key).
    pub key: &'static str,
    /// What the panel calls it.
    pub label: &'static str,
    /// Unit, as shown.
    pub unit: &'static str,
    /// The slider's left end (typed values may go further, within
    /// [`Tunable::accepted`]).
    pub slider_min: f32,
    /// The slider's right end.
    pub slider_max: f32,
    /// Whole numbers only.
    pub whole: bool,
    /// What raising or lowering it does (the panel's hover text).
    pub help: &'static str,
    // Read and written by the JSON form too.
    pub(super) get: fn(&ControllerConfig) -> f32,
    pub(super) set: fn(&mut ControllerConfig, f32),
}

impl Tunable {
    /// The value in `config`.
    pub fn get(&self, config: &ControllerConfig) -> f32 {
        (self.get)(config)
    }

    /// The values the controller accepts for it, on its own.
    pub fn accepted(&self) -> &'static FieldRange {
        FieldRange::of(self.key).expect("every tunable is a scalar field of ControllerConfig")
    }

    /// `value` if it is a number the controller accepts (a whole one if need be).
    pub fn check(&self, value: f64) -> Result<f32, String> {
        if !value.is_finite() {
            return Err(format!("{} must be a number, got {value}", self.label));
        }
        if self.whole && value.fract() != 0.0 {
            return Err(format!("{} must be a whole number, got {value}", self.label));
        }
        let accepted = self.accepted();
        if !accepted.contains(value as f32) {
            return Err(format!("{} must be {}, got {value}", self.label, accepted.allowed));
        }
        Ok(value as f32)
    }
}

/// A tunable of an f32 field of the config.
macro_rules! tunable {
    ($key:ident, $label:expr, $unit:expr, $min:expr, $max:expr, $help:expr) => {
        Tunable {
            key: stringify!($key),
            label: $label,
            unit: $unit,
            slider_min: $min,
            slider_max: $max,
            whole: false,
            help: $help,
            get: |c| c.$key,
            set: |c, v| c.$key = v,
        }
    };
}
