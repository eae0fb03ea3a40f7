//! The level generator: builds the demo levels in code and writes them as
//! binary glTF (`cargo run -p level --bin make-levels`). The output is a
//! pure function of this code: the same bytes on every run (no hash-map
//! iteration, no timestamps, shortest float formatting, trigonometry in f64).
//!
//! The generated files are committed under `assets/levels/`; a test checks
//! that they match what the generator produces now.

mod glb;
pub mod magic_room;
mod mesh;
pub mod playground;

pub use glb::{Document, MaterialDef, NodeDef};
pub use mesh::MeshData;

/// A generated level file.
#[derive(Clone, Copy, Debug)]
pub struct GeneratedLevel {
    /// File name under `assets/levels/`.
    pub file: &'static str,
    /// Produces the file's bytes (GLB).
    pub generate: fn() -> Vec<u8>,
}

/// Every generated level.
pub const LEVELS: &[GeneratedLevel] = &[
    GeneratedLevel {
        file: "playground.glb",
        generate: playground_glb,
    },
    GeneratedLevel {
        file: "magic_room.glb",
        generate: magic_room_glb,
    },
];

/// The demo level `playground.glb` (see [`playground`]) as GLB bytes.
pub fn playground_glb() -> Vec<u8> {
    playground::document().to_glb()
}

/// The balls' room `magic_room.glb` (see [`magic_room`]) as GLB bytes.
pub fn magic_room_glb() -> Vec<u8> {
    magic_room::document().to_glb()
}
