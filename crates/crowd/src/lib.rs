//! A crowd for slidewalk: N non-player agents, ellipsoids of a few sizes,
//! wandering a level with the player's own character controller
//! ([`slidewalk_controller::Controller`]), so they climb stairs, walk ramps, ride
//! lifts and are pushed by doors exactly as the player is, and collide with
//! each other. No engine: the game draws [`Crowd::ellipsoids`] with
//! instancing and shows [`Crowd::last_step`] in its panel. Agents wander
//! ([`Wander`]): legs of a few seconds on a random heading, now and then
//! a pause, a short wait and a new heading when blocked; each agent has
//! its own seeded generator.
//!
//! What it costs per agent is measured by `cargo bench -p slidewalk_crowd --bench
//! crowd` and the `crowd_run` example; the figures are in the workspace's
//! `docs/figures.md`.
//!
//! ```text
//! let mut crowd = Crowd::new(CrowdConfig::default())?;
//! crowd.spawn(1_000, &CrowdSurroundings::new(&colliders).with_friction(&friction), seed);
//! // every fixed tick, with the doors and lifts posed as for the player:
//! let world = CrowdSurroundings::new(&colliders).with_friction(&friction).with_player(player);
//! let report = crowd.step(&world, dt)?; // report.micros: the whole update
//! // the player's own world may take the agents in: crowd.polytopes_in(min, max, &mut its_colliders)
//! ```
//!
//! # Agents against each other: a conservative approximation
//!
//! The controller collides only with triangle meshes. Each agent size has
//! a **circumscribed polytope** ([`HullResolution`]): the intersection of
//! planes tangent to the ellipsoid, 8 around × 3 latitudes (−45°, 0°, 45°)
//! plus flat polar caps, 60 triangles. Every point of the ellipsoid is
//! inside it, so an agent kept out of another's polytope is kept out of
//! its ellipsoid. An agent's tick puts, after the level's colliders, the
//! polytopes of the agents whose polytope reaches into the box its walk
//! may sweep this tick, each posed by a translation (one mesh per size,
//! shared by all agents of that size).
//!
//! **Error.** The polytope is larger than the ellipsoid, so agents stop a
//! little short of touching: by at most the polytope's farthest point from
//! the ellipsoid, 15.9 % of its radius ([`HullResolution::max_gap`], at
//! its corners); by 0 where a face touches the ellipsoid. Measured in
//! `tests/approximation.rs` (20,000 random approaches between the default
//! sizes, the gap along the line of approach between where the sweep stops
//! on the polytope and where the ellipsoids would touch): side by side on
//! one floor mean 16.7 mm, median 16.3 mm, 95th percentile 33.9 mm, max
//! 46.1 mm (median 5.8 % of the smaller radius); from any direction mean
//! 29.3 mm, max 81.2 mm. In dense groups on the demo level after 30 s
//! (`tests/crowd.rs`), of the agents within 10 cm of a neighbour (199 of
//! 330), the gap to it along the line of centres has a median of 7.5 mm
//! and a 90th percentile of 23 mm.
//!
//! An agent that already is closer to another than that one's polytope
//! reaches (a door pushed it there, or both stepped towards each other)
//! sweeps against a scaled-down polytope of the other (six scales, down to
//! one inscribed in the ellipsoid), the largest it is clear of: a tick
//! never starts inside a polytope (which would cost a depenetration and
//! push the agents apart). Such a sweep no longer keeps the ellipsoids
//! apart by itself; the exact check below does. When the agent heads
//! straight into that neighbour (its step this tick, at its velocity
//! turned towards its wish by a tick of acceleration, would end inside
//! the neighbour's ellipsoid), the check would refuse its move nearly
//! always: it yields instead, its tick is not run, and it stands still
//! as a refused one does ([`StepReport::yielded`]).
//!
//! # In parallel, and never overlapping
//!
//! A tick's moves run on all cores at once, each against the others'
//! polytopes **where they were when the tick started**. Two agents can
//! then both step into the same gap. So a step is:
//!
//! 1. **Move** (parallel): every agent's controller tick against the
//!    level, the player and the neighbours' polytopes where they started
//!    (only the neighbours ahead of its walk; an agent standing still on
//!    still ground with nothing moving near it is asleep: its tick, which
//!    would change nothing, is skipped). Agents are taken in the order of
//!    a Z-curve over their cells, so the level's data they read is shared
//!    in the caches; on a level larger than the caches, the data near 16
//!    of them is asked for together before the first of them ticks
//!    ([`slidewalk_sweep::MeshCollider::fetch_near`]), so their ticks do not each
//!    wait for the tree one level after another.
//! 2. **Check** (parallel, exact): a move is kept when its end is apart
//!    from every other agent's *start* ellipsoid, and from the *end* of
//!    every kept move of an agent with a lower index, by an exact
//!    ellipsoid–ellipsoid test ([`separation`]) with a clearance of
//!    [`CLEARANCE`]. An agent that did not move needs no check.
//! 3. **Stand still** (parallel): a refused agent stands still instead (a
//!    tick with no walking: its lift carries it, a door pushes it) against
//!    where everyone is now (kept moves at their ends, refused agents at
//!    their starts), kept by the same check; one refused again stays where
//!    the tick started. (Ticking refused agents again with their walk was
//!    kept one time in five in a jam and cost as much as the rest.)
//!
//! Why no two agents end overlapping: the starts are apart (spawns leave
//! gaps; every step keeps it so). A move kept in step 2 is apart from
//! every start (so from a refused agent left at its start) and from the
//! lower-index kept ends (a higher-index one checked against it). A
//! standing-still kept in step 3 is apart from every kept end and every
//! refused agent's start, and from the lower-index standings kept (a
//! higher-index one checked against it). Each outcome depends only on the starting states and the
//! indices, never on which thread ran what, so the crowd's walk is the
//! same on any number of threads (tested).
//!
//! Left at its start, an agent on a rising lift would be inside the lift;
//! that is why a refused agent stands still (the lift carries it) before
//! it is left in place. Left in place inside
//! geometry it is reported crushed ([`Agent::crushed`], with the collider
//! in [`StepReport::crushing_colliders`] so the game turns the door back),
//! as the controller reports the player squeezed by a door.
#![deny(missing_docs)]

mod config;
mod crowd;
pub mod grid;
mod hull;
mod parallel;
mod scratch;
pub mod separation;
mod spawn;
mod step;
mod wander;

pub use config::{CrowdConfig, CrowdError};
pub use crowd::{Agent, Bystander, Crowd, CrowdSurroundings, StepReport};
pub use hull::HullResolution;
pub use step::CLEARANCE;
pub use wander::{AgentRng, Wander, WanderConfig};
