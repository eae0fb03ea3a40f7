//! What needs a window: drawing the level (Bevy's glTF scene with the
//! prototype grid from `shaders/`), the crowd, the balls and their explosions, light, the camera, keyboard, mouse
//! and gamepad input, the HUD and on-screen errors, the debug overlays, the tuning
//! panel, the window itself, screenshots. Added only with a window; the simulation
//! never reads back (the panel sends it messages).

pub mod balls;
pub mod camera;
pub mod capture;
pub mod crowd;
pub mod errors;
pub mod gamepad;
pub mod grid;
pub mod hud;
pub mod input;
pub mod lighting;
pub mod others;
pub mod overlays;
pub mod panel;
pub mod scene;
pub mod shaders;
#[cfg(feature = "audio")]
pub mod sound;
pub mod window;

use bevy::prelude::*;

/// All view plugins (Bevy's own, with the window, are
/// [`window::window_plugins`]).
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
        gamepad::plugin,
        hud::plugin,
        overlays::plugin,
        panel::plugin,
        capture::plugin,
        balls::plugin,
        crowd::plugin,
    ));
    app.add_plugins(others::plugin);
    #[cfg(feature = "audio")]
    app.add_plugins(sound::plugin);
}
