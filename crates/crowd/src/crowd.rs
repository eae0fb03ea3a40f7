//! `Crowd`: the agents, their sizes (each with its controller and the
//! polytope the others collide with), and what the last step cost.

use crate::config::{CrowdConfig, CrowdError};
use crate::scratch::{Clear, Move, Scratch};
use crate::wander::Wander;
use glam::Vec3;
use slidewalk_controller::{CharacterState, Controller};
use slidewalk_sweep::{CollisionLayers, MeshCollider, PlacedCollider, Pose};
use std::sync::Arc;

/// One agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agent {
    /// Its controller state: position (the ellipsoid's centre, metres),
    /// velocity, radii, ground…
    pub state: CharacterState,
    /// Its size: an index in [`CrowdConfig::sizes`].
    pub size: u8,
    /// Its wander brain.
    pub wander: Wander,
    /// Where it was spawned (centre, metres): it goes back there if it falls
    /// out of the level.
    pub home: Vec3,
    /// In the last step a door or lift squeezed it against something it
    /// could not be pushed out of (it may be inside it), as the controller
    /// reports for the player.
    pub crushed: bool,
}

impl Agent {
    /// Centre of its ellipsoid, metres.
    pub fn position(&self) -> Vec3 {
        self.state.position
    }

    /// Radii of its ellipsoid, metres.
    pub fn radii(&self) -> Vec3 {
        self.state.radii
    }

    /// The direction it walks or last walked, radians about +y (0 faces −z).
    pub fn heading(&self) -> f32 {
        self.wander.heading
    }
}

/// What the agents collide with besides each other: the level's colliders
/// at this tick's poses (doors and lifts with their velocities, exactly as
/// for the player's [`slidewalk_controller::Surroundings`]), their surfaces' friction, and
/// the player.
#[derive(Clone, Copy)]
pub struct CrowdSurroundings<'a> {
    /// The colliders: the static level, doors, lifts.
    pub colliders: &'a [PlacedCollider<'a>],
    /// Friction of a surface, 0 (ice) … 1, by collider index and triangle
    /// (as [`slidewalk_controller::Surroundings::friction`]; shared by the threads).
    pub friction: &'a (dyn Fn(usize, u32) -> f32 + Sync),
    /// The player, if any: agents walk around it and are not spawned in it.
    pub player: Option<Bystander>,
    /// The agents' collision layers: colliders whose layers do not meet
    /// them are walked through (a barrier only the player passes stops
    /// them when it filters them in). All by default.
    pub layers: CollisionLayers,
}

fn full_grip(_: usize, _: u32) -> f32 {
    1.0
}

impl<'a> CrowdSurroundings<'a> {
    /// Colliders whose surfaces all have friction 1.
    pub fn new(colliders: &'a [PlacedCollider<'a>]) -> Self {
        Self {
            colliders,
            friction: &full_grip,
            player: None,
            layers: CollisionLayers::ALL,
        }
    }

    /// The same, met by agents with `layers`.
    pub fn with_layers(self, layers: CollisionLayers) -> Self {
        Self { layers, ..self }
    }

    /// The same colliders with a friction per surface.
    pub fn with_friction(self, friction: &'a (dyn Fn(usize, u32) -> f32 + Sync)) -> Self {
        Self { friction, ..self }
    }

    /// The same, with the player where it is now.
    pub fn with_player(self, player: Bystander) -> Self {
        Self {
            player: Some(player),
            ..self
        }
    }
}

/// Someone who is not one of the agents but stands among them, an
/// ellipsoid they walk around and never push: the player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bystander {
    /// Centre, metres.
    pub centre: Vec3,
    /// Radii, metres.
    pub radii: Vec3,
}

