//! Layers, one-way colliders and sensors through the plugin: each rule of
//! the layer masks on a character against a wall; a one-way platform
//! jumped up through, stood on, dropped through; sensors entered and left
//! exactly once each (walking in and out, spawned inside, teleported out,
//! the sensor moved away or despawned, the character despawned), the
//! overlaps each character has (`SensorOverlaps`) agreeing with those
//! messages, and the overlap query on the collision world.

use super::*;
use bevy_slidewalk::sweep::Ellipsoid;

/// A 1 m thick wall across x = 3 and a walker from x = 0 towards it:
/// whether the wall held it back.
fn wall_holds(pacing: Pacing, walker: Option<SlidewalkLayers>, wall: Option<SlidewalkLayers>) -> bool {
    let mut app = app_at(pacing);
    floor(&mut app);
    let w = solid_box(&mut app, Vec3::new(1.0, 4.0, 20.0), Vec3::new(3.5, 2.0, 0.0));
    if let Some(layers) = wall {
        app.world_mut().entity_mut(w).insert(layers);
    }
    let c = character(&mut app, Vec3::ZERO);
    if let Some(layers) = walker {
        app.world_mut().entity_mut(c).insert(layers);
    }
    walk(&mut app, c, Vec3::X);
    run(&mut app, ticks(2.0));
    let x = get(&app, c).position.x;
    assert!(penetration(&app, c) <= 1e-4 || x > 4.5, "inside the wall at x = {x}");
    x < 3.0
}

#[test]
fn layers_follow_the_collision_groups_rule() {
    const A: u32 = 1;
    const B: u32 = 2;
    at_every_pacing(|pacing| {
        for (walker, wall, holds) in [
            (None, None, true),
            (Some(SlidewalkLayers::new(A, B)), Some(SlidewalkLayers::new(B, A)), true),
            // The walker's membership must meet the wall's filter, and the other way round.
            (
                Some(SlidewalkLayers::new(A, B)),
                Some(SlidewalkLayers::new(B, B)),
                false,
            ),
            (
                Some(SlidewalkLayers::new(A, A)),
                Some(SlidewalkLayers::new(B, A)),
                false,
            ),
            (None, Some(SlidewalkLayers::NONE), false),
            (Some(SlidewalkLayers::NONE), None, false),
        ] {
            assert_eq!(
                wall_holds(pacing, walker, wall),
                holds,
                "walker {walker:?}, wall {wall:?}"
            );
        }
    });
}

#[test]
fn layers_given_and_taken_away_at_run_time() {
    let mut app = app_at(Pacing::FramesPerTick(1));
    floor(&mut app);
    let w = solid_box(&mut app, Vec3::new(1.0, 4.0, 20.0), Vec3::new(3.5, 2.0, 0.0));
    let c = character(&mut app, Vec3::ZERO);
    walk(&mut app, c, Vec3::X);
    run(&mut app, ticks(1.5));
    assert!(get(&app, c).position.x < 3.0);
    // The wall stops meeting anyone: walked through.
    app.world_mut().entity_mut(w).insert(SlidewalkLayers::NONE);
    run(&mut app, ticks(1.5));
    assert!(get(&app, c).position.x > 4.5);
    // Back to solid: the character is inside it, so walk away and back.
    app.world_mut().entity_mut(w).remove::<SlidewalkLayers>();
    walk(&mut app, c, -Vec3::X);
    run(&mut app, ticks(2.0));
    walk(&mut app, c, Vec3::X);
    run(&mut app, ticks(3.0));
    assert!(get(&app, c).position.x > 4.5, "{}", get(&app, c).position);
}

