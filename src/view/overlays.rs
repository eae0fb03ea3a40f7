//! The debug overlays: one gizmo group per overlay, each switched by its
//! function key (F1–F8) and in the panel, all drawn from the tick shown —
//! the live one, or the one picked in the rewind — so a paused walk shows
//! what the collision did then:
//!
//! * F1 contacts: point and normal; colour by role (green ground, orange
//!   wall, blue ceiling, yellow step-up, magenta pushed out), shape by
//!   feature (ring: face, ball: edge, box: vertex);
//! * F2 slide planes: a translucent quad through each contact, fading over
//!   a second;
//! * F3 the ellipsoid (three great ellipses, live radii; seen from behind
//!   only, V) with the intended (white) and actual (cyan) velocity;
//! * F4 the trail of the last 5 s;
//! * F5 the BVH nodes a box over the tick's sweeps reaches (deeper = warmer);
//! * F6 the door (orange) and lift (cyan) colliders;
//! * F7 the ground normal, the slope against the walkable limit (green
//!   walkable, red too steep) and the limit's cone;
//! * F8 the crosshair (drawn by the HUD).

use crate::sim::level::CurrentLevel;
use crate::sim::player::Player;
use crate::sim::player::PlayerCharacter;
use crate::sim::rewind::Rewind;
use crate::sim::tuning::{CurrentSettings, Tune};
use bevy::color::palettes::css;
use bevy::prelude::*;
use bevy_slidewalk::CharacterController;
use controller::{ControllerConfig, Pass, PassContact};
use level::MoverKind;
use play::{Overlay, TickRecord};
use sweep::{Aabb, Feature, Pose};

/// F1: contact points and normals.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ContactGizmos;
/// F2: slide-plane outlines (the fills are meshes, see [`SlideQuad`]).
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

/// Seconds a slide plane takes to fade.
const PLANE_FADE_S: f32 = 1.0;
/// Side of a slide-plane quad, metres.
const PLANE_SIZE: f32 = 1.2;
/// Slide-plane quads drawn at most.
const MAX_PLANES: usize = 48;
/// Seconds of trail.
const TRAIL_S: f32 = 5.0;
/// Seconds of velocity per metre of arrow.
const ARROW_S: f32 = 0.25;
/// BVH node boxes drawn at most.
const MAX_NODES: usize = 800;

/// One slide-plane fill from the pool.
#[derive(Component, Debug)]
pub struct SlideQuad {
    material: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_gizmo_group::<ContactGizmos>()
        .init_gizmo_group::<SlidePlaneGizmos>()
        .init_gizmo_group::<EllipsoidGizmos>()
        .init_gizmo_group::<TrailGizmos>()
        .init_gizmo_group::<BvhGizmos>()
        .init_gizmo_group::<MoverGizmos>()
        .init_gizmo_group::<GroundGizmos>()
        .add_systems(Startup, (configure_groups, spawn_slide_quads))
        .add_systems(Update, (toggle_keys, sync_groups).chain())
        .add_systems(
            PostUpdate,
            (
                draw_contacts,
                draw_slide_planes,
                draw_ellipsoid,
                draw_trail,
                draw_bvh,
                draw_movers,
                draw_ground,
            )
                .after(TransformSystems::Propagate),
        );
}

fn configure_groups(mut store: ResMut<GizmoConfigStore>) {
    // Contacts and the ground normal sit on surfaces: drawn on top.
    store.config_mut::<ContactGizmos>().0.depth_bias = -1.0;
    store.config_mut::<GroundGizmos>().0.depth_bias = -1.0;
    store.config_mut::<ContactGizmos>().0.line.width = 3.0;
    store.config_mut::<EllipsoidGizmos>().0.line.width = 2.5;
    store.config_mut::<TrailGizmos>().0.line.width = 3.0;
    store.config_mut::<GroundGizmos>().0.line.width = 3.0;
    store.config_mut::<BvhGizmos>().0.line.width = 1.0;
}

fn spawn_slide_quads(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let mesh = meshes.add(Rectangle::new(PLANE_SIZE, PLANE_SIZE));
    for _ in 0..MAX_PLANES {
        let material = materials.add(StandardMaterial {
            base_color: Color::srgba(1.0, 0.6, 0.2, 0.0),
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            double_sided: true,
            cull_mode: None,
            ..default()
        });
        commands.spawn((
            Name::new("slide plane"),
            SlideQuad {
                material: material.clone(),
            },
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material),
            Transform::default(),
            Visibility::Hidden,
        ));
    }
}

