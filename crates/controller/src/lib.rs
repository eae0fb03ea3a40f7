//! slidewalk's character controller: the walking rules that turn
//! swept-ellipsoid collide-and-slide ([`slidewalk_sweep`]) into a player that feels
//! right. Plain Rust, no engine: deterministic, tested in seconds.
//!
//! One call per fixed tick, [`Controller::tick`]: (config, state, intent,
//! placed colliders, dt) → the new [`CharacterState`] and a [`TickReport`]
//! (contacts of every pass, the ground, whether it stepped, snapped, landed,
//! was pushed or is crushed).
//!
//! # The rules
//!
//! * **Up** is minus gravity, any direction ([`frame`]); zero gravity keeps
//!   the last one. The ellipsoid stays axis-aligned, its y radius along the
//!   world axis nearest "up".
//! * **Ground** (`support.rs`): contacts within the walkable slope; edges of
//!   walkable ground while the feet hang at most the step height below
//!   them (stair noses, ledge rims: no creeping off ledges). Steeper
//!   surfaces are walls when walked into.
//! * **Walking** moves along the ground plane at the speed asked for,
//!   accelerating and braking at rates scaled by the surface's friction.
//!   When a wall-like contact holds the move back, a **step-up** (up by the
//!   step height, forward, down) is tried and taken if it lands on ground
//!   further on. Then a **snap** searches the ground below within the snap
//!   distance: found, the character stays on it (down stairs, over ramp
//!   crests); not found, it falls from the next tick.
//! * **In the air** the motion is `v·dt + ½·g·dt²` (exact for constant
//!   gravity, so the jump apex is the configured height at any tick rate);
//!   it lands on ground while going down onto it; what it hits takes the
//!   velocity going into it (a ceiling ends the rise).
//! * **Jump** from the ground, within the coyote time after leaving it, or
//!   on landing when pressed within the jump buffer before.
//! * **Shape**: crouching, standing up, a new "up" or new radii take effect
//!   only where the new shape fits (feet kept on the floor); standing up
//!   under a low ceiling waits until the player is clear.
//! * **Platforms**: standing on a moving collider carries the character by
//!   its motion over the tick (translation and rotation, the heading turn
//!   reported) before it walks; leaving it keeps the platform's velocity.
//!   Geometry that moves into the character pushes it out; when it cannot,
//!   the report says **crushed**.
//!
//! Checks that the controller kept a character out of the world measure
//! it with [`penetration_after_tick`] (one-way surfaces judged by the
//! tick's start, as the sweeps judge them).
//!
//! # Example
//!
//! ```
//! use slidewalk_controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings};
//! use glam::Vec3;
//! use slidewalk_sweep::{MeshCollider, PlacedCollider};
//!
//! // A 20 × 20 m floor at y = 0 (metres, y up).
//! let (a, b, c, d) = (
//!     Vec3::new(-10.0, 0.0, -10.0),
//!     Vec3::new(-10.0, 0.0, 10.0),
//!     Vec3::new(10.0, 0.0, 10.0),
//!     Vec3::new(10.0, 0.0, -10.0),
//! );
//! let floor = MeshCollider::from_triangles(&[[a, b, c], [a, c, d]]).unwrap();
//! let colliders = [PlacedCollider::fixed(&floor)];
//!
//! let controller = Controller::new(ControllerConfig::default()).unwrap();
//! let mut player = CharacterState::standing_at(Vec3::ZERO, controller.config());
//! let forward = Intent { direction: Vec3::NEG_Z, ..Default::default() };
//! for _ in 0..60 {
//!     controller.tick(&mut player, &forward, &Surroundings::new(&colliders), 1.0 / 60.0).unwrap();
//! }
//! // A second of walking at up to 4.5 m/s, feet on the floor all along.
//! assert!(player.grounded());
//! assert!(player.position.z < -3.0 && player.position.z > -4.5, "{}", player.position);
//! ```
// docs.rs (nightly, `--cfg docsrs`) labels each item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

mod air;
mod config;
mod drop;
pub mod frame;
pub mod moves;
mod penetration;
mod place;
mod platform;
mod scratch;
mod shape;
mod state;
mod support;
mod surroundings;
#[cfg(any(test, feature = "test-util"))]
pub mod test_util;
mod tick;
mod walk;

pub use config::{
    ConfigError, ControllerConfig, FIELD_RANGES, FieldRange, MAX_GRAVITY, MAX_MOVE_SPEED, PlatformMomentum,
    RADIUS_RANGE, validate_dt,
};
pub use moves::{EYES, MoveState, WaterLevel};
pub use penetration::{penetration_after_tick, solid_after_tick};
pub use state::{CharacterState, GroundContact, Intent, MAX_STATE_SPEED, Pass, PassContact, TickReport};
pub use surroundings::Surroundings;
pub use tick::{Controller, ReconfigureError, TickError};
