//! A first-person character on a floor with boxes, a ramp and stairs, all
//! Bevy primitives made solid with `SlidewalkCollider::mesh()`. WASD to
//! walk, mouse to look (click to grab the cursor, Esc to free it), Space to
//! jump, Ctrl to crouch, Shift to sprint. A gamepad walks too: left stick,
//! south button (A / ✕) to jump.

use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions};
use bevy_slidewalk::prelude::*;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SlidewalkPlugin::default(), SlidewalkDebugPlugin))
        .add_plugins(first_person)
        .add_systems(Startup, scene)
        .run();
}

/// The floor, boxes, a ramp and stairs.
pub fn scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let grey = materials.add(Color::srgb(0.6, 0.6, 0.65));
    // A box of `size` metres centred at `at`, tilted about x by `tilt` degrees: drawn and solid.
    let mut solid = |size: Vec3, at: Vec3, tilt: f32| {
        let place = Transform::from_translation(at).with_rotation(Quat::from_rotation_x(tilt.to_radians()));
        let mesh = Mesh3d(meshes.add(Cuboid::from_size(size)));
        commands.spawn((mesh, MeshMaterial3d(grey.clone()), place, SlidewalkCollider::mesh()));
    };
    solid(Vec3::new(40.0, 1.0, 40.0), Vec3::new(0.0, -0.5, 0.0), 0.0);
    solid(Vec3::splat(1.0), Vec3::new(-6.0, 0.5, -6.0), 0.0);
    solid(Vec3::splat(2.0), Vec3::new(-3.0, 1.0, -6.0), 0.0);
    // A 20° ramp, and stairs of 0.25 m risers.
    solid(Vec3::new(3.0, 0.2, 6.0), Vec3::new(4.0, 0.5, -6.0), 20.0);
    for step in 0..8 {
        let (h, z) = (0.25 * (step + 1) as f32, -3.0 - 0.4 * step as f32);
        solid(Vec3::new(3.0, h, 0.4), Vec3::new(9.0, h / 2.0, z), 0.0);
    }
    let sun = Transform::from_xyz(3.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y);
    commands.spawn((DirectionalLight::default(), sun));
}

/// A character with a camera at its eyes, moved by the keyboard and mouse
/// (and a gamepad's left stick and south button).
pub fn first_person(app: &mut App) {
    app.add_systems(Startup, |mut commands: Commands| {
        // Feet on the floor 4 m back; the transform is the ellipsoid's
        // centre, the eyes 0.7 m above it.
        let body = CharacterController::default();
        commands
            .spawn((body.transform_at_feet(Vec3::new(0.0, 0.0, 4.0)), body))
            .with_child((Camera3d::default(), Transform::from_xyz(0.0, 0.7, 0.0)));
    })
    .add_systems(Update, (look, walk).chain());
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

fn walk(
    keys: Res<ButtonInput<KeyCode>>,
    gamepads: Query<&Gamepad>,
    mut player: Query<(&Transform, &mut MovementIntent)>,
) {
    let axis = |neg, pos| (keys.pressed(pos) as i32 - keys.pressed(neg) as i32) as f32;
    let (x, z) = (axis(KeyCode::KeyA, KeyCode::KeyD), axis(KeyCode::KeyW, KeyCode::KeyS));
    // The left stick (up is +y) past a small dead zone; its tilt is the speed.
    let stick: Vec2 = gamepads.iter().map(Gamepad::left_stick).sum();
    let stick = if stick.length() > 0.15 { stick } else { Vec2::ZERO };
    let wish = (Vec3::new(x, 0.0, z).normalize_or_zero() + Vec3::new(stick.x, 0.0, -stick.y)).clamp_length_max(1.0);
    let pad_jump = gamepads.iter().any(|g| g.just_pressed(GamepadButton::South));
    for (body, mut intent) in &mut player {
        intent.direction = body.rotation * wish;
        intent.jump |= keys.just_pressed(KeyCode::Space) || pad_jump;
        intent.crouch = keys.pressed(KeyCode::ControlLeft);
        intent.sprint = keys.pressed(KeyCode::ShiftLeft);
    }
}