/// What the last [`Crowd::step`] did and cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Agents stepped.
    pub agents: usize,
    /// Threads used.
    pub threads: usize,
    /// Wall time of the whole step, microseconds.
    pub micros: f64,
    /// `micros / agents`: the cost of one agent's update, microseconds.
    pub micros_per_agent: f64,
    /// Of `micros`: the agents' moves (the controller's ticks, in parallel).
    pub move_micros: f64,
    /// Of `micros`: checking the moves for agents ending in each other (in parallel).
    pub check_micros: f64,
    /// Of `micros`: the agents whose move was refused standing still instead.
    pub retry_micros: f64,
    /// Agents asleep: standing still on ground that does not move with
    /// nothing moving near, so their tick was skipped (it would change nothing).
    pub asleep: usize,
    /// Other agents' polytopes swept against (put in the worlds of the
    /// agents that ticked, summed over agents).
    pub hulls_swept: u64,
    /// Collide-and-slide sweeps run by the controller (summed over agents).
    pub sweeps: u64,
    /// Agents whose move was refused (it ended in another agent's ellipsoid
    /// or in another's move) and who stood still instead.
    pub retried: usize,
    /// Of those, agents whose move was not run: heading straight into a
    /// neighbour they already stood closer to than its polytope reaches,
    /// they yielded (see the crate's documentation).
    pub yielded: usize,
    /// Of those, agents whose standing still was kept (carried by their
    /// lift, pushed by a door, or just where they were).
    pub stood_still: usize,
    /// Of those, agents whose standing still was refused too: left where
    /// the tick started.
    pub held: usize,
    /// Agents squeezed by a door or lift ([`Agent::crushed`]).
    pub crushed: usize,
    /// The colliders (indices in [`CrowdSurroundings::colliders`]) that squeezed
    /// an agent: the game turns such a door or lift back, as for the
    /// player (a lift that comes on down presses the agents under it into
    /// its deck, up to their whole radius, in the tests' runs).
    pub crushing_colliders: Vec<usize>,
    /// Agents that fell below the level and were put back where they spawned.
    pub returned_home: usize,
}

/// An agent size: its radii, its controller, the polytopes around it.
#[derive(Clone, Debug)]
pub(crate) struct Size {
    pub radii: Vec3,
    pub controller: Controller,
    /// The polytope scaled by [`shell_scales`]: `hulls[0]` circumscribes
    /// the ellipsoid, the last is inscribed in it. Shared: a game may
    /// hold the outer one as an obstacle ([`Crowd::polytope_shapes_in`]).
    pub hulls: Vec<Arc<MeshCollider>>,
    /// Half the largest polytope's box, metres.
    pub hull_half: Vec3,
}

/// Polytope scales per size, from circumscribed to inscribed.
pub(crate) const SHELLS: usize = 6;

/// N agents wandering a level with the player's controller, colliding with
/// the level, its doors and lifts, the player and each other.
#[derive(Clone, Debug)]
pub struct Crowd {
    pub(crate) config: CrowdConfig,
    pub(crate) sizes: Vec<Size>,
    pub(crate) agents: Vec<Agent>,
    /// Below this height (metres) an agent has fallen out of the level.
    pub(crate) fall_limit: f32,
    pub(crate) report: StepReport,
    pub(crate) scratch: Scratch,
    /// The player's polytope and the radii it was made for.
    pub(crate) player_hull: Option<(Vec3, MeshCollider)>,
}

/// The scales of an agent's polytopes ([`SHELLS`] of them): 1, the
/// circumscribed polytope, down to `1 / (1 + max_gap)`, where its corners
/// touch the ellipsoid from inside.
pub(crate) fn shell_scales(config: &CrowdConfig) -> [f32; SHELLS] {
    let inscribed = 1.0 / (1.0 + config.hull.max_gap());
    std::array::from_fn(|j| 1.0 - (1.0 - inscribed) * j as f32 / (SHELLS - 1) as f32)
}

