//! The bouncing balls' section: their settings (checked by the
//! simulation), clear and drop buttons, and what their tick costs.

use crate::sim::balls::{BallControl, BallPit, MAX_BALLS_RANGE, RADIUS_RANGE, THROW_SPEED_RANGE};
use bevy::prelude::*;
use bevy_egui::egui;

/// The bouncing balls: their settings (checked by the simulation), clear
/// and drop buttons, and what their tick costs.
pub(super) fn balls(ui: &mut egui::Ui, pit: &BallPit, controls: &mut MessageWriter<BallControl>) {
    egui::CollapsingHeader::new("Balls").default_open(false).show(ui, |ui| {
        let mut s = pit.settings;
        let mut changed = false;
        let mut slider = |ui: &mut egui::Ui, v: &mut f32, range: std::ops::RangeInclusive<f32>, text: &str, suffix: &str, help: &str| {
            changed |= ui
                .add(
                    egui::Slider::new(v, range)
                        .text(text)
                        .suffix(suffix)
                        .clamping(egui::SliderClamping::Never),
                )
                .on_hover_text(help)
                .changed();
        };
        slider(ui, &mut s.radius, RADIUS_RANGE, "radius", " m", "Radius of the next balls thrown.");
        slider(
            ui,
            &mut s.restitution,
            0.0..=1.0,
            "restitution",
            "",
            "Bounciness: the share of the closing speed a bounce gives back (1: elastic, 0: dead).",
        );
        slider(
            ui,
            &mut s.friction,
            0.0..=1.0,
            "friction",
            "",
            "Coulomb friction of an impact: how much of the sliding speed a bounce takes (times the surface's own friction).",
        );
        slider(
            ui,
            &mut s.throw_speed,
            THROW_SPEED_RANGE,
            "throw speed",
            " m/s",
            "Speed of a throw held for a full second; a tap throws at 30% of it.",
        );
        let mut max = s.max_balls as f64;
        changed |= ui
            .add(
                egui::Slider::new(&mut max, *MAX_BALLS_RANGE.start() as f64..=*MAX_BALLS_RANGE.end() as f64)
                    .text("max balls")
                    .integer()
                    .logarithmic(true)
                    .clamping(egui::SliderClamping::Never),
            )
            .on_hover_text("Live balls at most; throwing more removes the oldest.")
            .changed();
        if changed {
            s.max_balls = if max.is_finite() && max >= 0.0 { max.round() as usize } else { 0 };
            controls.write(BallControl::Settings(s));
        }
        ui.horizontal(|ui| {
            if ui.button("Clear all (C)").clicked() {
                controls.write(BallControl::Clear);
            }
            if ui.button("Drop 50 (B)").clicked() {
                controls.write(BallControl::Rain(50));
            }
            if ui.button("Drop 1,000").clicked() {
                controls.write(BallControl::Rain(1000));
            }
        });
        let asleep = pit.simulation.balls.iter().filter(|b| b.asleep).count();
        ui.label(format!(
            "{} balls ({asleep} asleep) · balls' tick {:.0} µs · {} impacts",
            pit.simulation.balls.len(),
            pit.last_micros,
            pit.last_impacts
        ));
        ui.small("left click: throw (hold to throw harder)");
    });
}
