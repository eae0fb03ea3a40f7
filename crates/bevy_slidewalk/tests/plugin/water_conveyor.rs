//! Colliders that move a character by where it is: a [`Conveyor`] carries
//! a character standing on it at its surface velocity (in the entity's
//! frame, turned with it), and a [`Water`] sensor's box answers the depth
//! of a point below its surface (through the world's lookup, and through
//! a character walking into it: its water level and its messages).

use super::*;
use bevy_slidewalk::controller::WaterLevel;

/// The character's feet after 1 s standing still on a conveyor (after a
/// first tick to find the ground), from where they were.
fn carried_in_one_second(app: &mut App, e: Entity) -> Vec3 {
    run(app, 1);
    let start = get(app, e).feet();
    run(app, ticks(1.0));
    get(app, e).feet() - start
}

#[test]
fn a_character_standing_on_a_conveyor_is_carried_at_its_velocity() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        // A belt along +x at 2 m/s, its top at y = 0.
        let belt = solid_box(&mut app, Vec3::new(40.0, 1.0, 6.0), Vec3::new(0.0, -0.5, 0.0));
        app.world_mut()
            .entity_mut(belt)
            .insert(Conveyor(Vec3::new(2.0, 0.0, 0.0)));
        // The same belt turned a quarter about +y: its local +x is the world's −z.
        let turned = solid_box(&mut app, Vec3::new(40.0, 1.0, 6.0), Vec3::new(0.0, -0.5, 50.0));
        app.world_mut()
            .entity_mut(turned)
            .insert(Conveyor(Vec3::new(2.0, 0.0, 0.0)))
            .get_mut::<Transform>()
            .unwrap()
            .rotation = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let a = character(&mut app, Vec3::new(-5.0, 0.0, 0.0));
        let b = character(&mut app, Vec3::new(0.0, 0.0, 50.0));
        run(&mut app, 1);
        let (from_a, from_b) = (get(&app, a).feet(), get(&app, b).feet());
        run(&mut app, ticks(1.0));
        let moved_a = get(&app, a).feet() - from_a;
        let moved_b = get(&app, b).feet() - from_b;
        println!("{pacing:?}: carried {moved_a} along the belt, {moved_b} along the turned one in 1 s");
        for (name, moved, along) in [("belt", moved_a, Vec3::X), ("turned", moved_b, Vec3::NEG_Z)] {
            assert!(
                (moved.dot(along) - 2.0).abs() < 0.1 && (moved - along * moved.dot(along)).length() < 0.02,
                "{name}: carried {moved}"
            );
        }
        for e in [a, b] {
            assert!(get(&app, e).grounded());
            assert!(penetration(&app, e) < 1e-3);
        }
        // Taken away, it carries no more.
        app.world_mut().entity_mut(belt).remove::<Conveyor>();
        let still = carried_in_one_second(&mut app, a);
        assert!(still.length() < 0.01, "carried {still} after the conveyor was removed");
    });
}

/// A water box, its top at `top` (y, metres), `size` metres, centred at
/// `x`, `z`: a sensor (`Water` adds `SlidewalkSensor`).
fn pool(app: &mut App, size: Vec3, x: f32, top: f32, z: f32) -> Entity {
    let water = solid_box(app, size, Vec3::new(x, top - size.y / 2.0, z));
    app.world_mut().entity_mut(water).insert(Water);
    water
}

