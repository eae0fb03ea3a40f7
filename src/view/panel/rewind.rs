//! The rewind's section (opened when the game pauses): pause, step a
//! tick, pick the tick shown, and save the ticks held as a script.

use super::state::PanelState;
use crate::sim::rewind::RewindRequest;
use bevy::prelude::*;
use bevy_egui::egui;

/// Where "Save these ticks" writes (the panel's text field).
#[derive(Resource, Debug)]
pub(super) struct SavePath(String);

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(SavePath("rewind.json".into()));
}

pub(super) fn rewind(
    ui: &mut egui::Ui,
    state: &PanelState,
    save_path: &mut SavePath,
    requests: &mut MessageWriter<RewindRequest>,
) {
    // Opened when the game pauses (the slider is what the player came
    // for), and left to the player while it stays paused.
    let paused = state.rewind.paused;
    let was_paused_id = egui::Id::new("rewind was paused");
    let was_paused = ui.data_mut(|d| {
        let was = d.get_temp::<bool>(was_paused_id).unwrap_or(false);
        d.insert_temp(was_paused_id, paused);
        was
    });
    egui::CollapsingHeader::new("Rewind")
        .default_open(false)
        .open((paused && !was_paused).then_some(true))
        .show(ui, |ui| {
            let rw = &state.rewind;
            let held = rw.history.len();
            ui.horizontal(|ui| {
                let label = if rw.paused { "resume (P)" } else { "pause (P)" };
                if ui.button(label).clicked() {
                    requests.write(RewindRequest::Pause(!rw.paused));
                }
                if ui
                    .button("< tick")
                    .on_hover_text("one tick back (left arrow)")
                    .clicked()
                {
                    requests.write(RewindRequest::Step(-1));
                }
                if ui.button("tick >").on_hover_text("one tick on (right arrow)").clicked() {
                    requests.write(RewindRequest::Step(1));
                }
            });
            if held > 0 {
                let mut at = rw.shown_index().unwrap_or(0);
                let dt = state.fixed.timestep().as_secs_f32();
                let back = (held - 1 - at) as f32 * dt;
                if ui
                    .add(egui::Slider::new(&mut at, 0..=held - 1).show_value(false))
                    .changed()
                {
                    requests.write(RewindRequest::View(at));
                }
                ui.small(format!(
                    "tick {} · {back:.2} s before the newest · {:.1} s held",
                    rw.shown().map_or(0, |r| r.tick),
                    held as f32 * dt
                ));
            }
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut save_path.0).desired_width(160.0));
                if ui
                    .button("Save these ticks")
                    .on_hover_text("Writes the ticks up to the one shown as a script that replays headless.")
                    .clicked()
                {
                    requests.write(RewindRequest::Save(save_path.0.clone().into()));
                }
            });
        });
}
