//! The tuning panel (egui, Tab shows or hides it): first what the mission
//! names — the ellipsoid's radii, gravity with presets, the overlays — then
//! the view, the crowd, every controller tunable with its unit and a hover
//! explanation, the rewind (opened while paused), live readouts with
//! rolling plots, and the bouncing balls (size, bounce, friction, throw,
//! cap, tick time), the long sections collapsed until opened.
//! The panel only sends [`Tune`] and [`RewindRequest`] messages; the
//! simulation checks and applies them, and a refusal is shown here.

use super::hud::FrameRate;
use crate::sim::balls::{BallControl, BallPit, MAX_BALLS_RANGE, RADIUS_RANGE, THROW_SPEED_RANGE};
use crate::sim::crowd::{CrowdControl, CrowdSim};
use crate::sim::player::Player;
use crate::sim::player::{PlayerCharacter, PlayerCharacterItem};
use crate::sim::rewind::{Rewind, RewindRequest};
use crate::sim::schedule::SimTiming;
use crate::sim::tuning::{CurrentSettings, SettingsFile, Tune, TuningStatus};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Line, Plot};
use play::Overlay;
use play::tuning::{GRAVITY_PRESETS, RADIUS_SLIDER, TUNABLES};

/// Where "Save these ticks" writes (the panel's text field).
#[derive(Resource, Debug)]
struct SavePath(String);

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(SavePath("rewind.json".into()))
        .add_systems(EguiPrimaryContextPass, draw_panel);
}

/// Everything the panel reads, bundled.
#[derive(bevy::ecs::system::SystemParam)]
struct PanelState<'w, 's> {
    settings: Res<'w, CurrentSettings>,
    status: Res<'w, TuningStatus>,
    file: Res<'w, SettingsFile>,
    rewind: Res<'w, Rewind>,
    timing: Res<'w, SimTiming>,
    pit: Res<'w, BallPit>,
    crowd: Res<'w, CrowdSim>,
    fps: Res<'w, FrameRate>,
    fixed: Res<'w, Time<Fixed>>,
    players: Query<'w, 's, PlayerCharacter, With<Player>>,
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
            super::crowd::panel_section(ui, &state.crowd, &mut crowd_controls);
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

fn overlays(ui: &mut egui::Ui, state: &PanelState, tune: &mut MessageWriter<Tune>) {
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
fn view(ui: &mut egui::Ui, state: &PanelState, tune: &mut MessageWriter<Tune>) {
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

fn ellipsoid(ui: &mut egui::Ui, state: &PanelState, body: &PlayerCharacterItem, tune: &mut MessageWriter<Tune>) {
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

fn gravity(ui: &mut egui::Ui, body: &PlayerCharacterItem, tune: &mut MessageWriter<Tune>) {
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

fn tunables(ui: &mut egui::Ui, body: &PlayerCharacterItem, tune: &mut MessageWriter<Tune>) {
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
        });
}

/// The bouncing balls: their settings (checked by the simulation), clear
/// and drop buttons, and what their tick costs.
fn balls(ui: &mut egui::Ui, pit: &BallPit, controls: &mut MessageWriter<BallControl>) {
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

fn readouts(ui: &mut egui::Ui, state: &PanelState, body: &PlayerCharacterItem) {
    egui::CollapsingHeader::new("Readouts")
        .default_open(false)
        .show(ui, |ui| {
            let Some(r) = state.rewind.shown() else {
                ui.label("no tick yet");
                return;
            };
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
            let dt = state.fixed.timestep().as_secs_f64();
            let shown = state.rewind.shown_index().unwrap_or(0);
            let points = |f: &dyn Fn(&play::TickRecord) -> f64| -> Vec<[f64; 2]> {
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
        });
}

fn rewind(
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