#[test]
fn a_water_box_gives_the_depth_below_its_surface() {
    let mut app = app_at(Pacing::FramesPerTick(1));
    floor(&mut app);
    run(&mut app, 1);
    {
        let world = app.world().resource::<CollisionWorld>();
        assert!(!world.has_water());
        assert_eq!(
            world.water_depth(Vec3::new(0.0, -0.5, 0.0), Vec3::Y, SlidewalkLayers::ALL),
            None
        );
    }
    // 4 × 2 × 4 m, its top at y = 2; a second box stacked on its right half up to y = 3.
    let low = pool(&mut app, Vec3::new(4.0, 2.0, 4.0), 0.0, 2.0, 0.0);
    pool(&mut app, Vec3::new(2.0, 1.0, 4.0), 1.0, 3.0, 0.0);
    // 6 m long along its local x, turned a quarter about z: 6 m tall, its top at y = 6.
    let tall = pool(&mut app, Vec3::new(6.0, 2.0, 2.0), 10.0, 0.0, 0.0);
    app.world_mut().get_mut::<Transform>(tall).unwrap().rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    app.world_mut().get_mut::<Transform>(tall).unwrap().translation = Vec3::new(10.0, 3.0, 0.0);
    // Only for layer 1.
    let picky = pool(&mut app, Vec3::new(2.0, 2.0, 2.0), 20.0, 2.0, 0.0);
    app.world_mut().entity_mut(picky).insert(SlidewalkLayers::new(1, 1));
    run(&mut app, 1);
    assert!(
        app.world().get::<SlidewalkSensor>(low).is_some(),
        "Water adds SlidewalkSensor"
    );
    let world = app.world().resource::<CollisionWorld>();
    assert!(world.has_water());
    let depth = |p: Vec3| world.water_depth(p, Vec3::Y, SlidewalkLayers::ALL);
    let near = |got: Option<f32>, want: f32| got.is_some_and(|d| (d - want).abs() < 1e-4);
    for (point, want) in [
        (Vec3::new(-1.0, 1.5, 0.0), 0.5),
        (Vec3::new(-1.0, 0.25, 1.5), 1.75),
        // Under the stacked box: through both, to y = 3.
        (Vec3::new(1.0, 1.5, 0.0), 1.5),
        (Vec3::new(1.0, 2.5, 0.0), 0.5),
        (Vec3::new(10.0, 1.0, 0.0), 5.0),
        (Vec3::new(10.5, 5.5, 0.5), 0.5),
    ] {
        assert!(near(depth(point), want), "{point}: {:?}, not {want}", depth(point));
    }
    // Outside: above, beside, below, between.
    for point in [
        Vec3::new(-1.0, 2.5, 0.0),
        Vec3::new(-2.5, 1.0, 0.0),
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(5.0, 1.0, 0.0),
        Vec3::new(11.5, 3.0, 0.0),
    ] {
        assert_eq!(depth(point), None, "{point}");
    }
    // "Up" sideways: out through the side.
    let sideways = world.water_depth(Vec3::new(-1.0, 1.0, 0.0), Vec3::NEG_X * 3.0, SlidewalkLayers::ALL);
    assert!(near(sideways, 1.0), "{sideways:?}");
    assert_eq!(
        world.water_depth(Vec3::new(-1.0, 1.0, 0.0), Vec3::ZERO, SlidewalkLayers::ALL),
        None
    );
    // Layers: the picky pool wets only what meets layer 1.
    let inside = Vec3::new(20.0, 1.0, 0.0);
    assert!(near(world.water_depth(inside, Vec3::Y, SlidewalkLayers::ALL), 1.0));
    assert!(near(
        world.water_depth(inside, Vec3::Y, SlidewalkLayers::new(1, 1)),
        1.0
    ));
    assert_eq!(world.water_depth(inside, Vec3::Y, SlidewalkLayers::new(2, 2)), None);
    println!(
        "depth 0.5 m below a surface: {:?}; 1.5 m under two stacked boxes: {:?}; beside: {:?}",
        depth(Vec3::new(-1.0, 1.5, 0.0)),
        depth(Vec3::new(1.0, 1.5, 0.0)),
        depth(Vec3::new(-2.5, 1.0, 0.0))
    );
    // Water taken away (its sensor left): dry there, and the sensor is no water.
    for e in [low, tall, picky] {
        app.world_mut().entity_mut(e).remove::<Water>();
    }
    run(&mut app, 1);
    let world = app.world().resource::<CollisionWorld>();
    assert!(world.has_water());
    assert_eq!(
        world.water_depth(Vec3::new(-1.0, 1.5, 0.0), Vec3::Y, SlidewalkLayers::ALL),
        None
    );
    assert!(near(
        world.water_depth(Vec3::new(1.0, 2.5, 0.0), Vec3::Y, SlidewalkLayers::ALL),
        0.5
    ));
}

#[test]
fn a_character_wading_through_water_is_told_in_and_out() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        log::<EnteredWater>(&mut app);
        log::<LeftWater>(&mut app);
        // A pool 4 m long across the way, water 1.2 m deep on the floor.
        pool(&mut app, Vec3::new(4.0, 1.2, 10.0), 4.0, 1.2, 0.0);
        let e = character(&mut app, Vec3::ZERO);
        walk(&mut app, e, Vec3::X);
        let mut deepest = report(&app, e).tick.water;
        run_frames(&mut app, ticks(4.0), |app| {
            deepest = deepest.max(report(app, e).tick.water);
        });
        let feet = get(&app, e).feet();
        println!("{pacing:?}: deepest {deepest:?}, feet at {feet}");
        assert!(feet.x > 8.0, "stuck at {feet}");
        assert!(deepest >= WaterLevel::Feet, "{deepest:?}");
        let entered = logged::<EnteredWater>(&app);
        assert_eq!(entered.len(), 1, "{entered:?}");
        assert!((entered[0].position.x - 2.0).abs() < 0.5, "{entered:?}");
        assert_eq!(logged::<LeftWater>(&app).len(), 1);
        assert_eq!(report(&app, e).tick.water, WaterLevel::Dry);
    });
}
