//! Colliders in hierarchies Bevy draws with a full affine transform: a
//! rotated child of a non-uniformly scaled parent (sheared, as glTF from
//! Blender often is) and a mirrored one collide where they are drawn,
//! also while they move.

use super::*;
use sweep::{MeshCollider, PlacedCollider};

/// The triangles of `entity`'s mesh as Bevy draws them: each vertex
/// through the entity's `GlobalTransform`, facing out (a mirroring
/// transform turns the winding round, and Bevy flips the front face).
fn drawn_triangles(app: &App, entity: Entity) -> Vec<[Vec3; 3]> {
    let world = app.world();
    let global = world.get::<GlobalTransform>(entity).unwrap();
    let mesh = world
        .resource::<Assets<Mesh>>()
        .get(&world.get::<Mesh3d>(entity).unwrap().0)
        .unwrap();
    let positions: Vec<Vec3> = mesh
        .attribute(Mesh::ATTRIBUTE_POSITION)
        .unwrap()
        .as_float3()
        .unwrap()
        .iter()
        .map(|&p| global.transform_point(Vec3::from_array(p)))
        .collect();
    let mirrored = global.affine().matrix3.determinant() < 0.0;
    let indices: Vec<usize> = mesh.indices().unwrap().iter().collect();
    indices
        .chunks_exact(3)
        .map(|t| match mirrored {
            false => [positions[t[0]], positions[t[1]], positions[t[2]]],
            true => [positions[t[0]], positions[t[2]], positions[t[1]]],
        })
        .collect()
}

/// Whether the collision world holds `entity`'s triangles where they are
/// drawn, each with the winding it is drawn with (its normal the same
/// way), to `tolerance` metres.
fn solid_as_drawn(app: &App, entity: Entity, tolerance: f32) -> Result<(), String> {
    let solid = app.world().resource::<CollisionWorld>().world_triangles(entity);
    let drawn = drawn_triangles(app, entity);
    if solid.len() != drawn.len() {
        return Err(format!("{} triangles solid, {} drawn", solid.len(), drawn.len()));
    }
    let normal = |[a, b, c]: [Vec3; 3]| (b - a).cross(c - a).normalize();
    for t in &solid {
        let same = drawn.iter().any(|d| {
            (0..3).any(|k| (0..3).all(|i| t[i].distance(d[(i + k) % 3]) < tolerance))
                && normal(*t).dot(normal(*d)) > 0.99
        });
        if !same {
            return Err(format!("the solid triangle {t:?} is not drawn"));
        }
    }
    Ok(())
}

/// A unit cube child of a parent scaled by `parent_scale`, the child
/// turned `turn` radians about y and lifted 0.5 m: its entity.
fn cube_under_scaled_parent(app: &mut App, parent_scale: Vec3, turn: f32) -> (Entity, Entity) {
    let mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::new(1.0, 1.0, 1.0));
    let parent = app.world_mut().spawn(Transform::from_scale(parent_scale)).id();
    let child = app
        .world_mut()
        .spawn((
            Mesh3d(mesh),
            Transform::from_xyz(0.0, 0.5, 0.0).with_rotation(Quat::from_rotation_y(turn)),
            SlidewalkCollider::mesh(),
            ChildOf(parent),
        ))
        .id();
    (parent, child)
}

#[test]
fn a_sheared_child_collides_where_it_is_drawn() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        let (_, block) = cube_under_scaled_parent(&mut app, Vec3::new(3.0, 1.0, 1.0), std::f32::consts::FRAC_PI_4);
        // It walks into the block's drawn edge from +z, off its corner.
        let c = character(&mut app, Vec3::new(0.3, 0.0, 3.0));
        run(&mut app, 2);
        solid_as_drawn(&app, block, 1e-4).unwrap();
        // The drawn block alone, built independently: the character never
        // ends a frame inside it, and it is touched where it is drawn.
        let drawn = MeshCollider::from_triangles(&drawn_triangles(&app, block)).unwrap();
        let drawn = [PlacedCollider::fixed(&drawn)];
        walk(&mut app, c, Vec3::NEG_Z);
        let (mut deepest, mut touches) = (0.0f32, 0);
        run_frames(&mut app, ticks(1.5), |app| {
            let body = get(app, c);
            let e = sweep::Ellipsoid::new(body.radii).unwrap();
            deepest = deepest.max(sweep::penetration_depth(&e, body.position, &drawn));
            let report = report(app, c);
            let contacts = report.tick.contacts.iter().zip(&report.contact_entities);
            for contact in contacts.filter(|(_, e)| **e == Some(block)).map(|(k, _)| k.contact) {
                let gap = sweep::Ellipsoid::sphere(1e-3)
                    .map(|probe| sweep::penetration_depth(&probe, contact.point, &drawn))
                    .unwrap();
                assert!(gap > 0.0, "a contact at {} is off the drawn block", contact.point);
                touches += 1;
            }
        });
        assert!(deepest < 1e-3, "{deepest} m inside the drawn block");
        assert!(touches > 0, "the block was never touched");
        assert!(
            get(&app, c).feet().z > 0.5,
            "stopped by the block: {:?}",
            get(&app, c).feet()
        );
    });
}

