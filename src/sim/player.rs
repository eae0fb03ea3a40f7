//! The player: a `bevy_slidewalk` character fed by what the input or a
//! script asks each tick, and the game's rules around its tick: respawn,
//! falling out of the level and fly mode before it; the run's statistics,
//! the squeezes and the platform's turn for the next tick, and the tick's
//! record after it. The plugin draws the player between ticks (its
//! `Transform`); a respawn writes the state, which the plugin draws there
//! at once.

use super::colliders::Colliders;
use super::feedback::{Feedback, PlayerFeedback};
use super::input::PlayerInput;
use super::launch::NetPlayers;
use super::level::CurrentLevel;
use super::schedule::SimSet;
use super::tuning::CurrentSettings;
use crate::notices::TickNotices;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy_slidewalk::{
    CharacterController, MovementIntent, MovementReport, MovementState, Obstacles, SlidewalkLayers, SlidewalkSystems,
    StepTimings,
};
use glam::Vec3;
use slidewalk_controller::{CharacterState, TickReport};
use slidewalk_level::layers::PLAYER_LAYERS;
use slidewalk_play::{Buttons, Summary};

use super::players::PlayerBodies;
pub use super::players::{Controlled, LocalPlayer, Player};

/// The player's character as the view reads it: its controller (the
/// config) and its state.
#[derive(QueryData)]
pub struct PlayerCharacter {
    /// The config and whether it is active (not flying).
    pub controller: &'static CharacterController,
    /// Where it is and how it moves, as of the last tick.
    pub state: &'static MovementState,
}

/// The last tick's outcome, for the view, the overlays, the balls and the
/// rewind.
#[derive(Component, Clone, Debug, Default)]
pub struct LastTick {
    /// The input the tick used (before its presses were cleared).
    pub input: PlayerInput,
    /// The controller's report.
    pub report: TickReport,
    /// Wall-clock time of the player's tick, microseconds.
    pub micros: f32,
    /// Of which in collide-and-slide, microseconds.
    pub sweep_micros: f32,
    /// The centre at the start of the tick, metres (after a respawn, the
    /// spawn): with `to`, the tick's motion (the balls' capsule, the
    /// view's step smoothing). The drawn position is the plugin's.
    pub from: Vec3,
    /// The centre after the tick, metres.
    pub to: Vec3,
}

/// What the simulation did so far (the headless summary).
#[derive(Resource, Clone, Default, Debug)]
pub struct RunStats {
    /// The figures.
    pub summary: Summary,
    /// Wall-clock seconds spent in player ticks.
    pub seconds: f64,
}

/// The eyes' height as a fraction of the ellipsoid's height from the feet
/// (1.6 m of 1.8 m).
pub const EYE_FRACTION: f32 = 0.89;

/// Where the eyes are for an ellipsoid centred at `centre` (metres) with
/// world `radii` and `up`.
pub fn eye(centre: Vec3, radii: Vec3, up: Vec3) -> Vec3 {
    let height = 2.0 * slidewalk_controller::frame::extent_along(radii, up);
    centre + up * (height * (EYE_FRACTION - 0.5))
}

/// Fly-mode speed, m/s (sprint doubles it).
const FLY_SPEED: f32 = 8.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RunStats>()
        // The player's tick is timed (the HUD, the summary's cost per tick).
        .init_resource::<StepTimings>()
        .add_systems(Startup, spawn_player)
        .add_systems(
            FixedUpdate,
            (
                place_player.in_set(SimSet::Place),
                (
                    before_tick.before(SlidewalkSystems::Prepare),
                    after_tick.after(SlidewalkSystems::Step),
                )
                    .in_set(SimSet::Player),
            ),
        );
}

/// A player's character in `slot` with `body`: everything the simulation
/// keeps of it (the view's markers are added apart).
pub fn player_character(body: CharacterController, slot: usize) -> impl Bundle {
    (
        Player { slot },
        PlayerFeedback::default(),
        TickStart::default(),
        Name::new(if slot == 0 {
            "player".to_string()
        } else {
            format!("player {}", slot + 1)
        }),
        body.transform_at_feet(Vec3::ZERO),
        body,
        // A member of the player's layer, meeting every layer.
        SlidewalkLayers::from(PLAYER_LAYERS),
        PlayerInput::default(),
        LastTick::default(),
        // The level generation the player was placed in.
        PlacedInGeneration(0),
    )
}

fn spawn_player(settings: Option<Res<CurrentSettings>>, net: Option<Res<NetPlayers>>, mut commands: Commands) {
    let config = settings.map_or_else(|| slidewalk_play::Settings::default().controller, |s| s.0.controller);
    let body = CharacterController::new(config).unwrap_or_default();
    let Some(net) = net else {
        commands.spawn((player_character(body, 0), LocalPlayer, Controlled));
        return;
    };
    for slot in 0..net.count {
        let mut player = commands.spawn(player_character(body.clone(), slot));
        if slot == net.local {
            player.insert(LocalPlayer);
        }
    }
    // The keyboard, mouse and gamepad write here; the session takes it.
    commands.spawn((Controlled, PlayerInput::default(), Name::new("local input")));
}