#[test]
fn a_one_way_platform_is_jumped_through_stood_on_and_dropped_through() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        let platform = solid_box(&mut app, Vec3::new(4.0, 0.2, 4.0), Vec3::new(0.0, 0.6, 0.0));
        app.world_mut().entity_mut(platform).insert(OneWay::default());
        let c = character(&mut app, Vec3::ZERO);
        run(&mut app, ticks(0.5));
        assert!(get(&app, c).feet().y.abs() < 0.01, "{}", get(&app, c).feet());
        app.world_mut().get_mut::<MovementIntent>(c).unwrap().jump = true;
        run(&mut app, ticks(2.0));
        let feet = get(&app, c).feet();
        assert!(
            (feet.y - 0.7).abs() < 0.01 && get(&app, c).grounded(),
            "landed at {feet}"
        );
        assert_eq!(report(&app, c).ground.and_then(|g| g.entity), Some(platform));
        app.world_mut().get_mut::<MovementIntent>(c).unwrap().drop = true;
        run(&mut app, ticks(1.5));
        assert!(
            get(&app, c).feet().y.abs() < 0.01,
            "after the drop {}",
            get(&app, c).feet()
        );
        assert!(
            !app.world().get::<MovementIntent>(c).unwrap().drop,
            "the drop was not taken"
        );
    });
}

/// A 2 m sensor box at `at` (its centre).
fn sensor(app: &mut App, at: Vec3) -> Entity {
    let s = solid_box(app, Vec3::splat(2.0), at);
    app.world_mut().entity_mut(s).insert(SlidewalkSensor);
    s
}

fn pairs<M: Message + Clone>(app: &App, f: impl Fn(&M) -> (Entity, Entity)) -> Vec<(Entity, Entity)> {
    logged::<M>(app).iter().map(f).collect()
}

#[test]
fn sensors_report_entering_and_leaving_once_each() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        log::<EnteredSensor>(&mut app);
        log::<LeftSensor>(&mut app);
        let entered = |app: &App| pairs::<EnteredSensor>(app, |m| (m.sensor, m.character));
        let left = |app: &App| pairs::<LeftSensor>(app, |m| (m.sensor, m.character));
        let s = sensor(&mut app, Vec3::new(4.0, 1.0, 0.0));
        // Walking in and out: not solid, entered once, left once.
        let c = character(&mut app, Vec3::ZERO);
        walk(&mut app, c, Vec3::X);
        run(&mut app, ticks(0.8));
        assert_eq!(entered(&app), vec![(s, c)]);
        assert!(left(&app).is_empty());
        run(&mut app, ticks(1.5));
        assert!(
            get(&app, c).position.x > 6.0,
            "held back by a sensor at {}",
            get(&app, c).position
        );
        assert_eq!((entered(&app).len(), left(&app)), (1, vec![(s, c)]));
        walk(&mut app, c, Vec3::ZERO);
        // Spawned inside: entered at the first tick.
        let d = character(&mut app, Vec3::new(4.0, 0.0, 0.0));
        run(&mut app, 2);
        assert_eq!(entered(&app), vec![(s, c), (s, d)]);
        // Teleported out: left.
        let config = ControllerConfig::default();
        app.world_mut()
            .get_mut::<MovementState>(d)
            .unwrap()
            .teleport_feet(Vec3::new(-8.0, 0.0, 0.0), &config);
        run(&mut app, 2);
        assert_eq!(left(&app), vec![(s, c), (s, d)]);
        // The sensor moved onto a character, then away.
        app.world_mut().get_mut::<Transform>(s).unwrap().translation = Vec3::new(-8.0, 1.0, 0.0);
        run(&mut app, 2);
        assert_eq!(entered(&app).last(), Some(&(s, d)));
        assert_eq!(entered(&app).len(), 3);
        app.world_mut().get_mut::<Transform>(s).unwrap().translation = Vec3::new(-8.0, 1.0, 10.0);
        run(&mut app, 2);
        assert_eq!(left(&app).len(), 3);
        // Despawned with a character inside: left; a character despawned inside: left.
        let t = sensor(&mut app, Vec3::new(-8.0, 1.0, 0.0));
        run(&mut app, 2);
        assert_eq!(entered(&app).last(), Some(&(t, d)));
        app.world_mut().despawn(t);
        run(&mut app, 2);
        assert_eq!(left(&app).last(), Some(&(t, d)));
        let u = sensor(&mut app, Vec3::new(-8.0, 1.0, 0.0));
        run(&mut app, 2);
        assert_eq!(entered(&app).last(), Some(&(u, d)));
        app.world_mut().despawn(d);
        run(&mut app, 2);
        assert_eq!(left(&app).last(), Some(&(u, d)));
        // Nothing fired twice, nothing more.
        run(&mut app, ticks(1.0));
        assert_eq!((entered(&app).len(), left(&app).len()), (5, 5));
    });
}

