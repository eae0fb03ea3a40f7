//! The player: a `bevy_slidewalk` character (the plugin's
//! `CharacterController`) fed by what the input or a script asks each tick,
//! and the game's rules around its tick: respawn, fly mode and the balls'
//! pushes before it; squeezes
//! reported to the doors, falling out of the level, the run's statistics
//! and the view's record after it.

use super::SimSet;
use super::colliders::Colliders;
use super::input::{Player, PlayerInput};
use super::level::CurrentLevel;
use super::movers::SqueezingMovers;
use super::tuning::CurrentSettings;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::{MovementIntent, MovementReport, Obstacles, SlidewalkSystems};
use controller::{ControllerConfig, TickReport};
use glam::Vec3;
use play::{Buttons, Summary};

pub use bevy_slidewalk::CharacterController;

/// Velocity the balls gave the player in the last tick, m/s (applied by
/// the player's next tick, through the controller).
#[derive(Resource, Debug, Default)]
pub struct BallPush(pub Vec3);

/// The last tick's outcome, for the view, the overlays and the rewind.
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
    /// The centre before and after the tick, metres (for interpolation).
    pub from: Vec3,
    /// The centre after the tick, metres.
    pub to: Vec3,
}

/// What the simulation did so far (the headless summary).
#[derive(Resource, Default, Debug)]
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
    let height = 2.0 * controller::frame::extent_along(radii, up);
    centre + up * (height * (EYE_FRACTION - 0.5))
}

/// Fly-mode speed, m/s (sprint doubles it).
const FLY_SPEED: f32 = 8.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RunStats>()
        .init_resource::<BallPush>()
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

fn spawn_player(settings: Option<Res<CurrentSettings>>, mut commands: Commands) {
    let config = settings.map_or_else(ControllerConfig::default, |s| s.0.controller);
    let mut body = CharacterController::new(config).unwrap_or_default();
    body.time_sweeps = true;
    body.teleport_feet(Vec3::ZERO);
    commands.spawn((
        Player,
        Name::new("player"),
        body,
        PlayerInput::default(),
        LastTick::default(),
        // The level generation the player was placed in.
        PlacedInGeneration(0),
    ));
}

/// The level generation the player was last placed in.
#[derive(Component, Debug)]
struct PlacedInGeneration(u32);

/// A new level is in: the player goes to its spawn.
fn place_player(
    current: Res<CurrentLevel>,
    mut players: Query<(&mut CharacterController, &mut PlayerInput, &mut PlacedInGeneration), With<Player>>,
) {
    if current.level.is_none() {
        return;
    }
    for (mut body, mut input, mut placed_in) in &mut players {
        if placed_in.0 != current.generation {
            placed_in.0 = current.generation;
            respawn(&mut body, &mut input, &current);
        }
    }
}

/// Puts the player at the level's spawn, standing, at rest.
pub fn respawn(body: &mut CharacterController, input: &mut PlayerInput, current: &CurrentLevel) {
    body.teleport_feet(current.spawn.position);
    input.yaw = current.spawn.yaw;
    input.pitch = 0.0;
}

/// Whether the player is in fly mode (moved by the game, no collision).
pub fn flying(body: &CharacterController) -> bool {
    !body.active
}

/// Where the player was and what the input asked, for [`after_tick`].
#[derive(Resource)]
struct TickStart {
    from: Vec3,
    input: PlayerInput,
}

