//! Characters: [`CharacterController`] (config and state), the
//! [`MovementIntent`] an input system writes, the [`MovementReport`] of the
//! last tick, and the tick that moves them all against the
//! [`CollisionWorld`].

use crate::events::{EventWriters, FootstepStride};
use crate::report::{GroundHit, MovementContact, MovementReport};
use crate::world::CollisionWorld;
use bevy::prelude::*;
use controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickReport};
use glam::Vec3;
use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A character: an ellipsoid that walks, climbs stairs, jumps, crouches
/// and rides moving geometry, moved each fixed tick by
/// [`SlidewalkPlugin`](crate::SlidewalkPlugin).
///
/// The entity's `Transform` translation is the ellipsoid's centre: spawn
/// the character where it should start (the first tick settles it on the
/// ground), or by its feet with
/// [`transform_at_feet`](CharacterController::transform_at_feet). The
/// plugin writes the translation (interpolated between ticks) and leaves
/// the rotation to the game; a translation the game writes itself is
/// taken as a teleport at the next tick, however many frames come before
/// it. Keep the character a root entity.
#[derive(Component, Clone, Debug)]
#[require(MovementIntent, MovementReport, FootstepStride, Transform, Visibility)]
pub struct CharacterController {
    /// The tunables (metres, seconds, m/s, m/s², degrees; see
    /// [`ControllerConfig`]). Change any field at any time: the next tick
    /// checks it; an invalid value is refused with a logged error naming
    /// the field, and the config goes back to the last valid one. New
    /// radii are taken only where the new shape fits.
    pub config: ControllerConfig,
    /// Where the character is and how it moves, as of the last tick.
    /// Plain data: save it, and give it back with
    /// [`CharacterController::set_state`] to rewind.
    pub state: CharacterState,
    /// Moved by the plugin (true). False: the plugin leaves it alone (a
    /// fly or noclip mode, a cutscene): no tick, no report, no events; the
    /// transform still follows `state.position`, which the game may move.
    pub active: bool,
    /// Time the sweeps of each tick into [`MovementReport::sweep_micros`]
    /// (false: two clock reads per collide-and-slide pass saved).
    pub time_sweeps: bool,
    controller: Controller,
    /// Whether `state` was placed from the entity's transform yet.
    placed: bool,
    /// Centre at the start of the last tick (interpolation).
    previous: Vec3,
    /// Centre at the end of the last tick.
    last_end: Vec3,
    /// The translation the plugin last wrote to the transform.
    drawn: Option<Vec3>,
    /// The entity of the ground stood on (collider indices change).
    ground_entity: Option<Entity>,
    /// The mover stood on, for boarded/left events.
    riding: Option<Entity>,
    /// A wall was touched last tick (a hit is the start of a touch).
    touching_wall: bool,
    /// Metres walked on the ground since the last footstep.
    walked: f32,
    /// The state at the start of this tick, from the step to its events.
    tick_start: Option<CharacterState>,
}

impl CharacterController {
    /// A character with `config`, or the first invalid field.
    pub fn new(config: ControllerConfig) -> Result<Self, controller::ConfigError> {
        let controller = Controller::new(config)?;
        Ok(Self {
            config,
            state: CharacterState::standing_at(Vec3::ZERO, &config),
            active: true,
            time_sweeps: false,
            controller,
            placed: false,
            previous: Vec3::ZERO,
            last_end: Vec3::ZERO,
            drawn: None,
            ground_entity: None,
            riding: None,
            touching_wall: false,
            walked: 0.0,
            tick_start: None,
        })
    }

    /// Whether the game wrote a translation of its own since the plugin
    /// last drew the character: a teleport the next tick takes.
    fn moved_by_the_game(&self, transform: &Transform) -> bool {
        self.drawn.is_some_and(|d| d != transform.translation)
    }

    /// The configuration in use (the last valid one given).
    pub fn config_in_use(&self) -> &ControllerConfig {
        self.controller.config()
    }

