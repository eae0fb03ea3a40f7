//! Walking, riding and being pushed: stairs, platforms a user system
//! moves, a door, the schedule the plugin runs in, the drawn transform
//! between ticks, a bad config, and many characters at once.

use super::*;

#[test]
fn climbs_primitive_stairs_and_is_blocked_by_a_riser_above_its_step_height() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        // Eight 0.25 m risers along −z, then a landing at 2 m.
        for step in 0..8 {
            let h = 0.25 * (step + 1) as f32;
            solid_box(
                &mut app,
                Vec3::new(3.0, h, 0.4),
                Vec3::new(0.0, h / 2.0, -3.0 - 0.4 * step as f32),
            );
        }
        solid_box(&mut app, Vec3::new(3.0, 2.0, 6.0), Vec3::new(0.0, 1.0, -9.2));
        // A 0.5 m riser (above the 0.35 m step height) beside them.
        solid_box(&mut app, Vec3::new(3.0, 0.5, 4.0), Vec3::new(6.0, 0.25, -5.0));
        let climber = character(&mut app, Vec3::ZERO);
        let blocked = character(&mut app, Vec3::new(6.0, 0.0, 0.0));
        log::<SteppedUp>(&mut app);
        run(&mut app, 2);
        walk(&mut app, climber, Vec3::NEG_Z);
        walk(&mut app, blocked, Vec3::NEG_Z);
        let mut most = 0.0f32;
        run_frames(&mut app, ticks(2.2), |app| {
            most = most.max(penetration(app, climber)).max(penetration(app, blocked));
        });
        let c = get(&app, climber);
        assert!(
            (c.feet().y - 2.0).abs() < 0.01 && c.grounded(),
            "on the landing: {:?}",
            c.feet()
        );
        assert!(c.feet().z < -7.0, "{:?}", c.feet());
        let b = get(&app, blocked);
        assert!(
            b.feet().y.abs() < 0.01 && b.feet().z > -3.0 + 0.35,
            "held by the riser: {:?}",
            b.feet()
        );
        assert!(most < 1e-3, "penetrated {most} m");
        let steps = logged::<SteppedUp>(&app);
        // At least one for each riser; a riser may take a few ticks, each reported.
        assert!(steps.len() >= 8, "{} steps", steps.len());
        assert!(
            steps
                .iter()
                .all(|s| s.character == climber && s.height > 0.0 && s.height < 0.36),
            "{steps:?}"
        );
        let climbed: f32 = steps.iter().map(|s| s.height).sum();
        assert!(climbed > 1.0 && climbed <= 2.0, "{climbed} m climbed by steps");
    });
}

#[test]
fn rides_a_platform_moved_by_a_user_system_up_down_sideways_and_rotating() {
    let motions: [(&str, Motion); 3] = [
        ("up and down", |t| {
            (Vec3::Y * (2.0 - 2.0 * (t * 1.2).cos()), Quat::IDENTITY)
        }),
        ("sideways", |t| (Vec3::X * 3.0 * (t * 1.5).sin(), Quat::IDENTITY)),
        ("rotating", |t| (Vec3::ZERO, Quat::from_rotation_y(1.2 * t))),
    ];
    at_every_pacing(|pacing| {
        for (name, motion) in motions {
            let mut app = app_at(pacing);
            app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
            let pad = app
                .world_mut()
                .resource_mut::<Assets<Mesh>>()
                .add(Cuboid::new(4.0, 0.2, 4.0));
            // The mesh's top is 0.1 above the platform's origin.
            let platform = app
                .world_mut()
                .spawn((
                    Mesh3d(pad),
                    Transform::default(),
                    SlidewalkCollider::mesh(),
                    Moving(motion),
                ))
                .id();
            let rider = character(&mut app, Vec3::new(1.0, 0.1, 0.5));
            log::<BoardedMover>(&mut app);
            run(&mut app, 10);
            let (t0, r0) = motion(app.world().resource::<Time<Fixed>>().elapsed_secs());
            let start = r0.inverse() * (get(&app, rider).feet() - t0);
            let mut lowest = f32::MAX;
            let mut highest = f32::MIN;
            run_frames(&mut app, ticks(5.0), |app| {
                let top = app.world().get::<Transform>(platform).unwrap().translation.y + 0.1;
                let c = get(app, rider);
                let gap = c.feet().y - top;
                (lowest, highest) = (lowest.min(gap), highest.max(gap));
                let tick = ticks_run(app);
                assert!(c.grounded(), "{name}: lifted off at tick {tick}, {gap} m above");
                // Carried with the platform: its place on the pad is kept.
                let (t, r) = motion(app.world().resource::<Time<Fixed>>().elapsed_secs());
                let on_pad = r.inverse() * (c.feet() - t);
                assert!(
                    (on_pad.xz() - start.xz()).length() < 0.02,
                    "{name}: slid on the platform at tick {tick}: {on_pad} vs {start}"
                );
            });
            // The skin is 0.001 of the 0.9 m y radius: the feet rest that far
            // above the surface, never below it.
            let skin = 1e-3 * 0.9;
            assert!(lowest > 0.0, "{name}: dipped {lowest} m into the platform");
            assert!(highest < 5.0 * skin, "{name}: floated {highest} m above the platform");
            assert_eq!(logged::<BoardedMover>(&app).len(), 1, "{name}");
            // Walking off it, onto nothing: it is left once.
            log::<LeftMover>(&mut app);
            walk(&mut app, rider, Vec3::NEG_Z);
            run(&mut app, ticks(1.5));
            let left = logged::<LeftMover>(&app);
            assert_eq!(left.len(), 1, "{name}: {left:?}");
            assert_eq!((left[0].character, left[0].mover), (rider, platform));
        }
    });
}

