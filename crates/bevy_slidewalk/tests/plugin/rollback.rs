//! Rollback under bevy_ggrs (the `ggrs` feature): ggrs's sync-test session
//! simulates every tick again 8 ticks later from a snapshot and compares
//! checksums. Four characters on scripted inputs walk, jump, crouch, ride
//! a lift and are pushed by a door for 1,200 ticks at 60 Hz with no
//! mismatch, each event written once; a control that leaves the lift's
//! clock out of the rollback shows the same test failing; a second
//! session writes its own events.

use super::*;
use bevy_slidewalk::SlidewalkRollbackPlugin;
use bevy_slidewalk::bevy_ggrs::ggrs::{PlayerType, SessionBuilder};
use bevy_slidewalk::bevy_ggrs::prelude::*;
use bevy_slidewalk::bevy_ggrs::{LocalInputs, LocalPlayers, RollbackFrameCount};
use std::f32::consts::TAU;

type Config = GgrsConfig<u8>;

const FORWARD: u8 = 1;
const BACK: u8 = 2;
const LEFT: u8 = 4;
const RIGHT: u8 = 8;
const JUMP: u8 = 16;
const CROUCH: u8 = 32;

/// Which player's input moves a character.
#[derive(Component, Clone, Copy)]
struct Handle(usize);

/// Ticks since the start: the lift and the door move by it (rolled back,
/// but for the control).
#[derive(Resource, Clone, Copy, Default)]
struct MoverClock(u32);

/// Frames of input read so far (not rolled back: input is not state).
#[derive(Resource, Default)]
struct InputFrame(u32);

#[derive(Component)]
struct Lift;

#[derive(Component)]
struct Door;

#[derive(Resource, Default)]
struct Mismatches(usize);

/// What each of the four players presses on input frame `f`.
fn scripted(handle: usize, f: u32) -> u8 {
    let turn = [FORWARD, RIGHT, BACK, LEFT];
    match handle {
        // Walks a square, jumping every 1.5 s.
        0 => turn[(f / 120 % 4) as usize] | if f % 90 == 30 { JUMP } else { 0 },
        // Crouches for 4 s, then walks upright for 4 s.
        1 => turn[(f / 150 % 4) as usize] | if (f / 240).is_multiple_of(2) { CROUCH } else { 0 },
        // Rides the lift, stepping about on it now and then.
        2 => {
            if f % 200 < 20 {
                turn[(f / 200 % 4) as usize]
            } else {
                0
            }
        }
        // Stands in the door's way; walks back into it now and then.
        _ => {
            if f % 300 < 30 {
                LEFT
            } else {
                0
            }
        }
    }
}

fn read_inputs(mut commands: Commands, local: Res<LocalPlayers>, mut frame: ResMut<InputFrame>) {
    frame.0 += 1;
    let inputs = local.0.iter().map(|&h| (h, scripted(h, frame.0))).collect();
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

fn apply_inputs(inputs: Res<PlayerInputs<Config>>, mut characters: Query<(&Handle, &mut MovementIntent)>) {
    for (handle, mut intent) in &mut characters {
        let bits = inputs[handle.0].0;
        let axis = |plus: u8, minus: u8| f32::from(u8::from(bits & plus != 0)) - f32::from(u8::from(bits & minus != 0));
        intent.direction = Vec3::new(axis(RIGHT, LEFT), 0.0, -axis(FORWARD, BACK)).normalize_or_zero();
        intent.jump = bits & JUMP != 0;
        intent.jump_held = intent.jump;
        intent.crouch = bits & CROUCH != 0;
    }
}

/// The lift rises 3 m and comes back every 8 s; the door slides 8 m
/// across the fourth character's place every 6 s.
fn move_movers(
    mut clock: ResMut<MoverClock>,
    mut lifts: Query<&mut Transform, (With<Lift>, Without<Door>)>,
    mut doors: Query<&mut Transform, (With<Door>, Without<Lift>)>,
) {
    clock.0 += 1;
    let t = clock.0 as f32 / 60.0;
    for mut lift in &mut lifts {
        lift.translation.y = -0.25 + 1.5 - 1.5 * (TAU * t / 8.0).cos();
    }
    for mut door in &mut doors {
        door.translation.x = -10.0 + 4.0 * (TAU * t / 6.0).sin();
    }
}

/// The four characters' scene under a sync-test session of `check_distance`
/// ticks; `clock_rolled_back` false leaves the movers' clock out.
fn sync_test_app(check_distance: usize, clock_rolled_back: bool) -> (App, [Entity; 4]) {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        MeshPlugin,
        GgrsPlugin::<Config>::default(),
        SlidewalkPlugin::in_schedule(GgrsSchedule),
        SlidewalkRollbackPlugin,
    ))
    .insert_resource(RollbackFrameRate(60))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(16_666_667)))
    .init_resource::<MoverClock>()
    .init_resource::<InputFrame>()
    .init_resource::<Mismatches>()
    .add_systems(ReadInputs, read_inputs)
    .add_systems(
        GgrsSchedule,
        (apply_inputs, move_movers).before(SlidewalkSystems::Prepare),
    )
    .add_observer(|_: On<SyncTestMismatch>, mut m: ResMut<Mismatches>| m.0 += 1);
    if clock_rolled_back {
        app.rollback_resource_with_copy::<MoverClock>();
    }
    floor(&mut app);
    let lift = solid_box(&mut app, Vec3::new(3.0, 0.5, 3.0), Vec3::new(10.0, -0.25, 0.0));
    app.world_mut().entity_mut(lift).insert(Lift);
    let door = solid_box(&mut app, Vec3::new(0.5, 3.0, 4.0), Vec3::new(-10.0, 1.5, -10.0));
    app.world_mut().entity_mut(door).insert(Door);
    let feet = [
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(5.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, 0.0),
        Vec3::new(-7.5, 0.0, -10.0),
    ];
    let config = ControllerConfig::default().with_every_move();
    let characters = feet.map(|at| {
        let c = CharacterController::new(config).unwrap();
        app.world_mut().spawn((c.transform_at_feet(at), c)).id()
    });
    for (i, &c) in characters.iter().enumerate() {
        app.world_mut().entity_mut(c).insert(Handle(i));
    }
    app.insert_resource(sync_test_session(check_distance));
    log::<Jumped>(&mut app);
    log::<Landed>(&mut app);
    log::<BoardedMover>(&mut app);
    (app, characters)
}

