//! The glTF loader on files written by hand (see `fixture`): every container
//! (embedded, external `.bin`, `.glb`), topology, index width, the node
//! hierarchy, instancing, the level conventions, and a typed error for every
//! kind of bad file.

mod fixture;

use fixture::*;
use glam::Vec3;
use serde_json::json;
use slidewalk_level::{LevelError, MoverKind, load, load_bytes};
use slidewalk_sweep::{Ellipsoid, PlacedCollider, sweep};
use std::path::Path;

fn load_slice(bytes: &[u8]) -> Result<slidewalk_level::Level, LevelError> {
    load_bytes(bytes, None, Path::new("test.gltf"))
}

/// Where a 0.1 m sphere dropped from y = 50 above `(x, z)` first touches the static geometry.
fn ground_point(level: &slidewalk_level::Level, x: f32, z: f32) -> Option<Vec3> {
    let statics = level.statics.as_ref()?;
    let ball = Ellipsoid::sphere(0.1).unwrap();
    let hit = sweep(
        &ball,
        Vec3::new(x, 50.0, z),
        Vec3::new(0.0, -100.0, 0.0),
        &[PlacedCollider::fixed(statics)],
    )?;
    Some(hit.point)
}

/// Height of the first surface below `(x, z)` (see [`ground_point`]).
fn ground_height(level: &slidewalk_level::Level, x: f32, z: f32) -> Option<f32> {
    ground_point(level, x, z).map(|p| p.y)
}

#[test]
fn embedded_external_and_binary_containers_load_the_same() {
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    f.node(json!({"name": "Floor", "mesh": m}), true);
    let embedded = load_slice(&f.embedded()).unwrap();
    let glb = load_bytes(&f.glb(), None, Path::new("test.glb")).unwrap();
    let dir = temp_dir("external");
    std::fs::write(dir.join("my level.bin"), &f.bin).unwrap();
    std::fs::write(dir.join("level.gltf"), f.external("my%20level.bin")).unwrap();
    let external = load(dir.join("level.gltf")).unwrap();
    for level in [&embedded, &glb, &external] {
        assert_eq!(level.report.triangles, 2);
        assert_eq!(level.statics.as_ref().unwrap().len(), 2);
        assert_eq!(ground_height(level, 0.5, 0.5), Some(0.0));
    }
}

#[test]
fn lists_strips_fans_and_index_widths() {
    let mut f = Fixture::default();
    // A strip of 4 triangles and a fan of 4 triangles, around y = 0.
    let strip_p = f.positions(&[
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.0, 1.0],
        [2.0, 0.0, 0.0],
        [2.0, 0.0, 1.0],
    ]);
    let strip_i = f.indices(&[0, 1, 2, 3, 4, 5], 1);
    let fan_p = f.positions(&[
        [5.0, 0.0, 5.0],
        [6.0, 0.0, 5.0],
        [6.0, 0.0, 6.0],
        [5.0, 0.0, 6.0],
        [4.0, 0.0, 6.0],
        [4.0, 0.0, 5.0],
    ]);
    let fan_i = f.indices(&[0, 1, 2, 3, 4, 5], 4);
    let list_p = f.positions(&[[10.0, 0.0, 0.0], [11.0, 0.0, 0.0], [10.0, 0.0, 1.0]]);
    let m = f.mesh(
        "mixed",
        &[
            (strip_p, Some(strip_i), STRIP),
            (fan_p, Some(fan_i), FAN),
            (list_p, None, TRIANGLES),
            (list_p, None, POINTS),
            (list_p, None, LINES),
        ],
    );
    f.node(json!({"mesh": m}), true);
    let level = load_slice(&f.embedded()).unwrap();
    assert_eq!(level.report.triangles, 4 + 4 + 1);
    assert_eq!(level.report.primitives, 3);
    assert_eq!(level.report.skipped_primitives, 2);
    assert_eq!(level.report.rejected(), 0);
    for (x, z) in [(1.9, 0.5), (4.5, 5.5), (10.2, 0.2)] {
        assert_eq!(ground_height(&level, x, z), Some(0.0), "at {x}, {z}");
    }
    assert_eq!(ground_height(&level, 3.0, 0.5), None);
}

