//! Bouncing balls, engine free: the "Magic Room" of NeHe lesson 30 (Dimitrios
//! Christopoulos), solved exactly instead of by slicing.
//!
//! The lesson finds ball–ball impacts by cutting each step into 150 slices
//! and re-steps every ball to every impact. Here:
//!
//! * **Ball–obstacle impacts** are sphere sweeps against the level
//!   ([`Solids`]; [`MeshSolids`] uses the collision core's swept
//!   sphere against the level's triangles, doors and lifts included). A
//!   moving door or lift is swept against in its own frame (the ball's
//!   motion relative to the surface), so it hits a ball as well as the
//!   other way round. The exact planes and capped cylinders a level asks
//!   for (NeHe's room) are [`AnalyticSolids`], used instead of their
//!   triangles ([`MeshSolids::skipping`]).
//! * **Ball–ball impacts** are the exact time of impact of two moving
//!   spheres, the smallest root of `|Δp + Δv·s|² = (r₁ + r₂)²`
//!   ([`time_of_impact`]).
//! * **Time order without re-stepping**: every ball keeps its own clock
//!   within the tick. Impacts are events in a priority queue, taken
//!   earliest first; only the balls an impact involves are advanced to it,
//!   and only their events are recomputed (a version number per ball drops
//!   the stale ones). A uniform grid over each ball's remaining path finds
//!   the pairs worth testing ([`grid`]); never all pairs.
//! * **Response**: against a surface, the velocity relative to it is
//!   reflected with restitution, `R = V − (1+e)(V·N)N`, and its tangential
//!   part loses a Coulomb friction impulse (never reversed). Between balls,
//!   an impulse along the line of centres with the balls' masses
//!   (momentum kept; kinetic energy kept when `e = 1`).
//! * **The player** is a [`MovingCapsule`] obstacle around its ellipsoid:
//!   it kicks the balls it walks into (the ball is reflected relative to the
//!   player's velocity), and every impact reports the impulse the ball took
//!   ([`Impact::impulse`]), which the game gives back to the player through
//!   its controller (so a ball can push the player, but never into
//!   geometry: the controller sweeps that push like any other motion).
//!   Any number of players meet the balls: a slice of capsules is one
//!   [`Solids`] (`&(level, capsules.as_slice())`), the earliest contact of all.
//! * **Gravity** by a (semi-implicit) Euler step at the start of the tick,
//!   as the lesson does; the rest of the tick continues from each impact,
//!   several bounces a tick if need be.
//! * **Rest**: an impact slower than [`BallConfig::rest_speed`] is
//!   inelastic (no micro-bounces), and a ball slower than
//!   [`BallConfig::sleep_speed`] for [`BallConfig::sleep_after`] seconds
//!   while touching something below it sleeps: no gravity, no events, until
//!   a ball hits it, a ball beside it moves off, or
//!   [`BallSimulation::wake_within`] wakes it (a door or lift moving near it).
//! * **Jams**: a ball with [`BallConfig::max_impacts_per_ball`] impacts in
//!   one tick (wedged, or deep in a pile) has no more impacts of its own
//!   that tick: it rides on with the door or lift it last hit (a pile on a
//!   lift goes up with it) unless that presses it into an obstacle, else it
//!   stops. Other balls bounce off it as off an infinitely heavy one. Since
//!   a stopped ball does not answer a surface moving into it, the game
//!   pushes balls out of doors and lifts after the tick
//!   ([`BallSimulation::push_out_of`]); a ball that cannot be freed is crushed.
//!
//! # Example
//!
//! ```
//! use slidewalk_balls::{AnalyticSolids, Ball, BallConfig, BallSimulation};
//! use glam::Vec3;
//! use slidewalk_sweep::{AnalyticShape, Plane};
//!
//! // A floor at y = 0 (the exact plane, friction 1) and one ball dropped from 2 m.
//! let floor = AnalyticShape::Plane(Plane::new(Vec3::ZERO, Vec3::Y).unwrap());
//! let solids = AnalyticSolids::new(&[(floor, 1.0)]);
//! let mut simulation = BallSimulation::new(BallConfig::default());
//! simulation.balls.push(Ball::new(Vec3::new(0.0, 2.0, 0.0), Vec3::ZERO, 0.25));
//! let mut lowest = f32::MAX;
//! for _ in 0..600 {
//!     simulation.step(1.0 / 60.0, &solids);
//!     lowest = lowest.min(simulation.balls[0].position.y);
//! }
//! // It bounced without ever entering the floor, and ten seconds later lies on it.
//! assert!(lowest >= 0.25 - 1e-4, "{lowest}");
//! assert!((simulation.balls[0].position.y - 0.25).abs() < 0.01);
//! ```
#![deny(missing_docs)]

mod ball;
mod capsule;
pub mod grid;
mod impacts;
mod schedule;
mod simulation;
mod solids;
mod toi;

pub use ball::{Ball, BallConfig, BallConfigError};
pub use capsule::MovingCapsule;
pub use simulation::{BallSimulation, Impact, ImpactKind, MAX_STEP, StepReport};
pub use solids::{AnalyticSolids, Contact, MeshSolids, NoSolids, Solids};
pub use toi::{ball_impulse, surface_response, time_of_impact};