#[test]
fn characters_move_in_the_schedule_the_plugin_is_given() {
    assert!(!SlidewalkPlugin::in_schedule(Update).interpolate);
    at_every_pacing(|pacing| {
        // In Update: one step a frame, by the frame's time, drawn where it is.
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin::default(),
            MeshPlugin,
            SlidewalkPlugin::in_schedule(Update),
        ));
        paced(&mut app, pacing);
        floor(&mut app);
        let c = character(&mut app, Vec3::ZERO);
        run(&mut app, 20);
        assert!(get(&app, c).grounded());
        walk(&mut app, c, Vec3::X);
        run(&mut app, 60);
        let moved = get(&app, c);
        assert!(moved.feet().x > 1.0, "walked in Update: {:?}", moved.feet());
        let drawn = app.world().get::<Transform>(c).unwrap().translation;
        assert_eq!(drawn, moved.position, "not interpolated outside a fixed schedule");
    });
}

#[test]
fn the_drawn_transform_is_interpolated_between_ticks() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        let c = character(&mut app, Vec3::ZERO);
        run(&mut app, 20);
        walk(&mut app, c, Vec3::X);
        // The centre at the end of every tick, as a system of the game
        // after the plugin's step sees it.
        #[derive(Resource, Default)]
        struct TickEnds(Vec<Vec3>);
        let record = move |states: Query<&MovementState>, mut ends: ResMut<TickEnds>| {
            ends.0.push(states.get(c).unwrap().position);
        };
        app.init_resource::<TickEnds>().add_systems(FixedLast, record);
        run(&mut app, 40);
        let (mut between, mut drawn_frames) = (0, 0);
        run_frames(&mut app, 20, |app| {
            let drawn = app.world().get::<Transform>(c).unwrap().translation;
            // Drawn between the ends of the last two ticks.
            let ends = &app.world().resource::<TickEnds>().0;
            let (from, to) = (ends[ends.len() - 2], ends[ends.len() - 1]);
            assert!(
                drawn.x >= from.x - 1e-6 && drawn.x <= to.x + 1e-6,
                "{drawn} outside {from}..{to}"
            );
            between += (drawn.x > from.x + 1e-4 && drawn.x < to.x - 1e-4) as usize;
            drawn_frames += 1;
        });
        // Every frame but the one with the tick is drawn part of the way.
        let n = pacing.frames_per_tick() as usize;
        assert_eq!(between, drawn_frames * (n - 1) / n, "frames drawn between two ticks");
    });
}

