//! Throwing: holding the throw button charges ([`ThrowCharge`]), letting
//! go asks for a throw, and the balls' tick throws it from the eye
//! ([`throw_pending`]).

use super::pit::{BallPit, BallSettings};
use super::solids::PLACEMENT_SWEEP_SECONDS;
use crate::notices::TickNotices;
use crate::sim::input::PlayerInput;
use crate::sim::player::Player;
use crate::sim::schedule::SimSet;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementState};
use slidewalk_balls::{Ball, Solids};

/// Seconds of holding the throw button for a full-speed throw.
pub const FULL_CHARGE_SECONDS: f32 = 1.0;
/// A tap throws at this fraction of the full speed.
const TAP_FRACTION: f32 = 0.3;

/// The throw being charged: seconds the button has been held.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ThrowCharge {
    /// Seconds held so far (0 when not held).
    pub held_s: f32,
    /// Held in the last tick.
    was_held: bool,
}

impl ThrowCharge {
    /// How charged, 0 … 1.
    pub fn fraction(&self) -> f32 {
        (self.held_s / FULL_CHARGE_SECONDS).clamp(0.0, 1.0)
    }
}

/// The throws asked for this tick: each player's slot and how charged,
/// 0 … 1, in slot order.
#[derive(Resource, Clone, Debug, Default)]
pub(super) struct PendingThrow(Vec<(usize, f32)>);

pub(super) fn plugin(app: &mut App) {
    app.register_required_components::<Player, ThrowCharge>()
        .init_resource::<PendingThrow>()
        .add_systems(FixedUpdate, charge_throw.after(SimSet::Input).before(SimSet::Player));
}

/// Holding the throw button charges; letting go (or a tap between two
/// ticks) throws.
fn charge_throw(
    time: Res<Time<Fixed>>,
    mut pending: ResMut<PendingThrow>,
    mut players: Query<(&Player, &PlayerInput, &mut ThrowCharge)>,
) {
    let dt = time.timestep().as_secs_f32();
    for (player, input, mut charge) in &mut players {
        let held = input.held.throw;
        if held {
            charge.held_s += dt;
        } else if charge.was_held || input.pressed.throw {
            pending.0.push((player.slot, charge.fraction()));
            charge.held_s = 0.0;
        }
        charge.was_held = held;
    }
    pending.0.sort_by_key(|&(slot, _)| slot);
}

/// The throws asked for since the last tick leave their players' eyes
/// (not while flying), in slot order; a wall too close refuses one with a
/// notice (to the local player). `players` are in slot order.
pub(super) fn throw_pending(
    pending: &mut PendingThrow,
    players: &[ThrowingPlayer],
    pit: &mut BallPit,
    level: &impl Solids,
    notices: &mut TickNotices,
) {
    for (slot, charge) in std::mem::take(&mut pending.0) {
        let Some(&(_, body, state, input, local)) = players.iter().find(|p| p.0 == slot) else {
            continue;
        };
        if crate::sim::player::flying(body) {
            continue;
        }
        match throw(&pit.settings, charge, state, input, level) {
            Some(ball) => pit.add(ball),
            None if local => notices.info("no room to throw a ball here"),
            None => {}
        }
    }
}

/// A player as a throw needs it: slot, controller, state, input, and
/// whether it is the local one.
pub(super) type ThrowingPlayer<'a> = (usize, &'a CharacterController, &'a MovementState, &'a PlayerInput, bool);

/// A ball thrown from the player's eye along the view, `charge` (0 … 1)
/// of the way from a tap to a full throw, with the player's velocity added;
/// `None` when a wall is so close the ball would start inside it.
fn throw(
    settings: &BallSettings,
    charge: f32,
    state: &MovementState,
    input: &PlayerInput,
    level: &impl Solids,
) -> Option<Ball> {
    let eye = crate::sim::player::eye(state.position, state.radii, state.up);
    let look = Quat::from_rotation_y(input.yaw) * Quat::from_rotation_x(input.pitch);
    let direction = look * Vec3::NEG_Z;
    let speed = settings.throw_speed * (TAP_FRACTION + (1.0 - TAP_FRACTION) * charge.clamp(0.0, 1.0));
    let radius = settings.radius;
    // Out of the player's body before it flies, unless a wall is nearer.
    let reach = leave_body(eye - state.position, direction, state.radii + Vec3::splat(radius)) + 0.02;
    let out = direction * reach;
    let start = match level.sweep(eye, radius, out / PLACEMENT_SWEEP_SECONDS, 0.0, PLACEMENT_SWEEP_SECONDS) {
        Some(hit) if hit.time <= 1e-4 * PLACEMENT_SWEEP_SECONDS => return None,
        Some(hit) => eye + out * (hit.time / PLACEMENT_SWEEP_SECONDS - 1e-4 / reach).max(0.0),
        None => eye + out,
    };
    Some(Ball::new(start, direction * speed + state.world_velocity(), radius))
}

/// How far from `from` (relative to the body's centre, metres, inside it)
/// along the unit `direction` a point leaves the axis-aligned ellipsoid
/// with `radii` about the centre. With the ball's radius added to the
/// body's radii, that ellipsoid holds every point within the ball's
/// radius of the body, so a ball centred there is clear of it.
fn leave_body(from: Vec3, direction: Vec3, radii: Vec3) -> f32 {
    // |(from + direction·s) / radii|² = 1, the larger root.
    let (p, d) = (from / radii, direction / radii);
    let (a, b, c) = (d.length_squared(), p.dot(d), p.length_squared() - 1.0);
    let root = (b * b - a * c).max(0.0).sqrt();
    ((-b + root) / a).max(0.0)
}
