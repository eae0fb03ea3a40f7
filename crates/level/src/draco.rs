//! `KHR_draco_mesh_compression`: a primitive's triangles decoded from its
//! Draco bitstream with `draco-core` (pure Rust, no system library).

use draco_core::decoder_buffer::DecoderBuffer;
use draco_core::draco_types::DataType;
use draco_core::geometry_attribute::PointAttribute;
use draco_core::geometry_indices::{FaceIndex, PointIndex};
use draco_core::mesh::Mesh;
use draco_core::mesh_decoder::MeshDecoder;
use glam::Vec3;

/// The positions (one per Draco point) and triangles of a primitive whose
/// Draco extension is `ext` (`{"bufferView": N, "attributes": {"POSITION": id}}`).
pub(crate) fn decode(
    doc: &gltf::Document,
    ext: &serde_json::Value,
    buffers: &[Vec<u8>],
) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    let view = ext
        .get("bufferView")
        .and_then(serde_json::Value::as_u64)
        .and_then(|v| doc.views().nth(v as usize))
        .ok_or("KHR_draco_mesh_compression: bufferView names no buffer view")?;
    let position_id = ext
        .get("attributes")
        .and_then(|a| a.get("POSITION"))
        .and_then(serde_json::Value::as_u64)
        .ok_or("KHR_draco_mesh_compression: no POSITION attribute")?;
    let bytes = buffers
        .get(view.buffer().index())
        .and_then(|b| b.get(view.offset()..view.offset().checked_add(view.length())?))
        .ok_or("KHR_draco_mesh_compression: the buffer view reaches outside its buffer")?;
    // A decoder's panic on hostile data is a refusal too, never a crash.
    let mesh = std::panic::catch_unwind(|| {
        let mut mesh = Mesh::new();
        MeshDecoder::new()
            .decode(&mut DecoderBuffer::new(bytes), &mut mesh)
            .map(|()| mesh)
    })
    .map_err(|_| "KHR_draco_mesh_compression: the Draco data is corrupt (the decoder failed on it)".to_owned())?
    .map_err(|e| format!("KHR_draco_mesh_compression: the Draco data cannot be decoded: {e}"))?;
    let attribute = u32::try_from(position_id)
        .ok()
        .and_then(|id| mesh.attribute_by_unique_id(id))
        .ok_or("KHR_draco_mesh_compression: the Draco data has no POSITION attribute of that id")?;
    let positions = (0..mesh.num_points())
        .map(|p| position(attribute, PointIndex(p as u32)))
        .collect::<Option<Vec<Vec3>>>()
        .ok_or("KHR_draco_mesh_compression: POSITION is not three numbers per point")?;
    let triangles = (0..mesh.num_faces())
        .map(|f| mesh.face(FaceIndex(f as u32)).map(|p| p.0))
        .collect();
    Ok((positions, triangles))
}

/// The position of point `p`; `None` if the attribute is not three numbers.
fn position(attribute: &PointAttribute, p: PointIndex) -> Option<Vec3> {
    if attribute.num_components() != 3 {
        return None;
    }
    let value = attribute.mapped_index(p).0 as usize;
    let stride = attribute.byte_stride() as usize;
    let size = match attribute.data_type() {
        DataType::Float32 | DataType::Int32 | DataType::Uint32 => 4,
        DataType::Int16 | DataType::Uint16 => 2,
        DataType::Int8 | DataType::Uint8 => 1,
        _ => return None,
    };
    let mut out = [0.0f32; 3];
    for (k, c) in out.iter_mut().enumerate() {
        let mut raw = [0u8; 4];
        if !attribute.buffer().try_read(value * stride + k * size, &mut raw[..size]) {
            return None;
        }
        *c = match attribute.data_type() {
            DataType::Float32 => f32::from_le_bytes(raw),
            DataType::Int32 => i32::from_le_bytes(raw) as f32,
            DataType::Uint32 => u32::from_le_bytes(raw) as f32,
            DataType::Int16 => i16::from_le_bytes([raw[0], raw[1]]) as f32,
            DataType::Uint16 => u16::from_le_bytes([raw[0], raw[1]]) as f32,
            DataType::Int8 => raw[0] as i8 as f32,
            _ => raw[0] as f32,
        };
    }
    Some(Vec3::from_array(out))
}
