//! The first-person camera: at the player's eyes, interpolated between
//! fixed ticks (nothing stutters at any display rate), with the height
//! smoothed over step-ups and step-downs (the view only; the collision stays
//! exact).

use crate::sim::SimSet;
use crate::sim::player::{CharacterController, LastTick, Player, PlayerInput};
use bevy::prelude::*;

/// Eyes above the feet, as a fraction of the ellipsoid's height (1.6 m of 1.8 m).
const EYE_FRACTION: f32 = 0.89;

/// Time constant of the height smoothing, seconds.
const SMOOTHING_S: f32 = 0.08;

/// The view's height offset left to catch up after a step, metres.
#[derive(Resource, Default, Debug)]
pub struct StepSmoothing {
    /// Offset along "up", metres (decays to zero).
    pub offset: f32,
}

/// Marks the first-person camera.
#[derive(Component, Debug)]
pub struct PlayerCamera;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StepSmoothing>()
        .add_systems(Startup, spawn_camera)
        .add_systems(FixedUpdate, absorb_steps.after(SimSet::Player))
        .add_systems(PostUpdate, follow_player.before(TransformSystems::Propagate));
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("camera"),
        PlayerCamera,
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection {
            fov: 75f32.to_radians(),
            ..default()
        }),
        DistanceFog {
            color: Color::srgb(0.62, 0.74, 0.86),
            falloff: FogFalloff::Linear {
                start: 60.0,
                end: 160.0,
            },
            ..default()
        },
    ));
}

/// A step-up, snap or step-down moves the player along "up" at once: the
/// view keeps its height and catches up.
fn absorb_steps(mut smoothing: ResMut<StepSmoothing>, players: Query<(&LastTick, &CharacterController), With<Player>>) {
    for (last, body) in &players {
        let r = &last.report;
        if (r.stepped || r.snapped) && !body.flying {
            let rise = (last.to - last.from).dot(body.state.up);
            smoothing.offset = (smoothing.offset - rise).clamp(-1.0, 1.0);
        }
    }
}

fn follow_player(
    time: Res<Time>,
    fixed: Res<Time<Fixed>>,
    mut smoothing: ResMut<StepSmoothing>,
    players: Query<(&LastTick, &CharacterController, &PlayerInput), With<Player>>,
    mut cameras: Query<&mut Transform, With<PlayerCamera>>,
) {
    smoothing.offset *= (-time.delta_secs() / SMOOTHING_S).exp();
    let Some((last, body, input)) = players.iter().next() else {
        return;
    };
    let up = body.state.up;
    let centre = last.from.lerp(last.to, fixed.overstep_fraction());
    let height = 2.0 * crate::view::camera::extent(body.state.radii, up);
    let eye = centre - up * (height / 2.0) + up * (height * EYE_FRACTION + smoothing.offset);
    for mut t in &mut cameras {
        t.translation = eye;
        t.rotation = Quat::from_rotation_y(input.yaw) * Quat::from_rotation_x(input.pitch);
    }
}

/// Centre-to-feet distance of an ellipsoid with `radii` along `up`, metres.
pub fn extent(radii: Vec3, up: Vec3) -> f32 {
    controller::frame::extent_along(radii, up)
}
