//! F9 what the level filters: its one-way parts (the triangles that stop
//! a body green, with an arrow along the one-way direction; the others
//! faint), its layered parts (violet), its sensors (kill red, checkpoint
//! blue, named yellow) and each door's trigger zone (orange), so a level
//! designer sees where they are.

use super::switches::FilterGizmos;
use crate::sim::level::CurrentLevel;
use bevy::color::palettes::css;
use bevy::prelude::*;
use slidewalk_level::{MoverKind, SensorKind};
use slidewalk_sweep::MeshCollider;

/// Triangles drawn per part or sensor at most (a finely tessellated one
/// is drawn in part).
const MAX_TRIANGLES: usize = 4000;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_filters.after(TransformSystems::Propagate));
}

fn outline(gizmos: &mut Gizmos<FilterGizmos>, collider: &MeshCollider, colour: impl Into<Color> + Copy) {
    for [a, b, c] in collider.triangles().take(MAX_TRIANGLES) {
        gizmos.linestrip([a, b, c, a], colour);
    }
}

fn draw_filters(current: Res<CurrentLevel>, mut gizmos: Gizmos<FilterGizmos>) {
    let Some(level) = &current.level else { return };
    for part in &level.parts {
        let Some(up) = part.one_way else {
            outline(&mut gizmos, &part.collider, css::VIOLET);
            continue;
        };
        for [a, b, c] in part.collider.triangles().take(MAX_TRIANGLES) {
            let normal = (b - a).cross(c - a);
            if normal.dot(up) > 0.0 {
                gizmos.linestrip([a, b, c, a], css::LIME);
                let centre = (a + b + c) / 3.0;
                gizmos.arrow(centre, centre + up * 0.4, css::LIME);
            } else {
                gizmos.linestrip([a, b, c, a], css::DARK_GREEN.with_alpha(0.4));
            }
        }
    }
    for sensor in &level.sensors {
        let colour = match sensor.kind {
            SensorKind::Kill => css::RED,
            SensorKind::Checkpoint => css::DODGER_BLUE,
            SensorKind::Named(_) => css::YELLOW,
        };
        outline(&mut gizmos, &sensor.collider, colour);
    }
    for m in &level.movers {
        if let MoverKind::Door(spec) = m.kind {
            let zone = m
                .rest
                .transform_aabb(m.collider.bounds())
                .expand(Vec3::splat(spec.trigger_radius));
            let t = Transform::from_translation(zone.center()).with_scale(zone.size());
            gizmos.cube(t, css::ORANGE);
        }
    }
}
