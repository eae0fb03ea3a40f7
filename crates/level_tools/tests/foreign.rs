//! Files as other tools write them: required extensions that do not change
//! the geometry load with a one-line notice, compressed geometry the loader
//! cannot read is refused in one short line, quantised positions and GPU
//! instancing are read, and a file with many problems is refused in one
//! line with every problem in the details.

#[path = "../../level/tests/fixture/mod.rs"]
mod fixture;

use fixture::*;
use serde_json::json;
use slidewalk_level::load_bytes;
use std::path::Path;

/// A level of one 2 × 2 m square, as `.gltf` with `extra` top-level members.
fn square_with(extra: serde_json::Value, node: serde_json::Value) -> Vec<u8> {
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    let mut n = json!({"name": "Floor", "mesh": m});
    for (k, v) in node.as_object().unwrap() {
        n[k] = v.clone();
    }
    f.node(n, true);
    f.embedded_with(extra)
}

fn assert_one_short_line(message: &str, names: &str) {
    assert!(!message.contains('\n'), "{message}");
    assert!(
        message.chars().count() < 300,
        "{} characters: {message}",
        message.chars().count()
    );
    assert!(message.contains(names), "{message}");
}

#[test]
fn a_level_that_requires_lights_loads_with_a_one_line_notice() {
    // Blender's exporter writes lights this way by default.
    let bytes = square_with(
        json!({
            "extensionsUsed": ["KHR_lights_punctual"],
            "extensionsRequired": ["KHR_lights_punctual"],
            "extensions": {"KHR_lights_punctual": {"lights": [{"type": "point", "intensity": 50.0}]}},
        }),
        json!({"extensions": {"KHR_lights_punctual": {"light": 0}}}),
    );
    let level = load_bytes(&bytes, None, Path::new("jam.gltf")).unwrap();
    assert_eq!(level.statics.as_ref().unwrap().len(), 2);
    assert_eq!(level.report.notices.len(), 1, "{:?}", level.report.notices);
    let notice = &level.report.notices[0];
    assert_one_short_line(notice, "KHR_lights_punctual");
    assert!(notice.contains("collision does not need it"), "{notice}");
}

#[test]
fn a_level_that_requires_texture_transforms_loads_with_a_one_line_notice() {
    let mut f = Fixture::default();
    let p = f.positions(&[[-4.0, 0.0, -4.0], [4.0, 0.0, -4.0], [4.0, 0.0, 4.0]]);
    f.meshes
        .push(json!({"primitives": [{"attributes": {"POSITION": p}, "material": 0}]}));
    f.node(json!({"name": "Ground", "mesh": 0}), true);
    let bytes = f.embedded_with(json!({
        "extensionsUsed": ["KHR_texture_transform"],
        "extensionsRequired": ["KHR_texture_transform"],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {
            "index": 0, "extensions": {"KHR_texture_transform": {"scale": [8.0, 8.0]}}}}}],
        "textures": [{"source": 0}],
        "images": [{"uri": "grass.png"}],
    }));
    let level = load_bytes(&bytes, None, Path::new("tiled.gltf")).unwrap();
    assert_eq!(level.statics.as_ref().unwrap().len(), 1);
    assert_eq!(level.report.notices.len(), 1, "{:?}", level.report.notices);
    assert_one_short_line(&level.report.notices[0], "KHR_texture_transform");
}

#[test]
fn an_unknown_required_extension_is_read_without_it_and_said() {
    let bytes = square_with(
        json!({"extensionsUsed": ["VENDOR_sparkles"], "extensionsRequired": ["VENDOR_sparkles"]}),
        json!({}),
    );
    let level = load_bytes(&bytes, None, Path::new("odd.gltf")).unwrap();
    assert_eq!(level.statics.as_ref().unwrap().len(), 2);
    assert_one_short_line(&level.report.notices[0], "VENDOR_sparkles");
}

