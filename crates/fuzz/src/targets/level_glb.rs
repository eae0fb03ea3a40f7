//! Target `level_glb`: raw bytes → `slidewalk_level::load_bytes` → colliders. The
//! driver mutates the real levels (`assets/levels/*.glb`,
//! `crates/level/tests/data/*.glb`, Draco and meshopt ones among them): byte flips in the GLB header, chunk
//! lengths, the JSON text (numbers swapped for 1e39, -0, 2^32, ...) and the
//! binary chunk (vertex floats, indices). Checked: the loader answers `Ok`
//! or an error with a message, and an `Ok` level is finite throughout
//! ([`super::level_check`]).

use super::level_check::{check, load_without_files};

/// The target.
pub fn run(data: &[u8]) -> u64 {
    check(load_without_files(data))
}

/// The real levels as seeds.
pub fn seeds() -> Vec<Vec<u8>> {
    vec![
        include_bytes!("../../../../assets/levels/magic_room.glb").to_vec(),
        include_bytes!("../../../../assets/levels/playground.glb").to_vec(),
        include_bytes!("../../../level/tests/data/trimesh_scene.glb").to_vec(),
        // Compressed geometry: the decoders see mutated streams too.
        include_bytes!("../../../level/tests/data/draco_floor.glb").to_vec(),
        include_bytes!("../../../level/tests/data/meshopt_floor.glb").to_vec(),
    ]
}

/// What the bytes are: their GLB header and JSON chunk, if any.
pub fn describe(data: &[u8]) -> String {
    let head: Vec<String> = data.iter().take(20).map(|b| format!("{b:02x}")).collect();
    let json_len = data
        .get(12..16)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        .unwrap_or(0);
    let json = data
        .get(20..20 + json_len.min(data.len().saturating_sub(20)))
        .unwrap_or(&[]);
    format!(
        "{} bytes, header {}\nJSON chunk: {}\nload: {:?}",
        data.len(),
        head.join(" "),
        String::from_utf8_lossy(json),
        load_without_files(data).map(|l| l.report)
    )
}
