//! The crowd in the game: non-player agents (`crates/crowd`) wandering the
//! level with the player's own controller, stepped every fixed tick after
//! the player on every core, against the level's colliders (doors and
//! lifts posed as for the player), each other and the player, whom they
//! walk around (and who walks around them: `player.rs` puts the agents
//! near it into its tick). A door squeezing an agent turns back as it does for the
//! player. The panel spawns them around the player and shows what a step
//! costs; a new level clears them (and spawns `--crowd N` again). A big
//! spawn is spread over ticks (a few milliseconds of it each), so asking
//! for 10,000 never freezes the game: they appear over a few seconds.

use super::colliders::Colliders;
use super::feedback::Feedback;
use super::launch::LaunchOptions;
use super::level::CurrentLevel;
use super::player::Player;
use super::player::flying;
use super::schedule::SimSet;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementState, Obstacles, SlidewalkSystems};
use slidewalk_crowd::{Bystander, Crowd, CrowdConfig, CrowdSurroundings, StepReport};

/// Most agents the game keeps (the panel's largest button, twice).
pub const MAX_AGENTS: usize = slidewalk_play::MAX_CROWD;

/// How far from the player (across, metres) new agents are spawned first.
const SPAWN_RADIUS: f32 = 40.0;

/// Agents placed at a time while a spawn is under way.
pub const SPAWN_CHUNK: usize = 50;

/// A spawn under way: agents asked for and not yet placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PendingSpawn {
    /// Agents asked for since the spawn began (for the notice if the level fills up).
    asked: usize,
    /// Agents placed since it began.
    placed: usize,
    /// Agents still to place.
    left: usize,
}

/// The agents and what their last step cost.
#[derive(Resource, Debug)]
pub struct CrowdSim {
    /// The agents.
    pub crowd: Crowd,
    /// Each agent's centre before the last step, metres (for drawing between ticks).
    pub previous: Vec<Vec3>,
    /// Agents spawned so far (seeds each spawn differently).
    spawned: u64,
    /// The spawn under way.
    pending: PendingSpawn,
    /// Wall-clock time a tick spends placing the agents of a spawn, at
    /// least one chunk of [`SPAWN_CHUNK`] (6 ms; zero: one chunk a tick).
    pub spawn_budget: std::time::Duration,
    /// Steps taken with agents, and their wall-clock time in all, microseconds.
    steps: (u64, f64),
}

impl Default for CrowdSim {
    fn default() -> Self {
        let config = CrowdConfig {
            // Every core; the walk does not depend on the count.
            threads: 0,
            ..CrowdConfig::default()
        };
        Self {
            crowd: Crowd::new(config).expect("the default crowd configuration is valid"),
            previous: Vec::new(),
            spawned: 0,
            pending: PendingSpawn::default(),
            spawn_budget: std::time::Duration::from_millis(6),
            steps: (0, 0.0),
        }
    }
}

impl CrowdSim {
    /// Mean wall-clock time of the steps taken with agents so far, microseconds.
    pub fn mean_step_micros(&self) -> f64 {
        let (n, total) = self.steps;
        if n > 0 { total / n as f64 } else { 0.0 }
    }

    /// What the last step did and cost (wall-clock microseconds, as the crowd measured it).
    pub fn last_step(&self) -> &StepReport {
        self.crowd.last_step()
    }

    /// Keeps where every agent is now, to draw them between this tick and the next.
    fn remember_positions(&mut self) {
        self.previous.clear();
        self.previous.extend(self.crowd.agents().iter().map(|a| a.position()));
    }

    /// Agents asked for and not placed yet (a spawn under way).
    pub fn spawning(&self) -> usize {
        self.pending.left
    }

    /// Removes every agent, and stops a spawn under way.
    pub fn clear(&mut self) {
        self.crowd.clear();
        self.previous.clear();
        self.pending = PendingSpawn::default();
    }
}

/// Asks something of the crowd (the panel, a test).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrowdControl {
    /// Spawn this many more agents around the player, the rest of them
    /// anywhere on the level when there is no more room near it (up to
    /// [`MAX_AGENTS`] in all).
    Spawn(usize),
    /// Remove every agent.
    Clear,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CrowdSim>()
        .add_message::<CrowdControl>()
        .add_systems(FixedUpdate, clear_on_new_level.in_set(SimSet::Place))
        .add_systems(
            FixedUpdate,
            agents_as_obstacles
                .in_set(SimSet::Player)
                .before(SlidewalkSystems::Prepare),
        )
        .add_systems(
            FixedUpdate,
            (control_crowd, spawn_pending, step_crowd).chain().in_set(SimSet::Crowd),
        );
}

/// A new level: the agents of the old one go, and `--crowd N` asks for N new ones.
fn clear_on_new_level(
    current: Res<CurrentLevel>,
    options: Option<Res<LaunchOptions>>,
    mut sim: ResMut<CrowdSim>,
    mut controls: MessageWriter<CrowdControl>,
    mut seen: Local<u32>,
) {
    if current.generation != *seen {
        *seen = current.generation;
        sim.clear();
        if let Some(n) = options.map(|o| o.0.crowd).filter(|n| *n > 0) {
            controls.write(CrowdControl::Spawn(n));
        }
    }
}

/// The world with the player in it as the agents see it: an ellipsoid to
/// walk around and keep out of (not while it flies through everything).
fn with_player<'a>(
    world: CrowdSurroundings<'a>,
    players: &Query<(&CharacterController, &MovementState), With<Player>>,
) -> CrowdSurroundings<'a> {
    match players.iter().find(|(body, _)| !flying(body)) {
        Some((_, body)) => world.with_player(Bystander {
            centre: body.position,
            radii: body.radii,
        }),
        None => world,
    }
}

