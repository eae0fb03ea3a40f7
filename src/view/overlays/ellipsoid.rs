//! F3 the ellipsoid: three great ellipses at the live radii (seen from
//! behind only, V) with the intended (white) and actual (cyan) velocity.

use super::switches::EllipsoidGizmos;
use crate::sim::player::LocalPlayer;
use crate::sim::rewind::Rewind;
use crate::sim::tuning::CurrentSettings;
use bevy::color::palettes::css;
use bevy::prelude::*;
use bevy_slidewalk::CharacterController;
use slidewalk_play::TickRecord;

/// Seconds of velocity per metre of arrow.
const ARROW_S: f32 = 0.25;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_ellipsoid.after(TransformSystems::Propagate));
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
    players: Query<(&CharacterController, &Transform), With<LocalPlayer>>,
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
        slidewalk_play::walk_direction(i.movement, i.yaw, s.up) * top
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