    /// Where the feet are (the ellipsoid's lowest point along "up"), metres.
    pub fn feet(&self) -> Vec3 {
        self.state.feet()
    }

    /// Whether the character stood on ground at the end of the last tick.
    pub fn grounded(&self) -> bool {
        self.state.grounded()
    }

    /// The centre drawn `fraction` (0 … 1) of the way from the previous
    /// tick's end to this one's.
    pub fn interpolated(&self, fraction: f32) -> Vec3 {
        self.previous.lerp(self.state.position, fraction.clamp(0.0, 1.0))
    }

    /// Puts the centre at `centre` (metres), at rest, not yet on ground,
    /// and draws it there without interpolating.
    pub fn teleport(&mut self, centre: Vec3) {
        let mut state = self.state;
        state.position = centre;
        state.velocity = Vec3::ZERO;
        state.ground = None;
        self.set_state(state);
    }

    /// The transform that puts this character's feet at `feet` (metres),
    /// standing: a level's spawn point gives the feet, the transform is
    /// the centre. `commands.spawn((character.transform_at_feet(spawn),
    /// character))`.
    pub fn transform_at_feet(&self, feet: Vec3) -> Transform {
        Transform::from_translation(CharacterState::standing_at(feet, self.config_in_use()).position)
    }

    /// Puts the feet at `feet` (metres), standing, at rest, not yet on
    /// ground (a respawn at a spawn point), and draws it there without
    /// interpolating. [`teleport`](Self::teleport) places the centre.
    pub fn teleport_feet(&mut self, feet: Vec3) {
        self.set_state(CharacterState::standing_at(feet, self.config_in_use()));
    }

    /// Replaces the state (a respawn, a rewind, a replay) and draws it
    /// there without interpolating. The ground it names keeps its collider
    /// index (that of [`CollisionWorld::placed`] when the state was saved).
    pub fn set_state(&mut self, state: CharacterState) {
        self.state = state;
        self.previous = state.position;
        self.last_end = state.position;
        self.ground_entity = None;
        self.riding = None;
        self.placed = true;
    }

    /// Replaces the configuration now, without fitting the state to new
    /// radii (a new character, a replay's start); an invalid one is
    /// refused and the old one kept.
    pub fn set_config(&mut self, config: ControllerConfig) -> Result<(), controller::ConfigError> {
        self.controller.set_config(config)?;
        self.config = config;
        Ok(())
    }

    /// Replaces the configuration now, fitting the state to new radii
    /// against `world` (feet kept on the floor): refused, with the reason,
    /// when a value is invalid or the new shape does not fit where the
    /// character is (a tuning panel shows it). See
    /// [`Controller::reconfigure`].
    pub fn reconfigure(
        &mut self,
        config: ControllerConfig,
        world: &Surroundings<'_>,
    ) -> Result<(), controller::ReconfigureError> {
        let c = &mut *self;
        c.controller.reconfigure(config, &mut c.state, world)?;
        c.config = config;
        Ok(())
    }
}

impl Default for CharacterController {
    fn default() -> Self {
        Self::new(ControllerConfig::default()).expect("the default config is valid")
    }
}

/// What the character is asked to do, written by the game's input system
/// (keyboard, gamepad, AI, a script): the plugin never reads a device.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct MovementIntent {
    /// Walking direction in world space, its length 0 … 1 the fraction of
    /// the top speed (longer is shortened to 1; the part along "up" is
    /// ignored). Kept until changed.
    pub direction: Vec3,
    /// A jump was asked for: set it on the press; the next tick takes it
    /// and clears it (so a press between two ticks is neither lost nor
    /// repeated).
    pub jump: bool,
    /// Crouch is held.
    pub crouch: bool,
    /// Sprint is held.
    pub sprint: bool,
}

/// Solid shapes for this tick only that are not entities (agents of a
/// crowd simulated outside the ECS): the game fills it before
/// [`SlidewalkSystems::Step`](crate::SlidewalkSystems::Step); every
/// character collides with them after the [`CollisionWorld`]'s colliders.
/// Contacts with them name no entity.
#[derive(Resource, Default, Clone)]
pub struct Obstacles(pub Vec<Obstacle>);

