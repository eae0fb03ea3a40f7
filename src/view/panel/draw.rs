//! The panel's window (Tab shows or hides it): a refusal at the top, the
//! sections in order — what the mission names first, the long ones
//! collapsed — then resetting the controller and where the settings are
//! saved.

use super::balls::balls;
use super::controller::{ellipsoid, gravity, tunables};
use super::display::{overlays, view};
use super::readouts::readouts;
use super::rewind::{SavePath, rewind};
use super::state::PanelState;
use crate::sim::balls::BallControl;
use crate::sim::crowd::CrowdControl;
use crate::sim::rewind::RewindRequest;
use crate::sim::tuning::Tune;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_panel);
}

fn draw_panel(
    mut contexts: EguiContexts,
    state: PanelState,
    mut save_path: ResMut<SavePath>,
    mut tune: MessageWriter<Tune>,
    mut rewind_requests: MessageWriter<RewindRequest>,
    mut ball_controls: MessageWriter<BallControl>,
    mut crowd_controls: MessageWriter<CrowdControl>,
) -> Result {
    if !state.settings.0.panel_open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let Some(body) = state.players.iter().next() else {
        return Ok(());
    };
    let height = ctx.content_rect().height() - 24.0;
    egui::Window::new("Tuning")
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 8.0))
        .default_width(340.0)
        .default_height(height)
        .max_height(height)
        .collapsible(false)
        .resizable([false, true])
        .vscroll(true)
        .show(ctx, |ui| {
            ui.small("Tab hides the panel · hover a setting for what it does");
            if let Some(why) = &state.status.refused {
                ui.colored_label(egui::Color32::from_rgb(255, 120, 100), format!("refused: {why}"));
            }
            // What the mission names first: the ellipsoid, gravity, the
            // overlays; then the rest, the long sections collapsed.
            ellipsoid(ui, &state, &body, &mut tune);
            gravity(ui, &body, &mut tune);
            overlays(ui, &state, &mut tune);
            view(ui, &state, &mut tune);
            crate::view::crowd::panel_section(ui, &state.crowd, &mut crowd_controls);
            tunables(ui, &body, &mut tune);
            rewind(ui, &state, &mut save_path, &mut rewind_requests);
            readouts(ui, &state, &body);
            balls(ui, &state.pit, &mut ball_controls);
            ui.separator();
            if ui
                .button("Reset controller to defaults")
                .on_hover_text("Every controller value and the radii and gravity back to the defaults.")
                .clicked()
            {
                tune.write(Tune::ResetController);
            }
            match &state.file.0 {
                Some(path) => ui.small(format!("settings saved to {}", path.display())),
                None => ui.small("settings are not saved in this run"),
            };
        });
    Ok(())
}
