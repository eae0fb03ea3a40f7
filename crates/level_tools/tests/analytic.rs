//! Analytic colliders in levels: `"collider": "plane" | "cylinder"` nodes
//! load as exact shapes derived from their transforms and meshes, their
//! triangles stay in the static collider and are marked, a ball sweeping
//! the shapes plus the unmarked triangles meets what the player's triangles
//! show, and every misuse is an error naming the node.

#[path = "../../level/tests/fixture/mod.rs"]
mod fixture;

use fixture::{Fixture, TRIANGLES};
use glam::{Quat, Vec3};
use serde_json::json;
use slidewalk_level::{Level, LevelError, load_bytes};
use slidewalk_level_tools::analytic_fit;
use slidewalk_level_tools::generate::{Document, MeshData, NodeDef};
use slidewalk_sweep::{
    AnalyticShape, CollisionLayers, Cylinder, Ellipsoid, KeepTriangles, PlacedCollider, sweep, sweep_with,
};
use std::f32::consts::FRAC_PI_2;
use std::path::Path;

fn load_doc(doc: &Document) -> Result<Level, LevelError> {
    load_bytes(&doc.to_glb(), None, Path::new("test.glb"))
}

fn quad(half: f32) -> MeshData {
    let mut m = MeshData::default();
    m.grid((-half, -half), (half, half), 0.0, 2);
    m
}

fn cylinder_mesh(radius: f32, height: f32) -> MeshData {
    let mut m = MeshData::default();
    m.cylinder(Vec3::ZERO, radius, height, 48);
    m
}

fn node(name: &str, extras: &str, mesh: MeshData) -> NodeDef {
    NodeDef {
        name: name.into(),
        extras: Some(extras.into()),
        primitives: vec![(0, mesh)],
        ..Default::default()
    }
}