/// A shape of [`Obstacles`], at rest where it is placed.
#[derive(Clone)]
pub struct Obstacle {
    /// The triangles, in the obstacle's frame.
    pub shape: Arc<sweep::MeshCollider>,
    /// Where it is.
    pub pose: sweep::Pose,
}

/// Takes a changed config in, fitting the state to new radii; an invalid
/// one (or radii that do not fit) is refused with a logged error naming
/// the field, and the last valid config is put back.
fn apply_config(entity: Entity, c: &mut CharacterController, world: &Surroundings<'_>) {
    if c.config == *c.controller.config() {
        return;
    }
    let wanted = c.config;
    let c = &mut *c;
    match c.controller.reconfigure(wanted, &mut c.state, world) {
        Ok(()) => {}
        Err(e) => {
            error!("character {entity}: config refused, the last valid one kept: {e}");
            c.config = *c.controller.config();
        }
    }
}

/// Characters are stepped on the task pool's threads from this many on;
/// below it, waking the threads would cost more than it saves (a tick of
/// one character is a few microseconds; waking a thread on a small
/// machine, tens).
const PARALLEL_FROM: usize = 64;

/// Moves every character one tick against the collision world, writes
/// their reports and the movement events.
///
/// Characters do not see each other (a game adds them to [`Obstacles`]),
/// so each one's tick depends only on its own state and the world: they
/// are stepped in parallel when there are many, with the same result on
/// any number of threads, and their events are written afterwards in the
/// query's order.
pub(crate) fn step_characters(
    world: Res<CollisionWorld>,
    obstacles: Res<Obstacles>,
    time: Res<Time>,
    mut characters: Query<(
        Entity,
        &mut CharacterController,
        &mut MovementIntent,
        &mut MovementReport,
        &FootstepStride,
        &Transform,
    )>,
    mut events: EventWriters,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    let mut placed = world.placed();
    placed.extend(
        obstacles
            .0
            .iter()
            .map(|o| sweep::PlacedCollider::moving(&o.shape, o.pose, Vec3::ZERO, Vec3::ZERO)),
    );
    let (world, placed) = (&*world, &placed[..]);
    let step = |(entity, mut character, mut intent, mut report, _, transform): (
        Entity,
        Mut<CharacterController>,
        Mut<MovementIntent>,
        Mut<MovementReport>,
        &FootstepStride,
        &Transform,
    )| {
        tick_one(
            entity,
            &mut character,
            &mut intent,
            &mut report,
            transform,
            world,
            placed,
            dt,
        );
    };
    if characters.iter().len() >= PARALLEL_FROM {
        characters.par_iter_mut().for_each(step);
    } else {
        characters.iter_mut().for_each(step);
    }
    for (entity, mut character, _, report, stride, _) in &mut characters {
        let c = &mut *character;
        let Some(before) = c.tick_start.take() else {
            continue;
        };
        crate::events::emit(
            &mut events,
            crate::events::TickFacts {
                character: entity,
                before: &before,
                after: &c.state,
                tick: &report.tick,
                ground: report.ground.as_ref(),
                config: c.controller.config(),
                stride: stride.0,
                up: c.state.up,
                world,
                dt,
            },
            &mut c.walked,
            &mut c.touching_wall,
            &mut c.riding,
        );
    }
}

