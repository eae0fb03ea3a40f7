//! A first-person character on a floor with boxes, a ramp and stairs, all
//! Bevy primitives made solid with `Collider::mesh()`. WASD to walk, mouse
//! to look (click to grab the cursor, Esc to free it), Space to jump,
//! Ctrl to crouch, Shift to sprint.

use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions};
use bevy_slidewalk::prelude::*;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SlidewalkPlugin::default(), SlidewalkDebugPlugin))
        .add_plugins((scene, first_person))
        .run();
}

/// The floor, boxes, a ramp and stairs.
pub fn scene(app: &mut App) {
    app.add_systems(
        Startup,
        |mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>| {
            let grey = materials.add(Color::srgb(0.6, 0.6, 0.65));
            let mut solid = |mesh: Mesh, transform: Transform| {
                commands.spawn((
                    Mesh3d(meshes.add(mesh)),
                    MeshMaterial3d(grey.clone()),
                    transform,
                    Collider::mesh(),
                ));
            };
            solid(Cuboid::new(40.0, 1.0, 40.0).into(), Transform::from_xyz(0.0, -0.5, 0.0));
            for (x, size) in [(-6.0, 1.0), (-3.0, 2.0)] {
                solid(
                    Cuboid::from_length(size).into(),
                    Transform::from_xyz(x, size / 2.0, -6.0),
                );
            }
            // A 20° ramp, and stairs of 0.25 m risers.
            let ramp = Transform::from_xyz(4.0, 0.5, -6.0).with_rotation(Quat::from_rotation_x(20f32.to_radians()));
            solid(Cuboid::new(3.0, 0.2, 6.0).into(), ramp);
            for step in 0..8 {
                let h = 0.25 * (step + 1) as f32;
                solid(
                    Cuboid::new(3.0, h, 0.4).into(),
                    Transform::from_xyz(9.0, h / 2.0, -3.0 - 0.4 * step as f32),
                );
            }
            commands.spawn((
                DirectionalLight {
                    shadow_maps_enabled: true,
                    ..default()
                },
                Transform::from_xyz(3.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y),
            ));
        },
    );
}

/// A character with a camera at its eyes, moved by the keyboard and mouse.
pub fn first_person(app: &mut App) {
    app.add_systems(Startup, |mut commands: Commands| {
        commands
            .spawn((
                Name::new("player"),
                CharacterController::default(),
                Transform::from_xyz(0.0, 1.0, 4.0),
            ))
            .with_child((Camera3d::default(), Transform::from_xyz(0.0, 0.7, 0.0)));
    })
    .add_systems(Update, (look, walk).chain())
    .add_systems(FixedUpdate, turn_with_platform.after(SlidewalkSystems::Step));
}

/// A rotating platform turns the player standing on it.
fn turn_with_platform(mut player: Query<(&mut Transform, &MovementReport)>) {
    for (mut body, report) in &mut player {
        body.rotate_y(report.heading_delta);
    }
}

fn look(
    mouse: Res<AccumulatedMouseMotion>,
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut cursor: Query<&mut CursorOptions>,
    mut player: Query<(&mut Transform, &Children), With<CharacterController>>,
    mut eyes: Query<&mut Transform, (With<Camera3d>, Without<CharacterController>)>,
) {
    for mut c in &mut cursor {
        if buttons.just_pressed(MouseButton::Left) {
            (c.grab_mode, c.visible) = (CursorGrabMode::Locked, false);
        } else if keys.just_pressed(KeyCode::Escape) {
            (c.grab_mode, c.visible) = (CursorGrabMode::None, true);
        }
    }
    let delta = mouse.delta * -0.003;
    for (mut body, children) in &mut player {
        body.rotate_y(delta.x);
        let mut eyes = eyes.iter_many_mut(children.iter());
        while let Some(mut eye) = eyes.fetch_next() {
            let pitch = (eye.rotation.to_euler(EulerRot::YXZ).1 + delta.y).clamp(-1.5, 1.5);
            eye.rotation = Quat::from_rotation_x(pitch);
        }
    }
}

fn walk(keys: Res<ButtonInput<KeyCode>>, mut player: Query<(&Transform, &mut MovementIntent)>) {
    let axis = |neg, pos| (keys.pressed(pos) as i32 - keys.pressed(neg) as i32) as f32;
    let wish = Vec3::new(
        axis(KeyCode::KeyA, KeyCode::KeyD),
        0.0,
        axis(KeyCode::KeyW, KeyCode::KeyS),
    );
    for (body, mut intent) in &mut player {
        intent.direction = body.rotation * wish.normalize_or_zero();
        intent.jump |= keys.just_pressed(KeyCode::Space);
        intent.crouch = keys.pressed(KeyCode::ControlLeft);
        intent.sprint = keys.pressed(KeyCode::ShiftLeft);
    }
}