/// A sync-test session of the four players, checking `check_distance`
/// ticks back.
fn sync_test_session(check_distance: usize) -> Session<Config> {
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(4)
        .unwrap()
        .with_max_prediction_window(check_distance + 1)
        .with_check_distance(check_distance);
    for i in 0..4 {
        session = session.add_player(PlayerType::Local, i).unwrap();
    }
    Session::SyncTest(session.start_synctest_session().unwrap())
}

/// What a run of 1,200 ticks did: each character's events (jumps,
/// landings, boardings), the lift rider's highest feet, how far the door
/// pushed its character, whether the croucher crouched, the mismatches.
struct Outcome {
    ticks: i32,
    events: [(usize, usize, usize); 4],
    rider_top: f32,
    pushed_most: f32,
    crouched: bool,
    mismatches: usize,
    deepest: f32,
    end: [Vec3; 4],
}

fn run_1200_ticks(check_distance: usize) -> Outcome {
    let (mut app, characters) = sync_test_app(check_distance, true);
    let [_, croucher, rider, pushed] = characters;
    let pushed_from = Vec3::new(-7.5, 0.0, -10.0);
    let (mut rider_top, mut pushed_most, mut crouched) = (f32::MIN, 0.0f32, false);
    let frame = |app: &App| app.world().resource::<RollbackFrameCount>().0;
    // A mismatch stops the session's frames (ggrs refuses to go on): the
    // run is bounded by updates, not frames.
    for _ in 0..1500 {
        if frame(&app) >= 1200 {
            break;
        }
        app.update();
        rider_top = rider_top.max(get(&app, rider).feet().y);
        pushed_most = pushed_most.max((get(&app, pushed).position - pushed_from).length());
        crouched |= get(&app, croucher).crouched;
    }
    let count = |c: Entity| {
        (
            logged::<Jumped>(&app).iter().filter(|e| e.character == c).count(),
            logged::<Landed>(&app).iter().filter(|e| e.character == c).count(),
            logged::<BoardedMover>(&app).iter().filter(|e| e.character == c).count(),
        )
    };
    Outcome {
        ticks: frame(&app),
        events: characters.map(count),
        rider_top,
        pushed_most,
        crouched,
        mismatches: app.world().resource::<Mismatches>().0,
        deepest: characters.map(|c| penetration(&app, c)).into_iter().fold(0.0, f32::max),
        end: characters.map(|c| get(&app, c).position),
    }
}

#[test]
fn four_characters_resimulate_bit_for_bit() {
    let checked = run_1200_ticks(8);
    assert_eq!(checked.mismatches, 0, "sync test mismatches");
    assert_eq!(checked.ticks, 1200, "ticks run");
    // The scene did what it is there for.
    assert!(
        checked.rider_top > 2.5,
        "the lift carried its rider to {} m",
        checked.rider_top
    );
    assert!(
        checked.pushed_most > 1.0,
        "the door pushed its character {} m",
        checked.pushed_most
    );
    assert!(checked.crouched, "the second character crouched");
    assert!(
        checked.deepest < 1e-3,
        "a character ends {} m inside something",
        checked.deepest
    );
    let (jumps, landings, _) = checked.events[0];
    assert!((12..=14).contains(&jumps), "{jumps} jumps written for 13 presses");
    assert!(landings.abs_diff(jumps) <= 1, "{landings} landings for {jumps} jumps");
    // Every tick ran 9 times (once, then again for each of 8 checks), yet
    // the events are those of a run that never rolled back, and it ends
    // in the same place.
    let once = run_1200_ticks(0);
    assert_eq!(
        checked.events, once.events,
        "events (jumps, landings, boardings) per character"
    );
    assert_eq!(checked.end, once.end, "where the characters end");
}

#[test]
fn state_left_out_of_the_rollback_is_a_mismatch() {
    let (mut app, _) = sync_test_app(8, false);
    for _ in 0..300 {
        app.update();
    }
    assert!(
        app.world().resource::<Mismatches>().0 > 0,
        "the movers' clock was not rolled back, yet the sync test saw no mismatch"
    );
}

/// A second session numbers its ticks from 1 again: its events are its
/// own, not taken for the first session's ticks simulated again.
#[test]
fn a_new_session_writes_its_own_events() {
    let (mut app, [jumper, ..]) = sync_test_app(8, true);
    let frame = |app: &App| app.world().resource::<RollbackFrameCount>().0;
    let jumps = |app: &App| logged::<Jumped>(app).iter().filter(|e| e.character == jumper).count();
    // Shorter than the 128 ticks remembered: the first jump is at input
    // frame 30.
    while frame(&app) < 100 {
        app.update();
    }
    assert_eq!(jumps(&app), 1, "the first session's jump");
    app.world_mut().remove_resource::<Session<Config>>();
    app.update();
    app.update();
    // The same inputs again, from the first frame.
    app.insert_resource(InputFrame(0));
    app.insert_resource(sync_test_session(8));
    while frame(&app) < 100 {
        app.update();
    }
    assert_eq!(jumps(&app), 2, "the second session's jump, at the same tick number");
}