/// Before the plugin's tick: respawn and fly mode asked for, the balls'
/// pushes, and the intent from the input (fly mode moves the player here
/// instead).
#[allow(clippy::too_many_arguments)]
fn before_tick(
    time: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    mut ball_push: ResMut<BallPush>,
    mut notices: ResMut<Notices>,
    mut players: Query<(&mut CharacterController, &mut PlayerInput, &mut MovementIntent), With<Player>>,
    mut commands: Commands,
) {
    if current.level.is_none() {
        return;
    }
    let dt = time.timestep().as_secs_f32();
    for (mut body, mut input, mut intent) in &mut players {
        let used = *input;
        if std::mem::take(&mut input.respawn) {
            respawn(&mut body, &mut input, &current);
            notices.info("back at the spawn point");
        }
        if std::mem::take(&mut input.toggle_fly) {
            body.active = !body.active;
            body.state.velocity = Vec3::ZERO;
            body.state.ground = None;
            notices.info(if flying(&body) {
                "fly mode: on (no collision)"
            } else {
                "fly mode: off"
            });
        }
        let from = body.state.position;
        let up = body.state.up;
        if flying(&body) {
            let look = Quat::from_rotation_y(input.yaw) * Quat::from_rotation_x(input.pitch);
            let wish = look * Vec3::new(input.movement.x, 0.0, -input.movement.y)
                + up * (input.held.jump as i32 - input.held.crouch as i32) as f32;
            let speed = FLY_SPEED * if input.held.sprint { 2.0 } else { 1.0 };
            body.state.position += wish.clamp_length_max(1.0) * speed * dt;
        } else {
            // The balls' pushes from the last tick, swept like any motion
            // (so never into geometry).
            body.state.velocity += std::mem::take(&mut ball_push.0);
        }
        *intent = MovementIntent {
            direction: play::walk_direction(input.movement, input.yaw, up),
            jump: input.pressed.jump,
            crouch: input.held.crouch,
            sprint: input.held.sprint,
        };
        commands.insert_resource(TickStart { from, input: used });
    }
}

/// After the plugin's tick: the heading turned by a platform, squeezes
/// reported to the doors, falling out of the level, the run's figures and
/// the view's record of the tick.
#[allow(clippy::too_many_arguments)]
fn after_tick(
    current: Res<CurrentLevel>,
    colliders: Colliders,
    obstacles: Res<Obstacles>,
    start: Option<Res<TickStart>>,
    mut squeezed: ResMut<SqueezingMovers>,
    mut notices: ResMut<Notices>,
    mut stats: ResMut<RunStats>,
    mut players: Query<
        (
            &mut CharacterController,
            &mut PlayerInput,
            &MovementReport,
            &mut LastTick,
        ),
        With<Player>,
    >,
) {
    let Some(start) = start else { return };
    if current.level.is_none() {
        return;
    }
    for (mut body, mut input, movement, mut last) in &mut players {
        let fly = flying(&body);
        let report = if fly {
            TickReport::default()
        } else {
            movement.tick.clone()
        };
        input.pressed = Buttons::default();
        input.yaw += report.heading_delta;
        if report.crushed {
            // What moved into the player turns back (not what is already moving away).
            squeezed.0.extend(
                report
                    .pushing_colliders()
                    .into_iter()
                    .filter_map(|c| colliders.mover_of(c)),
            );
        }
        // Bookkeeping for the summary.
        let s = &mut stats.summary;
        s.ticks += 1;
        s.contacts += report.contacts.len() as u64;
        s.step_ups += report.stepped as u64;
        s.jumps += report.jumped as u64;
        s.crushed_ticks += report.crushed as u64;
        s.airborne_ticks += (!fly && !body.state.grounded()) as u64;
        if !fly
            && !report.crushed
            && let Ok(e) = sweep::Ellipsoid::new(body.state.radii)
        {
            let mut placed = colliders.placed();
            placed.extend(
                obstacles
                    .0
                    .iter()
                    .map(|o| sweep::PlacedCollider::moving(&o.shape, o.pose, Vec3::ZERO, Vec3::ZERO)),
            );
            s.max_penetration = s
                .max_penetration
                .max(sweep::penetration_depth(&e, body.state.position, &placed));
        }
        // Below the level: back to the spawn point.
        if let Some(bounds) = current.bounds
            && body.state.position.y < bounds.min.y - 20.0
        {
            s.fell_out = true;
            s.respawns += 1;
            notices.info("fell out of the level: back at the spawn point");
            respawn(&mut body, &mut input, &current);
        }
        // A respawn is a cut, not a motion to interpolate.
        let from = if (body.state.position - start.from).length() > 5.0 {
            body.state.position
        } else {
            start.from
        };
        let feet = body.state.feet();
        s.final_position = feet;
        s.grounded = body.state.grounded();
        s.max_height = if s.ticks == 1 { feet.y } else { s.max_height.max(feet.y) };
        // The character's own tick, as the plugin timed it.
        let micros = if fly { 0.0 } else { movement.micros };
        *last = LastTick {
            input: start.input,
            report,
            micros,
            sweep_micros: if fly { 0.0 } else { movement.sweep_micros },
            from,
            to: body.state.position,
        };
        stats.seconds += micros as f64 * 1e-6;
    }
}