#[test]
fn a_rotating_door_pushes_the_character_and_crushes_it_against_a_wall() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        app.add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare));
        floor(&mut app);
        // A wall on the −x side of the door's hinge, which the door does not reach.
        solid_box(&mut app, Vec3::new(2.0, 3.0, 6.0), Vec3::new(-1.35, 1.5, 3.0));
        // And one just beyond the door's reach: no way out of the closing wedge.
        solid_box(&mut app, Vec3::new(6.0, 3.0, 1.0), Vec3::new(1.0, 1.5, 3.55));
        // A 3 m door hinged at the origin, swinging from +x towards +z.
        let panel = app
            .world_mut()
            .resource_mut::<Assets<Mesh>>()
            .add(Cuboid::new(3.0, 2.2, 0.1));
        let swing: Motion = |t| {
            (
                Vec3::ZERO,
                Quat::from_rotation_y(-(0.6 * t).min(std::f32::consts::FRAC_PI_2)),
            )
        };
        let door = app.world_mut().spawn((Transform::default(), Moving(swing))).id();
        app.world_mut().spawn((
            Mesh3d(panel),
            Transform::from_xyz(1.5, 1.1, 0.0),
            SlidewalkCollider::mesh(),
            ChildOf(door),
        ));
        let stander = character(&mut app, Vec3::new(1.2, 0.0, 0.8));
        log::<Crushed>(&mut app);
        run(&mut app, 5);
        let start = get(&app, stander).position;
        let mut pushed = false;
        run_frames(&mut app, ticks(4.0), |app| {
            let r = report(app, stander);
            pushed |= r.tick.pushed.length() > 0.0;
            if !r.tick.crushed {
                assert!(penetration(app, stander) < 1e-3);
            }
        });
        let moved = get(&app, stander).position - start;
        assert!(pushed && moved.length() > 0.5, "pushed by the door: {moved}");
        // Squeezed between the door and the wall (a game turns the door back).
        let crushed = logged::<Crushed>(&app);
        assert!(!crushed.is_empty(), "crushed against the wall");
        let panel_entity = app.world().get::<Children>(door).unwrap()[0];
        assert!(
            crushed
                .iter()
                .all(|c| c.character == stander && c.by.contains(&panel_entity)),
            "{crushed:?}"
        );
    });
}

#[test]
fn an_invalid_config_is_refused_and_a_character_spawned_inside_geometry_is_pushed_out() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        let c = character(&mut app, Vec3::ZERO);
        log::<ConfigRefused>(&mut app);
        run(&mut app, 10);
        let (before, config_before) = (get(&app, c), config(&app, c));
        app.world_mut()
            .get_mut::<CharacterController>(c)
            .unwrap()
            .config
            .walk_speed = f32::NAN;
        run(&mut app, 1);
        let after = get(&app, c);
        assert_eq!(config(&app, c), config_before, "the last valid config is back");
        assert_eq!(after.position, before.position, "left where it was");
        let refused = logged::<ConfigRefused>(&app);
        assert_eq!(refused.len(), 1, "one message for one refusal");
        assert_eq!(refused[0].character, c);
        assert!(
            refused[0].error.to_string().contains("walk_speed"),
            "{}",
            refused[0].error
        );
        // Radii beyond the accepted range are refused the same way.
        app.world_mut()
            .get_mut::<CharacterController>(c)
            .unwrap()
            .config
            .standing_radii = Vec3::splat(150.0);
        run(&mut app, 1);
        let after = get(&app, c);
        assert_eq!(config(&app, c), config_before, "the last valid config is back");
        assert_eq!(after.radii, before.radii);
        // Spawned half inside a box.
        let boxed = solid_box(&mut app, Vec3::new(2.0, 2.0, 2.0), Vec3::new(5.0, 1.0, 5.0));
        let inside = character(&mut app, Vec3::new(5.0, 1.5, 5.0));
        run(&mut app, 3);
        assert!(penetration(&app, inside) < 1e-3, "pushed out");
        assert!(app.world().resource::<CollisionWorld>().index_of(boxed).is_some());
    });
}

/// The messages of type `M` about character `e` (`of` names a message's
/// character), as text, the character itself written "me".
fn said_by<M: Message + Clone + std::fmt::Debug>(app: &App, e: Entity, of: impl Fn(&M) -> Entity) -> Vec<String> {
    logged::<M>(app)
        .iter()
        .filter(|m| of(m) == e)
        .map(|m| format!("{m:?}").replace(&format!("{e:?}"), "me"))
        .collect()
}

/// Crowd member `i` of [`crowd_walk`].
#[derive(Component)]
struct Member(usize);