/// A floor, a wall at x = 5 facing −x, a box (not analytic), a pillar
/// scaled by 2 and a log lying along +x.
fn small_room() -> Document {
    let mut doc = Document {
        scene_name: "analytic".into(),
        ..Default::default()
    };
    doc.material("Grey", [0.5, 0.5, 0.5]);
    doc.nodes
        .push(node("Floor", r#"{"collider":"plane","friction":0.3}"#, quad(5.0)));
    doc.nodes.push(NodeDef {
        translation: Some(Vec3::new(5.0, 0.0, 0.0)),
        rotation: Some(Quat::from_rotation_z(FRAC_PI_2)),
        ..node("Wall", r#"{"collider":"plane"}"#, quad(5.0))
    });
    let mut crate_box = MeshData::default();
    crate_box.cuboid(Vec3::new(-3.0, 0.0, -3.0), Vec3::new(-2.0, 1.0, -2.0));
    doc.nodes.push(NodeDef {
        extras: None,
        ..node("Crate", "", crate_box)
    });
    doc.nodes.push(NodeDef {
        translation: Some(Vec3::new(1.0, 0.0, 2.0)),
        scale: Some(Vec3::splat(2.0)),
        ..node("Pillar", r#"{"collider":"cylinder"}"#, cylinder_mesh(0.5, 1.5))
    });
    doc.nodes.push(NodeDef {
        translation: Some(Vec3::new(-4.0, 1.0, -1.0)),
        rotation: Some(Quat::from_rotation_z(-FRAC_PI_2)),
        ..node("Log", r#"{"collider":"cylinder"}"#, cylinder_mesh(0.4, 6.0))
    });
    doc
}

fn near(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

#[test]
fn planes_and_cylinders_come_from_their_nodes() {
    let level = load_doc(&small_room()).unwrap();
    let names: Vec<&str> = level.analytic.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Floor", "Wall", "Pillar", "Log"]);

    let AnalyticShape::Plane(floor) = level.analytic[0].shape else {
        panic!("floor is a plane")
    };
    assert!(
        near(floor.point, Vec3::ZERO) && near(floor.normal, Vec3::Y),
        "{floor:?}"
    );
    assert_eq!(level.surfaces[level.analytic[0].surface as usize].friction, 0.3);
    let AnalyticShape::Plane(wall) = level.analytic[1].shape else {
        panic!("wall is a plane")
    };
    assert!(
        near(wall.point, Vec3::new(5.0, 0.0, 0.0)) && near(wall.normal, Vec3::NEG_X),
        "{wall:?}"
    );
    assert_eq!(level.analytic[1].surface, 0);

    let AnalyticShape::Cylinder(pillar) = level.analytic[2].shape else {
        panic!("pillar is a cylinder")
    };
    assert!(
        near(pillar.base, Vec3::new(1.0, 0.0, 2.0)) && near(pillar.axis, Vec3::Y),
        "{pillar:?}"
    );
    assert!(
        (pillar.radius - 1.0).abs() < 1e-6 && (pillar.height - 3.0).abs() < 1e-6,
        "{pillar:?}"
    );
    let AnalyticShape::Cylinder(log) = level.analytic[3].shape else {
        panic!("log is a cylinder")
    };
    assert!(
        near(log.base, Vec3::new(-4.0, 1.0, -1.0)) && near(log.axis, Vec3::X),
        "{log:?}"
    );
    assert!(
        (log.radius - 0.4).abs() < 1e-6 && (log.height - 6.0).abs() < 1e-6,
        "{log:?}"
    );
}

#[test]
fn their_triangles_stay_in_the_static_collider_and_are_marked() {
    let doc = small_room();
    let level = load_doc(&doc).unwrap();
    let statics = level.statics.as_ref().unwrap();
    assert_eq!(statics.len(), doc.triangle_count());
    assert_eq!(level.static_analytic.len(), level.static_surfaces.len());
    let counts: Vec<usize> = doc.nodes.iter().map(|n| n.primitives[0].1.triangle_count()).collect();
    let marked: Vec<usize> = level.analytic.iter().map(|a| a.triangles.len()).collect();
    assert_eq!(marked, [counts[0], counts[1], counts[3], counts[4]]);
    // The crate's triangles (the third node's) are the only unmarked ones.
    let crate_range = (counts[0] + counts[1]) as u32..(counts[0] + counts[1] + counts[2]) as u32;
    for t in 0..statics.len() as u32 {
        assert_eq!(
            level.static_triangle_is_analytic(t),
            !crate_range.contains(&t),
            "triangle {t}"
        );
    }
    assert!(!level.static_triangle_is_analytic(u32::MAX));

    let fits = analytic_fit(&level);
    assert_eq!(
        fits.iter().map(|f| f.kind).collect::<Vec<_>>(),
        ["plane", "plane", "cylinder", "cylinder"]
    );
    for (fit, count) in fits.iter().zip(marked) {
        assert_eq!(fit.triangles, count);
        assert!(fit.max_vertex_distance < 1e-5, "{fit:?}");
    }
}

#[test]
fn a_ball_meets_the_shapes_where_the_player_meets_the_triangles() {
    let level = load_doc(&small_room()).unwrap();
    let statics = [PlacedCollider::fixed(level.statics.as_ref().unwrap())];
    let ball = Ellipsoid::sphere(0.2).unwrap();
    let sagitta = 1.0 - (std::f32::consts::PI / 48.0).cos(); // pillar radius 1
    // Down onto the pillar's top, at the side of the pillar, onto the log, onto the floor.
    for (start, velocity) in [
        (Vec3::new(1.3, 6.0, 2.2), Vec3::new(0.0, -2.0, 0.0)),
        (Vec3::new(4.0, 1.0, 2.0), Vec3::new(-3.0, 0.0, 0.0)),
        (Vec3::new(0.0, 5.0, -1.1), Vec3::new(0.0, -1.0, 0.0)),
        (Vec3::new(-1.0, 4.0, 3.5), Vec3::new(0.5, -1.0, 0.0)),
        (Vec3::new(3.0, 2.0, 0.0), Vec3::new(3.0, -0.1, 0.0)),
    ] {
        let t_max = 10.0;
        let motion = velocity * t_max;
        let mesh = sweep(&ball, start, motion, &statics).expect("the triangles stop the ball");
        let exact = level
            .analytic
            .iter()
            .filter_map(|a| a.shape.sweep_sphere(start, 0.2, velocity, t_max))
            .map(|h| h.time)
            .reduce(f32::min)
            .expect("the shapes stop the ball");
        let mesh_time = mesh.time * t_max;
        assert!(level.static_triangle_is_analytic(mesh.triangle));
        assert!(
            exact <= mesh_time + 1e-5 && (mesh_time - exact) * velocity.length() <= 3.0 * sagitta,
            "from {start}: exact {exact} s, triangles {mesh_time} s"
        );
        // Skipping the marked triangles, the ball goes through them.
        let unmarked = sweep_with(
            &ball,
            start,
            motion,
            &statics,
            CollisionLayers::ALL,
            KeepTriangles(|c: &slidewalk_sweep::Candidate<'_, '_>| !level.static_triangle_is_analytic(c.triangle())),
        );
        assert!(unmarked.is_none_or(|h| h.time * t_max > mesh_time), "from {start}");
    }
}

fn load_error(doc: &Document) -> String {
    match load_doc(doc) {
        Err(e @ LevelError::BadConvention { .. }) => e.to_string(),
        other => panic!("expected a convention error, got {other:?}"),
    }
}

fn one_node(n: NodeDef) -> Document {
    let mut doc = small_room();
    doc.nodes.push(n);
    doc
}

#[test]
fn misuse_is_an_error_naming_the_node() {
    let squashed = load_error(&one_node(NodeDef {
        scale: Some(Vec3::new(1.0, 1.0, 2.0)),
        ..node("Squashed", r#"{"collider":"cylinder"}"#, cylinder_mesh(0.5, 1.0))
    }));
    assert!(
        squashed.contains("node \"Squashed\"") && squashed.contains("elliptic") && squashed.contains("z by 2"),
        "{squashed}"
    );
    // Stretching along the axis is fine.
    let tall = one_node(NodeDef {
        scale: Some(Vec3::new(1.0, 3.0, 1.0)),
        ..node("Tall", r#"{"collider":"cylinder"}"#, cylinder_mesh(0.5, 1.0))
    });
    let level = load_doc(&tall).unwrap();
    let AnalyticShape::Cylinder(c) = level.analytic.last().unwrap().shape else {
        panic!()
    };
    assert!((c.height - 3.0).abs() < 1e-6 && (c.radius - 0.5).abs() < 1e-6);

    let cone = load_error(&one_node(node(
        "Cone",
        r#"{"collider":"cone"}"#,
        cylinder_mesh(0.5, 1.0),
    )));
    assert!(
        cone.ends_with("node \"Cone\": unknown \"collider\" \"cone\" (expected plane or cylinder)"),
        "{cone}"
    );
    let empty = load_error(&one_node(NodeDef {
        name: "Empty".into(),
        extras: Some(r#"{"collider":"plane"}"#.into()),
        ..Default::default()
    }));
    assert!(
        empty.contains("node \"Empty\"") && empty.contains("needs a mesh"),
        "{empty}"
    );
    let mut cube = MeshData::default();
    cube.cuboid(Vec3::ZERO, Vec3::ONE);
    let bumpy = load_error(&one_node(node("Bumpy", r#"{"collider":"plane"}"#, cube)));
    assert!(bumpy.contains("node \"Bumpy\"") && bumpy.contains("flat"), "{bumpy}");
    let door = load_error(&one_node(node(
        "Door",
        r#"{"slidewalk":"door","collider":"plane"}"#,
        quad(1.0),
    )));
    assert!(
        door.contains("node \"Door\"") && door.contains("not a door node"),
        "{door}"
    );
}

/// A glTF written by hand (no generator) with a node hierarchy: the
/// parent's transform applies, and a no-collide parent forbids the collider.
#[test]
fn hierarchies_apply_the_parents_transform() {
    let mut m = MeshData::default();
    m.cylinder(Vec3::new(0.0, -0.5, 0.0), 0.25, 1.0, 48);
    let mut f = Fixture::default();
    let positions: Vec<[f32; 3]> = m.positions.iter().map(|p| p.to_array()).collect();
    let p = f.positions(&positions);
    let i = f.indices(&m.indices, 2);
    let mesh = f.mesh("column", &[(p, Some(i), TRIANGLES)]);
    let child = f.node(
        json!({"name": "Column", "mesh": mesh, "translation": [0.0, 1.0, 0.0], "extras": {"collider": "cylinder"}}),
        false,
    );
    f.node(
        json!({"name": "Group", "scale": [4.0, 4.0, 4.0], "translation": [10.0, 0.0, 0.0], "children": [child]}),
        true,
    );
    let level = load_bytes(&f.glb(), None, Path::new("hand.glb")).unwrap();
    let expected = Cylinder::new(Vec3::new(10.0, 2.0, 0.0), Vec3::Y, 4.0, 1.0).unwrap();
    let AnalyticShape::Cylinder(c) = level.analytic[0].shape else {
        panic!()
    };
    assert!(near(c.base, expected.base) && near(c.axis, Vec3::Y), "{c:?}");
    assert!((c.radius - 1.0).abs() < 1e-5 && (c.height - 4.0).abs() < 1e-5, "{c:?}");
    assert_eq!(level.analytic[0].triangles, 0..m.triangle_count() as u32);

    f.nodes[1]["name"] = json!("nocollide_group");
    let err = load_bytes(&f.glb(), None, Path::new("hand.glb"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("node \"Column\"") && err.contains("part of a door, lift or no-collide node"),
        "{err}"
    );
}
