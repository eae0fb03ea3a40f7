//! The level generator: builds the demo levels in code and writes them as
//! binary glTF (`cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`). The output is a
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

/// Indexed triangles (`positions` in metres, three indices into them per
/// triangle) as a one-node GLB named `name` with one grey material; vertex
/// normals are the area-weighted mean of the faces around each vertex.
/// `make-levels --generated` writes the benchmarks' large generated level
/// with it, for the loader's and the soak's figures on a level of a million
/// triangles.
///
/// # Panics
/// If an index is not below `positions.len()`.
pub fn triangles_glb(name: &str, positions: &[glam::Vec3], triangles: &[[u32; 3]]) -> Vec<u8> {
    let mut normals = vec![glam::Vec3::ZERO; positions.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let n = (b - a).cross(c - a);
        for i in t {
            normals[*i as usize] += n;
        }
    }
    let mesh = MeshData {
        positions: positions.to_vec(),
        normals: normals
            .into_iter()
            .map(|n| n.try_normalize().unwrap_or(glam::Vec3::Y))
            .collect(),
        indices: triangles.iter().flatten().copied().collect(),
    };
    let mut doc = Document {
        scene_name: name.to_owned(),
        ..Default::default()
    };
    let grey = doc.material("ground", [0.55, 0.55, 0.52]);
    doc.nodes.push(NodeDef {
        name: name.to_owned(),
        primitives: vec![(grey, mesh)],
        ..Default::default()
    });
    doc.to_glb()
}

/// The balls' room `magic_room.glb` (see [`magic_room`]) as GLB bytes.
pub fn magic_room_glb() -> Vec<u8> {
    magic_room::document().to_glb()
}
