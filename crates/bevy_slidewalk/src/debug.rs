//! Debug drawing, an optional plugin: each character's ellipsoid (but the
//! one the camera looks out of), the contacts of its last tick with their
//! normals, and the planes its motion slid along, drawn with Bevy gizmos.

use crate::character::MovementState;
use crate::report::MovementReport;
use bevy::color::palettes::css;
use bevy::prelude::*;

/// Draws what the collision does, for every character: add it next to
/// [`SlidewalkPlugin`](crate::SlidewalkPlugin) (it needs Bevy's gizmos,
/// part of `DefaultPlugins`). Toggle each overlay, or all of them,
/// through [`SlidewalkGizmos`] in the `GizmoConfigStore`.
#[derive(Default)]
pub struct SlidewalkDebugPlugin;

/// The debug overlays' gizmo group: `enabled` in its `GizmoConfig` turns
/// all of them on or off, these fields each one.
#[derive(Clone, Reflect, GizmoConfigGroup)]
pub struct SlidewalkGizmos {
    /// The ellipsoid of each character (three outlines), except a
    /// character carrying the camera: seen from inside, it is a line
    /// across the view.
    pub ellipsoids: bool,
    /// The contacts of the last tick: a small sphere at the point, an arrow along the normal.
    pub contacts: bool,
    /// The planes the motion slid along: a square at each contact.
    pub slide_planes: bool,
}

impl Default for SlidewalkGizmos {
    fn default() -> Self {
        Self {
            ellipsoids: true,
            contacts: true,
            slide_planes: true,
        }
    }
}

impl Plugin for SlidewalkDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<SlidewalkGizmos>()
            .add_systems(PostUpdate, draw.before(TransformSystems::Propagate));
    }
}

fn draw(
    mut gizmos: Gizmos<SlidewalkGizmos>,
    store: Res<GizmoConfigStore>,
    characters: Query<(&MovementState, &MovementReport, &Transform, Option<&Children>)>,
    cameras: Query<(), With<Camera>>,
) {
    let (_, show) = store.config::<SlidewalkGizmos>();
    for (state, report, transform, children) in &characters {
        let r = state.radii;
        let centre = transform.translation;
        let seen_from_inside = children.is_some_and(|c| c.iter().any(|e| cameras.contains(e)));
        if show.ellipsoids && !seen_from_inside {
            let color = if report.grounded() { css::LIME } else { css::ORANGE };
            gizmos.ellipse(Isometry3d::from_translation(centre), Vec2::new(r.x, r.y), color);
            gizmos.ellipse(
                Isometry3d::new(centre, Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)),
                Vec2::new(r.z, r.y),
                color,
            );
            gizmos.ellipse(
                Isometry3d::new(centre, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
                Vec2::new(r.x, r.z),
                color,
            );
        }
        for c in report.tick.contacts.iter().map(|pc| &pc.contact) {
            if show.contacts {
                let color = if c.depenetration { css::RED } else { css::YELLOW };
                gizmos.sphere(Isometry3d::from_translation(c.point), 0.03, color);
                gizmos.arrow(c.point, c.point + c.normal * 0.4, color);
            }
            if show.slide_planes {
                let rotation = Quat::from_rotation_arc(Vec3::Z, c.plane.normal);
                gizmos.rect(Isometry3d::new(c.point, rotation), Vec2::splat(0.5), css::AQUA);
            }
        }
    }
}