/// The level generation the player was last placed in.
#[derive(Component, Clone, Copy, Debug)]
pub struct PlacedInGeneration(u32);

/// A new level is in: the players go to its spawn, in slot order, each
/// where it fits apart from those placed before it (the first at the
/// spawn itself when it is free).
fn place_player(
    current: Res<CurrentLevel>,
    mut players: Query<(
        &CharacterController,
        &mut MovementState,
        &mut PlayerInput,
        &mut PlacedInGeneration,
        &Player,
    )>,
) {
    if current.level.is_none() {
        return;
    }
    // Those already in this level stay where they are.
    let mut bodies = PlayerBodies::of(
        players
            .iter()
            .filter(|p| p.3.0 == current.generation)
            .map(|p| (p.4.slot, p.1)),
    );
    let mut placing: Vec<_> = players.iter_mut().filter(|p| p.3.0 != current.generation).collect();
    placing.sort_by_key(|p| p.4.slot);
    for (body, mut state, mut input, mut placed_in, player) in placing {
        placed_in.0 = current.generation;
        current.respawn(body, &mut state, &mut input, &bodies.others(player.slot));
        bodies.moved(player.slot, &state);
    }
}

/// Whether the player is in fly mode (moved by the game, no collision).
pub fn flying(body: &CharacterController) -> bool {
    !body.active
}

/// Where the player was and what the input asked, for the game's
/// reading of the tick after the plugin's step (`after_tick`).
#[derive(Component, Clone, Debug)]
pub struct TickStart {
    from: Vec3,
    input: PlayerInput,
    /// The player's state as the tick began.
    state: CharacterState,
}

impl Default for TickStart {
    fn default() -> Self {
        Self {
            from: Vec3::ZERO,
            input: PlayerInput::default(),
            state: MovementState::default().0,
        }
    }
}

/// The player's components the game's systems around its tick use.
type PlayerParts<'a> = (
    &'a Player,
    &'a mut CharacterController,
    &'a mut MovementState,
    &'a mut PlayerInput,
    &'a mut MovementIntent,
    &'a mut TickStart,
    Has<LocalPlayer>,
);

/// Before the plugin's tick: respawn (asked for, or fallen out of the
/// level; in slot order, each apart from the others), fly mode, and the
/// intent from the input (fly mode moves the player here instead).
fn before_tick(
    time: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    mut notices: TickNotices,
    mut stats: ResMut<RunStats>,
    mut players: Query<PlayerParts, With<Player>>,
) {
    if current.level.is_none() {
        return;
    }
    let dt = time.timestep().as_secs_f32();
    let mut bodies = PlayerBodies::of(players.iter().map(|p| (p.0.slot, p.2)));
    let mut in_order: Vec<_> = players.iter_mut().collect();
    in_order.sort_by_key(|p| p.0.slot);
    for (player, mut body, mut state, mut input, mut intent, mut start, local) in in_order {
        let used = *input;
        if std::mem::take(&mut input.respawn) {
            current.respawn(&body, &mut state, &mut input, &bodies.others(player.slot));
            bodies.moved(player.slot, &state);
            if local {
                notices.info("back at the spawn point");
            }
        }
        // Below the level: back to the respawn point (a level with a kill
        // zone says where that is itself, `sensors`).
        if let Some(bounds) = current.bounds
            && state.position.y < bounds.min.y - 20.0
            && !current.has_kill_zone()
        {
            if local {
                stats.summary.fell_out = true;
                stats.summary.respawns += 1;
                notices.info("fell out of the level: back at the respawn point");
            }
            current.respawn(&body, &mut state, &mut input, &bodies.others(player.slot));
            bodies.moved(player.slot, &state);
        }
        if std::mem::take(&mut input.toggle_fly) {
            body.active = !body.active;
            state.velocity = Vec3::ZERO;
            state.ground = None;
            // No dash, mantle or climb goes on where flying left it.
            let feet = state.feet().dot(state.up);
            state.moves = slidewalk_controller::MoveState::new(feet);
            if local {
                notices.info(if flying(&body) {
                    "fly mode: on (no collision)"
                } else {
                    "fly mode: off"
                });
            }
        }
        let from = state.position;
        let up = state.up;
        if flying(&body) {
            state.position += fly_motion(&input, up) * dt;
        }
        intent.direction = slidewalk_play::walk_direction(input.movement, input.yaw, up);
        intent.jump = input.pressed.jump;
        intent.jump_held = input.held.jump;
        intent.dash = input.pressed.dash;
        intent.facing = slidewalk_play::heading_direction(input.yaw, up);
        // Read while swimming: forward swims where the view points.
        intent.pitch = input.pitch;
        intent.drop = input.pressed.drop;
        intent.crouch = input.held.crouch;
        intent.sprint = input.held.sprint;
        *start = TickStart {
            from,
            input: used,
            state: **state,
        };
    }
}

