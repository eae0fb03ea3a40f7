//! The controller's sections: the ellipsoid's radii (x and z locked
//! together if asked), gravity with presets, magnitude and direction, and
//! every controller tunable with its unit and a hover explanation, then
//! the on/off settings and the platform momentum.

use super::state::PanelState;
use crate::sim::player::PlayerCharacterItem;
use crate::sim::tuning::Tune;
use bevy::prelude::*;
use bevy_egui::egui;
use slidewalk_play::tuning::{GRAVITY_PRESETS, PLATFORM_MOMENTUM_CHOICES, RADIUS_SLIDER, SWITCHES, TUNABLES};

pub(super) fn ellipsoid(
    ui: &mut egui::Ui,
    state: &PanelState,
    body: &PlayerCharacterItem,
    tune: &mut MessageWriter<Tune>,
) {
    egui::CollapsingHeader::new("Ellipsoid")
        .default_open(true)
        .show(ui, |ui| {
            let config = &body.controller.config;
            let mut r = config.standing_radii;
            let mut lock = state.settings.0.lock_xz;
            if ui.checkbox(&mut lock, "lock x = z").changed() {
                tune.write(Tune::LockXz(lock));
            }
            let (lo, hi) = RADIUS_SLIDER;
            let mut changed = false;
            for (axis, name) in [(0, "x radius"), (1, "y radius (height / 2)"), (2, "z radius")] {
                let mut v = r[axis];
                let response = ui.add(
                    egui::Slider::new(&mut v, lo..=hi)
                        .text(name)
                        .suffix(" m")
                        .clamping(egui::SliderClamping::Never),
                );
                if response.changed() {
                    r[axis] = v;
                    if lock && axis != 1 {
                        r[2 - axis] = v;
                    }
                    changed = true;
                }
            }
            if changed {
                tune.write(Tune::Radii(r));
            }
            ui.small(format!(
                "crouched: {:.2} × {:.2} × {:.2} m (height ratio kept)",
                config.crouched_radii.x, config.crouched_radii.y, config.crouched_radii.z
            ));
        });
}

pub(super) fn gravity(ui: &mut egui::Ui, body: &PlayerCharacterItem, tune: &mut MessageWriter<Tune>) {
    egui::CollapsingHeader::new("Gravity")
        .default_open(true)
        .show(ui, |ui| {
            let g = body.controller.config.gravity;
            ui.horizontal(|ui| {
                for (k, (name, preset)) in GRAVITY_PRESETS.iter().enumerate() {
                    if ui
                        .selectable_label(g == *preset, *name)
                        .on_hover_text(format!("({}, {}, {}) m/s²", preset.x, preset.y, preset.z))
                        .clicked()
                    {
                        tune.write(Tune::GravityPreset(k));
                    }
                }
            });
            let mut magnitude = g.length();
            let mut direction = g.try_normalize().unwrap_or(-body.state.up);
            let mut changed = ui
                .add(
                    egui::Slider::new(&mut magnitude, 0.0..=30.0)
                        .text("magnitude")
                        .suffix(" m/s²")
                        .clamping(egui::SliderClamping::Never),
                )
                .on_hover_text("0 is weightless; \"up\" then stays as it was.")
                .changed();
            ui.horizontal(|ui| {
                ui.label("direction");
                for axis in 0..3 {
                    changed |= ui
                        .add(egui::DragValue::new(&mut direction[axis]).speed(0.02).range(-1.0..=1.0))
                        .changed();
                }
            });
            if changed {
                tune.write(Tune::Gravity(direction, magnitude));
            }
            ui.small(format!(
                "up = ({:.2}, {:.2}, {:.2})",
                body.state.up.x, body.state.up.y, body.state.up.z
            ));
        });
}

pub(super) fn tunables(ui: &mut egui::Ui, body: &PlayerCharacterItem, tune: &mut MessageWriter<Tune>) {
    egui::CollapsingHeader::new("Controller")
        .default_open(false)
        .show(ui, |ui| {
            let config = &body.controller.config;
            for t in TUNABLES {
                let mut v = t.get(config) as f64;
                let mut slider = egui::Slider::new(&mut v, t.slider_min as f64..=t.slider_max as f64)
                    .text(t.label)
                    .suffix(format!(" {}", t.unit))
                    .clamping(egui::SliderClamping::Never);
                if t.whole {
                    slider = slider.integer();
                }
                if t.slider_min > 0.0 && t.slider_max / t.slider_min > 1000.0 {
                    slider = slider.logarithmic(true);
                }
                let response = ui.add(slider).on_hover_text(t.help);
                if response.changed() {
                    tune.write(Tune::Value(t.key, v));
                }
            }
            for s in SWITCHES {
                let mut on = s.get(config);
                if ui.checkbox(&mut on, s.label).on_hover_text(s.help).changed() {
                    tune.write(Tune::Switch(s.key, on));
                }
            }
            ui.horizontal(|ui| {
                ui.label("platform momentum");
                for (m, help) in PLATFORM_MOMENTUM_CHOICES {
                    if ui
                        .radio(config.platform_momentum == m, m.name())
                        .on_hover_text(help)
                        .clicked()
                    {
                        tune.write(Tune::PlatformMomentum(m));
                    }
                }
            });
        });
}