#[test]
fn hierarchy_transforms_and_instancing() {
    let mut f = Fixture::default();
    let m = f.square_mesh("tile");
    // Parent raised 5 m; child scaled ×3 and moved 10 m along x; the same mesh instanced twice.
    let child = f.node(
        json!({"mesh": m, "translation": [10.0, 0.0, 0.0], "scale": [3.0, 1.0, 3.0]}),
        false,
    );
    let rotated = f.node(
        json!({"mesh": m, "translation": [-10.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.2588190, 0.9659258]}),
        false,
    );
    f.node(
        json!({"name": "Parent", "translation": [0.0, 5.0, 0.0], "children": [child, rotated]}),
        true,
    );
    let level = load_slice(&f.embedded()).unwrap();
    assert_eq!(level.report.mesh_instances, 2);
    assert_eq!(level.report.triangles, 4);
    assert_eq!(ground_height(&level, 12.5, 2.5), Some(5.0)); // inside the scaled tile only
    assert_eq!(ground_height(&level, 0.0, 0.0), None);
    // The tile rotated 30° about z: height varies with x.
    let p = ground_point(&level, -10.5, 0.0).unwrap();
    assert!(
        (p.y - (5.0 + (p.x + 10.0) * 30f32.to_radians().tan())).abs() < 1e-4,
        "{p}"
    );
    assert!(p.y < 5.0 - 0.2, "{p}");
}

#[test]
fn conventions_make_movers_spawns_and_surfaces() {
    let mut f = Fixture::default();
    let m = f.square_mesh("slab");
    f.node(
        json!({"name": "Ground", "mesh": m, "scale": [20.0, 1.0, 20.0], "extras": {"friction": 0.2}}),
        true,
    );
    let leaf = f.node(
        json!({"name": "Leaf", "mesh": m, "translation": [0.5, 1.0, 0.0], "scale": [0.5, 1.0, 1.0]}),
        false,
    );
    f.node(
        json!({"name": "Door", "translation": [3.0, 0.0, 0.0], "children": [leaf]}),
        true,
    );
    f.node(json!({"name": "Platform", "mesh": m, "translation": [-5.0, 0.1, 0.0], "extras": {"slidewalk": "lift", "travel": [0, 4, 0], "speed": 2.0, "pause_s": 1.0}}), true);
    f.node(
        json!({"name": "spawn_1", "translation": [1.0, 0.0, 2.0], "rotation": [0.0, std::f32::consts::FRAC_1_SQRT_2, 0.0, std::f32::consts::FRAC_1_SQRT_2]}),
        true,
    );
    f.node(
        json!({"name": "Grass", "mesh": m, "translation": [0.0, 0.3, 0.0], "extras": {"slidewalk": "nocollide"}}),
        true,
    );
    let level = load_slice(&f.embedded()).unwrap();
    assert_eq!(level.movers.len(), 2);
    let door = level.movers.iter().find(|m| m.name == "Door").unwrap();
    assert!(matches!(door.kind, MoverKind::Door(_)));
    assert_eq!(door.rest.translation, Vec3::new(3.0, 0.0, 0.0));
    assert_eq!(door.collider.len(), 2);
    let lift = level.movers.iter().find(|m| m.name == "Platform").unwrap();
    let MoverKind::Lift(spec) = lift.kind else {
        panic!("not a lift")
    };
    assert_eq!(spec.travel, Vec3::new(0.0, 4.0, 0.0));
    assert_eq!(lift.pose_at(1.0).translation, Vec3::new(-5.0, 4.1, 0.0));
    assert_eq!(level.spawns.len(), 1);
    assert_eq!(level.spawns[0].position, Vec3::new(1.0, 0.0, 2.0));
    assert!(
        (level.spawns[0].yaw - 90f32.to_radians()).abs() < 1e-4,
        "{}",
        level.spawns[0].yaw
    );
    assert_eq!(level.report.nocollide_triangles, 2);
    // Only the ground is static; its surface has the friction from its extras.
    let statics = level.statics.as_ref().unwrap();
    assert_eq!(statics.len(), 2);
    assert_eq!(level.surfaces[level.static_surfaces[0] as usize].friction, 0.2);
    assert_eq!(ground_height(&level, 0.0, 0.0), Some(0.0));
}