/// Fly mode's velocity, m/s: along the view, up with jump and down with
/// crouch, doubled by sprint.
fn fly_motion(input: &PlayerInput, up: Vec3) -> Vec3 {
    let look = Quat::from_rotation_y(input.yaw) * Quat::from_rotation_x(input.pitch);
    let wish = look * Vec3::new(input.movement.x, 0.0, -input.movement.y)
        + up * (input.held.jump as i32 - input.held.crouch as i32) as f32;
    let speed = FLY_SPEED * if input.held.sprint { 2.0 } else { 1.0 };
    wish.clamp_length_max(1.0) * speed
}

/// A player's components [`after_tick`] reads and writes.
type PlayerAfterTick<'a> = (
    &'a CharacterController,
    &'a MovementState,
    &'a mut PlayerInput,
    &'a MovementReport,
    &'a mut LastTick,
    &'a TickStart,
    &'a mut PlayerFeedback,
    Has<LocalPlayer>,
);

/// After the plugin's tick: the run's figures, the heading turned by a
/// platform and the squeezes for the next tick ([`Feedback`]), and the
/// tick's record.
#[allow(clippy::too_many_arguments)]
pub(super) fn after_tick(
    current: Res<CurrentLevel>,
    colliders: Colliders,
    obstacles: Res<Obstacles>,
    timings: Res<StepTimings>,
    mut feedback: ResMut<Feedback>,
    mut stats: ResMut<RunStats>,
    mut players: Query<PlayerAfterTick, With<Player>>,
) {
    if current.level.is_none() {
        return;
    }
    for (body, state, mut input, movement, mut last, start, mut own_feedback, local) in &mut players {
        let fly = flying(body);
        let report = if fly {
            TickReport::default()
        } else {
            movement.tick.clone()
        };
        input.pressed = Buttons::default();
        own_feedback.heading_turn += report.heading_delta;
        if report.crushed {
            // What moved into the player turns back (not what is already moving away).
            feedback.squeezing_movers.extend(
                report
                    .pushing_colliders()
                    .into_iter()
                    .filter_map(|c| colliders.mover_of(c)),
            );
        }
        if local {
            let s = &mut stats.summary;
            count_tick(s, &report, state, fly);
            if !fly && !report.crushed {
                let depth = penetration(&colliders, &obstacles, state, &start.state, report.dropped);
                s.max_penetration = s.max_penetration.max(depth);
            }
        }
        // The character's own tick, as the plugin timed it.
        let (micros, sweep_micros) = if fly {
            (0.0, 0.0)
        } else {
            (timings.micros, timings.sweep_micros)
        };
        *last = LastTick {
            input: start.input,
            report,
            micros,
            sweep_micros,
            from: start.from,
            to: state.position,
        };
        if local {
            stats.seconds += micros as f64 * 1e-6;
        }
    }
}

/// The summary's counts for one tick.
fn count_tick(s: &mut Summary, report: &TickReport, state: &MovementState, fly: bool) {
    s.ticks += 1;
    s.contacts += report.contacts.len() as u64;
    s.step_ups += report.stepped as u64;
    s.jumps += report.jumped as u64;
    s.air_jumps += report.air_jump as u64;
    s.dashes += report.dashed.is_some() as u64;
    s.wall_jumps += report.wall_jumped.is_some() as u64;
    s.mantles += report.mantled.is_some() as u64;
    s.climb_ticks += report.climbing as u64;
    s.launches += report.launched.is_some() as u64;
    s.crushed_ticks += report.crushed as u64;
    s.swim_ticks += report.swimming as u64;
    s.water_jumps += report.water_jumped as u64;
    s.slides += report.slide_started as u64;
    s.ledge_grabs += report.ledge_grabbed as u64;
    s.hard_landings += report.hard_landing as u64;
    s.airborne_ticks += (!fly && !state.grounded()) as u64;
    let feet = state.feet();
    s.final_position = feet;
    s.grounded = state.grounded();
    s.max_height = if s.ticks == 1 { feet.y } else { s.max_height.max(feet.y) };
    if !fly {
        let v = state.world_velocity();
        let across = (v - state.up * v.dot(state.up)).length();
        s.max_horizontal_speed = s.max_horizontal_speed.max(across);
    }
}

/// How deep the player ends its tick (from `start`, `dropped` as its
/// report says) inside what it meets (the level and obstacles its layers
/// meet), eSpace units: the controller's
/// [`penetration_after_tick`](slidewalk_controller::penetration_after_tick),
/// the measure level-check and the controller's tests use too (passing
/// up or dropping through a one-way platform is no penetration, sinking
/// into one from above is).
fn penetration(
    colliders: &Colliders,
    obstacles: &Obstacles,
    state: &MovementState,
    start: &CharacterState,
    dropped: bool,
) -> f32 {
    let mut placed = colliders.placed();
    placed.extend(obstacles.placed());
    slidewalk_controller::penetration_after_tick(start, &state.0, dropped, &placed, PLAYER_LAYERS)
}
