//! The gamepad's section: the connected gamepad's name (or "none"), the
//! look sensitivity and invert-Y, through [`Tune`] like every setting
//! (saved with the others). Shown while the panel is open, in a small
//! window of its own at the bottom left ([`section`] draws it into any
//! `Ui`).

use crate::sim::tuning::{CurrentSettings, Tune};
use crate::view::gamepad::LOOK_RATE;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use slidewalk_play::settings::GAMEPAD_SENSITIVITY_RANGE;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_gamepad_window);
}

fn draw_gamepad_window(
    mut contexts: EguiContexts,
    settings: Res<CurrentSettings>,
    gamepads: Query<Option<&Name>, With<Gamepad>>,
    mut tune: MessageWriter<Tune>,
) -> Result {
    if !settings.0.panel_open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let names: Vec<String> = gamepads
        .iter()
        .map(|n| n.map_or_else(|| "unnamed gamepad".to_string(), |n| n.to_string()))
        .collect();
    egui::Window::new("Gamepad")
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .default_width(260.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| section(ui, &settings, &names, &mut tune));
    Ok(())
}

/// The gamepad's settings and the gamepads connected (`names`, empty:
/// none).
pub(super) fn section(ui: &mut egui::Ui, settings: &CurrentSettings, names: &[String], tune: &mut MessageWriter<Tune>) {
    let s = &settings.0;
    let connected = if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    };
    ui.label(format!("connected: {connected}"))
        .on_hover_text("Plug one in while playing: it is found at once (a line on screen says so).");
    let mut sensitivity = s.gamepad_sensitivity;
    if ui
        .add(
            egui::Slider::new(&mut sensitivity, GAMEPAD_SENSITIVITY_RANGE)
                .logarithmic(true)
                .text("look sensitivity"),
        )
        .on_hover_text(format!(
            "The right stick at full tilt turns {:.0}°/s times this.",
            LOOK_RATE.to_degrees()
        ))
        .changed()
    {
        tune.write(Tune::GamepadSensitivity(sensitivity));
    }
    let mut invert = s.gamepad_invert_y;
    if ui
        .checkbox(&mut invert, "invert Y")
        .on_hover_text("The right stick pushed up looks down, as a flight stick does.")
        .changed()
    {
        tune.write(Tune::GamepadInvertY(invert));
    }
    // Xbox names (egui's font has no PlayStation symbols).
    ui.small(
        "left stick: walk · right stick: look · A: jump · B: crouch · X: dash · Y: door · \
         RT: charge, let go: throw · LT or L3: sprint · d-pad down: drop · back: respawn · start: this panel",
    );
}