#[test]
fn bad_files_get_typed_errors_that_say_where() {
    // Missing file.
    let err = load("/definitely/not/here.glb").unwrap_err();
    assert!(
        matches!(err, LevelError::Io { .. }) && err.to_string().contains("/definitely/not/here.glb"),
        "{err}"
    );
    // Not glTF at all: empty, text, a PNG header.
    for bytes in [&b""[..], b"hello world", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"] {
        let err = load_slice(bytes).unwrap_err();
        assert!(matches!(err, LevelError::NotGltf { .. }), "{err}");
    }
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    f.node(json!({"mesh": m}), true);
    // A GLB header whose length is less than the header (found by fuzzing:
    // the gltf crate's subtraction overflowed, a panic in dev builds).
    for length in [0u32, 5, 11] {
        let mut glb = f.glb();
        glb[8..12].copy_from_slice(&length.to_le_bytes());
        let err = load_bytes(&glb, None, Path::new("short.glb")).unwrap_err();
        assert!(
            matches!(err, LevelError::NotGltf { .. }) && err.to_string().contains("less than the header's own 12"),
            "{err}"
        );
    }
    // A GLB cut in half.
    let glb = f.glb();
    let err = load_bytes(&glb[..glb.len() / 2], None, Path::new("cut.glb")).unwrap_err();
    assert!(
        matches!(err, LevelError::NotGltf { .. } | LevelError::TruncatedBuffer { .. }),
        "{err}"
    );
    // A buffer shorter than its declared length.
    let mut text: serde_json::Value = serde_json::from_slice(&f.embedded()).unwrap();
    text["buffers"][0]["byteLength"] = json!(f.bin.len() + 100);
    let err = load_slice(&serde_json::to_vec(&text).unwrap()).unwrap_err();
    assert!(
        matches!(err, LevelError::TruncatedBuffer { expected, .. } if expected == f.bin.len() + 100),
        "{err}"
    );
    // Missing external .bin.
    let dir = temp_dir("missing-bin");
    std::fs::write(dir.join("level.gltf"), f.external("gone.bin")).unwrap();
    let err = load(dir.join("level.gltf")).unwrap_err();
    assert!(
        matches!(err, LevelError::MissingBuffer { .. }) && err.to_string().contains("gone.bin"),
        "{err}"
    );
    // A bad data: URI.
    let mut text: serde_json::Value = serde_json::from_slice(&f.embedded()).unwrap();
    text["buffers"][0]["uri"] = json!("data:application/octet-stream;base64,@@@@");
    assert!(matches!(
        load_slice(&serde_json::to_vec(&text).unwrap()),
        Err(LevelError::BadBuffer { .. })
    ));
}

#[test]
fn bad_indices_accessors_and_conventions() {
    let mut f = Fixture::default();
    let p = f.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]);
    let i = f.indices(&[0, 1, 7], 2);
    let m = f.mesh("broken", &[(p, Some(i), TRIANGLES)]);
    f.node(json!({"mesh": m}), true);
    let err = load_slice(&f.embedded()).unwrap_err();
    assert!(
        matches!(
            err,
            LevelError::IndexOutOfRange {
                index: 7,
                vertex_count: 3,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("\"broken\""), "{err}");

    // An accessor claiming more vertices than its buffer view holds.
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    f.node(json!({"mesh": m}), true);
    f.accessors[0]["count"] = json!(400);
    let err = load_slice(&f.embedded()).unwrap_err();
    assert!(matches!(err, LevelError::BadAccessor { .. }), "{err}");

    // A lift with a negative speed.
    let mut f = Fixture::default();
    let m = f.square_mesh("floor");
    f.node(
        json!({"name": "Lift", "mesh": m, "extras": {"slidewalk": "lift", "speed": -1}}),
        true,
    );
    let err = load_slice(&f.embedded()).unwrap_err();
    assert!(
        matches!(err, LevelError::BadConvention { .. }) && err.to_string().contains("speed"),
        "{err}"
    );
}

#[test]
fn no_usable_triangles_is_an_error() {
    // Only lines.
    let mut f = Fixture::default();
    let p = f.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]);
    let m = f.mesh("lines", &[(p, None, LINES)]);
    f.node(json!({"mesh": m}), true);
    assert!(matches!(
        load_slice(&f.embedded()),
        Err(LevelError::NoTriangles { triangles: 0, .. })
    ));
    // Only degenerate triangles.
    let mut f = Fixture::default();
    let p = f.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]);
    let m = f.mesh("collinear", &[(p, None, TRIANGLES)]);
    f.node(json!({"mesh": m}), true);
    let err = load_slice(&f.embedded()).unwrap_err();
    assert!(
        matches!(
            err,
            LevelError::NoTriangles {
                triangles: 1,
                rejected: 1,
                ..
            }
        ),
        "{err}"
    );
    // No nodes at all.
    let f = Fixture::default();
    assert!(load_slice(&f.embedded()).is_err());
}