#[test]
fn the_overlaps_read_agree_with_the_entered_and_left_messages() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        log::<EnteredSensor>(&mut app);
        log::<LeftSensor>(&mut app);
        // Two sensors overlapping at x 3.5…4, a third further on.
        let sensors = [
            sensor(&mut app, Vec3::new(3.0, 1.0, 0.0)),
            sensor(&mut app, Vec3::new(4.5, 1.0, 0.0)),
            sensor(&mut app, Vec3::new(8.0, 1.0, 0.0)),
        ];
        let c = character(&mut app, Vec3::ZERO);
        let idle = character(&mut app, Vec3::new(0.0, 0.0, 5.0));
        walk(&mut app, c, Vec3::X);
        let mut most = 0;
        run_frames(&mut app, ticks(3.5), |app| {
            // What the messages so far say `c` is in, in sorted order.
            let mut inside: Vec<Entity> = Vec::new();
            let entered = logged::<EnteredSensor>(app);
            let left = logged::<LeftSensor>(app);
            for s in sensors {
                let ins = entered.iter().filter(|m| m.sensor == s && m.character == c).count();
                let outs = left.iter().filter(|m| m.sensor == s && m.character == c).count();
                if ins > outs {
                    inside.push(s);
                }
            }
            inside.sort_unstable();
            let overlaps = app.world().resource::<SensorOverlaps>();
            let mut read = overlaps.of(c).to_vec();
            read.sort_unstable();
            assert_eq!(read, inside, "at {}", get(app, c).position);
            assert!(overlaps.of(idle).is_empty());
            most = most.max(read.len());
        });
        assert!(get(&app, c).position.x > 9.5, "walked to {}", get(&app, c).position);
        assert_eq!(most, 2, "never in both overlapping sensors");
        assert_eq!(
            (logged::<EnteredSensor>(&app).len(), logged::<LeftSensor>(&app).len()),
            (3, 3)
        );
        // Spawned inside, then despawned: in it, then in nothing.
        let d = character(&mut app, Vec3::new(8.0, 0.0, 0.0));
        run(&mut app, 2);
        assert_eq!(app.world().resource::<SensorOverlaps>().of(d), &[sensors[2]]);
        app.world_mut().despawn(d);
        run(&mut app, 2);
        assert!(app.world().resource::<SensorOverlaps>().of(d).is_empty());
        assert_eq!(logged::<LeftSensor>(&app).last().map(|m| m.character), Some(d));
    });
}

