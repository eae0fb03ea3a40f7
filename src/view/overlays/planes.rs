//! F2 slide planes: a translucent quad through each contact's plane of
//! the ticks in the last second up to the one shown, fading over that
//! second, this tick's outlined. The quads are a pool of meshes.

use super::contacts::role_colour;
use super::player::cos_walkable;
use super::switches::SlidePlaneGizmos;
use crate::sim::player::{LocalPlayer, PlayerCharacter};
use crate::sim::rewind::Rewind;
use crate::sim::tuning::CurrentSettings;
use bevy::prelude::*;
use slidewalk_play::Overlay;

/// Seconds a slide plane takes to fade.
const PLANE_FADE_S: f32 = 1.0;
/// Side of a slide-plane quad, metres.
const PLANE_SIZE: f32 = 1.2;
/// Slide-plane quads drawn at most.
const MAX_PLANES: usize = 48;

/// One slide-plane fill from the pool.
#[derive(Component, Debug)]
pub struct SlideQuad {
    material: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_slide_quads)
        .add_systems(PostUpdate, draw_slide_planes.after(TransformSystems::Propagate));
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
    players: Query<PlayerCharacter, With<LocalPlayer>>,
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
