//! A named node of the playground and a mesh built in one call: what the
//! layout's builders (`build`, `filtering`) share.

use crate::generate::glb::NodeDef;
use crate::generate::mesh::MeshData;

/// A node of `primitives` (material, mesh) called `name`.
pub(super) fn node(name: &str, primitives: Vec<(usize, MeshData)>) -> NodeDef {
    NodeDef {
        name: name.into(),
        primitives,
        ..Default::default()
    }
}

/// A mesh built by `f`.
pub(super) fn one(f: &dyn Fn(&mut MeshData)) -> MeshData {
    let mut m = MeshData::default();
    f(&mut m);
    m
}
