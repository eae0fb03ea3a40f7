//! `EXT_mesh_gpu_instancing`: the copies a node's mesh is drawn as, each a
//! transform in the node's frame.

use super::primitive::{check_accessor, read_vec3s};
use crate::extensions;
use glam::{Mat4, Vec3};
use gltf::accessor::DataType;

/// The copies `EXT_mesh_gpu_instancing` makes of a node's mesh, each a
/// transform in the node's frame (translation, rotation, scale as the
/// extension's accessors give them); `None` for a node drawn once.
pub(super) fn instance_transforms(
    doc: &gltf::Document,
    node: &gltf::Node<'_>,
    buffers: &[Vec<u8>],
) -> Result<Option<Vec<Mat4>>, String> {
    let Some(ext) = node.extension_value(extensions::INSTANCING) else {
        return Ok(None);
    };
    let attribute = |name: &str| -> Result<Option<gltf::Accessor<'_>>, String> {
        let Some(index) = ext.get("attributes").and_then(|a| a.get(name)) else {
            return Ok(None);
        };
        let accessor = index
            .as_u64()
            .and_then(|i| doc.accessors().nth(i as usize))
            .ok_or(format!("{}: {name} names no accessor", extensions::INSTANCING))?;
        check_accessor(&accessor, buffers)?;
        Ok(Some(accessor))
    };
    let vec3s = |name: &str| -> Result<Option<Vec<Vec3>>, String> {
        attribute(name)?
            .map(|a| {
                if a.dimensions() != gltf::accessor::Dimensions::Vec3 {
                    return Err(format!("{}: {name} must be a VEC3", extensions::INSTANCING));
                }
                read_vec3s(&a, buffers).ok_or(format!("{}: {name} cannot be read", extensions::INSTANCING))
            })
            .transpose()
    };
    let translations = vec3s("TRANSLATION")?;
    let scales = vec3s("SCALE")?;
    let rotations: Option<Vec<glam::Quat>> = attribute("ROTATION")?
        .map(|a| {
            let read = gltf::accessor::Iter::<[f32; 4]>::new(a.clone(), |b| buffers.get(b.index()).map(Vec::as_slice));
            match (a.data_type(), a.dimensions(), read) {
                (DataType::F32, gltf::accessor::Dimensions::Vec4, Some(iter)) => {
                    Ok(iter.map(|q| glam::Quat::from_array(q).normalize()).collect())
                }
                _ => Err(format!("{}: ROTATION must be a float VEC4", extensions::INSTANCING)),
            }
        })
        .transpose()?;
    let count = [
        translations.as_ref().map(Vec::len),
        scales.as_ref().map(Vec::len),
        rotations.as_ref().map(Vec::len),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    Ok(Some(
        (0..count)
            .map(|i| {
                let pick = |v: &Option<Vec<Vec3>>, default: Vec3| {
                    v.as_ref().and_then(|v| v.get(i).copied()).unwrap_or(default)
                };
                let rotation = rotations
                    .as_ref()
                    .and_then(|r| r.get(i).copied())
                    .unwrap_or(glam::Quat::IDENTITY);
                Mat4::from_scale_rotation_translation(
                    pick(&scales, Vec3::ONE),
                    rotation,
                    pick(&translations, Vec3::ZERO),
                )
            })
            .collect(),
    ))
}
