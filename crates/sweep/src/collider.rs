//! `MeshCollider`: validated triangles in BVH order over shared vertices,
//! and `PlacedCollider`, a collider placed in the world by a rigid pose
//! (static level, door, lift).
//!
//! The parts: `mesh` (the collider, its queries and prefetching), `build`
//! (checking the triangles, the BVH and the shared-vertex layout),
//! `report` (what a build kept and rejected, and why it failed) and
//! `placed` (rigid poses and colliders placed by them). They import one
//! another only downwards, never this module.

mod build;
mod mesh;
mod placed;
mod report;
#[cfg(test)]
mod tests;

pub use mesh::MeshCollider;
pub use placed::{PlacedCollider, Pose};
pub use report::{BuildError, BuildReport};
