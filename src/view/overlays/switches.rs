//! The overlays' gizmo groups (one per overlay, F8's crosshair is the
//! HUD's), their line styles, and switching them: F1–F9 ask for a change
//! (not while typing in the panel), the settings turn the groups on and off.

use crate::sim::tuning::{CurrentSettings, Tune};
use bevy::prelude::*;
use slidewalk_play::Overlay;

/// F1: contact points and normals.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ContactGizmos;
/// F2: slide-plane outlines (the fills are meshes, see `planes::SlideQuad`).
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct SlidePlaneGizmos;
/// F3: the ellipsoid and the velocities.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct EllipsoidGizmos;
/// F4: the trail.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct TrailGizmos;
/// F5: BVH nodes.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct BvhGizmos;
/// F6: door and lift colliders.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct MoverGizmos;
/// F7: the ground normal and slope.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct GroundGizmos;
/// F9: one-way surfaces, layered parts, sensors and trigger zones.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct FilterGizmos;

pub(super) fn plugin(app: &mut App) {
    app.init_gizmo_group::<ContactGizmos>()
        .init_gizmo_group::<SlidePlaneGizmos>()
        .init_gizmo_group::<EllipsoidGizmos>()
        .init_gizmo_group::<TrailGizmos>()
        .init_gizmo_group::<BvhGizmos>()
        .init_gizmo_group::<MoverGizmos>()
        .init_gizmo_group::<GroundGizmos>()
        .init_gizmo_group::<FilterGizmos>()
        .add_systems(Startup, configure_groups)
        .add_systems(Update, (toggle_keys, sync_groups).chain());
}

fn configure_groups(mut store: ResMut<GizmoConfigStore>) {
    // Contacts and the ground normal sit on surfaces: drawn on top.
    store.config_mut::<ContactGizmos>().0.depth_bias = -1.0;
    store.config_mut::<GroundGizmos>().0.depth_bias = -1.0;
    store.config_mut::<FilterGizmos>().0.line.width = 2.0;
    store.config_mut::<ContactGizmos>().0.line.width = 3.0;
    store.config_mut::<EllipsoidGizmos>().0.line.width = 2.5;
    store.config_mut::<TrailGizmos>().0.line.width = 3.0;
    store.config_mut::<GroundGizmos>().0.line.width = 3.0;
    store.config_mut::<BvhGizmos>().0.line.width = 1.0;
}

/// F1–F9 switch the overlays (not while typing in the panel).
fn toggle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    settings: Res<CurrentSettings>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut tune: MessageWriter<Tune>,
) {
    if egui_input.is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    const KEYS: [KeyCode; 9] = [
        KeyCode::F1,
        KeyCode::F2,
        KeyCode::F3,
        KeyCode::F4,
        KeyCode::F5,
        KeyCode::F6,
        KeyCode::F7,
        KeyCode::F8,
        KeyCode::F9,
    ];
    for (key, overlay) in KEYS.into_iter().zip(Overlay::ALL) {
        if keys.just_pressed(key) {
            tune.write(Tune::Overlay(overlay, !settings.0.shows(overlay)));
        }
    }
}

fn sync_groups(settings: Res<CurrentSettings>, mut store: ResMut<GizmoConfigStore>) {
    if !settings.is_changed() {
        return;
    }
    let s = &settings.0;
    store.config_mut::<ContactGizmos>().0.enabled = s.shows(Overlay::Contacts);
    store.config_mut::<SlidePlaneGizmos>().0.enabled = s.shows(Overlay::SlidePlanes);
    store.config_mut::<EllipsoidGizmos>().0.enabled = s.shows(Overlay::Ellipsoid);
    store.config_mut::<TrailGizmos>().0.enabled = s.shows(Overlay::Trail);
    store.config_mut::<BvhGizmos>().0.enabled = s.shows(Overlay::Bvh);
    store.config_mut::<MoverGizmos>().0.enabled = s.shows(Overlay::Movers);
    store.config_mut::<GroundGizmos>().0.enabled = s.shows(Overlay::Ground);
    store.config_mut::<FilterGizmos>().0.enabled = s.shows(Overlay::Filters);
}