/// A 12 × 12 m floor of 0.5 m cells with a 1 m high block in its middle,
/// Draco-compressed (edgebreaker, 14-bit positions) as a web exporter writes it.
fn draco_bitstream() -> (Vec<u8>, usize) {
    use draco_core::draco_types::DataType;
    use draco_core::encoder_buffer::EncoderBuffer;
    use draco_core::encoder_options::EncoderOptions;
    use draco_core::geometry_attribute::{GeometryAttributeType, PointAttribute};
    use draco_core::geometry_indices::PointIndex;
    use draco_core::mesh::Mesh;
    use draco_core::mesh_encoder::MeshEncoder;
    let n = 24;
    let mut positions = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (i as f32 * 0.5 - 6.0, j as f32 * 0.5 - 6.0);
            let y = if x.abs() < 1.0 && z.abs() < 1.0 { 1.0 } else { 0.0 };
            positions.push([x, y, z]);
        }
    }
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let v = |a: usize, b: usize| (a * (n + 1) + b) as u32;
            faces.push([v(i, j), v(i, j + 1), v(i + 1, j)]);
            faces.push([v(i + 1, j), v(i, j + 1), v(i + 1, j + 1)]);
        }
    }
    let mut mesh = Mesh::new();
    let mut attribute = PointAttribute::new();
    attribute.init(
        GeometryAttributeType::Position,
        3,
        DataType::Float32,
        false,
        positions.len(),
    );
    for (k, p) in positions.iter().enumerate() {
        for (c, v) in p.iter().enumerate() {
            attribute.buffer_mut().write(k * 12 + c * 4, &v.to_le_bytes());
        }
    }
    mesh.add_attribute(attribute);
    for f in &faces {
        mesh.add_face(f.map(PointIndex));
    }
    let mut encoder = MeshEncoder::new();
    encoder.set_mesh(mesh);
    let mut options = EncoderOptions::new();
    options.set_attribute_int(0, "quantization_bits", 14);
    let mut out = EncoderBuffer::new();
    encoder.encode(&options, &mut out).expect("the test mesh encodes");
    (out.data().to_vec(), faces.len())
}

/// A level whose floor exists only as Draco data (its accessors have no
/// buffer view, as exporters write them).
fn draco_level(required: bool) -> (Vec<u8>, usize) {
    draco_level_with(required, false)
}

