//! The balls' tick: a pending throw leaves the eye, every ball moves
//! against the level, each other and the player, impacts push the player
//! and hard ones explode, balls jammed in doors and lifts are pushed out
//! (or burst) and balls that left the level go.

use super::control::control_balls;
use super::pit::{BLAST_SPEED, BallBlast, BallPit, Blasts, PLAYER_MASS};
use super::solids::BallLevel;
use super::throw::{PendingThrow, throw_pending};
use crate::notices::TickNotices;
use crate::sim::colliders::Colliders;
use crate::sim::feedback::PlayerFeedback;
use crate::sim::input::PlayerInput;
use crate::sim::player::{LastTick, LocalPlayer, Player};
use crate::sim::schedule::SimSet;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementState};
use slidewalk_balls::{ImpactKind, MovingCapsule, StepReport};
use slidewalk_sweep::PlacedCollider;
use std::time::Instant;

/// The most one tick of ball impacts can change the player's velocity, m/s.
const MAX_PUSH: f32 = 3.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FixedUpdate, tick_balls.after(control_balls).in_set(SimSet::Balls));
}

/// A player as the balls meet it: its slot, controller, state, input and
/// last tick, the push it is given, whether it is the local one.
type PlayerForBalls<'a> = (
    &'a Player,
    &'a CharacterController,
    &'a MovementState,
    &'a PlayerInput,
    &'a LastTick,
    &'a mut PlayerFeedback,
    Has<LocalPlayer>,
);

/// The tick: pending throws leave the eyes, every ball moves, impacts
/// push the players and hard ones explode.
#[allow(clippy::too_many_arguments)]
fn tick_balls(
    time: Res<Time<Fixed>>,
    colliders: Colliders,
    mut pit: ResMut<BallPit>,
    mut pending: ResMut<PendingThrow>,
    // Both write once per tick through the plugin's `ShownEvents`.
    mut shown_once: ParamSet<(TickNotices, Blasts)>,
    mut players: Query<PlayerForBalls>,
) {
    let started = Instant::now();
    let dt = time.timestep().as_secs_f32();
    let for_balls = BallLevel::new(&colliders);
    let placed = &for_balls.placed;
    let level = for_balls.obstacles();
    let mut in_order: Vec<_> = players.iter().collect();
    in_order.sort_by_key(|p| p.0.slot);
    // Each player as the balls meet it: the capsule around its ellipsoid
    // moving from where the last tick started to where it ended (body
    // number: its slot), unless it flies.
    let capsules: Vec<MovingCapsule> = in_order
        .iter()
        .filter(|(_, body, ..)| !crate::sim::player::flying(body))
        .map(|(player, _, state, _, last, ..)| {
            MovingCapsule::around_ellipsoid(
                last.from,
                state.radii,
                state.up,
                (last.to - last.from) / dt,
                player.slot as u32,
            )
        })
        .collect();
    pit.simulation.config.gravity = in_order
        .first()
        .map_or(Vec3::new(0.0, -9.81, 0.0), |(_, body, ..)| body.config.gravity);
    let throwing: Vec<_> = in_order
        .iter()
        .map(|(player, body, state, input, _, _, local)| (player.slot, *body, *state, *input, *local))
        .collect();
    throw_pending(&mut pending, &throwing, &mut pit, &level, &mut shown_once.p0());
    if pit.simulation.balls.is_empty() {
        pit.last_micros = started.elapsed().as_secs_f32() * 1e6;
        pit.last_impacts = 0;
        return;
    }
    let mover_boxes = wake_near_motion(&mut pit, &capsules, placed, dt);
    let pit = &mut *pit;
    pit.previous.clear();
    pit.previous.extend(pit.simulation.balls.iter().map(|b| b.position));
    // Every player meets the balls, however many play.
    let report = pit.simulation.step(dt, &(level, capsules.as_slice()));
    let pushes = answer_impacts(pit, &report, &mut shown_once.p1());
    for (player, .., mut feedback, _) in &mut players {
        feedback.ball_push = pushes.get(player.slot).copied().unwrap_or_default();
    }
    push_out_of_movers(pit, &colliders, mover_boxes, &mut shown_once.p1());
    drop_fallen(pit, &colliders);
    pit.last_impacts = report.impacts.len();
    pit.last_micros = started.elapsed().as_secs_f32() * 1e6;
}

