//! F6 the door (orange) and lift (cyan) colliders at their poses in the
//! tick shown (at rest before the first).

use super::switches::MoverGizmos;
use crate::sim::level::CurrentLevel;
use crate::sim::rewind::Rewind;
use bevy::color::palettes::css;
use bevy::prelude::*;
use slidewalk_level::MoverKind;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_movers.after(TransformSystems::Propagate));
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
