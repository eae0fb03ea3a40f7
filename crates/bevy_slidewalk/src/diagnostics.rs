//! What the characters' tick costs: [`StepTimings`] (present only when
//! asked for, so an app that does not measure pays no clock reads) and
//! [`SlidewalkDiagnosticsPlugin`], which feeds it to Bevy's
//! `DiagnosticsStore`.

use bevy::diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy::prelude::*;
use std::time::Duration;

/// The wall-clock cost of the last tick of every character, written by
/// the tick when this resource exists (insert it, or add
/// [`SlidewalkDiagnosticsPlugin`]). Without it, nothing is timed.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Resource, Default, Debug, Clone)]
pub struct StepTimings {
    /// Characters ticked (active ones).
    pub characters: usize,
    /// The whole step: every character's tick and its events,
    /// microseconds.
    pub micros: f32,
    /// Of which in collide-and-slide, summed over the characters,
    /// microseconds (on several threads it can exceed `micros`).
    pub sweep_micros: f32,
}

impl StepTimings {
    pub(crate) fn record(&mut self, characters: usize, step: Duration, sweeps: Duration) {
        *self = Self {
            characters,
            micros: step.as_secs_f32() * 1e6,
            sweep_micros: sweeps.as_secs_f32() * 1e6,
        };
    }
}

/// Measures every tick of the characters into [`StepTimings`] and Bevy's
/// `DiagnosticsStore` ([`SlidewalkDiagnosticsPlugin::STEP`],
/// [`SlidewalkDiagnosticsPlugin::SWEEPS`]; log them with Bevy's
/// `LogDiagnosticsPlugin`).
#[derive(Default)]
pub struct SlidewalkDiagnosticsPlugin;

impl SlidewalkDiagnosticsPlugin {
    /// The characters' step, milliseconds per tick.
    pub const STEP: DiagnosticPath = DiagnosticPath::const_new("slidewalk/step");
    /// Of which in collide-and-slide, milliseconds per tick.
    pub const SWEEPS: DiagnosticPath = DiagnosticPath::const_new("slidewalk/sweeps");
}

impl Plugin for SlidewalkDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StepTimings>()
            .register_diagnostic(Diagnostic::new(Self::STEP).with_suffix("ms"))
            .register_diagnostic(Diagnostic::new(Self::SWEEPS).with_suffix("ms"))
            .add_systems(Last, publish);
    }
}

/// The last tick's timings into the store (once a frame).
fn publish(timings: Res<StepTimings>, mut diagnostics: Diagnostics) {
    if !timings.is_changed() {
        return;
    }
    diagnostics.add_measurement(&SlidewalkDiagnosticsPlugin::STEP, || timings.micros as f64 / 1e3);
    diagnostics.add_measurement(&SlidewalkDiagnosticsPlugin::SWEEPS, || {
        timings.sweep_micros as f64 / 1e3
    });
}
