//! F7 the ground: its normal, the slope against the walkable limit (green
//! walkable, red too steep) and the limit's cone around "up".

use super::player::player_config;
use super::switches::GroundGizmos;
use crate::sim::player::{LocalPlayer, PlayerCharacter};
use crate::sim::rewind::Rewind;
use bevy::color::palettes::css;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_ground.after(TransformSystems::Propagate));
}

fn draw_ground(
    rewind: Res<Rewind>,
    players: Query<PlayerCharacter, With<LocalPlayer>>,
    mut gizmos: Gizmos<GroundGizmos>,
) {
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
