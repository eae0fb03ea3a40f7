//! What a character's last tick did: [`MovementReport`], with its
//! contacts ([`MovementContact`]) and ground ([`GroundHit`]) named by
//! entity.

use crate::collider::Surface;
use bevy::prelude::*;
use controller::{Pass, TickReport};
use glam::Vec3;

/// A contact of the last tick.
#[derive(Clone, Debug, PartialEq)]
pub struct MovementContact {
    /// Contact point, metres.
    pub point: Vec3,
    /// Unit normal from the surface towards the character.
    pub normal: Vec3,
    /// Unit normal of the plane the motion slid along.
    pub slide_plane: Vec3,
    /// The collider entity touched.
    pub entity: Option<Entity>,
    /// The pass of the tick that met it.
    pub pass: Pass,
    /// The character overlapped it at the start of the pass and was pushed out.
    pub depenetration: bool,
}

/// The ground a character stands on.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundHit {
    /// Contact point, metres.
    pub point: Vec3,
    /// Unit normal of the walkable surface.
    pub normal: Vec3,
    /// The collider entity stood on.
    pub entity: Option<Entity>,
    /// Its surface.
    pub surface: Surface,
    /// Velocity of the ground at the contact, m/s (a lift's, a platform's).
    pub velocity: Vec3,
}

/// The outcome of the character's last tick.
#[derive(Component, Clone, Debug, Default)]
pub struct MovementReport {
    /// Standing on walkable ground at the end of the tick.
    pub grounded: bool,
    /// The ground stood on.
    pub ground: Option<GroundHit>,
    /// Every contact of the tick, in order (the debug plugin draws them).
    pub contacts: Vec<MovementContact>,
    /// Climbed a step this tick.
    pub stepped: bool,
    /// Pulled down onto the ground after the move (down stairs, over crests).
    pub snapped: bool,
    /// Landed this tick.
    pub landed: bool,
    /// Jumped this tick.
    pub jumped: bool,
    /// Squeezed: something moved into it and it could not get out of the way.
    pub crushed: bool,
    /// Pushed out of geometry that moved into it, metres.
    pub pushed: Vec3,
    /// Moved by the platform stood on, metres.
    pub carried: Vec3,
    /// Turn about "up" given by a rotating platform, radians
    /// (counter-clockwise seen from above): add it to the game's heading.
    pub heading_delta: f32,
    /// World velocity at the end of the tick, m/s.
    pub velocity: Vec3,
    /// Crouch was released but something above blocks standing up.
    pub stand_blocked: bool,
    /// Wall-clock time of the character's tick, microseconds.
    pub micros: f32,
    /// Of which in collide-and-slide, microseconds (measured only with
    /// [`CharacterController::time_sweeps`](crate::CharacterController::time_sweeps)).
    pub sweep_micros: f32,
    /// The controller's own report, collider indices as in this tick's
    /// [`CollisionWorld::placed`](crate::CollisionWorld::placed) followed by the [`Obstacles`](crate::Obstacles).
    pub tick: TickReport,
}
