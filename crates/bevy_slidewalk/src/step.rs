//! The tick that moves every character against the [`CollisionWorld`]:
//! a change of config taken in, the controller stepped, the report and the
//! movement events written.

use crate::character::{CharacterController, MovementIntent, MovementState};
use crate::diagnostics::StepTimings;
use crate::emit::{EventWriters, TickFacts, emit};
use crate::events::{ConfigRefused, FootstepStride};
use crate::memory::CharacterMemory;
use crate::obstacles::Obstacles;
use crate::report::{GroundHit, MovementReport};
use crate::rules::SlidewalkLayers;
use crate::world::CollisionWorld;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use glam::Vec3;
use slidewalk_controller::moves::Move;
use slidewalk_controller::{Intent, Surroundings, TickReport};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Characters are stepped on the task pool's threads from this many on;
/// below it, waking the threads would cost more than it saves (a tick of
/// one character is a few microseconds; waking a thread on a small
/// machine, tens).
const PARALLEL_FROM: usize = 64;

/// A character's components, as the tick reads and writes them.
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct Character {
    entity: Entity,
    controller: &'static mut CharacterController,
    state: &'static mut MovementState,
    intent: &'static mut MovementIntent,
    report: &'static mut MovementReport,
    memory: &'static mut CharacterMemory,
    transform: &'static Transform,
    stride: &'static FootstepStride,
    layers: Option<&'static SlidewalkLayers>,
}

/// What every character's tick shares: the world, its colliders and this
/// tick's obstacles, the tick's length.
struct TickWorld<'a> {
    world: &'a CollisionWorld,
    placed: &'a [slidewalk_sweep::PlacedCollider<'a>],
    dt: f32,
    timed: bool,
}

/// Moves every character one tick against the collision world, writes
/// their reports and the movement events.
///
/// Characters do not see each other (a game adds them to [`Obstacles`]),
/// so each one's tick depends only on its own components and the world:
/// they are stepped in parallel when there are many, with the same result
/// on any number of threads, and their events are written afterwards in
/// the query's order.
pub(crate) fn step_characters(
    world: Res<CollisionWorld>,
    obstacles: Res<Obstacles>,
    time: Res<Time>,
    timings: Option<ResMut<StepTimings>>,
    mut characters: Query<Character>,
    mut events: EventWriters,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    let started = timings.is_some().then(Instant::now);
    let mut placed = world.placed();
    placed.extend(obstacles.placed());
    let shared = TickWorld {
        world: &world,
        placed: &placed,
        dt,
        timed: timings.is_some(),
    };
    if characters.iter().len() >= PARALLEL_FROM {
        characters.par_iter_mut().for_each(|c| tick_one(c, &shared));
    } else {
        characters.iter_mut().for_each(|c| tick_one(c, &shared));
    }
    let mut sweep_time = Duration::ZERO;
    let mut count = 0;
    for c in &mut characters {
        let memory = c.memory.into_inner();
        sweep_time += std::mem::take(&mut memory.sweep_time);
        if let Some(error) = memory.refused.take() {
            let events = &mut events;
            events.shown.write(
                &mut events.config_refused,
                c.entity,
                None,
                ConfigRefused {
                    character: c.entity,
                    error,
                },
            );
        }
        let Some(before) = memory.tick_start.take() else {
            continue;
        };
        count += 1;
        let facts = TickFacts {
            character: c.entity,
            before: &before,
            after: &c.state,
            report: &c.report,
            config: memory.controller.config(),
            stride: c.stride.0,
            world: &world,
            dt,
        };
        emit(&mut events, &facts, &mut memory.events);
    }
    if let (Some(mut timings), Some(started)) = (timings, started) {
        timings.record(count, started.elapsed(), sweep_time);
    }
}

