//! Reading triangles out of a Bevy [`Mesh`]: positions scaled (sheared,
//! mirrored) into the entity's frame, triangle lists and strips, indexed or not; what cannot
//! be used is counted, never a panic.

use bevy::mesh::{Indices, Mesh, MeshAccessError, PrimitiveTopology, VertexAttributeValues};
use glam::{Mat3, Vec3};

/// Triangles read from a mesh, ready for [`slidewalk_sweep::MeshCollider::build`].
#[derive(Debug, Default)]
pub(crate) struct MeshTriangles {
    /// Vertex positions, metres, scaled.
    pub positions: Vec<Vec3>,
    /// Three indices into `positions` each.
    pub triangles: Vec<[u32; 3]>,
    /// Triangles left out because an index named no vertex.
    pub out_of_range: usize,
}

/// The triangles of `mesh` with its positions mapped by `linear`, or why
/// none can be had.
pub(crate) fn mesh_triangles(mesh: &Mesh, linear: Mat3) -> Result<MeshTriangles, String> {
    let topology = mesh.primitive_topology();
    if !matches!(
        topology,
        PrimitiveTopology::TriangleList | PrimitiveTopology::TriangleStrip
    ) {
        return Err(format!(
            "its topology is {topology:?}: only triangle lists and strips can be solid"
        ));
    }
    let positions = match mesh.try_attribute(Mesh::ATTRIBUTE_POSITION) {
        Ok(VertexAttributeValues::Float32x3(p)) => p,
        Ok(other) => {
            return Err(format!(
                "its positions are {}, not three 32-bit floats",
                other.enum_variant_name()
            ));
        }
        Err(MeshAccessError::NotFound) => return Err("it has no vertex positions".into()),
        Err(MeshAccessError::ExtractedToRenderWorld) => {
            return Err(
                "its vertex data was handed to the render world only (keep `RenderAssetUsages::MAIN_WORLD` in its asset usage)"
                    .into(),
            );
        }
    };
    let positions: Vec<Vec3> = positions.iter().map(|&p| linear * Vec3::from_array(p)).collect();
    let indices: Vec<u32> = match mesh.try_indices() {
        Ok(Indices::U16(i)) => i.iter().map(|&i| i as u32).collect(),
        Ok(Indices::U32(i)) => i.clone(),
        Err(MeshAccessError::NotFound) => (0..positions.len() as u32).collect(),
        Err(MeshAccessError::ExtractedToRenderWorld) => {
            return Err("its index data was handed to the render world only".into());
        }
    };
    let corners: Vec<[u32; 3]> = match topology {
        PrimitiveTopology::TriangleStrip => indices.windows(3).map(|w| [w[0], w[1], w[2]]).collect(),
        _ => indices.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
    };
    let n = positions.len() as u32;
    let total = corners.len();
    let triangles: Vec<[u32; 3]> = corners.into_iter().filter(|t| t.iter().all(|&i| i < n)).collect();
    if triangles.is_empty() && total == 0 {
        return Err("it has no triangles".into());
    }
    Ok(MeshTriangles {
        out_of_range: total - triangles.len(),
        positions,
        triangles,
    })
}