/// [`draco_level`], with a plain 2 m square beside the Draco floor if `square`.
fn draco_level_with(required: bool, square: bool) -> (Vec<u8>, usize) {
    let (bitstream, triangles) = draco_bitstream();
    let mut f = Fixture::default();
    let a = f.raw_accessor(
        &bitstream,
        json!({"componentType": 5121, "count": bitstream.len(), "type": "SCALAR"}),
    );
    let view = f.accessors.pop().unwrap()["bufferView"].clone();
    let _ = a;
    f.accessors
        .push(json!({"componentType": 5126, "count": 625, "type": "VEC3",
        "min": [-6.0, 0.0, -6.0], "max": [6.0, 1.0, 6.0]}));
    f.accessors
        .push(json!({"componentType": 5125, "count": triangles * 3, "type": "SCALAR"}));
    f.meshes
        .push(json!({"primitives": [{"attributes": {"POSITION": 0}, "indices": 1,
        "extensions": {"KHR_draco_mesh_compression": {"bufferView": view, "attributes": {"POSITION": 0}}}}]}));
    f.node(json!({"name": "Floor", "mesh": 0}), true);
    if square {
        let m = f.square_mesh("square");
        f.node(
            json!({"name": "Square", "mesh": m, "translation": [20.0, 0.0, 0.0]}),
            true,
        );
    }
    let mut extra = json!({"extensionsUsed": ["KHR_draco_mesh_compression"]});
    if required {
        extra["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
    }
    (f.embedded_with(extra), triangles)
}

#[test]
fn draco_compressed_meshes_are_decoded_and_walked() {
    let (bytes, triangles) = draco_level(true);
    let level = load_bytes(&bytes, None, Path::new("web-map.gltf")).unwrap();
    assert!(level.report.notices.is_empty(), "{:?}", level.report.notices);
    let statics = level.statics.as_ref().unwrap();
    assert_eq!(statics.len(), triangles);
    let b = statics.bounds();
    assert!(
        (b.min - glam::Vec3::new(-6.0, 0.0, -6.0)).abs().max_element() < 1e-3,
        "{b:?}"
    );
    assert!(
        (b.max - glam::Vec3::new(6.0, 1.0, 6.0)).abs().max_element() < 1e-3,
        "{b:?}"
    );
    let report = slidewalk_level_tools::walk_level(&level, &slidewalk_level_tools::CheckConfig::short(4, 300));
    assert!(
        report.walks_started == 4 && report.updates > 0 && report.passed(),
        "{report:#?}"
    );
    // Used without being required, the Draco data is read all the same.
    let (bytes, _) = draco_level(false);
    assert_eq!(
        load_bytes(&bytes, None, Path::new("w.gltf"))
            .unwrap()
            .statics
            .unwrap()
            .len(),
        triangles
    );
}

#[test]
fn a_mesh_whose_draco_data_does_not_decode_is_left_out_and_said() {
    // Cut the base64 payload's middle out: the bitstream no longer decodes.
    let damaged = |square: bool| {
        let mut bytes = draco_level_with(true, square).0;
        let text = String::from_utf8(bytes.clone()).unwrap();
        let start = text.find("base64,").unwrap() + 7 + 40;
        bytes.splice(start..start + 200, std::iter::repeat_n(b'A', 200));
        bytes
    };
    // Beside another mesh: the rest loads, and a notice names the mesh.
    let level = load_bytes(&damaged(true), None, Path::new("cut.gltf")).unwrap();
    assert_eq!(level.statics.as_ref().unwrap().len(), 2);
    assert_eq!(level.report.notices.len(), 1, "{:?}", level.report.notices);
    assert!(level.report.notices[0].starts_with("mesh \"mesh 0\" does not collide: KHR_draco_mesh_compression"));
    assert_eq!(level.report.undecoded_meshes, ["mesh 0"]);
    // level-check walks the rest and fails: it covered part of the level.
    let dir = temp_dir("undecoded");
    std::fs::write(dir.join("cut.gltf"), damaged(true)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_level-check"))
        .arg(dir.join("cut.gltf"))
        .args(["--walks", "2", "--ticks", "30"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL: 1 meshes do not collide"), "{text}");
    assert!(text.contains("notice     mesh \"mesh 0\" does not collide"), "{text}");
    // The only mesh: nothing left to walk, and the one line says why.
    let err = load_bytes(&damaged(false), None, Path::new("cut.gltf")).unwrap_err();
    assert_one_short_line(&err.to_string(), "Draco");
    assert!(err.to_string().contains("no usable triangles"), "{err}");
}

/// A 10 × 10 m floor of 1 m cells whose positions and indices exist only
/// meshopt-compressed, as gltfpack writes them: buffer 0 holds the
/// compressed streams, buffer 1 is the fallback with no data of its own.
fn meshopt_level() -> (Vec<u8>, usize) {
    use meshoptimizer_rs::Workspace;
    use meshoptimizer_rs::codec::{IndexEncoding, VertexEncoding, encode_index_buffer, encode_vertex_buffer};
    let n = 10u32;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            for c in [i as f32 - 5.0, 0.0, j as f32 - 5.0] {
                vertices.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    let mut indices = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let v = |a: u32, b: u32| a * (n + 1) + b;
            indices.extend([
                v(i, j),
                v(i, j + 1),
                v(i + 1, j),
                v(i + 1, j),
                v(i, j + 1),
                v(i + 1, j + 1),
            ]);
        }
    }
    let count = ((n + 1) * (n + 1)) as usize;
    let mut workspace = Workspace::default();
    // EXT_meshopt_compression carries version 0 of the vertex codec.
    let packed_vertices =
        encode_vertex_buffer(&vertices, count, 12, VertexEncoding::new(0, 0).unwrap(), &mut workspace).unwrap();
    let packed_indices = encode_index_buffer(&indices, IndexEncoding::default(), &mut workspace).unwrap();
    let mut compressed = packed_vertices.clone();
    while !compressed.len().is_multiple_of(4) {
        compressed.push(0);
    }
    let index_offset = compressed.len();
    compressed.extend_from_slice(&packed_indices);
    use base64::Engine;
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&compressed)
    );
    let json = json!({
        "asset": {"version": "2.0", "generator": "slidewalk loader tests"},
        "extensionsUsed": ["EXT_meshopt_compression"],
        "extensionsRequired": ["EXT_meshopt_compression"],
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Floor", "mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3",
             "min": [-5.0, 0.0, -5.0], "max": [5.0, 0.0, 5.0]},
            {"bufferView": 1, "componentType": 5125, "count": indices.len(), "type": "SCALAR"}
        ],
        "bufferViews": [
            {"buffer": 1, "byteOffset": 0, "byteLength": vertices.len(), "byteStride": 12,
             "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": 0,
                "byteLength": packed_vertices.len(), "byteStride": 12, "count": count, "mode": "ATTRIBUTES"}}},
            {"buffer": 1, "byteOffset": vertices.len(), "byteLength": indices.len() * 4,
             "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": index_offset,
                "byteLength": packed_indices.len(), "byteStride": 4, "count": indices.len(), "mode": "TRIANGLES"}}}
        ],
        "buffers": [
            {"uri": uri, "byteLength": compressed.len()},
            {"byteLength": vertices.len() + indices.len() * 4,
             "extensions": {"EXT_meshopt_compression": {"fallback": true}}}
        ]
    });
    (serde_json::to_vec(&json).unwrap(), indices.len() / 3)
}