/// One character's tick against the shared world: its state, intent,
/// report and memory.
fn tick_one(c: CharacterItem, shared: &TickWorld) {
    let memory = c.memory.into_inner();
    let mut state = c.state;
    // Moved by the game since the last tick: by its transform (a
    // teleport of the centre) or by its state (a respawn, a rewind).
    let cut = if memory.moved_by_the_game(c.transform) {
        state.teleport(c.transform.translation);
        memory.drawn = None;
        true
    } else {
        // Compared by value, not by change detection: a rollback that
        // restores the state restores this memory with it.
        memory.left.as_ref() != Some(&state.0) && c.controller.active
    };
    // A climb the game's move took away ended with it.
    let climb_cut = cut && memory.left.is_some_and(|s| s.moves.climb().is_some()) && state.moves.climb().is_none();
    if cut {
        memory.cut_to(&state);
    }
    let mut intent = c.intent;
    if !c.controller.active {
        if intent.impulse != Vec3::ZERO {
            intent.impulse = Vec3::ZERO;
        }
        // Drawn where the game put it, from where it was last tick.
        memory.previous = memory.last_end;
        memory.last_end = state.position;
        memory.left = Some(state.0);
        return;
    }
    let world = shared.world;
    let friction = |c: usize, t: u32| world.friction(c, t);
    let own_layers = c.layers.copied().unwrap_or_default();
    let layers = own_layers.core();
    let climbable = |c: usize| world.is_climbable(c);
    let launch_pad = |c: usize| world.launch_pad(c);
    let conveyor = |c: usize| world.conveyor(c);
    let water = |point: Vec3, up: Vec3| world.water_depth(point, up, own_layers);
    let mut collision = Surroundings::new(shared.placed)
        .with_friction(&friction)
        .with_layers(layers)
        .with_climbable(&climbable)
        .with_launch_pads(&launch_pad)
        .with_conveyors(&conveyor);
    if world.has_water() {
        // Without water the controller's own "no water" is asked: nothing to look up.
        collision = collision.with_water(&water);
    }
    let sweep_time = Cell::new(Duration::ZERO);
    let timed = collision.with_sweep_timer(&sweep_time);
    take_config(c.entity, c.controller, &mut state, memory, &collision);
    find_ground(&mut state, memory, world, shared.placed.len());
    find_climbed(&mut state, memory, world, shared.placed.len());
    memory.layout = world.layout();
    let before = state.0;
    let asked = Intent {
        direction: intent.direction,
        jump: intent.jump,
        crouch: intent.crouch,
        sprint: intent.sprint,
        drop: intent.drop,
        jump_held: intent.jump_held,
        dash: intent.dash,
        facing: intent.facing,
        launch: intent.impulse,
        pitch: intent.pitch,
    };
    // Presses and the impulse are taken by this tick.
    if intent.jump || intent.drop || intent.dash || intent.impulse != Vec3::ZERO {
        intent.jump = false;
        intent.drop = false;
        intent.dash = false;
        intent.impulse = Vec3::ZERO;
    }
    let using = if shared.timed { &timed } else { &collision };
    let mut report = c.report;
    let report = &mut *report;
    if let Err(e) = memory
        .controller
        .tick_into(&mut state, &asked, using, shared.dt, &mut report.tick)
    {
        error!("character {}: tick refused, left where it was: {e}", c.entity);
        state.0 = before;
        report.tick = TickReport::default();
    }
    // Its report and its events say so (before a climb this tick started).
    report.tick.climb_ended |= climb_cut;
    memory.previous = before.position;
    memory.last_end = state.position;
    report.name_by_entity(world);
    memory.ground_entity = report.ground.as_ref().and_then(|g| g.entity);
    memory.climb_entity = state
        .moves
        .climb()
        .and_then(|climb| world.entity(climb.collider?, climb.triangle));
    memory.tick_start = Some(before);
    memory.left = Some(state.0);
    memory.sweep_time = sweep_time.get();
}

/// Takes a changed config in, fitting the state to new radii; an invalid
/// one (or radii that do not fit) is refused with a logged error naming
/// the field, and the last valid config is put back.
fn take_config(
    entity: Entity,
    mut controller: Mut<CharacterController>,
    state: &mut MovementState,
    memory: &mut CharacterMemory,
    world: &Surroundings<'_>,
) {
    // Only the game writes it (the plugin's own write back is not a change).
    if !controller.is_changed() || controller.config == *memory.controller.config() {
        return;
    }
    let wanted = controller.config;
    if let Err(e) = memory.controller.reconfigure(wanted, state, world) {
        error!("character {entity}: config refused, the last valid one kept: {e}");
        controller.config = *memory.controller.config();
        memory.refused = Some(e);
    }
}

/// The ground by entity: collider indices may have changed since the last
/// tick. A state given back keeps its index while it is one.
fn find_ground(state: &mut MovementState, memory: &CharacterMemory, world: &CollisionWorld, colliders: usize) {
    if state.ground.is_none() || (memory.ground_entity.is_some() && memory.layout == world.layout()) {
        // Nothing stood on, or the index of the ground stood on still holds.
        return;
    }
    let Some(g) = &mut state.ground else {
        return;
    };
    match memory.ground_entity.map(|e| world.index_of(e)) {
        Some(Some(i)) => g.collider = i,
        Some(None) => state.ground = None,
        None if g.collider >= colliders => state.ground = None,
        None => {}
    }
}

/// The collider climbed by entity, as [`find_ground`] the ground's.
fn find_climbed(state: &mut MovementState, memory: &CharacterMemory, world: &CollisionWorld, colliders: usize) {
    let Some(Move::Climb(climb)) = &mut state.moves.under_way else {
        return;
    };
    if memory.climb_entity.is_some() && memory.layout == world.layout() {
        return;
    }
    climb.collider = match memory.climb_entity {
        Some(entity) => world.index_of(entity),
        None => climb.collider.filter(|&i| i < colliders),
    };
}

impl MovementReport {
    /// Names the tick's ground and contacts by entity (and the ground's
    /// surface), from `world`'s collider indices.
    fn name_by_entity(&mut self, world: &CollisionWorld) {
        self.ground = match self.tick.ground {
            None => None,
            Some(g) => {
                let (entity, surface) = (
                    world.entity(g.collider, g.triangle),
                    world.surface(g.collider, g.triangle),
                );
                // The same ground as last tick: kept, not cloned again.
                match self.ground.take() {
                    Some(old) if old.entity == entity && surface.is_some_and(|s| s.same_as(&old.surface)) => Some(old),
                    _ => Some(GroundHit {
                        entity,
                        surface: surface.cloned().unwrap_or_default(),
                    }),
                }
            }
        };
        self.contact_entities.clear();
        self.contact_entities.extend(
            self.tick
                .contacts
                .iter()
                .map(|pc| world.entity(pc.contact.collider, pc.contact.triangle)),
        );
    }
}
