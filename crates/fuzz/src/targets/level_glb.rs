//! Target `level_glb`: raw bytes → `slidewalk_level::load_bytes` → colliders. The
//! driver mutates the real levels (`assets/levels/*.glb`,
//! `crates/level/tests/data/*.glb`, Draco and meshopt ones among them) and
//! a small level with every filtering extra (one-way, layers, sensors): byte flips in the GLB header, chunk
//! lengths, the JSON text (numbers swapped for 1e39, -0, 2^32, ...) and the
//! binary chunk (vertex floats, indices). Checked: the loader answers `Ok`
//! or an error with a message, and an `Ok` level is finite throughout
//! ([`super::level_check`]).

use super::level_check::{check, load_without_files};
use super::level_json::glb_file;
use serde_json::json;

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
        filtering_level(),
    ]
}

/// A floor, a one-way plank, a grate and a barrier with layers, a one-way
/// lift with layers, and a kill, a checkpoint and a named sensor: each
/// node a unit cube placed and scaled.
fn filtering_level() -> Vec<u8> {
    let corners: Vec<f32> = (0..8)
        .flat_map(|k: u32| [0, 1, 2].map(|a| (k >> a & 1) as f32 - 0.5))
        .collect();
    let indices: [u16; 36] = [
        0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5,
    ];
    let mut bin: Vec<u8> = corners.iter().flat_map(|f| f.to_le_bytes()).collect();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    let node = |name: &str, at: [f32; 3], scale: [f32; 3], extras: serde_json::Value| json!({"name": name, "mesh": 0, "translation": at, "scale": scale, "extras": extras});
    let nodes = [
        node("Floor", [0.0, -0.5, 0.0], [20.0, 1.0, 20.0], json!({})),
        node("Plank", [0.0, 1.0, 0.0], [4.0, 0.2, 4.0], json!({"one_way": true})),
        node(
            "Grate",
            [5.0, 1.0, 0.0],
            [0.1, 2.0, 4.0],
            json!({"layers": {"collides": ["player", "crowd"]}}),
        ),
        node(
            "Barrier",
            [-5.0, 1.0, 0.0],
            [0.1, 2.0, 4.0],
            json!({"layers": {"member": [4], "collides": ["crowd", "balls"]}}),
        ),
        node(
            "Lift",
            [0.0, 0.1, 6.0],
            [2.0, 0.2, 2.0],
            json!({"one_way": true, "layers": {"collides": ["player"]}}),
        ),
        node("Pit", [6.0, 0.5, 6.0], [2.0, 1.0, 2.0], json!({"sensor": "kill"})),
        node(
            "Flag",
            [-6.0, 1.0, 6.0],
            [1.0, 2.0, 1.0],
            json!({"sensor": "checkpoint", "layers": {"collides": ["player"]}}),
        ),
        node("Bell", [0.0, 3.0, -6.0], [1.0, 1.0, 1.0], json!({"sensor": "bell"})),
    ];
    let root = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": (0..nodes.len()).collect::<Vec<_>>()}],
        "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
             "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 96},
            {"buffer": 0, "byteOffset": 96, "byteLength": 72},
        ],
        "buffers": [{"byteLength": bin.len()}],
    });
    glb_file(&serde_json::to_vec(&root).expect("a JSON value serialises"), Some(&bin))
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_filtering_seed_loads_with_every_extra() {
        let level = super::load_without_files(&super::filtering_level()).unwrap();
        assert_eq!((level.parts.len(), level.movers.len(), level.sensors.len()), (3, 1, 3));
        assert!(level.movers[0].one_way.is_some());
    }
}