/// Whatever moves near a sleeping ball wakes it: the player, doors, lifts.
/// Returns the boxes the moving doors and lifts sweep this tick.
fn wake_near_motion(
    pit: &mut BallPit,
    capsules: &[MovingCapsule],
    placed: &[PlacedCollider<'_>],
    dt: f32,
) -> Vec<(Vec3, Vec3)> {
    for capsule in capsules {
        let reach = Vec3::splat(capsule.radius + capsule.half_segment);
        let (a, b) = (capsule.centre, capsule.centre + capsule.velocity * dt);
        pit.simulation.wake_within(a.min(b) - reach, a.max(b) + reach);
    }
    let mut mover_boxes = Vec::new();
    for c in placed
        .iter()
        .filter(|c| c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO)
    {
        let slidewalk_sweep::Aabb { min, max } = c.world_bounds();
        let margin =
            Vec3::splat((c.linear_velocity.length() + c.angular_velocity.length() * (max - min).length()) * dt + 0.05);
        pit.simulation.wake_within(min - margin, max + margin);
        mover_boxes.push((min - margin, max + margin));
    }
    mover_boxes
}

/// The tick's impacts: each player's add up to the push it is given (at
/// most [`MAX_PUSH`]; by slot), the hard ones explode.
fn answer_impacts(pit: &BallPit, report: &StepReport, blasts: &mut Blasts) -> Vec<Vec3> {
    let mut pushed = Vec::new();
    for impact in &report.impacts {
        if let ImpactKind::Body(body) = impact.kind {
            let body = body as usize;
            if pushed.len() <= body {
                pushed.resize(body + 1, Vec3::ZERO);
            }
            pushed[body] -= impact.impulse / PLAYER_MASS;
        }
        if impact.speed >= BLAST_SPEED {
            let radius = pit.simulation.balls.get(impact.ball as usize).map_or(0.1, |b| b.radius);
            blasts.write(BallBlast {
                point: impact.point,
                normal: impact.normal,
                speed: impact.speed,
                radius,
            });
        }
    }
    pushed.into_iter().map(|p| p.clamp_length_max(MAX_PUSH)).collect()
}

/// Near doors and lifts, no ball ends the tick inside one: a ball jammed
/// this tick does not answer a surface moving into it, so it is pushed
/// out; one that cannot be (crushed) bursts.
fn push_out_of_movers(pit: &mut BallPit, colliders: &Colliders, mover_boxes: Vec<(Vec3, Vec3)>, blasts: &mut Blasts) {
    if mover_boxes.is_empty() {
        return;
    }
    let now = colliders.placed();
    let mut crushed: Vec<usize> = mover_boxes
        .into_iter()
        .flat_map(|(min, max)| pit.simulation.push_out_of(&now, min, max))
        .collect();
    crushed.sort_unstable();
    crushed.dedup();
    for &k in crushed.iter().rev() {
        let ball = pit.simulation.balls.remove(k);
        if k < pit.previous.len() {
            pit.previous.remove(k);
        }
        pit.simulation.wake_around(&ball);
        blasts.write(BallBlast {
            point: ball.position,
            normal: Vec3::Y,
            speed: BLAST_SPEED,
            radius: ball.radius,
        });
    }
}

/// Balls that left the level for good go.
fn drop_fallen(pit: &mut BallPit, colliders: &Colliders) {
    if let Some(bounds) = colliders.level_bounds() {
        let floor = bounds.min.y - 50.0;
        let keep: Vec<bool> = pit
            .simulation
            .balls
            .iter()
            .map(|b| b.position.is_finite() && b.position.y >= floor)
            .collect();
        if keep.contains(&false) {
            let mut k = keep.iter();
            pit.simulation.balls.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep.iter();
            pit.previous.retain(|_| *k.next().unwrap_or(&true));
        }
    }
}
