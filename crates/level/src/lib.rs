//! slidewalk levels: glTF files → colliders, the level conventions (doors,
//! lifts, spawn points, no-collide nodes, friction), the demo level
//! generator and a level checker. No Bevy: loading, generation and checking
//! build and test in seconds.
//!
//! [`load`] reads a `.glb` or `.gltf` and returns a [`Level`]: one static
//! [`sweep::MeshCollider`] for all static geometry, one collider per door or
//! lift (in the mover's own frame, with its rest pose), spawn points,
//! per-triangle surfaces and the analytic colliders (exact planes and
//! cylinders for the balls). The conventions are in [`conventions`].
#![deny(missing_docs)]

mod buffers;
mod check;
pub mod conventions;
mod draco;
mod error;
pub mod extensions;
pub mod generate;
mod level;
mod load;
pub mod spawn;

pub use check::{AnalyticFit, CheckConfig, WalkReport, analytic_fit, penetration_tolerance, walk_level};
pub use error::LevelError;
pub use level::{AnalyticCollider, Level, LoadReport, Mover, MoverKind, Spawn, Surface};
pub use load::{load, load_bytes};