#[test]
fn sensor_layers_choose_the_characters_and_the_world_answers_overlaps() {
    let mut app = app_at(Pacing::FramesPerTick(2));
    floor(&mut app);
    log::<EnteredSensor>(&mut app);
    let s = sensor(&mut app, Vec3::new(0.0, 1.0, 0.0));
    app.world_mut().entity_mut(s).insert(SlidewalkLayers::new(1, 2));
    let player = character(&mut app, Vec3::ZERO);
    app.world_mut()
        .entity_mut(player)
        .insert(SlidewalkLayers::new(2, u32::MAX));
    let other = character(&mut app, Vec3::new(0.5, 0.0, 0.0));
    app.world_mut()
        .entity_mut(other)
        .insert(SlidewalkLayers::new(4, u32::MAX));
    run(&mut app, 3);
    let entered: Vec<Entity> = logged::<EnteredSensor>(&app).iter().map(|m| m.character).collect();
    assert_eq!(entered, vec![player]);
    // The query, for any ellipsoid.
    let world = app.world().resource::<CollisionWorld>();
    let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
    let mut out = Vec::new();
    world.overlapping_sensors(&e, Vec3::new(0.0, 1.0, 0.0), SlidewalkLayers::ALL, &mut out);
    assert_eq!(out, vec![s]);
    out.clear();
    world.overlapping_sensors(
        &e,
        Vec3::new(0.0, 1.0, 0.0),
        SlidewalkLayers::new(4, u32::MAX),
        &mut out,
    );
    assert!(out.is_empty());
    world.overlapping_sensors(&e, Vec3::new(1.35, 1.0, 0.0), SlidewalkLayers::ALL, &mut out);
    assert_eq!(out, vec![s], "touching its side");
    out.clear();
    world.overlapping_sensors(&e, Vec3::new(1.5, 1.0, 0.0), SlidewalkLayers::ALL, &mut out);
    assert!(out.is_empty());
    assert_eq!(world.sensor_count(), 1);
}

#[test]
fn thousands_of_sensors_are_found_by_their_grid() {
    let mut app = app_at(Pacing::FramesPerTick(1));
    floor(&mut app);
    log::<EnteredSensor>(&mut app);
    let triangles = || {
        let mut s = sweep::test_util::Soup::default();
        s.cuboid(Vec3::splat(-0.5), Vec3::splat(0.5));
        (s.positions, s.triangles)
    };
    let mut ids = Vec::new();
    for k in 0..5000 {
        let at = Vec3::new((k % 100) as f32 * 3.0 - 150.0, 0.5, (k / 100) as f32 * 3.0 - 75.0);
        let (p, t) = triangles();
        ids.push(
            app.world_mut()
                .spawn((
                    SlidewalkCollider::triangles(p, t),
                    Transform::from_translation(at),
                    SlidewalkSensor,
                ))
                .id(),
        );
    }
    let c = character(&mut app, Vec3::new(-150.0, 0.0, -75.0 + 3.0));
    run(&mut app, 2);
    assert_eq!(app.world().resource::<CollisionWorld>().sensor_count(), 5000);
    let entered: Vec<Entity> = logged::<EnteredSensor>(&app).iter().map(|m| m.sensor).collect();
    assert_eq!(entered, vec![ids[100]]);
    let _ = c;
}

#[test]
fn resting_small_colliders_merge_by_their_rules() {
    let mut app = app_at(Pacing::FramesPerTick(1));
    let ground = floor(&mut app);
    let a = solid_box(&mut app, Vec3::new(2.0, 0.2, 2.0), Vec3::new(-3.0, 1.0, 0.0));
    let b = solid_box(&mut app, Vec3::new(2.0, 0.2, 2.0), Vec3::new(3.0, 1.0, 0.0));
    let c = solid_box(&mut app, Vec3::new(2.0, 0.2, 2.0), Vec3::new(0.0, 1.0, 4.0));
    for e in [a, b] {
        app.world_mut().entity_mut(e).insert(OneWay::default());
    }
    app.world_mut().entity_mut(c).insert(SlidewalkLayers::new(1, 4));
    run(&mut app, 2);
    let world = app.world().resource::<CollisionWorld>();
    let index = |e: Entity| world.index_of(e).unwrap();
    // The two one-way platforms share one structure, the plain floor has
    // its own, the layered box its own.
    assert!([ground, a, b, c].iter().all(|&e| world.is_merged(e)));
    assert_eq!(index(a), index(b));
    assert_ne!(index(a), index(ground));
    assert_ne!(index(c), index(ground));
    assert_ne!(index(c), index(a));
    let placed = world.placed();
    assert_eq!(placed[index(a)].one_way, Some(Vec3::Y));
    assert_eq!(
        placed[index(c)].layers,
        bevy_slidewalk::sweep::CollisionLayers::new(1, 4)
    );
    assert_eq!(placed[index(ground)].one_way, None);
}
