//! The level as collider entities: the lift turning back on the player under it, every surface's friction.

use super::*;

#[test]
fn the_lift_coming_down_on_the_player_under_it_turns_back_and_never_presses_it_into_the_floor() {
    // The player walks under the raised lift of the demo level and stands
    // there; the lift comes down on it, turns back, waits up there and
    // comes down again.
    let options = Options {
        spawn: Some(Vec3::new(-14.75, 0.0, -17.0)),
        ..Options::default()
    };
    let mut app = scripted_app(
        &options,
        r#"{"steps": [{"for_s": 5.0, "yaw_deg": 0}, {"for_s": 0.9, "move": [0, 1]}, {"for_s": 60, "move": [0, 0]}]}"#,
    );
    let lift_y = |app: &mut App| {
        let mut q = app.world_mut().query::<&slidewalk::sim::level::MoverBody>();
        q.iter(app.world())
            .find(|m| m.lift_s.is_some())
            .unwrap()
            .pose
            .translation
            .y
    };
    let (mut squeezes, mut lowest_over_head) = (0, f32::INFINITY);
    let mut turned_back = false;
    let mut last_y = lift_y(&mut app);
    for tick in 0..20 * 60 {
        app.update();
        let body = player(&mut app);
        let y = lift_y(&mut app);
        let report = &app.world().resource::<slidewalk::sim::player::RunStats>().summary;
        let under = (body.position.x + 14.75).abs() < 1.2 && (body.position.z + 21.0).abs() < 1.2;
        if tick > 6 * 60 {
            assert!(
                under,
                "tick {tick}: the player left the lift's shaft: {}",
                body.position
            );
            // Feet on the floor, never pressed into it.
            assert!(body.feet().y > -1e-3, "tick {tick}: feet at {}", body.feet());
            lowest_over_head = lowest_over_head.min(y - (body.position.y + body.radii.y));
            if y > last_y && last_y < 3.0 {
                turned_back = true;
            }
        }
        squeezes = report.crushed_ticks;
        last_y = y;
    }
    assert!(squeezes > 0, "the lift never came down on the player");
    assert!(turned_back, "the lift never turned back");
    // The deck's underside never went more than a few ticks' travel (1.5 m/s) into the head.
    assert!(
        lowest_over_head > -0.1,
        "the deck came {lowest_over_head} m into the player's head"
    );
}

#[test]
fn every_surface_keeps_its_friction_as_collider_entities() {
    // The level's statics, doors and lifts are the plugin's colliders,
    // numbered as the plugin numbers them: what the game's systems read
    // through `Colliders` (and hand to the crowd and the balls) must be
    // the level's own friction for every triangle.
    let mut app = standing_app(&Options::default(), Vec3::new(0.0, 0.0, 4.0));
    let level = app
        .world()
        .resource::<slidewalk::sim::level::CurrentLevel>()
        .level
        .clone()
        .expect("a level is open");
    let mut state = bevy::ecs::system::SystemState::<(
        slidewalk::sim::colliders::Colliders,
        Res<bevy_slidewalk::CollisionWorld>,
        Query<Entity, With<slidewalk::sim::level::LevelStatics>>,
        Query<(Entity, &slidewalk::sim::level::MoverBody)>,
    )>::new(app.world_mut());
    let (colliders, world, statics, movers) = state.get(app.world()).unwrap();
    let statics = statics.single().unwrap();
    let index = world.index_of(statics).unwrap();
    let friction_of = |surface: u16| level.surfaces[surface as usize].friction;
    let mut seen_ice = false;
    for (t, &surface) in level.static_surfaces.iter().enumerate() {
        // Merged or not, the index's triangle numbering starts at the statics' own.
        let Some((entity, local)) = world.locate(index, t as u32).filter(|_| !world.is_merged(statics)) else {
            continue;
        };
        assert_eq!((entity, local), (statics, t as u32));
        assert_eq!(
            colliders.friction(index, t as u32),
            friction_of(surface),
            "static triangle {t}"
        );
        seen_ice |= friction_of(surface) < 0.5;
    }
    assert!(seen_ice, "the demo level has ice");
    for (entity, body) in &movers {
        let i = world.index_of(entity).unwrap();
        let expected = friction_of(level.movers[body.index].surface);
        if !world.is_merged(entity) {
            assert_eq!(colliders.friction(i, 0), expected, "mover {}", body.index);
            assert_eq!(colliders.mover_of(i), Some(body.index));
        }
    }
}
