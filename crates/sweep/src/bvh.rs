//! Bounding volume hierarchy over triangles: binned SAH build on several
//! threads into a binary tree, collapsed into 4-wide nodes whose children's
//! boxes are tested together (SIMD lanes); a closure-driven box query and a
//! swept-sphere query that visits the nearest nodes first and shrinks as
//! hits are found (the broad phase). A grid over a large tree gives each
//! query a node to start from below the root (bvh/entry.rs).
//!
//! The parts: `tree` (the [`Bvh`] type, its build and box queries),
//! `build` (the binned-SAH builder), `wide` (the 4-wide nodes), `entry`
//! (the entry grid) and `swept` (the swept-sphere walk). They import one
//! another only downwards, never this module.

mod build;
mod entry;
mod swept;
#[cfg(test)]
mod tests;
mod tree;
mod wide;

pub(crate) use build::Prim;
pub use tree::{Bvh, BvhStats, VisitedNode};
