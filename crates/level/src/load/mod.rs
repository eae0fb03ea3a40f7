//! glTF → `Level`: walks the scene's node hierarchy, reads every triangle
//! primitive (lists, strips, fans; any index width or none), applies the
//! level conventions and builds the static collider and one collider per mover.
//!
//! `parse` reads and validates the document, `builder` walks its nodes
//! (with `primitive` reading each mesh primitive, `instancing` the GPU
//! instances, `analytic` the exact shapes, `mover` each door and lift and
//! `parts` the one-way and layered static parts, the sensors and the
//! water, `volumes` where sensors and water go, `spawn_node` each spawn
//! point)
//! and assembles the [`Level`]; the buffers come from `crate::buffers`.

mod analytic;
mod builder;
mod instancing;
mod mover;
mod moves;
mod parse;
mod parts;
mod primitive;
mod spawn_node;
mod volumes;

use crate::buffers::load_buffers;
use crate::error::LevelError;
use crate::level::Level;
use builder::Builder;
use parse::parse;
use std::path::Path;

/// Loads a level from a `.glb` or `.gltf` file (external or embedded buffers).
pub fn load(path: impl AsRef<Path>) -> Result<Level, LevelError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| LevelError::Io {
        path: path.to_owned(),
        source,
    })?;
    load_bytes(&bytes, path.parent(), path)
}

/// Loads a level from the bytes of a `.glb` or `.gltf` file. External
/// buffers are looked up in `base_dir`; `label` names the file in errors.
/// Extensions are treated as [`crate::extensions`] lists them; those
/// ignored are named in [`LoadReport::notices`](crate::LoadReport::notices).
pub fn load_bytes(bytes: &[u8], base_dir: Option<&Path>, label: &Path) -> Result<Level, LevelError> {
    let (gltf, notices) = parse(bytes, label)?;
    let buffers = load_buffers(&gltf, base_dir, label)?;
    let mut builder = Builder::new(label, buffers, notices);
    for node in root_nodes(&gltf) {
        builder.visit_root(&gltf, node)?;
    }
    builder.finish()
}

/// The nodes to start from: the default scene's, else the first scene's,
/// else every node that is nobody's child.
fn root_nodes(gltf: &gltf::Gltf) -> Vec<gltf::Node<'_>> {
    if let Some(scene) = gltf.default_scene().or_else(|| gltf.scenes().next()) {
        return scene.nodes().collect();
    }
    let mut is_child = vec![false; gltf.nodes().len()];
    for node in gltf.nodes() {
        for child in node.children() {
            is_child[child.index()] = true;
        }
    }
    gltf.nodes().filter(|n| !is_child[n.index()]).collect()
}