impl Crowd {
    /// An empty crowd, if the configuration is valid for every size.
    pub fn new(config: CrowdConfig) -> Result<Self, CrowdError> {
        if config.sizes.is_empty() || config.sizes.len() > 256 {
            return Err(CrowdError::Sizes(config.sizes.len()));
        }
        let mut sizes = Vec::with_capacity(config.sizes.len());
        for (k, &radii) in config.sizes.iter().enumerate() {
            let controller =
                Controller::new(config.controller_for(k)).map_err(|error| CrowdError::Controller { size: k, error })?;
            let hulls: Vec<Arc<MeshCollider>> = shell_scales(&config)
                .iter()
                .map(|s| {
                    Arc::new(
                        config
                            .hull
                            .collider(radii * *s)
                            .expect("radii validated by the controller"),
                    )
                })
                .collect();
            let bounds = hulls[0].bounds();
            sizes.push(Size {
                radii,
                controller,
                hull_half: bounds.size() * 0.5 + bounds.center().abs(),
                hulls,
            });
        }
        Ok(Self {
            config,
            sizes,
            agents: Vec::new(),
            fall_limit: f32::NEG_INFINITY,
            report: StepReport::default(),
            scratch: Scratch::default(),
            player_hull: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &CrowdConfig {
        &self.config
    }

    /// Sets the threads a step uses (0: one per core). The crowd's walk does
    /// not depend on it.
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads;
    }

    /// Turns agent–agent collision on or off.
    pub fn set_collide_agents(&mut self, on: bool) {
        self.config.collide_agents = on;
    }

    /// The agents, in spawn order (indices stay valid until [`Crowd::clear`]).
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// Number of agents.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// Whether there are no agents.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// Every agent's centre and radii (metres), for drawing instances.
    pub fn ellipsoids(&self) -> impl ExactSizeIterator<Item = (Vec3, Vec3)> + '_ {
        self.agents.iter().map(|a| (a.state.position, a.state.radii))
    }

    /// Removes every agent.
    pub fn clear(&mut self) {
        self.agents.clear();
        self.report = StepReport::default();
    }

    /// Appends to `out` the circumscribed polytopes (see the crate's
    /// documentation) of the agents whose polytope's box overlaps the box
    /// `min..max` (metres), posed where the agents are, not moving: put
    /// them after the level's colliders in the player's
    /// [`slidewalk_controller::Surroundings`] and the player collides with the agents too.
    pub fn polytopes_in<'s>(&'s self, min: Vec3, max: Vec3, out: &mut Vec<PlacedCollider<'s>>) {
        for a in &self.agents {
            let size = &self.sizes[a.size as usize];
            let c = a.state.position;
            if (c - size.hull_half).cmple(max).all() && (c + size.hull_half).cmpge(min).all() {
                out.push(PlacedCollider::moving(
                    &size.hulls[0],
                    Pose::from_translation(c),
                    Vec3::ZERO,
                    Vec3::ZERO,
                ));
            }
        }
    }

    /// The same polytopes as [`Crowd::polytopes_in`], as shared shapes
    /// with the agents' centres (metres), to keep beyond a borrow of the
    /// crowd (a Bevy resource of obstacles).
    pub fn polytope_shapes_in(&self, min: Vec3, max: Vec3, out: &mut Vec<(Arc<MeshCollider>, Vec3)>) {
        for a in &self.agents {
            let size = &self.sizes[a.size as usize];
            let c = a.state.position;
            if (c - size.hull_half).cmple(max).all() && (c + size.hull_half).cmpge(min).all() {
                out.push((size.hulls[0].clone(), c));
            }
        }
    }

    /// What the last step did and cost.
    pub fn last_step(&self) -> &StepReport {
        &self.report
    }

    /// Bytes held per agent: the agents themselves and the step's buffers
    /// (grids, moves, flags), at their current capacity, divided by the
    /// agents (the sizes' few polytopes left out).
    pub fn bytes_per_agent(&self) -> f64 {
        let s = &self.scratch;
        let bytes = self.agents.capacity() * std::mem::size_of::<Agent>()
            + s.start_grid.memory_bytes()
            + s.end_grid.memory_bytes()
            + s.moves.capacity() * std::mem::size_of::<Move>()
            + s.rank.capacity() * 4
            + s.clear.capacity() * std::mem::size_of::<Clear>()
            + s.keep.capacity()
            + s.current.capacity() * std::mem::size_of::<Vec3>()
            + s.ends.capacity() * std::mem::size_of::<Vec3>()
            + s.yielded.capacity()
            + s.order.capacity() * std::mem::size_of::<(u64, u32)>();
        bytes as f64 / self.agents.len().max(1) as f64
    }
}
