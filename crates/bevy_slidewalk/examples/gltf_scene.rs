//! Any glTF scene made solid with one line (`SolidScene`) and walked:
//! `cargo run -p bevy_slidewalk --example gltf_scene -- path/to/scene.glb`
//! (the slidewalk demo level without a path). The player drops in above
//! the middle of the scene once its meshes are solid; R drops it again.

use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::world_serialization::WorldAssetRoot;
use bevy_slidewalk::CollisionWorld;
use bevy_slidewalk::prelude::*;
use std::path::PathBuf;

#[path = "minimal.rs"]
#[allow(dead_code)]
mod minimal;

fn main() {
    let path = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(demo_level);
    let folder = path
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    App::new()
        .add_plugins(DefaultPlugins.set(AssetPlugin {
            file_path: folder,
            ..default()
        }))
        .add_plugins((SlidewalkPlugin::default(), SlidewalkDebugPlugin, minimal::first_person))
        .insert_resource(SceneFile(file))
        .add_plugins(solid_scene)
        .run();
}

/// The slidewalk demo level, in the workspace's `assets/`.
pub fn demo_level() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb")
}

/// The scene file, relative to the asset folder.
#[derive(Resource)]
pub struct SceneFile(pub String);

/// Spawns the scene, solid, and drops the player into it.
pub fn solid_scene(app: &mut App) {
    app.add_systems(Startup, spawn_scene).add_systems(Update, drop_player);
}

fn spawn_scene(file: Res<SceneFile>, assets: Res<AssetServer>, mut commands: Commands) {
    let scene = assets.load(GltfAssetLabel::Scene(0).from_asset(file.0.clone()));
    // The one line: every mesh of the scene becomes solid.
    commands.spawn((WorldAssetRoot(scene), SolidScene));
    commands.spawn((
        DirectionalLight::default(),
        Transform::from_xyz(2.0, 8.0, 3.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Once the scene is solid (and on R), puts the player above its middle.
fn drop_player(
    world: Res<CollisionWorld>,
    keys: Res<ButtonInput<KeyCode>>,
    mut dropped: Local<bool>,
    mut player: Query<(&CharacterController, &mut MovementState)>,
) {
    // Every mesh of the scene loaded and solid first.
    let Some(bounds) = world.bounds().filter(|_| world.waiting_for_meshes() == 0) else {
        return;
    };
    if *dropped && !keys.just_pressed(KeyCode::KeyR) {
        return;
    }
    *dropped = true;
    let middle = (bounds.min + bounds.max) / 2.0;
    for (character, mut state) in &mut player {
        state.teleport_feet(Vec3::new(middle.x, bounds.max.y + 0.1, middle.z), &character.config);
    }
}
