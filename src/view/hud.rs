//! The HUD (egui): a crosshair (F8), a small readout (grounded or not,
//! speed, the move under way — dashing, swimming, sliding, hanging, a hard
//! landing… — frames per second, the level's named sensors the player is
//! in; the panel can hide it), a brief flash of the screen on a hard
//! landing, the controls hint
//! (shown while the mouse is not grabbed, i.e. before playing and after
//! Esc), "paused" while the rewind holds the simulation, and the notices
//! (errors stay, notes fade).

use crate::notices::Notices;
use crate::sim::player::LocalPlayer;
use crate::sim::player::PlayerCharacter;
use crate::sim::rewind::Rewind;
use crate::sim::sensors::PlayerSensors;
use crate::sim::tuning::CurrentSettings;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, PrimaryWindow};
use bevy_egui::{EguiContexts, EguiPlugin, EguiPostUpdateSet, EguiPrimaryContextPass, egui};
use bevy_slidewalk::Landed;
use slidewalk_controller::{CharacterState, ControllerConfig, WaterLevel};

/// Seconds a note stays on screen.
const NOTE_S: f32 = 5.0;

/// Seconds the screen's flash on a hard landing takes to fade.
const FLASH_S: f32 = 0.3;

/// The controls, as shown on screen.
pub const CONTROLS: &str =
    "click: grab the mouse · mouse: look · WASD: walk · Space: jump (hold: higher) · Shift: sprint
Ctrl: crouch (while sprinting: slide) · Q: dash · X: drop through a platform · E: door · R: respawn · F: fly
into a wall in the air: slide, jump off it · into a ledge: mantle (falling past: hang) · into amber walls: climb
in water: swim where you look, Space up, Ctrl down · hold Space landing: bunny hop
Esc: release the mouse · drop a .glb/.gltf to open it · Tab: tuning panel · F1–F9: overlays
G: grid on textured levels · V: camera behind · F11: fullscreen
P: pause and rewind · left/right arrows: a tick back or on";

/// The widest the HUD box's wrapping lines (the paused line, notices) get
/// before they wrap, in points (less on a narrower window).
const WRAP_WIDTH: f32 = 560.0;

/// Frames per second, smoothed (the HUD and the panel show it).
#[derive(Resource, Default, Debug)]
pub struct FrameRate(pub f32);

/// Seconds left of the screen's flash after the local player's hard landing.
#[derive(Resource, Default, Debug)]
struct HardLandingFlash(f32);

pub(super) fn plugin(app: &mut App) {
    // bevy_egui writes newly drawn glyphs into its font atlas image in
    // PostUpdate; the render world re-uploads an image on the `Modified`
    // event that `AssetEventSystems` (also PostUpdate, unordered with it)
    // sends out. When the events went out first, the atlas reached the GPU
    // a frame late and glyphs new to that frame drew blank: digits went
    // missing from the HUD's changing figures ("in the air · . m/s").
    app.configure_sets(
        PostUpdate,
        EguiPostUpdateSet::PostProcessOutput.before(bevy::asset::AssetEventSystems),
    );
    app.add_plugins(EguiPlugin::default())
        .init_resource::<FrameRate>()
        .init_resource::<HardLandingFlash>()
        .add_systems(Update, (measure_frame_rate, age_notices, flash_on_hard_landings))
        .add_systems(EguiPrimaryContextPass, draw_hud);
}

fn measure_frame_rate(time: Res<Time<Real>>, mut fps: ResMut<FrameRate>) {
    let dt = time.delta_secs();
    if dt > 0.0 {
        let now = 1.0 / dt;
        fps.0 = if fps.0 == 0.0 {
            now
        } else {
            fps.0 + (now - fps.0) * 0.05
        };
    }
}

/// A hard landing of the local player starts the flash; it fades over
/// [`FLASH_S`] of real time (paused or not).
fn flash_on_hard_landings(
    mut landings: MessageReader<Landed>,
    local: Query<(), With<LocalPlayer>>,
    time: Res<Time<Real>>,
    mut flash: ResMut<HardLandingFlash>,
) {
    flash.0 = (flash.0 - time.delta_secs()).max(0.0);
    if landings.read().any(|l| l.hard && local.contains(l.character)) {
        flash.0 = FLASH_S;
    }
}

/// The moves the HUD names for `state` under `config`, in order: what is
/// under way (hanging, sliding, mantling, climbing, dashing, wall
/// sliding), the water (under water, swimming, in water) and a hard
/// landing's lag.
pub fn moves_shown(state: &CharacterState, config: &ControllerConfig) -> Vec<&'static str> {
    let m = &state.moves;
    let mut shown = Vec::new();
    if m.hang().is_some() {
        shown.push("hanging");
    } else if m.slide().is_some() {
        shown.push("sliding");
    } else if m.mantle().is_some() {
        shown.push("mantling");
    } else if m.climb().is_some() {
        shown.push("climbing");
    } else if m.dash().is_some() {
        shown.push("dashing");
    } else if m.wall.is_some_and(|w| w.sliding) {
        shown.push("wall sliding");
    }
    let swims = config.swim_speed > 0.0;
    match m.water {
        WaterLevel::Eyes => shown.push("under water"),
        WaterLevel::Waist if swims => shown.push("swimming"),
        WaterLevel::Dry => {}
        _ => shown.push("in water"),
    }
    if m.landing_lag > 0.0 {
        shown.push("hard landing");
    }
    shown
}

