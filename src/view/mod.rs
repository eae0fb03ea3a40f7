//! What needs a window: drawing the level (Bevy's glTF scene with the
//! prototype grid from `shaders/`), the crowd, the balls and their explosions, light, the camera, keyboard and mouse
//! input, the HUD and on-screen errors, the debug overlays, the tuning
//! panel, the window itself, screenshots. Added only with a window; the simulation
//! never reads back (the panel sends it messages).

pub mod balls;
pub mod camera;
pub mod capture;
pub mod crowd;
pub mod errors;
pub mod grid;
pub mod hud;
pub mod input;
pub mod lighting;
pub mod overlays;
pub mod panel;
pub mod scene;
pub mod shaders;
#[cfg(feature = "audio")]
pub mod sound;
pub mod window;

use bevy::asset::io::AssetSourceBuilder;
use bevy::log::LogPlugin;
use bevy::prelude::*;

/// The asset source that reads any file on disk by its absolute path
/// (`disk://home/me/level.glb`), so `--level` and dropped files need not
/// be under `assets/`.
pub const DISK_SOURCE: &str = "disk";

/// Bevy's default plugins with a resizable window titled "slidewalk"
/// (vsync on until the settings say otherwise), logged errors passed to
/// the screen, and the `disk` asset source.
pub fn window_plugins(app: &mut App) {
    app.register_asset_source(DISK_SOURCE, AssetSourceBuilder::platform_default("/", None));
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "slidewalk".into(),
                    resizable: true,
                    present_mode: window::present_mode(true),
                    ..default()
                }),
                ..default()
            })
            .set(LogPlugin {
                custom_layer: errors::capture_layer,
                ..default()
            }),
    );
}

/// All view plugins.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        shaders::plugin,
        errors::plugin,
        lighting::plugin,
        grid::plugin,
        window::plugin,
        scene::plugin,
        camera::plugin,
        input::plugin,
        hud::plugin,
        overlays::plugin,
        panel::plugin,
        capture::plugin,
        balls::plugin,
        crowd::plugin,
    ));
    #[cfg(feature = "audio")]
    app.add_plugins(sound::plugin);
}
