//! Several players: where they are placed at a level's start and when
//! they respawn (each where it fits, apart from the others, even when the
//! place beside the spawn is inside a wall or all respawn in one tick),
//! and the notes their ticks give (a respawn, a checkpoint) shown once
//! when ggrs's sync-test session simulates every tick again.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::{MovementState, SlidewalkSystems};
use slidewalk::notices::Notices;
use slidewalk::sim;
use slidewalk::sim::launch::{LaunchOptions, NetPlayers};
use slidewalk::sim::level::CurrentLevel;
use slidewalk::sim::player::Player;
use slidewalk::sim::schedule::{SimSet, tick_length};
use slidewalk_level::layers::PLAYER_LAYERS;
use slidewalk_play::{Options, Script};
use slidewalk_sweep::Ellipsoid;

/// The demo level's kill zone catches a player falling from here (outside
/// the level's walls, 25 m above it).
const ABOVE_THE_KILL_ZONE: Vec3 = Vec3::new(50.0, 5.0, 50.0);

/// Every note put on screen, in order (each counted when it appears: the
/// test ages it at once, so one pushed again is counted again).
#[derive(Resource, Default)]
struct NoticesShown(Vec<String>);

fn see_notices(mut notices: ResMut<Notices>, mut seen: ResMut<NoticesShown>) {
    for notice in notices.0.iter_mut().filter(|n| n.age == 0.0) {
        seen.0.push(notice.text.clone());
        notice.age = 1.0;
    }
}

/// The demo level with `players` players at `spawn`, each on `script`,
/// under a sync-test session that simulates every tick again 8 ticks
/// later (as `netplay`'s).
fn sync_test_app(spawn: Vec3, players: usize, script: &str) -> App {
    let script = Script::parse(script).unwrap();
    crate::synctest::sync_test_app(spawn, vec![script; players], 8, |app| {
        app.init_resource::<NoticesShown>().add_systems(PostUpdate, see_notices);
    })
}

/// How many notes shown contain `text`.
fn shown(app: &App, text: &str) -> usize {
    let seen = &app.world().resource::<NoticesShown>().0;
    seen.iter().filter(|t| t.contains(text)).count()
}

#[test]
fn a_respawn_and_a_checkpoint_are_told_once_when_their_ticks_are_simulated_again() {
    // The `checkpoint` script: onto the checkpoint by the lift.
    let mut app = sync_test_app(
        Vec3::new(-19.0, 4.2, -17.0),
        2,
        r#"{"steps": [{"for_s": 0.3, "yaw_deg": 0.0}, {"for_s": 1.6, "move": [0.0, 0.5]}, {"for_s": 1.0}]}"#,
    );
    for _ in 0..180 {
        app.update();
    }
    let all = &app.world().resource::<NoticesShown>().0;
    assert_eq!(shown(&app, "you will respawn here"), 1, "{all:?}");
    // The `kill_zone` script: a fall of 25 m into the kill zone, then back.
    let mut app = sync_test_app(ABOVE_THE_KILL_ZONE, 2, r#"{"steps": [{"for_s": 4.0}]}"#);
    for _ in 0..220 {
        app.update();
    }
    let all = &app.world().resource::<NoticesShown>().0;
    assert_eq!(shown(&app, "back at the respawn point"), 1, "{all:?}");
}

/// What the players' places were, checked at every tick once the tick's
/// placing and respawns are done and before the characters move.
#[derive(Resource, Default)]
struct Placements {
    /// Ticks checked.
    ticks: u32,
    /// The deepest any player was inside the level, eSpace units.
    deepest: f32,
    /// Pairs of players found overlapping, with the tick.
    overlaps: Vec<(u32, usize, usize)>,
    /// Each slot's feet height at the last check, metres.
    last_y: Vec<f32>,
    /// Each slot's respawns (a rise of more than 10 m in one tick).
    respawns: Vec<u32>,
}

fn check_places(
    current: Res<CurrentLevel>,
    players: Query<(&Player, &MovementState)>,
    mut placements: ResMut<Placements>,
) {
    let Some(level) = &current.level else { return };
    let solids = level.placed_at_rest();
    let mut bodies: Vec<_> = players.iter().map(|(p, s)| (p.slot, *s)).collect();
    bodies.sort_by_key(|b| b.0);
    let p = &mut *placements;
    p.ticks += 1;
    p.last_y.resize(bodies.len(), f32::NAN);
    p.respawns.resize(bodies.len(), 0);
    for (i, (slot, a)) in bodies.iter().enumerate() {
        let e = Ellipsoid::new(a.radii).unwrap();
        let depth = slidewalk_sweep::penetration_depth_with(&e, a.position, &solids, PLAYER_LAYERS, ());
        p.deepest = p.deepest.max(depth);
        for (other, b) in &bodies[i + 1..] {
            let d = b.position - a.position;
            let across = Vec2::new(d.x, d.z).length();
            if across < a.radii.x + b.radii.x && d.y.abs() < a.radii.y + b.radii.y {
                p.overlaps.push((p.ticks, *slot, *other));
            }
        }
        if a.feet().y > p.last_y[*slot] + 10.0 {
            p.respawns[*slot] += 1;
        }
        p.last_y[*slot] = a.feet().y;
    }
}

/// The demo level with `count` players (as a network game has, without
/// its session: they stand still) at `spawn` facing `yaw_deg`, their
/// places checked every tick.
fn players_app(spawn: Vec3, yaw_deg: f32, count: usize) -> App {
    let hz = 60.0;
    let options = Options {
        tick_hz: Some(hz),
        spawn: Some(spawn),
        yaw_deg: Some(yaw_deg),
        ..Options::default()
    };
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LaunchOptions(options))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick_length(hz)))
        .insert_resource(NetPlayers { count, local: 0 })
        .init_resource::<Placements>()
        .add_plugins(sim::plugin)
        .add_systems(
            FixedUpdate,
            check_places.after(SimSet::Input).before(SlidewalkSystems::Prepare),
        );
    app.finish();
    app.cleanup();
    app
}

#[test]
fn the_second_player_is_not_placed_inside_the_wall_beside_the_spawn() {
    // Just west of the 0.7 m ledge (x −21…−17, z 21…24), facing −z: the
    // place 1.2 m to the right is inside the ledge.
    let mut app = players_app(Vec3::new(-21.6, 0.0, 22.5), 0.0, 2);
    for _ in 0..30 {
        app.update();
    }
    let p = app.world().resource::<Placements>();
    assert!(p.ticks > 20, "{} ticks checked", p.ticks);
    assert!(
        p.deepest <= 1e-4,
        "a player was placed inside the level ({})",
        p.deepest
    );
    assert!(p.overlaps.is_empty(), "overlapping: {:?}", p.overlaps);
}

#[test]
fn four_players_killed_in_one_tick_respawn_apart() {
    let mut app = players_app(ABOVE_THE_KILL_ZONE, 0.0, 4);
    for _ in 0..200 {
        app.update();
    }
    let p = app.world().resource::<Placements>();
    assert_eq!(
        p.respawns,
        vec![1; 4],
        "each fell into the kill zone and came back once"
    );
    assert!(
        p.deepest <= 1e-4,
        "a player was placed inside the level ({})",
        p.deepest
    );
    assert!(
        p.overlaps.is_empty(),
        "overlapping (tick, slot, slot): {:?}",
        p.overlaps
    );
}