/// One character's tick against `placed` (the world's colliders and this
/// tick's obstacles): its state, intent and report; its state at the start
/// kept for the events.
#[allow(clippy::too_many_arguments)]
fn tick_one(
    entity: Entity,
    c: &mut CharacterController,
    intent: &mut MovementIntent,
    r: &mut MovementReport,
    transform: &Transform,
    world: &CollisionWorld,
    placed: &[sweep::PlacedCollider<'_>],
    dt: f32,
) {
    let started = Instant::now();
    // Placed at the first tick, or moved by the game since the last.
    if !c.placed || c.moved_by_the_game(transform) {
        c.teleport(transform.translation);
        c.drawn = None;
    }
    if !c.active {
        // Drawn where the game put it, from where it was last tick.
        c.previous = c.last_end;
        c.last_end = c.state.position;
        c.placed = true;
        return;
    }
    let friction = |c: usize, t: u32| world.friction(c, t);
    let collision = Surroundings::new(placed).with_friction(&friction);
    let sweep_time = Cell::new(Duration::ZERO);
    let timed = collision.with_sweep_timer(&sweep_time);
    apply_config(entity, c, &collision);
    // The ground by entity: collider indices may have changed. A state
    // given back (set_state) keeps its index while it is one.
    if let Some(g) = &mut c.state.ground {
        match c.ground_entity.map(|e| world.index_of(e)) {
            Some(Some(i)) => g.collider = i,
            Some(None) => c.state.ground = None,
            None if g.collider >= placed.len() => c.state.ground = None,
            None => {}
        }
    }
    let before = c.state;
    let asked = Intent {
        direction: intent.direction,
        jump: intent.jump,
        crouch: intent.crouch,
        sprint: intent.sprint,
    };
    intent.jump = false;
    let using = if c.time_sweeps { &timed } else { &collision };
    let tick = match c.controller.tick(&mut c.state, &asked, using, dt) {
        Ok(t) => t,
        Err(e) => {
            error!("character {entity}: tick refused, left where it was: {e}");
            c.state = before;
            TickReport::default()
        }
    };
    c.previous = before.position;
    c.last_end = c.state.position;
    let ground = tick.ground.map(|g| GroundHit {
        point: g.point,
        normal: g.normal,
        entity: world.entity(g.collider, g.triangle),
        surface: world.surface(g.collider, g.triangle).cloned().unwrap_or_default(),
        velocity: g.velocity,
    });
    c.ground_entity = ground.as_ref().and_then(|g| g.entity);
    r.contacts.clear();
    r.contacts.extend(tick.contacts.iter().map(|pc| MovementContact {
        point: pc.contact.point,
        normal: pc.contact.normal,
        slide_plane: pc.contact.plane.normal,
        entity: world.entity(pc.contact.collider, pc.contact.triangle),
        pass: pc.pass,
        depenetration: pc.contact.depenetration,
    }));
    r.grounded = tick.ground.is_some();
    r.stepped = tick.stepped;
    r.snapped = tick.snapped;
    r.landed = tick.landed;
    r.jumped = tick.jumped;
    r.crushed = tick.crushed;
    r.pushed = tick.pushed;
    r.carried = tick.carried;
    r.heading_delta = tick.heading_delta;
    r.velocity = c.state.world_velocity();
    r.stand_blocked = tick.stand_blocked;
    r.ground = ground;
    r.tick = tick;
    r.sweep_micros = sweep_time.get().as_secs_f32() * 1e6;
    c.tick_start = Some(before);
    r.micros = started.elapsed().as_secs_f32() * 1e6;
}

/// Draws each character between its last two ticks (`fraction` of the way
/// from the previous tick's end, from `Time<Fixed>`).
pub(crate) fn interpolate_transforms(
    time: Res<Time<Fixed>>,
    mut characters: Query<(&mut CharacterController, &mut Transform)>,
) {
    let fraction = time.overstep_fraction();
    for (mut c, mut transform) in &mut characters {
        if !c.placed || c.moved_by_the_game(&transform) {
            // A translation the game wrote since the last draw is kept
            // for the next tick to take as a teleport (frames without a
            // tick would otherwise draw over it).
            continue;
        }
        let at = c.interpolated(fraction);
        transform.translation = at;
        c.drawn = Some(at);
    }
}

/// Draws each character where its last tick left it (no interpolation).
pub(crate) fn place_transforms(mut characters: Query<(&mut CharacterController, &mut Transform)>) {
    for (mut c, mut transform) in &mut characters {
        if !c.placed || c.moved_by_the_game(&transform) {
            continue;
        }
        let at = c.state.position;
        transform.translation = at;
        c.drawn = Some(at);
    }
}