/// F1–F8 switch the overlays (not while typing in the panel).
fn toggle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    settings: Res<CurrentSettings>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut tune: MessageWriter<Tune>,
) {
    if egui_input.is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    const KEYS: [KeyCode; 8] = [
        KeyCode::F1,
        KeyCode::F2,
        KeyCode::F3,
        KeyCode::F4,
        KeyCode::F5,
        KeyCode::F6,
        KeyCode::F7,
        KeyCode::F8,
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
}

/// Role of a contact, by pass and by its normal against "up".
fn role_colour(c: &PassContact, up: Vec3, cos_walkable: f32) -> Color {
    let n = c.contact.normal.dot(up);
    if c.contact.depenetration {
        css::MAGENTA.into()
    } else if matches!(c.pass, Pass::StepUp | Pass::StepForward | Pass::StepDown) {
        css::YELLOW.into()
    } else if n >= cos_walkable {
        css::LIME.into()
    } else if n < -0.3 {
        css::DODGER_BLUE.into()
    } else {
        css::ORANGE.into()
    }
}

/// The player's controller settings (the defaults before there is a player).
fn player_config(players: &Query<PlayerCharacter, With<Player>>) -> ControllerConfig {
    players
        .iter()
        .next()
        .map_or_else(ControllerConfig::default, |b| b.controller.config)
}

fn cos_walkable(players: &Query<PlayerCharacter, With<Player>>) -> f32 {
    player_config(players).walkable_slope_deg.to_radians().cos()
}

fn draw_contacts(
    rewind: Res<Rewind>,
    players: Query<PlayerCharacter, With<Player>>,
    mut gizmos: Gizmos<ContactGizmos>,
) {
    let Some(r) = rewind.shown() else { return };
    let up = r.after.player.up;
    let cos = cos_walkable(&players);
    for c in &r.report.contacts {
        let colour = role_colour(c, up, cos);
        let p = c.contact.point;
        let n = c.contact.normal;
        let facing = Quat::from_rotation_arc(Vec3::Z, n);
        match c.contact.feature {
            Feature::Face => {
                gizmos.circle(Isometry3d::new(p, facing), 0.06, colour);
            }
            Feature::Edge => {
                gizmos.sphere(Isometry3d::from_translation(p), 0.04, colour);
            }
            Feature::Vertex => {
                gizmos.cube(Transform::from_translation(p).with_scale(Vec3::splat(0.07)), colour);
            }
        }
        gizmos.arrow(p, p + n * 0.3, colour);
    }
}

/// The slide planes of the ticks in the last second up to the one shown,
/// newest first, with their age in seconds (near-duplicates dropped).
fn recent_planes(rewind: &Rewind, dt: f32, cos_walkable: f32) -> Vec<(Vec3, Vec3, f32, Color)> {
    let Some(shown) = rewind.shown_index() else {
        return Vec::new();
    };
    let up = rewind.shown().map_or(Vec3::Y, |r| r.after.player.up);
    let mut planes: Vec<(Vec3, Vec3, f32, Color)> = Vec::new();
    for (age_ticks, r) in rewind.history.iter().take(shown + 1).rev().enumerate() {
        let age = age_ticks as f32 * dt;
        if age > PLANE_FADE_S {
            break;
        }
        for c in &r.report.contacts {
            let (o, n) = (c.contact.plane.origin, c.contact.plane.normal);
            let seen = planes
                .iter()
                .any(|(po, pn, ..)| pn.dot(n) > 0.995 && (*po - o).dot(n).abs() < 0.02 && po.distance(o) < 0.4);
            if !seen && planes.len() < MAX_PLANES {
                planes.push((o, n, age, role_colour(c, up, cos_walkable)));
            }
        }
    }
    planes
}

fn draw_slide_planes(
    rewind: Res<Rewind>,
    settings: Res<CurrentSettings>,
    fixed: Res<Time<Fixed>>,
    players: Query<PlayerCharacter, With<Player>>,
    mut quads: Query<(&SlideQuad, &mut Transform, &mut Visibility)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut gizmos: Gizmos<SlidePlaneGizmos>,
) {
    let on = settings.0.shows(Overlay::SlidePlanes);
    let planes = if on {
        recent_planes(&rewind, fixed.timestep().as_secs_f32(), cos_walkable(&players))
    } else {
        Vec::new()
    };
    let mut planes = planes.into_iter();
    for (quad, mut transform, mut visibility) in &mut quads {
        let Some((origin, normal, age, colour)) = planes.next() else {
            if *visibility != Visibility::Hidden {
                *visibility = Visibility::Hidden;
            }
            continue;
        };
        let fade = 1.0 - age / PLANE_FADE_S;
        let rotation = Quat::from_rotation_arc(Vec3::Z, normal);
        // A hair off the surface, so the fill does not fight with it.
        *transform = Transform::from_translation(origin + normal * 0.01).with_rotation(rotation);
        *visibility = Visibility::Visible;
        if let Some(mut m) = materials.get_mut(&quad.material) {
            m.base_color = colour.with_alpha(0.35 * fade);
        }
        // Outlined while it is this tick's plane; the fills show the slide.
        if age == 0.0 {
            gizmos.rect(
                Isometry3d::new(origin + normal * 0.01, rotation),
                Vec2::splat(PLANE_SIZE),
                colour,
            );
        }
    }
}

/// The centre to draw the player at: where the plugin draws it when live
/// (as the camera), the tick's own when viewing the rewind.
fn shown_centre(rewind: &Rewind, r: &TickRecord, drawn: Option<&Transform>) -> Vec3 {
    match (rewind.viewing, drawn) {
        (None, Some(drawn)) => drawn.translation,
        _ => r.after.player.position,
    }
}

/// What F3 draws of the player: its outline (three great ellipses) only
/// when the camera is outside it (in first person the eye is inside the
/// ellipsoid, and each outline would be a line across the whole view),
/// and its intended (white) and actual (cyan) velocities as arrows from
/// the centre.
#[derive(Clone, Debug, PartialEq)]
pub struct EllipsoidOverlay {
    /// Draw the three outlines.
    pub outlines: bool,
    /// Arrows: from, to, colour.
    pub arrows: Vec<(Vec3, Vec3, Color)>,
}

/// F3 for a player at `centre` moving at `actual` (m/s) and asked for
/// `intended` (m/s), seen from behind (`third_person`) or from its eyes.
pub fn ellipsoid_overlay(centre: Vec3, third_person: bool, intended: Vec3, actual: Vec3) -> EllipsoidOverlay {
    let arrows = [(intended, Color::WHITE), (actual, Color::from(css::AQUA))]
        .into_iter()
        .filter(|(v, _)| v.length() > 0.01)
        .map(|(v, colour)| (centre, centre + v * ARROW_S, colour))
        .collect();
    EllipsoidOverlay {
        outlines: third_person,
        arrows,
    }
}

fn draw_ellipsoid(
    rewind: Res<Rewind>,
    settings: Res<CurrentSettings>,
    players: Query<(&CharacterController, &Transform), With<Player>>,
    mut gizmos: Gizmos<EllipsoidGizmos>,
) {
    let Some(r) = rewind.shown() else { return };
    let (body, drawn) = players.iter().next().unzip();
    let centre = shown_centre(&rewind, r, drawn);
    let s = &r.after.player;
    // Intended: the input's direction at the top speed for the stance.
    let intended = body.map_or(Vec3::ZERO, |body| {
        let i = &r.input;
        let top = body.config.top_speed(s.crouched, i.held.sprint);
        play::walk_direction(i.movement, i.yaw, s.up) * top
    });
    let overlay = ellipsoid_overlay(centre, settings.0.third_person, intended, s.world_velocity());
    if overlay.outlines {
        let radii = s.radii;
        let colour = Color::srgb(0.9, 0.9, 0.3);
        let quarter = std::f32::consts::FRAC_PI_2;
        for (rotation, half) in [
            (Quat::IDENTITY, Vec2::new(radii.x, radii.y)),
            (Quat::from_rotation_x(quarter), Vec2::new(radii.x, radii.z)),
            (Quat::from_rotation_y(quarter), Vec2::new(radii.z, radii.y)),
        ] {
            gizmos
                .ellipse(Isometry3d::new(centre, rotation), half, colour)
                .resolution(48);
        }
    }
    for (from, to, colour) in overlay.arrows {
        gizmos.arrow(from, to, colour);
    }
}

fn draw_trail(rewind: Res<Rewind>, fixed: Res<Time<Fixed>>, mut gizmos: Gizmos<TrailGizmos>) {
    let Some(shown) = rewind.shown_index() else { return };
    let dt = fixed.timestep().as_secs_f32();
    let keep = (TRAIL_S / dt) as usize;
    let first = shown.saturating_sub(keep);
    let mut points: Vec<(Vec3, Color)> = Vec::new();
    let mut previous: Option<Vec3> = None;
    for (k, r) in rewind.history.iter().enumerate().skip(first).take(shown + 1 - first) {
        let feet = r.after.player.feet();
        // A respawn is a cut.
        if previous.is_some_and(|p| p.distance(feet) > 5.0) {
            gizmos.linestrip_gradient(std::mem::take(&mut points));
        }
        previous = Some(feet);
        let age = (shown - k) as f32 / keep.max(1) as f32;
        let colour = if r.after.player.grounded() {
            css::LIME
        } else {
            css::HOT_PINK
        };
        points.push((
            feet + r.after.player.up * 0.02,
            Color::from(colour).with_alpha(1.0 - 0.85 * age),
        ));
    }
    gizmos.linestrip_gradient(points);
}

/// A world box → the axis-aligned box around it in a collider's frame.
fn box_in_frame(b: &Aabb, pose: &Pose) -> Aabb {
    Aabb::from_points(b.corners().map(|p| pose.inverse_transform_point(p)))
}

fn draw_bvh(
    rewind: Res<Rewind>,
    current: Res<CurrentLevel>,
    players: Query<PlayerCharacter, With<Player>>,
    mut gizmos: Gizmos<BvhGizmos>,
) {
    let Some(level) = &current.level else { return };
    let Some(i) = rewind.shown_index() else { return };
    let Some(r) = rewind.history.get(i) else { return };
    let s = &r.after.player;
    let before = i
        .checked_sub(1)
        .and_then(|p| rewind.history.get(p))
        .map_or(s.position, |p| p.after.player.position);
    // Every pass of the tick sweeps within this box: the motion, the radii,
    // and the step-up and snap reach along "up".
    let config = player_config(&players);
    let reach = config.step_height + config.snap_distance;
    let swept = Aabb::from_corners(before.min(s.position), before.max(s.position)).expand(s.radii + Vec3::splat(reach));
    let mut drawn = 0;
    let mut draw = |pose: &Pose, collider: &sweep::MeshCollider| {
        collider.trace_query(&box_in_frame(&swept, pose), |node| {
            if !node.overlaps || drawn >= MAX_NODES {
                return;
            }
            drawn += 1;
            let warm = (node.depth as f32 / 16.0).min(1.0);
            let colour = if node.leaf {
                Color::srgba(1.0, 0.3 + 0.4 * (1.0 - warm), 0.2, 0.9)
            } else {
                Color::srgba(0.3 + 0.7 * warm, 0.5, 1.0 - 0.6 * warm, 0.5)
            };
            let b = node.bounds;
            let t = Transform::from_translation(pose.transform_point(b.center()))
                .with_rotation(pose.rotation)
                .with_scale(b.size().max(Vec3::splat(1e-3)));
            gizmos.cube(t, colour);
        });
    };
    if let Some(statics) = &level.statics {
        draw(&Pose::IDENTITY, statics);
    }
    for (m, pose) in level.movers.iter().zip(&r.after.mover_poses) {
        draw(pose, &m.collider);
    }
}

fn draw_movers(rewind: Res<Rewind>, current: Res<CurrentLevel>, mut gizmos: Gizmos<MoverGizmos>) {
    let Some(level) = &current.level else { return };
    let poses = rewind
        .shown()
        .map(|r| r.after.mover_poses.as_slice())
        .unwrap_or_default();
    for (k, m) in level.movers.iter().enumerate() {
        let pose = poses.get(k).copied().unwrap_or(m.rest);
        let colour = match m.kind {
            MoverKind::Door(_) => css::ORANGE,
            MoverKind::Lift(_) => css::AQUA,
        };
        for t in m.collider.triangles().take(5000) {
            let [a, b, c] = t.map(|p| pose.transform_point(p));
            gizmos.linestrip([a, b, c, a], colour);
        }
    }
}

fn draw_ground(rewind: Res<Rewind>, players: Query<PlayerCharacter, With<Player>>, mut gizmos: Gizmos<GroundGizmos>) {
    let Some(r) = rewind.shown() else { return };
    let s = &r.after.player;
    let Some(g) = s.ground else { return };
    let limit = player_config(&players).walkable_slope_deg;
    let slope = g.normal.dot(s.up).clamp(-1.0, 1.0).acos().to_degrees();
    let colour: Color = if slope <= limit + 1e-3 {
        css::LIME.into()
    } else {
        css::RED.into()
    };
    let p = g.point;
    gizmos.arrow(p, p + g.normal * 0.8, colour);
    gizmos.arrow(p, p + s.up * 0.8, Color::WHITE.with_alpha(0.6));
    if slope > 0.5 {
        gizmos.short_arc_3d_between(p, p + s.up * 0.5, p + g.normal * 0.5, colour);
    }
    // The walkable limit as a cone around "up".
    let (sin, cos) = limit.to_radians().sin_cos();
    gizmos.circle(
        Isometry3d::new(p + s.up * 0.6 * cos, Quat::from_rotation_arc(Vec3::Z, s.up)),
        0.6 * sin,
        Color::WHITE.with_alpha(0.35),
    );
}
