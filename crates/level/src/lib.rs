//! slidewalk levels: glTF files → colliders, and the level conventions
//! (doors, lifts, spawn points, no-collide nodes, friction) with how a door
//! responds to the player. No Bevy and no character controller: a game or
//! tool that reads levels depends on this crate and `sweep` only (the level
//! checker and the demo level generator are in `level_tools`).
//!
//! [`load`] reads a `.glb` or `.gltf` and returns a [`Level`]: one static
//! [`sweep::MeshCollider`] for all static geometry, one collider per door or
//! lift (in the mover's own frame, with its rest pose), spawn points,
//! per-triangle surfaces and the analytic colliders (exact planes and
//! cylinders for the balls). The conventions are in [`conventions`].
#![deny(missing_docs)]

mod buffers;
pub mod conventions;
mod doors;
mod draco;
mod error;
pub mod extensions;
mod level;
mod load;
pub mod spawn;

pub use doors::DoorControl;
pub use error::LevelError;
pub use level::{AnalyticCollider, Level, LoadReport, Mover, MoverKind, Spawn, Surface};
pub use load::{load, load_bytes};
