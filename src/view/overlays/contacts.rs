//! F1 contacts: each contact of the tick shown, its point and normal,
//! coloured by role (green ground, orange wall, blue ceiling, yellow
//! step-up, magenta pushed out), shaped by feature (ring: face, ball:
//! edge, box: vertex).

use super::player::cos_walkable;
use super::switches::ContactGizmos;
use crate::sim::player::{LocalPlayer, PlayerCharacter};
use crate::sim::rewind::Rewind;
use bevy::color::palettes::css;
use bevy::prelude::*;
use slidewalk_controller::{Pass, PassContact};
use slidewalk_sweep::Feature;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_contacts.after(TransformSystems::Propagate));
}

/// Role of a contact, by pass and by its normal against "up".
pub(super) fn role_colour(c: &PassContact, up: Vec3, cos_walkable: f32) -> Color {
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

fn draw_contacts(
    rewind: Res<Rewind>,
    players: Query<PlayerCharacter, With<LocalPlayer>>,
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
