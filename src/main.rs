//! slidewalk: a first-person demo of swept-ellipsoid collide-and-slide.
//!
//! For now the game opens a window on the demo level (`assets/levels/
//! playground.glb`, drawn by Bevy's glTF loader) seen from its spawn point;
//! walking arrives with the character controller. The collision core lives
//! in `crates/sweep`, level loading in `crates/level`.

use bevy::prelude::*;

/// The level the game opens, relative to `assets/`.
const DEFAULT_LEVEL: &str = "levels/playground.glb";

/// Eye height above the spawn point's floor, metres.
const EYE_HEIGHT: f32 = 1.6;

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "slidewalk".into(),
                ..default()
            }),
            ..default()
        }))
        .insert_resource(GlobalAmbientLight {
            color: Color::WHITE,
            brightness: 300.0,
            ..default()
        })
        .add_systems(Startup, open_level)
        .run();
}

/// Spawns the level's scene, a sun, and the camera at the level's first spawn point.
fn open_level(mut commands: Commands, asset_server: Res<AssetServer>) {
    // The simulation's view of the same file: where to stand.
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(DEFAULT_LEVEL);
    let (eye, yaw) = match level::load(&file) {
        Ok(level) => level
            .spawns
            .first()
            .map_or((Vec3::new(0.0, EYE_HEIGHT, 0.0), 0.0), |s| {
                (s.position + Vec3::Y * EYE_HEIGHT, s.yaw)
            }),
        Err(e) => {
            error!("{e}");
            (Vec3::new(0.0, EYE_HEIGHT, 0.0), 0.0)
        }
    };
    commands.spawn(WorldAssetRoot(
        asset_server.load(GltfAssetLabel::Scene(0).from_asset(DEFAULT_LEVEL)),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 8_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(20.0, 40.0, 25.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Camera3d::default(),
        Transform::from_translation(eye).with_rotation(Quat::from_rotation_y(yaw) * Quat::from_rotation_x(-0.12)),
    ));
}
