//! Colliders at runtime: added, removed and changed (a mesh asset
//! changed under a character), bad meshes, and many small colliders
//! merged into one.

use super::*;
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};

#[test]
fn colliders_added_removed_and_changed_at_runtime_take_effect_at_the_next_tick() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        let ground = floor(&mut app);
        let c = character(&mut app, Vec3::ZERO);
        run(&mut app, 10);
        assert!(get(&app, c).grounded());
        app.world_mut().despawn(ground);
        run(&mut app, 1);
        assert!(!get(&app, c).grounded(), "the floor is gone");
        let falling_from = get(&app, c).feet().y;
        // Explicit triangles, a little below the feet.
        let y = falling_from - 0.002;
        let square = vec![
            Vec3::new(-5.0, y, -5.0),
            Vec3::new(5.0, y, -5.0),
            Vec3::new(5.0, y, 5.0),
            Vec3::new(-5.0, y, 5.0),
        ];
        app.world_mut()
            .spawn(SlidewalkCollider::triangles(square, vec![[0, 1, 2], [0, 2, 3]]));
        run(&mut app, 1);
        let c_now = get(&app, c);
        assert!(
            c_now.grounded() && (c_now.feet().y - y).abs() < 0.01,
            "landed on the new floor: {:?}",
            c_now.feet()
        );
        // A mesh asset changed under it: raised by 0.2 m.
        let mesh = app
            .world_mut()
            .resource_mut::<Assets<Mesh>>()
            .add(Cuboid::new(10.0, 1.0, 10.0));
        let block = app
            .world_mut()
            .spawn((
                Mesh3d(mesh.clone()),
                Transform::from_xyz(0.0, y - 0.5, 0.0),
                SlidewalkCollider::mesh(),
            ))
            .id();
        run(&mut app, 3);
        assert!((get(&app, c).feet().y - y).abs() < 0.01);
        // A system of the app changes the mesh (in Update, after this frame's
        // ticks); Bevy reports it at the end of the frame, and the next tick
        // stands on the new shape (with one frame a tick, the tick after
        // the next).
        #[derive(Resource)]
        struct Reshape(Option<Handle<Mesh>>);
        app.insert_resource(Reshape(Some(mesh))).add_systems(
            Update,
            |mut r: ResMut<Reshape>, mut meshes: ResMut<Assets<Mesh>>| {
                if let Some(mesh) = r.0.take() {
                    meshes.insert(&mesh, Cuboid::new(10.0, 1.4, 10.0).into()).unwrap();
                }
            },
        );
        run(&mut app, 1);
        if pacing.frames_per_tick() == 1 {
            assert!((get(&app, c).feet().y - y).abs() < 0.01, "changed after this tick");
            run(&mut app, 1);
        }
        let raised = get(&app, c);
        assert!(
            (raised.feet().y - (y + 0.2)).abs() < 0.01,
            "pushed up by the new mesh: {:?}",
            raised.feet()
        );
        assert!(app.world().resource::<CollisionWorld>().index_of(block).is_some());
    });
}

fn mesh_with(topology: PrimitiveTopology, positions: Vec<[f32; 3]>, indices: Option<Vec<u32>>) -> Mesh {
    let mut m = Mesh::new(topology, RenderAssetUsages::default());
    if !positions.is_empty() {
        m.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    }
    if let Some(i) = indices {
        m.insert_indices(Indices::U32(i));
    }
    m
}

#[test]
fn bad_meshes_are_refused_or_partly_used_with_a_reason_never_a_panic() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        let add = |app: &mut App, mesh: Mesh| {
            let handle = app.world_mut().resource_mut::<Assets<Mesh>>().add(mesh);
            app.world_mut().spawn((Mesh3d(handle), SlidewalkCollider::mesh())).id()
        };
        let no_positions = add(&mut app, mesh_with(PrimitiveTopology::TriangleList, Vec::new(), None));
        let lines = add(
            &mut app,
            mesh_with(PrimitiveTopology::LineList, vec![[0.0; 3], [1.0; 3]], None),
        );
        // A floor of two good triangles, a NaN one, a degenerate one and one
        // naming a vertex that does not exist.
        let floor = vec![
            [-5.0, 0.0, -5.0],
            [5.0, 0.0, -5.0],
            [5.0, 0.0, 5.0],
            [-5.0, 0.0, 5.0],
            [f32::NAN, 0.0, 0.0],
        ];
        let partly = add(
            &mut app,
            mesh_with(
                PrimitiveTopology::TriangleList,
                floor,
                Some(vec![0, 1, 2, 0, 2, 3, 0, 1, 4, 0, 0, 1, 0, 1, 99]),
            ),
        );
        let strip = add(
            &mut app,
            mesh_with(
                PrimitiveTopology::TriangleStrip,
                vec![[10.0, 0.0, 0.0], [11.0, 0.0, 0.0], [10.0, 0.0, 1.0], [11.0, 0.0, 1.0]],
                None,
            ),
        );
        let no_mesh = app.world_mut().spawn(SlidewalkCollider::mesh()).id();
        let c = character(&mut app, Vec3::new(1.0, 0.0, 1.0));
        run(&mut app, 30);
        let world = app.world().resource::<CollisionWorld>();
        assert!(world.problem(no_positions).unwrap().contains("no vertex positions"));
        assert!(world.problem(lines).unwrap().contains("LineList"));
        assert!(world.problem(no_mesh).unwrap().contains("no `Mesh3d`"));
        let partial = world.problem(partly).unwrap();
        assert!(
            partial.contains("1 non-finite and 1 degenerate") && partial.contains("1 triangles name"),
            "{partial}"
        );
        assert!(world.index_of(partly).is_some() && world.index_of(strip).is_some());
        assert_eq!(world.world_triangles(strip).len(), 2);
        assert!(get(&app, c).grounded(), "stands on the good part");
    });
}