#[test]
fn a_mirrored_child_keeps_its_faces_outward() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        let (_, mirrored) = cube_under_scaled_parent(&mut app, Vec3::new(-1.0, 1.0, 2.0), 0.4);
        let (_, sheared_mirror) = cube_under_scaled_parent(&mut app, Vec3::new(-3.0, 1.0, 1.0), 0.7);
        run(&mut app, 2);
        for block in [mirrored, sheared_mirror] {
            solid_as_drawn(&app, block, 1e-4).unwrap();
            let centre = app.world().get::<GlobalTransform>(block).unwrap().translation();
            for [a, b, c] in app.world().resource::<CollisionWorld>().world_triangles(block) {
                let out = (b - a).cross(c - a).dot((a + b + c) / 3.0 - centre);
                assert!(out > 0.0, "a face of {block} turned inwards");
            }
        }
    });
}

/// A platform: a 2 × 0.2 × 2 m slab turned 45° under a parent scaled
/// (3, 1, 1) at y = 1 (its top at y = 1.1), the parent moved by `motion`;
/// returns (parent, slab).
fn sheared_platform(app: &mut App, motion: Motion) -> (Entity, Entity) {
    let mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::new(2.0, 0.2, 2.0));
    let parent = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 1.0, 0.0).with_scale(Vec3::new(3.0, 1.0, 1.0)),
            Moving(motion),
        ))
        .id();
    let slab = app
        .world_mut()
        .spawn((
            Mesh3d(mesh),
            Transform::from_rotation(Quat::from_rotation_y(std::f32::consts::FRAC_PI_4)),
            SlidewalkCollider::mesh(),
            ChildOf(parent),
        ))
        .id();
    (parent, slab)
}

#[test]
fn a_sheared_mover_carries_its_rider_as_drawn() {
    let motions: [(&str, Motion); 2] = [
        ("sliding", |t| {
            (Vec3::new(2.0 * (t * 0.8).sin(), 1.0, 0.0), Quat::IDENTITY)
        }),
        ("turning", |t| (Vec3::Y, Quat::from_rotation_y(0.5 * t))),
    ];
    at_every_pacing(|pacing| {
        for (name, motion) in motions {
            let mut app = app_at(pacing);
            app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
            // Moved and turned as a whole: the slab's shear stays the same.
            let (parent, slab) = sheared_platform(&mut app, motion);
            let rider = character(&mut app, Vec3::new(0.2, 1.1, 0.1));
            run(&mut app, 10);
            let local = |app: &App| {
                let parent = app.world().get::<GlobalTransform>(parent).unwrap();
                parent.affine().inverse().transform_point3(get(app, rider).feet())
            };
            let start = local(&app);
            let mut most = 0.0f32;
            run_frames(&mut app, ticks(3.0), |app| {
                let body = get(app, rider);
                assert!(body.grounded(), "{name}: lifted off at {:?}", body.feet());
                most = most.max(penetration(app, rider));
                let moved = local(app) - start;
                assert!(moved.length() < 0.03, "{name}: slid {moved} on the platform");
            });
            assert!(most < 1e-3, "{name}: {most} m into the platform");
            solid_as_drawn(&app, slab, 1e-3)
                .map_err(|e| format!("{name}: {e}"))
                .unwrap();
            assert!((get(&app, rider).feet().y - 1.1).abs() < 0.01, "{name}");
        }
    });
}

/// A slab turning under a non-uniformly scaled parent changes its shear
/// every tick: it is rebuilt (with a warning, once) and holds its rider.
#[test]
fn a_mover_whose_shear_changes_is_rebuilt_and_holds_its_rider() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
        let (parent, slab) = sheared_platform(&mut app, |_| (Vec3::Y, Quat::IDENTITY));
        app.world_mut().entity_mut(parent).remove::<Moving>();
        app.world_mut().entity_mut(slab).insert(Moving(|t| {
            (Vec3::ZERO, Quat::from_rotation_y(std::f32::consts::FRAC_PI_4 + 0.5 * t))
        }));
        let rider = character(&mut app, Vec3::new(0.2, 1.1, 0.1));
        let mut most = 0.0f32;
        run_frames(&mut app, ticks(3.0), |app| {
            most = most.max(penetration(app, rider));
            let tick = ticks_run(app);
            assert!(tick < 10 || get(app, rider).grounded(), "lifted off at tick {tick}");
        });
        assert!(most < 1e-3, "{most} m into the platform");
        solid_as_drawn(&app, slab, 1e-3).unwrap();
        assert!((get(&app, rider).feet().y - 1.1).abs() < 0.01);
    });
}