/// Takes the panel's (or a test's) requests: a spawn is queued for
/// [`spawn_pending`], a clear happens at once.
fn control_crowd(
    mut controls: MessageReader<CrowdControl>,
    mut sim: ResMut<CrowdSim>,
    mut notices: ResMut<Notices>,
    current: Res<CurrentLevel>,
    net: Option<Res<super::launch::NetPlayers>>,
) {
    if net.is_some() {
        if controls.read().count() > 0 {
            notices.info("the crowd is not played over the network");
        }
        return;
    }
    for control in controls.read() {
        match *control {
            CrowdControl::Clear => {
                sim.clear();
                notices.info("crowd cleared");
            }
            CrowdControl::Spawn(asked) => {
                if current.level.is_none() {
                    notices.error("crowd: no level is open");
                    continue;
                }
                let room = MAX_AGENTS.saturating_sub(sim.crowd.len() + sim.pending.left);
                let n = asked.min(room);
                if n == 0 {
                    notices.error(format!("crowd: {MAX_AGENTS} agents at most"));
                    continue;
                }
                if n < asked {
                    notices.info(format!("crowd: {n} of {asked} agents asked for ({MAX_AGENTS} at most)"));
                }
                sim.pending.asked += n;
                sim.pending.left += n;
            }
        }
    }
}

/// Places the agents of a spawn under way, a chunk at a time for a few
/// milliseconds a tick (at least one chunk): around the player first,
/// what does not fit there anywhere on the level.
fn spawn_pending(
    mut sim: ResMut<CrowdSim>,
    mut notices: ResMut<Notices>,
    current: Res<CurrentLevel>,
    colliders: Colliders,
    players: Query<(&CharacterController, &MovementState), With<Player>>,
) {
    if sim.pending.left == 0 {
        return;
    }
    if current.level.is_none() {
        sim.pending = PendingSpawn::default();
        return;
    }
    let placed = colliders.placed();
    // Grip by the plugin's numbering of this tick's colliders.
    let friction = |c: usize, t: u32| colliders.friction(c, t);
    let world = with_player(
        CrowdSurroundings::new(&placed)
            .with_friction(&friction)
            .with_layers(slidewalk_level::layers::CROWD_LAYERS),
        &players,
    );
    let centre = players.iter().next().map_or(Vec3::ZERO, |(_, body)| body.position);
    let started = std::time::Instant::now();
    while sim.pending.left > 0 {
        let n = sim.pending.left.min(SPAWN_CHUNK);
        let seed = sim.spawned;
        let mut added = sim.crowd.spawn_around(n, &world, seed, centre, SPAWN_RADIUS);
        if added < n {
            added += sim.crowd.spawn(n - added, &world, seed ^ 0x5eed);
        }
        sim.spawned += added as u64;
        sim.pending.placed += added;
        sim.pending.left -= added;
        if added == 0 {
            // The level is full (a whole chunk's tries found no room): the
            // rest would not fit either.
            let PendingSpawn { asked, placed, .. } = sim.pending;
            notices.info(format!(
                "{placed} of {asked} agents placed: no more free ground on the level"
            ));
            sim.pending = PendingSpawn::default();
        }
        if started.elapsed() >= sim.spawn_budget {
            break;
        }
    }
    if sim.pending.left == 0 {
        sim.pending = PendingSpawn::default();
    }
    sim.remember_positions();
}

/// One step of every agent, after the player has moved.
fn step_crowd(
    mut sim: ResMut<CrowdSim>,
    mut feedback: ResMut<Feedback>,
    mut notices: ResMut<Notices>,
    time: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    colliders: Colliders,
    players: Query<(&CharacterController, &MovementState), With<Player>>,
) {
    if sim.crowd.is_empty() {
        return;
    }
    if current.level.is_none() {
        return;
    }
    let placed = colliders.placed();
    let friction = |c: usize, t: u32| colliders.friction(c, t);
    let world = with_player(
        CrowdSurroundings::new(&placed)
            .with_friction(&friction)
            .with_layers(slidewalk_level::layers::CROWD_LAYERS),
        &players,
    );
    sim.remember_positions();
    let sim = &mut *sim;
    match sim.crowd.step(&world, time.timestep().as_secs_f32()) {
        Ok(report) => {
            // A door squeezing an agent turns back, as for the player.
            feedback
                .squeezing_movers
                .extend(report.crushing_colliders.iter().filter_map(|&c| colliders.mover_of(c)));
            sim.steps.0 += 1;
            sim.steps.1 += report.micros;
        }
        Err(e) => notices.error(format!("crowd: {e}")),
    }
}

/// How far beyond its radii (metres) the player's tick looks for agents
/// of the crowd to collide with: more than a tick's move at any speed the
/// controller allows, a step up and a snap down.
const CROWD_REACH: f32 = 3.0;

/// Before the player's tick: the agents near the player, where the last
/// step left them, as the shapes they keep from one another, are the
/// plugin's obstacles: the player walks around them (and may stand on
/// one), as they walk around the player.
fn agents_as_obstacles(
    sim: Res<CrowdSim>,
    mut obstacles: ResMut<Obstacles>,
    players: Query<(&CharacterController, &MovementState), With<Player>>,
) {
    obstacles.0.clear();
    let mut near = Vec::new();
    for (_, body) in players.iter().filter(|(body, _)| !flying(body)) {
        let reach = body.radii + Vec3::splat(CROWD_REACH);
        let at = body.position;
        sim.crowd.polytope_shapes_in(at - reach, at + reach, &mut near);
    }
    obstacles
        .0
        .extend(near.into_iter().map(|(shape, at)| bevy_slidewalk::Obstacle {
            shape,
            pose: slidewalk_sweep::Pose::from_translation(at),
        }));
}