/// A walk over a 30 × 30 grid of tiles (with a bump in each), as one
/// collider or as 900 entities, for `ticks`; the character's final state.
fn tiles_walk(pacing: Pacing, separate: bool, ticks: usize) -> (Vec3, usize) {
    let mut app = app_at(pacing);
    let mut soup = sweep::test_util::Soup::default();
    let mut each = Vec::new();
    for i in 0..30 {
        for j in 0..30 {
            let mut tile = sweep::test_util::Soup::default();
            let (x, z) = (i as f32 - 15.0, j as f32 - 15.0);
            tile.cuboid(Vec3::new(x, -0.5, z), Vec3::new(x + 1.0, 0.0, z + 1.0));
            if (i + j) % 7 == 0 {
                tile.cuboid(Vec3::new(x + 0.2, 0.0, z + 0.2), Vec3::new(x + 0.8, 0.15, z + 0.8));
            }
            soup.extend(&tile);
            each.push(tile);
        }
    }
    if separate {
        for tile in each {
            app.world_mut()
                .spawn(SlidewalkCollider::triangles(tile.positions, tile.triangles));
        }
    } else {
        app.world_mut()
            .spawn(SlidewalkCollider::triangles(soup.positions, soup.triangles));
    }
    let c = character(&mut app, Vec3::new(0.5, 0.0, 0.5));
    run(&mut app, 2);
    walk(&mut app, c, Vec3::new(1.0, 0.0, 0.7).normalize());
    run(&mut app, ticks);
    let world = app.world().resource::<CollisionWorld>();
    (get(&app, c).position, world.len())
}

#[test]
fn many_small_colliders_walk_like_one() {
    at_every_pacing(|pacing| {
        let (one, one_len) = tiles_walk(pacing, false, 150);
        let (many, many_len) = tiles_walk(pacing, true, 150);
        assert_eq!(one_len, 1);
        assert_eq!(many_len, 1, "900 resting tiles are merged into one structure");
        assert!((one - many).length() < 1e-3, "{one} vs {many}");
    });
}

/// Colliders are swept in the order they were inserted, not in the order
/// of the app's archetypes: a window and a headless peer of one network
/// game (whose other entities differ) meet the same colliders in the same
/// order, and ties and ground contacts' collider indices agree.
#[test]
fn colliders_are_in_the_order_they_were_inserted_whatever_the_archetypes() {
    let order_in = |warm_up_other_archetype_first: bool| {
        let mut app = app_at(Pacing::FramesPerTick(1));
        if warm_up_other_archetype_first {
            // Another app made the launch pads' archetype first (and
            // spent some entities).
            let e = app
                .world_mut()
                .spawn((solid_cube(), LaunchPad { velocity: Vec3::Y }))
                .id();
            app.world_mut().despawn(e);
            run(&mut app, 1);
        }
        // Climbable and launch pads stand alone (never merged): one placed
        // collider each. Inserted: ladder 1, pad, ladder 2.
        let ladder_1 = app.world_mut().spawn((solid_cube(), Climbable)).id();
        let pad = app
            .world_mut()
            .spawn((solid_cube(), LaunchPad { velocity: Vec3::Y }))
            .id();
        let ladder_2 = app.world_mut().spawn((solid_cube(), Climbable)).id();
        run(&mut app, 1);
        let world = app.world().resource::<CollisionWorld>();
        let placed: Vec<Entity> = (0..world.placed().len()).filter_map(|i| world.entity(i, 0)).collect();
        let name = |e: Entity| match e {
            e if e == ladder_1 => "ladder 1",
            e if e == pad => "pad",
            e if e == ladder_2 => "ladder 2",
            _ => "other",
        };
        placed.into_iter().map(name).collect::<Vec<_>>()
    };
    assert_eq!(order_in(false), ["ladder 1", "pad", "ladder 2"]);
    assert_eq!(order_in(true), ["ladder 1", "pad", "ladder 2"]);
}

/// A 1 m cube of explicit triangles.
fn solid_cube() -> SlidewalkCollider {
    let mesh = Mesh::from(Cuboid::new(1.0, 1.0, 1.0));
    let positions: Vec<Vec3> = mesh
        .attribute(Mesh::ATTRIBUTE_POSITION)
        .and_then(|a| a.as_float3())
        .unwrap()
        .iter()
        .map(|&p| Vec3::from(p))
        .collect();
    let Some(Indices::U32(indices)) = mesh.indices() else {
        panic!("a cuboid's indices are u32")
    };
    let triangles = indices.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    SlidewalkCollider::triangles(positions, triangles)
}
