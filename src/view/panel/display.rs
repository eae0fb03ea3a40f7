//! How the game is shown: the overlays' switches (also F1–F9) and the
//! view's (camera behind the player, grid everywhere, HUD, vsync).

use super::state::PanelState;
use crate::sim::tuning::Tune;
use bevy::prelude::*;
use bevy_egui::egui;
use slidewalk_play::Overlay;

pub(super) fn overlays(ui: &mut egui::Ui, state: &PanelState, tune: &mut MessageWriter<Tune>) {
    egui::CollapsingHeader::new("Overlays")
        .default_open(true)
        .show(ui, |ui| {
            let s = &state.settings.0;
            egui::Grid::new("overlays").num_columns(2).show(ui, |ui| {
                for (k, o) in Overlay::ALL.into_iter().enumerate() {
                    let mut on = s.shows(o);
                    if ui
                        .checkbox(&mut on, format!("F{} {}", o.function_key(), o.label()))
                        .changed()
                    {
                        tune.write(Tune::Overlay(o, on));
                    }
                    if k % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
        });
}

/// How the game looks: camera, grid, HUD, vsync.
pub(super) fn view(ui: &mut egui::Ui, state: &PanelState, tune: &mut MessageWriter<Tune>) {
    egui::CollapsingHeader::new("View").default_open(true).show(ui, |ui| {
        let s = &state.settings.0;
        let mut toggle = |on: bool, label: &str, hover: &str, change: fn(bool) -> Tune| {
            let mut on = on;
            if ui.checkbox(&mut on, label).on_hover_text(hover).changed() {
                tune.write(change(on));
            }
        };
        toggle(
            s.third_person,
            "V camera behind the player",
            "See the ellipsoid and its contacts from outside.",
            Tune::ThirdPerson,
        );
        toggle(
            s.grid_everywhere,
            "G grid on textured materials too",
            "Untextured surfaces always show the metre grid and the walkable (green) or too steep (red) tint; \
             this puts it on surfaces with their own textures as well.",
            Tune::GridEverywhere,
        );
        toggle(
            s.hud,
            "HUD: state, speed, fps",
            "The small readout at the top left.",
            Tune::Hud,
        );
        toggle(
            s.vsync,
            "vsync",
            "Frames wait for the display's refresh: no tearing, no wasted frames. Off shows how fast the game can draw.",
            Tune::Vsync,
        );
        ui.small("F11: fullscreen");
    });
}
