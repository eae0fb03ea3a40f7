//! The readouts of the tick shown (live, or picked in the rewind): fps
//! and timings, the slide's iterations and contacts, the player's state,
//! feet, velocity and slope, and rolling plots of the tick's time and the
//! speed.

use super::state::PanelState;
use crate::sim::player::PlayerCharacterItem;
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, Plot};
use slidewalk_play::TickRecord;

pub(super) fn readouts(ui: &mut egui::Ui, state: &PanelState, body: &PlayerCharacterItem) {
    egui::CollapsingHeader::new("Readouts")
        .default_open(false)
        .show(ui, |ui| {
            let Some(r) = state.rewind.shown() else {
                ui.label("no tick yet");
                return;
            };
            numbers(ui, state, body, r);
            plots(ui, state);
        });
}

/// The tick shown in numbers: timings, the slide, the player's state and motion.
fn numbers(ui: &mut egui::Ui, state: &PanelState, body: &PlayerCharacterItem, r: &TickRecord) {
    let s = &r.after.player;
    let report = &r.report;
    let on_platform = s.ground.is_some_and(|g| g.velocity != Vec3::ZERO);
    let slope = s
        .ground
        .map(|g| g.normal.dot(s.up).clamp(-1.0, 1.0).acos().to_degrees());
    egui::Grid::new("readouts").num_columns(2).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.label(name);
            ui.monospace(value);
            ui.end_row();
        };
        row("fps", format!("{:.0}", state.fps.0));
        row("simulation tick", format!("{:.0} µs", state.timing.last_micros));
        row("player tick", format!("{:.1} µs", r.micros));
        row("sweeps", format!("{:.1} µs", r.sweep_micros));
        row("slide iterations", report.sweeps.to_string());
        row("contacts", report.contacts.len().to_string());
        row(
            "state",
            [
                (s.grounded(), "grounded"),
                (!s.grounded(), "in the air"),
                (on_platform, "on platform"),
                (report.crushed, "crushed"),
                (report.stepped, "stepped"),
                (s.crouched, "crouched"),
                (crate::sim::player::flying(body.controller), "flying"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join(", "),
        );
        let p = s.feet();
        row("feet", format!("{:.2}, {:.2}, {:.2} m", p.x, p.y, p.z));
        let v = s.world_velocity();
        row(
            "velocity",
            format!("{:.2}, {:.2}, {:.2} m/s ({:.2})", v.x, v.y, v.z, v.length()),
        );
        if let Some(slope) = slope {
            row(
                "slope",
                format!("{slope:.1}° of {:.0}°", body.controller.config.walkable_slope_deg),
            );
        }
    });
}

/// The player's tick and sweeps, and its speed across "up", over the ticks
/// held (x: seconds from the tick shown).
fn plots(ui: &mut egui::Ui, state: &PanelState) {
    let dt = state.fixed.timestep().as_secs_f64();
    let shown = state.rewind.shown_index().unwrap_or(0);
    let points = |f: &dyn Fn(&TickRecord) -> f64| -> Vec<[f64; 2]> {
        state
            .rewind
            .history
            .iter()
            .enumerate()
            .map(|(k, r)| [(k as f64 - shown as f64) * dt, f(r)])
            .collect()
    };
    let tick = points(&|r| r.micros as f64);
    let sweeps = points(&|r| r.sweep_micros as f64);
    let speed = points(&|r| {
        let v = r.after.player.world_velocity();
        (v - r.after.player.up * v.dot(r.after.player.up)).length() as f64
    });
    ui.label("player tick and sweeps, µs (x: seconds from the tick shown)");
    Plot::new("tick_time")
        .height(80.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .show(ui, |plot| {
            plot.line(Line::new("tick", tick));
            plot.line(Line::new("sweeps", sweeps));
        });
    ui.label("speed across \"up\", m/s");
    Plot::new("speed")
        .height(80.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .show(ui, |plot| plot.line(Line::new("speed", speed)));
}
