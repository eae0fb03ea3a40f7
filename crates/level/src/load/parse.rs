//! Reading the glTF document: parsed, then validated by the loader's rules
//! (`crate::extensions`): what only concerns drawing, and accessors only
//! Draco-compressed data names, do not refuse a file.

use crate::error::LevelError;
use crate::extensions;
use std::path::Path;

/// Parses and validates the glTF by the rules of [`crate::extensions`]: a
/// required extension that does not change geometry is ignored (with a
/// notice), compressed geometry is read. Validation problems only with what is drawn (textures,
/// images, materials, samplers) do not refuse it either: its geometry is
/// what the level needs, and it stays walkable even where it cannot be drawn.
pub(super) fn parse(bytes: &[u8], label: &Path) -> Result<(gltf::Gltf, Vec<String>), LevelError> {
    let not_gltf = |problems: Vec<String>| LevelError::not_gltf(label, problems);
    // The gltf crate subtracts the 12-byte header from the length a GLB
    // header gives without checking it (gltf 1.4.1, binary.rs): a smaller
    // one overflows, a panic in builds with overflow checks (`cargo run`).
    if let Some(length) = bytes
        .strip_prefix(b"glTF")
        .and_then(|rest| rest.get(4..8))
        .map(|l| u32::from_le_bytes([l[0], l[1], l[2], l[3]]))
        .filter(|&length| length < 12)
    {
        return Err(not_gltf(vec![format!(
            "its GLB header gives the file a length of {length} bytes, less than the header's own 12"
        )]));
    }
    let raw = gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| not_gltf(vec![e.to_string()]))?;
    let mut notices = Vec::new();
    for name in raw.extensions_required() {
        notices.extend(extensions::ignored_notice(name));
    }
    // The gltf crate's validator indexes the accessors a POSITION attribute
    // names without checking them (gltf-json 1.4.1, mesh.rs): the fuzzer
    // found that an out-of-range index panics there. Caught, it is an error.
    let validated = std::panic::catch_unwind(|| gltf::Gltf::from_slice(bytes)).map_err(|_| {
        not_gltf(vec![
            "an accessor index is out of range (the glTF validator failed on it)".into(),
        ])
    })?;
    let errors = match validated {
        Ok(gltf) => return Ok((gltf, notices)),
        Err(gltf::Error::Validation(errors)) => errors,
        Err(e) => return Err(not_gltf(vec![e.to_string()])),
    };
    let about_drawing = |path: &gltf::json::Path| {
        ["textures", "images", "materials", "samplers", "extensionsRequired"]
            .iter()
            .any(|drawn| path.as_str().starts_with(drawn))
    };
    // Accessors a Draco-compressed primitive names need no data of their
    // own. Read from the JSON as written: the document is not validated, so
    // its accessor indices may be out of range (the fuzzer's finding).
    let draco_accessors: Vec<String> = raw
        .as_json()
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .filter(|p| {
            p.extensions
                .as_ref()
                .is_some_and(|e| e.others.contains_key(extensions::DRACO))
        })
        .flat_map(|p| p.attributes.values().chain(&p.indices).map(|i| i.value()))
        .map(|i| format!("accessors[{i}]."))
        .collect();
    let problems: Vec<String> = errors
        .iter()
        .filter(|(path, _)| !about_drawing(path))
        .filter(|(path, _)| !draco_accessors.iter().any(|a| path.as_str().starts_with(a.as_str())))
        .map(|(path, error)| format!("{}: {error}", path.as_str()))
        .collect();
    if problems.is_empty() {
        return Ok((raw, notices));
    }
    Err(not_gltf(problems))
}
