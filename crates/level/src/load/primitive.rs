//! One mesh primitive's triangles: uncompressed accessors (lists, strips,
//! fans; any index width or none; `KHR_mesh_quantization` positions) or
//! Draco-compressed data, every accessor bounds-checked before it is read.

use crate::{draco, extensions};
use glam::Vec3;
use gltf::accessor::DataType;
use gltf::mesh::Mode;

/// Why a primitive's triangles cannot be read.
pub(super) enum PrimitiveError {
    Accessor(String),
    Index {
        index: u32,
        vertex_count: usize,
    },
    /// Draco data `draco-core` cannot decode, without an uncompressed copy.
    Draco(String),
}

/// Positions (node space) and index triples of one primitive.
pub(super) type PrimitiveTriangles = (Vec<Vec3>, Vec<[u32; 3]>);

/// Positions (node space) and triangles of one primitive; `None` for points and lines.
pub(super) fn read_primitive(
    doc: &gltf::Document,
    primitive: &gltf::Primitive<'_>,
    buffers: &[Vec<u8>],
) -> Result<Option<PrimitiveTriangles>, PrimitiveError> {
    let mode = primitive.mode();
    if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
        return Ok(None);
    }
    // Draco data, where it decodes or the file has no uncompressed copy.
    let uncompressed_copy = primitive
        .get(&gltf::Semantic::Positions)
        .is_some_and(|p| p.view().is_some());
    if let Some(ext) = primitive.extension_value(extensions::DRACO)
        && let Some(decoded) = match draco::decode(doc, ext, buffers) {
            Ok(decoded) => Some(decoded),
            Err(_) if uncompressed_copy => None,
            Err(reason) => return Err(PrimitiveError::Draco(reason)),
        }
    {
        let (positions, triangles) = decoded;
        if let Some(&index) = triangles.iter().flatten().find(|&&i| i as usize >= positions.len()) {
            return Err(PrimitiveError::Index {
                index,
                vertex_count: positions.len(),
            });
        }
        return Ok(Some((positions, triangles)));
    }
    let position = primitive
        .get(&gltf::Semantic::Positions)
        .ok_or(PrimitiveError::Accessor("no POSITION attribute".into()))?;
    if position.dimensions() != gltf::accessor::Dimensions::Vec3 || position.data_type() == DataType::U32 {
        return Err(PrimitiveError::Accessor(format!(
            "POSITION must be a VEC3 of floats or (KHR_mesh_quantization) 8- or 16-bit integers, is {:?} {:?}",
            position.data_type(),
            position.dimensions()
        )));
    }
    check_accessor(&position, buffers).map_err(PrimitiveError::Accessor)?;
    if let Some(indices) = primitive.indices() {
        check_accessor(&indices, buffers).map_err(PrimitiveError::Accessor)?;
    }
    let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let positions = read_vec3s(&position, buffers).unwrap_or_default();
        let indices: Option<Vec<u32>> = reader.read_indices().map(|i| i.into_u32().collect());
        (positions, indices)
    }));
    let (positions, indices) = read.map_err(|_| PrimitiveError::Accessor("accessor data is corrupt".into()))?;
    let indices = indices.unwrap_or_else(|| (0..positions.len() as u32).collect());
    if let Some(&index) = indices.iter().find(|&&i| i as usize >= positions.len()) {
        return Err(PrimitiveError::Index {
            index,
            vertex_count: positions.len(),
        });
    }
    let n = indices.len();
    let triangles: Vec<[u32; 3]> = match mode {
        Mode::Triangles => indices.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
        Mode::TriangleStrip => (0..n.saturating_sub(2))
            .map(|i| {
                if i % 2 == 0 {
                    [indices[i], indices[i + 1], indices[i + 2]]
                } else {
                    [indices[i + 1], indices[i], indices[i + 2]]
                }
            })
            .collect(),
        Mode::TriangleFan => (1..n.saturating_sub(1))
            .map(|i| [indices[i], indices[i + 1], indices[0]])
            .collect(),
        _ => unreachable!(),
    };
    Ok(Some((positions, triangles)))
}

/// The elements of a VEC3 accessor as floats: `f32`, or 8- and 16-bit
/// integers as `KHR_mesh_quantization` allows them (normalised ones mapped
/// to −1 … 1 or 0 … 1 as the glTF spec says, others taken as they are).
/// `None` when the accessor's data cannot be reached.
pub(super) fn read_vec3s(accessor: &gltf::Accessor<'_>, buffers: &[Vec<u8>]) -> Option<Vec<Vec3>> {
    fn read<T: gltf::accessor::Item + Copy>(
        accessor: &gltf::Accessor<'_>,
        buffers: &[Vec<u8>],
        to_f32: impl Fn(T) -> f32,
    ) -> Option<Vec<Vec3>> {
        let iter =
            gltf::accessor::Iter::<[T; 3]>::new(accessor.clone(), |b| buffers.get(b.index()).map(Vec::as_slice))?;
        Some(iter.map(|v| Vec3::from_array(v.map(&to_f32))).collect())
    }
    let normalized = accessor.normalized();
    match accessor.data_type() {
        DataType::F32 => read(accessor, buffers, |c: f32| c),
        DataType::I8 if normalized => read(accessor, buffers, |c: i8| (c as f32 / 127.0).max(-1.0)),
        DataType::U8 if normalized => read(accessor, buffers, |c: u8| c as f32 / 255.0),
        DataType::I16 if normalized => read(accessor, buffers, |c: i16| (c as f32 / 32767.0).max(-1.0)),
        DataType::U16 if normalized => read(accessor, buffers, |c: u16| c as f32 / 65535.0),
        DataType::I8 => read(accessor, buffers, |c: i8| c as f32),
        DataType::U8 => read(accessor, buffers, |c: u8| c as f32),
        DataType::I16 => read(accessor, buffers, |c: i16| c as f32),
        DataType::U16 => read(accessor, buffers, |c: u16| c as f32),
        DataType::U32 => None,
    }
}

/// Checks that an accessor's elements lie inside its buffer view and the
/// view inside its buffer, so reading can never go out of bounds.
pub(super) fn check_accessor(accessor: &gltf::Accessor<'_>, buffers: &[Vec<u8>]) -> Result<(), String> {
    if accessor.sparse().is_some() {
        return Ok(()); // sparse data is bounds-checked while reading (its reader catches it)
    }
    let Some(view) = accessor.view() else { return Ok(()) };
    let buffer = buffers
        .get(view.buffer().index())
        .ok_or("buffer view refers to a missing buffer")?;
    if view.offset() + view.length() > buffer.len() {
        return Err(format!(
            "buffer view {} spans bytes {}..{} of a {}-byte buffer",
            view.index(),
            view.offset(),
            view.offset() + view.length(),
            buffer.len()
        ));
    }
    let count = accessor.count();
    if count == 0 {
        return Ok(());
    }
    let size = accessor.size();
    let stride = view.stride().unwrap_or(size);
    let end = accessor.offset() + stride * (count - 1) + size;
    if end > view.length() {
        return Err(format!(
            "accessor {} needs {end} bytes of buffer view {}, which has {}",
            accessor.index(),
            view.index(),
            view.length()
        ));
    }
    Ok(())
}
