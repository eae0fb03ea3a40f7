//! slidewalk levels: glTF files → colliders, and the level conventions
//! (doors, lifts, spawn points, no-collide nodes, friction) with how a door
//! responds to the player. No Bevy and no character controller: a game or
//! tool that reads levels depends on this crate and `sweep` only (the level
//! checker and the demo level generator are in `level_tools`).
//!
//! [`load`] reads a `.glb` or `.gltf` and returns a [`Level`]: one static
//! [`slidewalk_sweep::MeshCollider`] for all static geometry, one per
//! one-way, layered, climbable, launch-pad or conveyor static node
//! ([`StaticPart`]), one per door or lift (in the mover's own frame, with
//! its rest pose), the sensors (volumes that are not solid, [`Sensor`]),
//! the water volumes ([`WaterVolume`]), spawn points,
//! per-triangle surfaces and the analytic colliders (exact planes and
//! cylinders for the balls). The
//! conventions are in [`conventions`], the named collision layers and the
//! game's bodies' layers in [`layers`].
//!
//! # Example
//!
//! ```
//! use glam::Vec3;
//! use std::path::Path;
//! use slidewalk_sweep::{Ellipsoid, PlacedCollider};
//!
//! // The demo level (any .glb or .gltf; `load_bytes` reads one from memory).
//! let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
//! let level = slidewalk_level::load(&path).unwrap();
//! println!("{} static triangles, {} doors and lifts", level.statics.as_ref().unwrap().len(), level.movers.len());
//!
//! // Where the game starts a player, and the colliders at rest to sweep against.
//! let radii = Vec3::new(0.4, 0.9, 0.4);
//! let start = slidewalk_level::spawn::start_point(&level, radii, 45f32.to_radians().cos()).unwrap();
//! let colliders: Vec<PlacedCollider> = level.placed_at_rest();
//! let feet_up = start.position + Vec3::Y * (radii.y + 0.01);
//! assert_eq!(slidewalk_sweep::penetration_depth(&Ellipsoid::new(radii).unwrap(), feet_up, &colliders), 0.0);
//! ```
#![deny(missing_docs)]

mod buffers;
pub mod conventions;
mod doors;
mod draco;
mod error;
pub mod extensions;
pub mod layers;
mod level;
mod load;
mod parts;
pub mod spawn;

pub use conventions::{MAX_CONVEYOR_SPEED, MAX_LAUNCH_SPEED, SensorKind};
pub use doors::DoorControl;
pub use error::LevelError;
pub use layers::LAYER_NAMES;
pub use level::{AnalyticCollider, Level, LoadReport, Mover, MoverKind, Spawn, Surface};
pub use load::{load, load_bytes};
pub use parts::{Sensor, StaticPart, WaterVolume};
