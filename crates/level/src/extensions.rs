//! Which glTF extensions change a level's geometry and which do not: the
//! one list the loader decides by, so the game, headless runs and
//! level-check read every file by the same rule.
//!
//! | extension | effect on collision | what the loader does |
//! |---|---|---|
//! | `KHR_mesh_quantization` | geometry (integer positions) | reads it: positions of any integer type, normalised or not |
//! | `KHR_draco_mesh_compression` | geometry (compressed meshes) | reads it: decodes the Draco data (`draco-core`, pure Rust) |
//! | `EXT_meshopt_compression` | geometry (compressed buffers) | reads it: decodes the compressed buffer views (`meshoptimizer-rs`, pure Rust) |
//! | `EXT_mesh_gpu_instancing` | geometry (copies of a mesh) | reads it: every copy collides |
//! | `KHR_lights_punctual`, `EXT_lights_image_based` | none (lights) | ignored, with a notice |
//! | `KHR_materials_*` (variants included), `KHR_texture_transform`, `KHR_texture_basisu`, `EXT_texture_webp`, `EXT_texture_avif`, `MSFT_texture_dds`, `MSFT_packing_occlusionRoughnessMetallic` | none (how surfaces are drawn) | ignored, with a notice |
//! | `KHR_animation_pointer`, `KHR_xmp_json_ld`, `KHR_xmp`, `KHR_audio_emitter`, `MSFT_lod`, `KHR_node_visibility` | none for the level at rest | ignored, with a notice |
//! | any other | unknown | read without it, with a notice saying collision may differ from what is drawn |
//!
//! A notice is said once per file, only for extensions the file *requires*
//! (an extension merely used has a core fallback by definition).

/// What an extension means to collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionEffect {
    /// Changes geometry, and the loader reads it.
    GeometryRead,
    /// Changes how the level is drawn, lit or animated, never its geometry at rest.
    DrawingOnly,
    /// Not in the list: read without it.
    Unknown,
}

/// Extensions that never change the geometry at rest (exact names).
const DRAWING_ONLY: [&str; 14] = [
    "KHR_lights_punctual",
    "EXT_lights_image_based",
    "KHR_texture_transform",
    "KHR_texture_basisu",
    "EXT_texture_webp",
    "EXT_texture_avif",
    "MSFT_texture_dds",
    "KHR_animation_pointer",
    "KHR_xmp_json_ld",
    "KHR_xmp",
    "KHR_audio_emitter",
    "MSFT_lod",
    "KHR_node_visibility",
    "MSFT_packing_occlusionRoughnessMetallic",
];

/// Draco-compressed meshes.
pub const DRACO: &str = "KHR_draco_mesh_compression";
/// meshoptimizer-compressed buffers.
pub const MESHOPT: &str = "EXT_meshopt_compression";
/// GPU instancing of a node's mesh.
pub const INSTANCING: &str = "EXT_mesh_gpu_instancing";
/// Integer (quantised) vertex attributes.
pub const QUANTIZATION: &str = "KHR_mesh_quantization";

/// What `name` means to collision (see the table in this module's docs).
pub fn effect(name: &str) -> ExtensionEffect {
    match name {
        QUANTIZATION | INSTANCING | DRACO | MESHOPT => ExtensionEffect::GeometryRead,
        _ if DRAWING_ONLY.contains(&name) || name.starts_with("KHR_materials_") => ExtensionEffect::DrawingOnly,
        _ => ExtensionEffect::Unknown,
    }
}

/// A short human name for the notice line.
fn what(name: &str) -> &'static str {
    match name {
        "KHR_lights_punctual" | "EXT_lights_image_based" => "lights",
        n if n.starts_with("KHR_materials_") => "materials",
        n if n.contains("texture") => "textures",
        _ => "drawing",
    }
}

/// The one line said when a required extension is ignored, or `None` when
/// the loader reads it.
pub fn ignored_notice(name: &str) -> Option<String> {
    match effect(name) {
        ExtensionEffect::DrawingOnly => Some(format!("ignored {name} ({}): collision does not need it", what(name))),
        ExtensionEffect::Unknown => Some(format!(
            "ignored {name}, an extension slidewalk does not know: if it changes the geometry, \
             collision may differ from what is drawn"
        )),
        ExtensionEffect::GeometryRead => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extension_has_one_effect_and_lines_are_short() {
        for name in DRAWING_ONLY
            .iter()
            .chain(&["KHR_materials_variants", "KHR_materials_ior"])
        {
            assert_eq!(effect(name), ExtensionEffect::DrawingOnly, "{name}");
            assert!(ignored_notice(name).unwrap().len() < 120);
        }
        for name in [QUANTIZATION, INSTANCING, DRACO, MESHOPT] {
            assert_eq!(effect(name), ExtensionEffect::GeometryRead);
            assert!(ignored_notice(name).is_none());
        }
        assert_eq!(effect("VENDOR_something"), ExtensionEffect::Unknown);
        assert!(ignored_notice("VENDOR_something").unwrap().contains("does not know"));
    }
}