/// Each tick, every member walks a way of its own, jumping now and then
/// (what a game's AI would write).
fn steer_members(time: Res<Time>, mut members: Query<(&Member, &mut MovementIntent)>) {
    let tick = (time.elapsed().as_nanos() / TICK.as_nanos()) as usize;
    for (m, mut intent) in &mut members {
        let heading = m.0 as f32 * 0.7 + tick as f32 * 0.01;
        intent.direction = Vec3::new(heading.cos(), 0.0, heading.sin());
        intent.jump = (tick + m.0).is_multiple_of(50);
    }
}

/// Characters `which` of a crowd on a floor with boxes (character `i`
/// starts at a place of its own) for `ticks` ticks: their final states
/// and, per character, what its messages said.
fn crowd_walk(
    pacing: Pacing,
    which: std::ops::Range<usize>,
    ticks: usize,
) -> Vec<(bevy_slidewalk::CharacterState, Vec<String>)> {
    let mut app = app_at(pacing);
    log::<Jumped>(&mut app);
    log::<Landed>(&mut app);
    log::<Footstep>(&mut app);
    log::<SteppedUp>(&mut app);
    log::<HitWall>(&mut app);
    app.add_systems(FixedUpdate, steer_members.before(SlidewalkSystems::Prepare));
    floor(&mut app);
    for k in 0..6 {
        let x = -9.0 + 3.5 * k as f32;
        solid_box(
            &mut app,
            Vec3::new(1.0, 0.3 + 0.05 * k as f32, 6.0),
            Vec3::new(x, 0.1, 0.0),
        );
    }
    let characters: Vec<Entity> = which
        .map(|i| {
            let feet = Vec3::new(-12.0 + 2.0 * (i % 12) as f32, 0.0, -12.0 + 2.0 * (i / 12) as f32);
            let e = character(&mut app, feet);
            app.world_mut().entity_mut(e).insert(Member(i));
            e
        })
        .collect();
    run(&mut app, ticks);
    let said = |e: Entity| {
        [
            said_by(&app, e, |m: &Jumped| m.character),
            said_by(&app, e, |m: &Landed| m.character),
            said_by(&app, e, |m: &Footstep| m.character),
            said_by(&app, e, |m: &SteppedUp| m.character),
            said_by(&app, e, |m: &HitWall| m.character),
        ]
        .concat()
    };
    characters.iter().map(|&e| (get(&app, e).0, said(e))).collect()
}

/// Many characters are stepped on several threads: each walks exactly as
/// it does among a few stepped one after another (bit for bit), and says
/// the same messages; at every pacing, the same walk.
#[test]
fn many_characters_walk_as_few_do() {
    let once = crowd_walk(PACINGS[0], 0..120, 150);
    at_every_pacing(|pacing| {
        let many = crowd_walk(pacing, 0..120, 150);
        // Fewer than the plugin steps in parallel, four times over.
        let few: Vec<_> = (0..4)
            .flat_map(|k| crowd_walk(pacing, 30 * k..30 * (k + 1), 150))
            .collect();
        assert_eq!(many.len(), few.len());
        let mut messages = 0;
        for (i, (a, b)) in many.iter().zip(&few).enumerate() {
            assert_eq!(a.0, b.0, "character {i}'s state");
            assert_eq!(a.1, b.1, "character {i}'s messages");
            assert_eq!(a.0, once[i].0, "character {i}'s state as at one frame a tick");
            messages += a.1.len();
        }
        // They walked, jumped, landed and met the boxes.
        let moved = many.iter().filter(|(s, _)| s.position.x.abs() > 0.0).count();
        assert!(messages > 800 && moved == 120, "{messages} messages");
    });
}

#[test]
fn a_config_written_while_inactive_is_taken_when_active_again() {
    at_every_pacing(|pacing| {
        let mut app = app_at(pacing);
        floor(&mut app);
        let c = character(&mut app, Vec3::ZERO);
        run(&mut app, 10);
        app.world_mut().get_mut::<CharacterController>(c).unwrap().active = false;
        run(&mut app, 2);
        app.world_mut()
            .get_mut::<CharacterController>(c)
            .unwrap()
            .config
            .walk_speed = 2.0;
        run(&mut app, 2);
        app.world_mut().get_mut::<CharacterController>(c).unwrap().active = true;
        walk(&mut app, c, Vec3::X);
        run(&mut app, 90);
        let speed = get(&app, c).velocity.length();
        assert!((speed - 2.0).abs() < 1e-3, "walks at {speed} m/s");
    });
}