#[test]
fn meshopt_compressed_buffers_are_decoded_and_walked() {
    let (bytes, triangles) = meshopt_level();
    let level = load_bytes(&bytes, None, Path::new("packed.gltf")).unwrap();
    assert!(level.report.notices.is_empty(), "{:?}", level.report.notices);
    let statics = level.statics.as_ref().unwrap();
    assert_eq!(statics.len(), triangles);
    let b = statics.bounds();
    assert_eq!(
        (b.min, b.max),
        (glam::Vec3::new(-5.0, 0.0, -5.0), glam::Vec3::new(5.0, 0.0, 5.0))
    );
    let report = slidewalk_level_tools::walk_level(&level, &slidewalk_level_tools::CheckConfig::short(4, 120));
    assert!(
        report.walks_started == 4 && report.updates > 0 && report.passed(),
        "{report:#?}"
    );
    // Damaged compressed data: one line naming the extension.
    let text = String::from_utf8(bytes).unwrap();
    let start = text.find("base64,").unwrap() + 7 + 8;
    let mut damaged = text.into_bytes();
    damaged.splice(start..start + 40, std::iter::repeat_n(b'/', 40));
    let err = load_bytes(&damaged, None, Path::new("packed.gltf")).unwrap_err();
    assert_one_short_line(&err.to_string(), "EXT_meshopt_compression");
}

