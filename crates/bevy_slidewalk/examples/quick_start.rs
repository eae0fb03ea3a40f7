//! The quick start: a floor, a step, a light, and a character you walk
//! with WASD, turn with the mouse and jump with Space.

use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy_slidewalk::prelude::*;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SlidewalkPlugin::default()))
        .add_systems(Startup, setup)
        .add_systems(Update, (look, walk))
        .run();
}

// (`pub` only so that the crate's tests can run these systems headless.)
pub fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    // Anything drawn with a mesh becomes solid with `SlidewalkCollider::mesh()`.
    let grey = materials.add(Color::srgb(0.6, 0.6, 0.65));
    let mut solid = |size: Vec3, at: Vec3| {
        let mesh = Mesh3d(meshes.add(Cuboid::from_size(size)));
        commands.spawn((
            mesh,
            MeshMaterial3d(grey.clone()),
            Transform::from_translation(at),
            SlidewalkCollider::mesh(),
        ));
    };
    solid(Vec3::new(40.0, 1.0, 40.0), Vec3::new(0.0, -0.5, 0.0)); // the floor
    solid(Vec3::new(4.0, 0.25, 2.0), Vec3::new(0.0, 0.125, -6.0)); // a step
    let sun = Transform::from_xyz(3.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y);
    commands.spawn((DirectionalLight::default(), sun));
    // The character (its transform is the ellipsoid's centre), the camera at its eyes.
    let character = CharacterController::default();
    commands
        .spawn((character.transform_at_feet(Vec3::ZERO), character))
        .with_child((Camera3d::default(), Transform::from_xyz(0.0, 0.7, 0.0)));
}

/// The mouse turns the character and tilts the camera.
pub fn look(
    mouse: Res<AccumulatedMouseMotion>,
    mut body: Query<&mut Transform, With<CharacterController>>,
    mut eyes: Query<&mut Transform, (With<Camera3d>, Without<CharacterController>)>,
) {
    let turn = mouse.delta * -0.003;
    for mut body in &mut body {
        body.rotate_y(turn.x);
    }
    for mut eyes in &mut eyes {
        let pitch = (eyes.rotation.to_euler(EulerRot::YXZ).1 + turn.y).clamp(-1.5, 1.5);
        eyes.rotation = Quat::from_rotation_x(pitch);
    }
}

/// The keys become the character's intent; the plugin moves it each tick.
pub fn walk(keys: Res<ButtonInput<KeyCode>>, mut body: Query<(&Transform, &mut MovementIntent)>) {
    let axis = |neg, pos| (keys.pressed(pos) as i32 - keys.pressed(neg) as i32) as f32;
    let wish = Vec3::new(
        axis(KeyCode::KeyA, KeyCode::KeyD),
        0.0,
        axis(KeyCode::KeyW, KeyCode::KeyS),
    );
    for (body, mut intent) in &mut body {
        intent.direction = body.rotation * wish.normalize_or_zero();
        intent.jump |= keys.just_pressed(KeyCode::Space);
    }
}
