//! Doors and lifts: each a simulation entity whose body takes its pose for
//! the end of every tick — lifts from their schedule, doors from the player
//! (in the door's trigger sensor as of the last tick, the use key within
//! reach) — and each turning back
//! when it squeezes the player or an agent of the crowd.

use super::input::PlayerInput;
use super::level::{CurrentLevel, DoorTrigger, MoverBody};
use super::players::Player;
use super::schedule::SimSet;
use bevy::prelude::*;
use bevy_slidewalk::MovementState;
use glam::Vec3;
use slidewalk_level::DoorControl;
use slidewalk_level::{Mover, MoverKind};
use slidewalk_sweep::{Aabb, Pose};

/// How far the use key reaches, metres from the player's centre to the door.
pub const USE_REACH: f32 = 2.5;

/// Seconds since the current level was opened (the lifts' clock).
#[derive(Resource, Clone, Default, Debug)]
pub struct LevelClock {
    /// Seconds.
    pub seconds: f64,
    generation: u32,
}

/// Movers that squeezed the player or an agent last tick (indices in the
/// level): this tick's, from the [`Feedback`](super::feedback::Feedback)
/// (or a script's start).
#[derive(Resource, Clone, Default, Debug)]
pub struct SqueezingMovers(pub Vec<usize>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelClock>()
        .init_resource::<SqueezingMovers>()
        .add_systems(
            FixedUpdate,
            (
                restart_clock.in_set(SimSet::Place),
                advance_movers.in_set(SimSet::Movers),
            ),
        );
}

/// A new level is in: its clock starts at 0.
fn restart_clock(current: Res<CurrentLevel>, mut clock: ResMut<LevelClock>) {
    if current.level.is_some() && clock.generation != current.generation {
        *clock = LevelClock {
            seconds: 0.0,
            generation: current.generation,
        };
    }
}

/// Where a mover is: a lift by its place on its schedule (seconds), a door
/// by how open it is (closed without a state).
pub fn pose_of(mover: &Mover, door: Option<DoorControl>, lift_s: f64) -> Pose {
    match mover.kind {
        MoverKind::Lift(lift) => mover.pose_at(lift.openness_at(lift_s)),
        MoverKind::Door(_) => mover.pose_at(door.map_or(0.0, |d| d.openness)),
    }
}

/// World bounds of a mover at `pose`.
fn bounds_at(mover: &Mover, pose: &Pose) -> Aabb {
    pose.transform_aabb(mover.collider.bounds())
}

fn distance_to_box(b: &Aabb, p: Vec3) -> f32 {
    (p.clamp(b.min, b.max) - p).length()
}

fn advance_movers(
    time: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    mut clock: ResMut<LevelClock>,
    mut squeezed: ResMut<SqueezingMovers>,
    mut bodies: Query<(&mut MoverBody, &mut Transform)>,
    players: Query<(&MovementState, &PlayerInput, &Player)>,
    triggers: Query<&DoorTrigger>,
) {
    let Some(level) = &current.level else { return };
    // In slot order: the same on every peer of a network game.
    let mut players: Vec<_> = players.iter().map(|(state, input, p)| (p.slot, state, input)).collect();
    players.sort_by_key(|p| p.0);
    let dt = time.timestep().as_secs_f32();
    clock.seconds += dt as f64;
    let squeezers = std::mem::take(&mut squeezed.0);
    for (mut body, mut transform) in &mut bodies {
        let Some(mover) = level.movers.get(body.index) else {
            continue;
        };
        body.previous = body.pose;
        if let MoverKind::Lift(lift) = mover.kind {
            let mut s = body.lift_s.unwrap_or(clock.seconds - dt as f64);
            if squeezers.contains(&body.index) {
                // It came down (or up) on someone last tick: from where it
                // is, back the way it came.
                s = lift.turned_back(s);
            }
            body.lift_s = Some(s + dt as f64);
        }
        if let MoverKind::Door(spec) = mover.kind {
            // The nearest player's distance.
            let bounds = bounds_at(mover, &body.pose);
            let distance = players
                .iter()
                .map(|(_, c, _)| distance_to_box(&bounds, c.position))
                .fold(f32::INFINITY, f32::min);
            // The door's trigger zone (a sensor) says whether the player is
            // near: open while inside. The distance is the use key's reach,
            // and lets a door the use key held shut go back to its zone's
            // rule a metre beyond it.
            let inside = triggers.iter().any(|t| t.door == body.index && t.occupied);
            let zone_distance = if inside {
                0.0
            } else {
                distance.max(spec.trigger_radius + f32::EPSILON)
            };
            let index = body.index;
            let door = body.door.get_or_insert_with(DoorControl::closed);
            if squeezers.contains(&index) {
                door.squeezed();
            }
            // Each player who pressed the use key, from where it stands.
            for (_, c, input) in &players {
                if input.pressed.use_key {
                    door.use_key(&spec, distance_to_box(&bounds, c.position), USE_REACH);
                }
            }
            door.advance(&spec, zone_distance, dt);
        }
        let pose = pose_of(mover, body.door, body.lift_s.unwrap_or(clock.seconds));
        body.pose = pose;
        *transform = Transform::from_translation(pose.translation).with_rotation(pose.rotation);
    }
}