#[test]
fn a_file_that_requires_webp_textures_is_still_walkable() {
    // Files that require EXT_texture_webp fail glTF validation (the
    // textures have no core source); their geometry still loads.
    let mut data = Vec::new();
    for v in [[-5.0f32, 0.0, -5.0], [5.0, 0.0, -5.0], [5.0, 0.0, 5.0]] {
        for c in v {
            data.extend_from_slice(&c.to_le_bytes());
        }
    }
    use base64::Engine;
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&data)
    );
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["EXT_texture_webp"],
        "extensionsRequired": ["EXT_texture_webp"],
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Floor", "mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
        "textures": [{"extensions": {"EXT_texture_webp": {"source": 0}}}],
        "images": [{"uri": "textures%2Fgrass.webp"}],
        "buffers": [{"uri": uri, "byteLength": 36}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [-5.0, 0.0, -5.0], "max": [5.0, 0.0, 5.0]}]
    });
    let level =
        slidewalk_level::load_bytes(json.to_string().as_bytes(), None, std::path::Path::new("webp.gltf")).unwrap();
    assert_eq!(level.statics.as_ref().unwrap().len(), 1);
    // A file whose geometry is broken is still refused, webp or not.
    let mut broken = json.clone();
    broken["accessors"][0]["count"] = serde_json::json!(30);
    assert!(slidewalk_level::load_bytes(broken.to_string().as_bytes(), None, std::path::Path::new("b.gltf")).is_err());
}

#[test]
fn a_spawn_point_far_out_or_at_infinity_is_refused_with_its_node() {
    // Both loaded before, and the player started at 1e30 m (every sweep
    // meaningless) or at infinity (level-check panicked on the first tick).
    for (nodes, at) in [
        (
            vec![json!({"name": "Spawn", "translation": [0.0, 1e30, 0.0]})],
            "at [0, 1e30, 0]",
        ),
        (
            vec![
                json!({"name": "Far", "scale": [1e30, 1e30, 1e30], "children": [2]}),
                json!({"name": "spawn_2", "translation": [0.0, 1e30, 0.0]}),
            ],
            "inf",
        ),
    ] {
        let mut f = Fixture::default();
        let m = f.square_mesh("floor");
        f.node(json!({"mesh": m}), true);
        let roots = nodes.len() == 1;
        for (i, n) in nodes.into_iter().enumerate() {
            f.node(n, roots || i == 0);
        }
        let err = load_slice(&f.embedded()).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, LevelError::BadConvention { .. }), "{text}");
        assert!(
            text.contains("a spawn point must be within 1e6 m of the origin") && text.contains(at),
            "{text}"
        );
        assert!(text.contains("\"Spawn\"") || text.contains("\"spawn_2\""), "{text}");
    }
}

#[test]
fn an_out_of_range_position_accessor_is_an_error_not_a_panic() {
    // Found by the fuzzer (crates/fuzz): the gltf crate's validator panics
    // on a POSITION attribute naming an accessor that does not exist.
    let json = br#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":5}}]}]}"#;
    let err = load_slice(json).unwrap_err();
    assert!(matches!(err, LevelError::NotGltf { .. }), "{err:?}");
    assert!(err.to_string().contains("accessor index is out of range"), "{err}");
}

