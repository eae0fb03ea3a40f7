//! slidewalk: a first-person demo of swept-ellipsoid collide-and-slide.
//!
//! For now the game opens a window on a lit placeholder scene; the collision
//! core it will drive lives in `crates/sweep`.

use bevy::prelude::*;

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "slidewalk".into(),
                ..default()
            }),
            ..default()
        }))
        .add_systems(Startup, placeholder_scene)
        .run();
}

/// A floor, a block and a light, seen from eye height (metres).
fn placeholder_scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::default().mesh().size(20.0, 20.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.45, 0.5, 0.45))),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(1.0, 1.0, 1.0))),
        MeshMaterial3d(materials.add(Color::srgb_u8(124, 144, 255))),
        Transform::from_xyz(0.0, 0.5, -3.0),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 8_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(4.0, 8.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 1.7, 3.0).looking_at(Vec3::new(0.0, 0.8, -3.0), Vec3::Y),
    ));
}
