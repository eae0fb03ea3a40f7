//! slidewalk, the game: Bevy plugins around the `bevy_slidewalk` plugin and
//! the engine-free crates — the collision core (`slidewalk_sweep`), levels
//! (`slidewalk_level`), the character controller (`slidewalk_controller`),
//! the game rules (`slidewalk_play`), the crowd and the balls.
//!
//! * [`sim`]: the simulation plugins (level, colliders, doors and lifts,
//!   player, scripts), in `FixedUpdate`, needing no renderer.
//! * [`view`]: what needs a window — drawing the level, camera, input,
//!   HUD, screenshots, recording.
//! * [`headless`]: running the simulation without a window from a script.
//!
//! Data flows one way each tick: input → intent → controller → transforms
//! → presentation. What a tick's outcome asks of the next (a ball's push,
//! a door that squeezed someone, a platform's turn) crosses at one named
//! place, [`sim::feedback::Feedback`], taken at the start of the next tick.

pub mod headless;
pub mod net;
pub mod notices;
pub mod sim;
pub mod view;
