//! F4 the trail of the last 5 s up to the tick shown: green where the
//! player stood, pink in the air, fading with age, cut at a respawn.

use super::switches::TrailGizmos;
use crate::sim::rewind::Rewind;
use bevy::color::palettes::css;
use bevy::prelude::*;

/// Seconds of trail.
const TRAIL_S: f32 = 5.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, draw_trail.after(TransformSystems::Propagate));
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
