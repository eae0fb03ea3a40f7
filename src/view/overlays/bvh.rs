//! F5 the BVH nodes a box over the tick's sweeps reaches, in the static
//! geometry and the doors and lifts at their poses (deeper = warmer).

use super::player::player_config;
use super::switches::BvhGizmos;
use crate::sim::level::CurrentLevel;
use crate::sim::player::{LocalPlayer, PlayerCharacter};
use crate::sim::rewind::Rewind;
use bevy::prelude::*;
use slidewalk_sweep::{Aabb, Pose};

/// BVH node boxes drawn at most.
const MAX_NODES: usize = 800;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_bvh.after(TransformSystems::Propagate));
}

/// A world box → the axis-aligned box around it in a collider's frame.
fn box_in_frame(b: &Aabb, pose: &Pose) -> Aabb {
    Aabb::from_points(b.corners().map(|p| pose.inverse_transform_point(p)))
}

fn draw_bvh(
    rewind: Res<Rewind>,
    current: Res<CurrentLevel>,
    players: Query<PlayerCharacter, With<LocalPlayer>>,
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
    let mut draw = |pose: &Pose, collider: &slidewalk_sweep::MeshCollider| {
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
