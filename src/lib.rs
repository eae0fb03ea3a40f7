//! slidewalk, the game: Bevy plugins around the engine-free crates — the
//! collision core (`sweep`), levels (`level`), the character controller
//! (`controller`) and the game rules (`play`).
//!
//! * [`sim`]: the simulation plugins (level, colliders, doors and lifts,
//!   player, scripts), in `FixedUpdate`, needing no renderer.
//! * [`view`]: what needs a window — drawing the level, camera, input,
//!   HUD, screenshots, recording.
//! * [`headless`]: running the simulation without a window from a script.
//!
//! Data flows one way each tick: input → intent → controller → transforms
//! → presentation.

pub mod headless;
pub mod notices;
pub mod sim;
pub mod view;
