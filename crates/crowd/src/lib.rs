//! A crowd for slidewalk: N non-player agents, ellipsoids of a few sizes,
//! wandering a level with the player's own character controller
//! ([`controller::Controller`]), so they climb stairs, walk ramps, ride
//! lifts and are pushed by doors exactly as the player is, and collide with
//! each other. No engine: the game draws [`Crowd::ellipsoids`] with
//! instancing and shows [`Crowd::last_step`] in its panel.
//!
//! ```text
//! let mut crowd = Crowd::new(CrowdConfig::default())?;
//! crowd.spawn(1_000, &CrowdWorld::new(&colliders).with_friction(&friction), seed);
//! // every fixed tick, with the doors and lifts posed as for the player:
//! crowd.step(&CrowdWorld::new(&colliders).with_friction(&friction), Some(player), dt)?;
//! ```
//!
//! # Agents against each other: a conservative approximation
//!
//! The controller collides only with triangle meshes. Each agent size has
//! a **circumscribed polytope** ([`HullResolution`]): the intersection of
//! planes tangent to the ellipsoid, 8 around × 3 latitudes plus flat polar
//! caps (60 triangles). Every point of the ellipsoid is inside it, so an
//! agent kept out of another's polytope is kept out of its ellipsoid. An
//! agent's tick puts, next to the level's colliders, the polytopes of the
//! agents whose polytope reaches into the box it may sweep this tick,
//! each posed by a translation (one mesh per size, shared).
//!
//! **Error.** The polytope is larger than the ellipsoid, so agents stop a
//! little short of touching. At most by the polytope's farthest point from
//! the ellipsoid: 15.9 % of the radius ([`HullResolution::max_gap`]; at
//! its 24 corners); across a face (the common case side by side, where the
//! equator's faces are) it is 0 at the face's centre and 8.2 % of the
//! radius at its vertical edges.
//!
//! # In parallel, and never overlapping
//!
//! A tick's moves run on all cores at once, each against the others'
//! polytopes **where they were when the tick started**. Two agents can
//! then both step into the same gap. So a step is:
//!
//! 1. **Move** (parallel): every agent's controller tick against the
//!    level, the player and the neighbours' starting polytopes.
//! 2. **Check** (parallel, exact): a move is kept when its end is apart
//!    from every other agent's *start* ellipsoid, and from the *end* of
//!    every kept move of an agent with a lower index (an exact
//!    ellipsoid–ellipsoid test, [`separation`], with a clearance of
//!    [`CLEARANCE`]).
//! 3. **Retry** (sequential, index order): a refused agent's tick runs
//!    again against where everyone is now; if that still ends in someone,
//!    it stands still (its lift carries it, a door pushes it); if even that
//!    fails it stays where the tick started.
//!
//! Why no two agents end overlapping: kept ends are pairwise apart
//! (checked); a kept end is apart from every start (checked), so from a
//! refused agent left at its start; a retried agent is checked against
//! everyone where they are at that moment, and those after it in turn are
//! checked against it; starts are apart from each other (by induction
//! from the spawn, which leaves gaps). Every result depends only on the
//! starting states and the agent's index, never on which thread ran it,
//! so the crowd's walk is the same on any number of threads.
//!
//! Left at its start, an agent on a rising lift would be inside the lift;
//! that is why a refused agent first runs its tick again and then stands
//! still (the lift carries it) before it is left in place; left in place
//! inside geometry it is reported crushed ([`Agent::crushed`]), as the
//! controller reports the player squeezed by a door.
#![deny(missing_docs)]

mod config;
mod crowd;
pub mod grid;
mod hull;
mod parallel;
pub mod separation;
mod spawn;
mod step;
mod wander;

pub use config::{CrowdConfig, CrowdError};
pub use crowd::{Agent, Crowd, CrowdWorld, Obstacle, StepReport};
pub use hull::HullResolution;
pub use step::CLEARANCE;
pub use wander::{AgentRng, Wander, WanderConfig};