#[test]
fn draco_data_that_does_not_decode_falls_back_to_an_uncompressed_copy() {
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    f.meshes[m]["primitives"][0]["extensions"] =
        json!({"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0}}});
    f.node(json!({"name": "Floor", "mesh": m}), true);
    let bytes = f.embedded_with(json!({"extensionsUsed": ["KHR_draco_mesh_compression"]}));
    let level = load_bytes(&bytes, None, Path::new("fallback.gltf")).unwrap();
    assert_eq!(level.statics.as_ref().unwrap().len(), 2);
}

#[test]
fn a_file_with_many_problems_is_refused_in_one_line_with_all_in_the_details() {
    let mut f = Fixture::default();
    for k in 0..12 {
        // Accessors with neither data nor a sparse part: invalid glTF.
        f.accessors
            .push(json!({"componentType": 5126, "count": 3, "type": "VEC3"}));
        f.meshes.push(json!({"primitives": [{"attributes": {"POSITION": k}}]}));
        f.node(json!({"mesh": k}), true);
    }
    let err = load_bytes(&f.embedded(), None, Path::new("broken.gltf")).unwrap_err();
    let message = err.to_string();
    assert_one_short_line(&message, "bufferView");
    assert!(message.contains("more problems)"), "{message}");
    let details = err.details();
    assert!(
        details.len() >= 12 && details.iter().all(|d| d.contains("Missing data")),
        "{details:?}"
    );
}

#[test]
fn quantized_positions_are_read_as_the_spec_maps_them() {
    // KHR_mesh_quantization: normalised i16 positions scaled by the node,
    // and plain u8 positions.
    let mut f = Fixture::default();
    // Vertex attributes are aligned to 4 bytes: each VEC3 is padded to 8.
    let i16s: Vec<u8> = [[-32767i16, 0, -32767, 0], [32767, 0, -32767, 0], [32767, 0, 32767, 0]]
        .iter()
        .flat_map(|v| v.iter().flat_map(|c| c.to_le_bytes()))
        .collect();
    let a = f.raw_accessor(
        &i16s,
        json!({"componentType": 5122, "normalized": true, "count": 3, "type": "VEC3",
               "min": [-32767, 0, -32767], "max": [32767, 0, 32767]}),
    );
    let u8s: Vec<u8> = vec![0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 2, 0];
    let b = f.raw_accessor(
        &u8s,
        json!({"componentType": 5121, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [2, 0, 2]}),
    );
    for accessor in [a, b] {
        let view = f.accessors[accessor]["bufferView"].as_u64().unwrap() as usize;
        f.views[view]["byteStride"] = json!(if accessor == a { 8 } else { 4 });
    }
    let m = f.mesh("quantized", &[(a, None, TRIANGLES)]);
    let n = f.mesh("bytes", &[(b, None, TRIANGLES)]);
    f.node(json!({"name": "Big", "mesh": m, "scale": [10.0, 10.0, 10.0]}), true);
    f.node(
        json!({"name": "Small", "mesh": n, "translation": [0.0, 5.0, 0.0]}),
        true,
    );
    let bytes = f.embedded_with(json!({
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
    }));
    let level = load_bytes(&bytes, None, Path::new("quantized.gltf")).unwrap();
    assert!(level.report.notices.is_empty(), "{:?}", level.report.notices);
    let statics = level.statics.as_ref().unwrap();
    let b = statics.bounds();
    assert!(
        (b.min - glam::Vec3::new(-10.0, 0.0, -10.0)).abs().max_element() < 1e-3,
        "{b:?}"
    );
    assert!(
        (b.max - glam::Vec3::new(10.0, 5.0, 10.0)).abs().max_element() < 1e-3,
        "{b:?}"
    );
    // The u8 triangle, 2 m on a side at y = 5.
    assert!(
        statics
            .triangles()
            .any(|t| t.iter().all(|p| p.y == 5.0) && t.contains(&glam::Vec3::new(2.0, 5.0, 2.0)))
    );
}

#[test]
fn every_gpu_instance_of_a_mesh_collides() {
    let mut f = Fixture::default();
    let m = f.square_mesh("tile");
    let t = f.positions(&[[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [20.0, 3.0, 0.0]]);
    f.node(
        json!({"name": "Tiles", "mesh": m, "translation": [0.0, 1.0, 0.0],
               "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": t}}}}),
        true,
    );
    let bytes = f.embedded_with(json!({"extensionsUsed": ["EXT_mesh_gpu_instancing"]}));
    let level = load_bytes(&bytes, None, Path::new("instanced.gltf")).unwrap();
    assert_eq!(level.report.mesh_instances, 3);
    let statics = level.statics.as_ref().unwrap();
    assert_eq!(statics.len(), 6);
    let b = statics.bounds();
    assert_eq!((b.min.x, b.max.x, b.min.y, b.max.y), (-1.0, 21.0, 1.0, 4.0), "{b:?}");
}

#[test]
fn the_committed_compressed_floors_load() {
    // `tests/data/draco_floor.glb` and `meshopt_floor.glb`: the floors of
    // `draco_level` and `meshopt_level` above, written as GLB (the fuzzer's
    // seeds for the decoders).
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../level/tests/data/");
    let draco = slidewalk_level::load(format!("{data}draco_floor.glb")).unwrap();
    assert_eq!(draco.statics.unwrap().len(), draco_bitstream().1);
    let meshopt = slidewalk_level::load(format!("{data}meshopt_floor.glb")).unwrap();
    assert_eq!(meshopt.statics.unwrap().len(), meshopt_level().1);
}