/// Notes fade after [`NOTE_S`]; errors stay.
fn age_notices(time: Res<Time>, mut notices: ResMut<Notices>) {
    let dt = time.delta_secs();
    for n in &mut notices.0 {
        n.age += dt;
    }
    notices.0.retain(|n| n.error || n.age < NOTE_S);
}

fn draw_hud(
    mut contexts: EguiContexts,
    // What the HUD lists: the notices, the named sensors the player is in.
    (notices, inside): (Res<Notices>, Res<PlayerSensors>),
    players: Query<PlayerCharacter, With<LocalPlayer>>,
    cursor: Single<&CursorOptions, With<PrimaryWindow>>,
    settings: Res<CurrentSettings>,
    rewind: Res<Rewind>,
    (fps, flash): (Res<FrameRate>, Res<HardLandingFlash>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if flash.0 > 0.0 {
        // Behind the HUD and the panel, over the whole view.
        let alpha = (110.0 * flash.0 / FLASH_S) as u8;
        let layer = egui::LayerId::new(egui::Order::Background, egui::Id::new("hard landing"));
        let tint = egui::Color32::from_rgba_unmultiplied(255, 235, 220, alpha);
        ctx.layer_painter(layer).rect_filled(ctx.content_rect(), 0.0, tint);
    }
    let wrap_width = WRAP_WIDTH.min(ctx.content_rect().width() - 40.0).max(120.0);
    // Crosshair.
    let centre = ctx.content_rect().center();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("crosshair")));
    let crosshair = settings.0.shows(slidewalk_play::Overlay::Crosshair) && !settings.0.third_person;
    for stroke in [
        egui::Stroke::new(4.0, egui::Color32::from_black_alpha(160)),
        egui::Stroke::new(2.0, egui::Color32::WHITE),
    ]
    .into_iter()
    .filter(|_| crosshair)
    {
        painter.line_segment([centre - egui::vec2(9.0, 0.0), centre + egui::vec2(9.0, 0.0)], stroke);
        painter.line_segment([centre - egui::vec2(0.0, 9.0), centre + egui::vec2(0.0, 9.0)], stroke);
    }
    egui::Area::new(egui::Id::new("hud"))
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(12.0, 12.0))
        .show(ctx, |ui| {
            let frame = egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(150))
                .inner_margin(8.0)
                .corner_radius(4.0);
            frame.show(ui, |ui| {
                ui.style_mut().visuals.override_text_color = Some(egui::Color32::WHITE);
                // An egui area lays its content out within the size its
                // content had the frame before: lines that appear after a
                // frame of shorter ones (the HUD line alone while the mouse
                // is grabbed, or nothing with the HUD off) would wrap into
                // a narrow column. They wrap at a set width instead.
                ui.set_max_width(wrap_width);
                if cursor.grab_mode == CursorGrabMode::None {
                    // Its own line breaks only.
                    ui.add(egui::Label::new(CONTROLS).wrap_mode(egui::TextWrapMode::Extend));
                }
                if rewind.paused {
                    ui.colored_label(
                        egui::Color32::from_rgb(255, 220, 120),
                        "paused: P resumes · left/right arrows step · Tab: the rewind slider",
                    );
                }
                if let Some(body) = players.iter().next().filter(|_| settings.0.hud) {
                    let v = body.state.world_velocity();
                    let moves: String = moves_shown(body.state, &body.controller.config)
                        .into_iter()
                        .map(|m| format!(" · {m}"))
                        .collect();
                    ui.label(format!(
                        "{} · {:.1} m/s{}{moves} · {:.0} fps",
                        if crate::sim::player::flying(body.controller) {
                            "flying"
                        } else if body.state.grounded() {
                            "grounded"
                        } else {
                            "in the air"
                        },
                        (v - body.state.up * v.dot(body.state.up)).length(),
                        if body.state.crouched { " · crouched" } else { "" },
                        fps.0
                    ));
                    if !inside.names.is_empty() {
                        ui.colored_label(
                            egui::Color32::from_rgb(255, 230, 90),
                            format!("in: {}", inside.names.join(", ")),
                        );
                    }
                }
                for n in &notices.0 {
                    let color = if n.error {
                        egui::Color32::from_rgb(255, 140, 120)
                    } else {
                        egui::Color32::from_rgb(200, 230, 255)
                    };
                    ui.colored_label(color, &n.text);
                }
            });
        });
    Ok(())
}