/// A sphere of radius 1 m around the origin, `n` segments × `n` rings, as
/// a triangle-list mesh with 32-bit indices; returns the mesh and its
/// triangle count.
fn sphere_mesh(f: &mut Fixture, name: &str, n: u32) -> (usize, usize) {
    let mut p = vec![[0.0, -1.0, 0.0]];
    for ring in 1..n {
        let a = std::f32::consts::PI * ring as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
        for s in 0..n {
            let b = std::f32::consts::TAU * s as f32 / n as f32;
            p.push([a.cos() * b.cos(), a.sin(), a.cos() * b.sin()]);
        }
    }
    p.push([0.0, 1.0, 0.0]);
    let at = |ring: u32, s: u32| 1 + (ring - 1) * n + s % n;
    let top = p.len() as u32 - 1;
    let mut i = Vec::new();
    for s in 0..n {
        i.extend([0, at(1, s + 1), at(1, s)]);
        for ring in 1..n - 1 {
            i.extend([at(ring, s), at(ring, s + 1), at(ring + 1, s + 1)]);
            i.extend([at(ring, s), at(ring + 1, s + 1), at(ring + 1, s)]);
        }
        i.extend([top, at(n - 1, s), at(n - 1, s + 1)]);
    }
    let positions = f.positions(&p);
    let indices = f.indices(&i, 4);
    (f.mesh(name, &[(positions, Some(indices), TRIANGLES)]), i.len() / 3)
}

#[test]
fn a_proxy_makes_a_fine_mesh_collide_as_a_simple_shape() {
    for shape in slidewalk_sweep::proxy::ProxyShape::ALL {
        let mut f = Fixture::default();
        let floor = f.square_mesh("floor");
        f.node(
            json!({"name": "Floor", "mesh": floor, "scale": [10.0, 1.0, 10.0]}),
            true,
        );
        let (ball, fine) = sphere_mesh(&mut f, "ball", 24);
        f.node(
            json!({"name": "Prop", "mesh": ball, "translation": [0.0, 1.0, 0.0], "extras": {"proxy": shape.word()}}),
            true,
        );
        let level = load_slice(&f.embedded()).unwrap();
        let r = &level.report;
        assert_eq!((r.proxies, r.proxied_triangles), (1, fine), "{shape:?}");
        assert!(r.notices.is_empty(), "{shape:?}: {:?}", r.notices);
        assert_eq!(
            level.statics.as_ref().unwrap().len(),
            2 + r.proxy_triangles,
            "{shape:?}"
        );
        assert!(
            r.proxy_triangles < fine || shape == slidewalk_sweep::proxy::ProxyShape::Hull,
            "{shape:?}"
        );
        // Its top is the sphere's (the box's, the capsule's, the hull's pole).
        let top = ground_height(&level, 0.0, 0.0).unwrap();
        assert!((top - 2.0).abs() < 1e-3, "{shape:?}: top at {top}");
        // Beside it, the floor.
        assert!(ground_height(&level, 3.0, 3.0).unwrap().abs() < 1e-4);
    }
    // On a door: the mover collides as the proxy; a hull of a flat mesh is its box, said.
    let mut f = Fixture::default();
    let (ball, _) = sphere_mesh(&mut f, "ball", 24);
    f.node(json!({"name": "Door", "mesh": ball, "extras": {"proxy": "box"}}), true);
    let square = f.square_mesh("square");
    f.node(
        json!({"name": "Rug", "mesh": square, "extras": {"proxy": "hull"}}),
        true,
    );
    // The same mesh on a second node: fitted once, said once, collides twice.
    f.node(
        json!({"name": "Rug 2", "mesh": square, "translation": [5.0, 0.0, 0.0], "extras": {"proxy": "hull"}}),
        true,
    );
    let level = load_slice(&f.embedded()).unwrap();
    assert_eq!(level.movers[0].collider.len(), 12);
    assert_eq!(level.report.proxies, 3);
    assert_eq!(level.report.notices.len(), 1, "{:?}", level.report.notices);
    assert!(
        level.report.notices[0].contains("\"proxy\": \"hull\" of a mesh without volume collides as its box"),
        "{:?}",
        level.report.notices
    );
    // A bad word is a load error naming the node.
    let mut f = Fixture::default();
    let square = f.square_mesh("square");
    f.node(
        json!({"name": "Rug", "mesh": square, "extras": {"proxy": "cone"}}),
        true,
    );
    let err = load_slice(&f.embedded()).unwrap_err().to_string();
    assert!(
        err.contains("Rug") && err.contains("unknown \"proxy\" \"cone\""),
        "{err}"
    );
}
