//! The camera: at the player's eyes, interpolated between fixed ticks
//! (nothing stutters at any display rate), with the height smoothed over
//! step-ups and step-downs (the view only; the collision stays exact) — or
//! behind the player (V), pulled in by a sweep so it never looks through a
//! wall, with the player's body (the ellipsoid) drawn. While the rewind
//! shows an earlier tick, the camera shows that tick. Over the network the
//! camera turns with the controls at once: the look the session has not
//! simulated yet (its input delay) is added to the simulated one.

use crate::sim::colliders::Colliders;
use crate::sim::input::{HeadingTakenIn, PlayerInput};
use crate::sim::player::{Controlled, LastTick, LocalPlayer, PlayerCharacter};
use crate::sim::rewind::Rewind;
use crate::sim::schedule::SimSet;
use crate::sim::tuning::CurrentSettings;
use bevy::prelude::*;
use bevy_slidewalk::MovementState;

/// How far behind the player the camera sits in the third-person view, metres.
const BEHIND: f32 = 3.5;
/// Radius of the sphere swept to pull the third-person camera in, metres.
const CAMERA_RADIUS: f32 = 0.2;

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
        .init_resource::<ShownPlayer>()
        .add_systems(Startup, spawn_camera)
        .add_systems(FixedUpdate, absorb_steps.after(SimSet::Player))
        .add_systems(
            PostUpdate,
            (show_player, follow_player, place_body)
                .chain()
                .before(TransformSystems::Propagate),
        );
}

/// Marks the player's body, drawn in the third-person view.
#[derive(Component, Debug)]
pub struct PlayerBody;

fn spawn_camera(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    // The body: a unit sphere scaled to the radii, seen from behind (V).
    commands.spawn((
        Name::new("player body"),
        PlayerBody,
        Mesh3d(meshes.add(Sphere::new(1.0).mesh().uv(32, 18))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.95, 0.93, 0.88),
            perceptual_roughness: 0.6,
            ..default()
        })),
        Transform::default(),
        Visibility::Hidden,
    ));
    commands.spawn((
        Name::new("camera"),
        PlayerCamera,
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection {
            fov: 75f32.to_radians(),
            ..default()
        }),
        super::lighting::fog(),
    ));
}

/// A step-up, snap or step-down moves the player along "up" at once: the
/// view keeps its height and catches up.
fn absorb_steps(mut smoothing: ResMut<StepSmoothing>, players: Query<(&LastTick, PlayerCharacter), With<LocalPlayer>>) {
    for (last, body) in &players {
        let r = &last.report;
        if (r.stepped || r.snapped) && !crate::sim::player::flying(body.controller) {
            let rise = (last.to - last.from).dot(body.state.up);
            smoothing.offset = (smoothing.offset - rise).clamp(-1.0, 1.0);
        }
    }
}

/// The player as the view shows it this frame: interpolated between the
/// last two ticks, or the tick the rewind picked.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct ShownPlayer {
    /// The ellipsoid's centre, metres.
    pub centre: Vec3,
    /// Its radii, metres.
    pub radii: Vec3,
    /// Against gravity.
    pub up: Vec3,
    /// Heading, radians.
    pub yaw: f32,
    /// Pitch, radians.
    pub pitch: f32,
}

fn show_player(
    rewind: Res<Rewind>,
    taken_in: Option<Res<HeadingTakenIn>>,
    players: Query<(&Transform, &MovementState, &PlayerInput), With<LocalPlayer>>,
    controls: Query<&PlayerInput, (With<Controlled>, Without<LocalPlayer>)>,
    mut shown: ResMut<ShownPlayer>,
) {
    let Some((drawn, state, input)) = players.iter().next() else {
        return;
    };
    *shown = match rewind.viewing.and_then(|i| rewind.history.get(i)) {
        Some(r) => {
            let s = &r.after.player;
            ShownPlayer {
                centre: s.position,
                radii: s.radii,
                up: s.up,
                yaw: r.input.yaw,
                pitch: r.pitch,
            }
        }
        None => {
            // Over the network, the controls' look not simulated yet too.
            let (yaw, pitch) = taken_in
                .map(|t| *t)
                .unwrap_or_default()
                .look(input, controls.iter().next());
            ShownPlayer {
                // Drawn by the plugin between the last two ticks.
                centre: drawn.translation,
                radii: state.radii,
                up: state.up,
                yaw,
                pitch,
            }
        }
    };
}

pub(super) fn follow_player(
    time: Res<Time>,
    rewind: Res<Rewind>,
    settings: Res<CurrentSettings>,
    colliders: Colliders,
    shown: Res<ShownPlayer>,
    mut smoothing: ResMut<StepSmoothing>,
    mut cameras: Query<&mut Transform, With<PlayerCamera>>,
) {
    smoothing.offset *= (-time.delta_secs() / SMOOTHING_S).exp();
    // The step smoothing is for live play only.
    let offset = if rewind.viewing.is_some() {
        0.0
    } else {
        smoothing.offset
    };
    let ShownPlayer {
        centre,
        radii,
        up,
        yaw,
        pitch,
    } = *shown;
    let eye = crate::sim::player::eye(centre, radii, up) + up * offset;
    let rotation = Quat::from_rotation_y(yaw) * Quat::from_rotation_x(pitch);
    let position = if settings.0.third_person {
        behind(eye, rotation, up, &colliders)
    } else {
        eye
    };
    for mut t in &mut cameras {
        t.translation = position;
        t.rotation = rotation;
    }
}

/// The body at the shown pose (the ellipsoid is aligned with the world's
/// axes, as the collision's), seen only from behind, and not while the
/// ellipsoid overlay (F3) draws it with the velocities inside.
fn place_body(
    shown: Res<ShownPlayer>,
    settings: Res<CurrentSettings>,
    mut bodies: Query<(&mut Transform, &mut Visibility), With<PlayerBody>>,
) {
    for (mut transform, mut visibility) in &mut bodies {
        *transform = Transform::from_translation(shown.centre).with_scale(shown.radii);
        let drawn = settings.0.third_person && !settings.0.shows(slidewalk_play::Overlay::Ellipsoid);
        visibility.set_if_neq(if drawn {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}

/// The third-person camera: behind and a little above the eyes, pulled in
/// where a wall is in the way.
fn behind(eye: Vec3, rotation: Quat, up: Vec3, colliders: &Colliders) -> Vec3 {
    let wanted = rotation * Vec3::Z * BEHIND + up * 0.6;
    let placed = colliders.placed();
    let sphere = slidewalk_sweep::Ellipsoid::sphere(CAMERA_RADIUS).expect("positive radius");
    let t = slidewalk_sweep::sweep(&sphere, eye, wanted, &placed).map_or(1.0, |hit| hit.time);
    eye + wanted * t
}

/// Centre-to-feet distance of an ellipsoid with `radii` along `up`, metres.
pub fn extent(radii: Vec3, up: Vec3) -> f32 {
    slidewalk_controller::frame::extent_along(radii, up)
}
