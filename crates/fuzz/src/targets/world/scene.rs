//! The `world` target's app: a headless Bevy app with the plugin, and the
//! operations applied to it through the plugin's public components (the
//! recorders that copy each tick are in `record.rs`).

use super::ops::{Config, Intent, Op, Rule, Shape};
use super::record::{Befores, Recorded, TickSeen, Unsure, record_after, record_before};
use super::shapes::{ShapeData, shape_data};
use bevy::app::PluginsState;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::sweep;
use std::sync::Arc;
use std::time::Duration;

/// A collider's local geometry, as the target made it (the reference
/// reads it instead of the plugin's collision world).
#[derive(Component, Clone)]
pub struct Shaped(pub Arc<ShapeData>);

/// Moves its entity at a constant velocity (m/s) and spin (rad/s, about
/// its axis) each tick, before the plugin's `Prepare`.
#[derive(Component, Clone, Copy)]
struct DriftPerTick {
    velocity: Vec3,
    spin: Vec3,
}

/// The same, each frame in `Update`.
#[derive(Component, Clone, Copy)]
struct DriftPerFrame {
    velocity: Vec3,
    spin: Vec3,
}

/// The app and the entities the operations name.
pub struct Scene {
    pub app: App,
    tick: Duration,
    /// Collider entities, in the order they were spawned.
    pub colliders: Vec<Entity>,
    /// Plain parent entities.
    pivots: Vec<Entity>,
    pub characters: Vec<Entity>,
    shared_box: Arc<sweep::MeshCollider>,
}

/// A tick of `hz` per second rounded to whole nanoseconds that 12 divides
/// (so 2, 3 and 4 frames add up to exactly a tick).
fn tick_of(hz: u32) -> Duration {
    Duration::from_nanos((1_000_000_000 / hz as u64) / 12 * 12)
}

impl Scene {
    /// A new app ticking `hz` times a second, with a floor if asked.
    pub fn new(hz: u32, floor: bool) -> Self {
        let tick = tick_of(hz);
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin::default(),
            MeshPlugin,
            SlidewalkPlugin::default(),
        ))
        .insert_resource(Time::<Fixed>::from_duration(tick))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick))
        .init_resource::<Recorded>()
        .init_resource::<Unsure>()
        .init_resource::<Befores>()
        .add_systems(FixedUpdate, drift_per_tick.before(SlidewalkSystems::Prepare))
        .add_systems(
            FixedUpdate,
            record_before
                .after(SlidewalkSystems::Prepare)
                .before(SlidewalkSystems::Step),
        )
        .add_systems(FixedUpdate, record_after.after(SlidewalkSystems::Step))
        .add_systems(Update, drift_per_frame);
        if app.plugins_state() != PluginsState::Cleaned {
            app.finish();
            app.cleanup();
        }
        // One thread: the fuzzer catches panics on its own thread, and a
        // case runs the same way every time.
        for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
        let (positions, triangles) = super::shapes::box_triangles(Vec3::new(1.0, 0.25, 1.0));
        let shared_box = Arc::new(sweep::MeshCollider::build(&positions, &triangles).expect("a box builds"));
        let mut scene = Self {
            app,
            tick,
            colliders: Vec::new(),
            pivots: Vec::new(),
            characters: Vec::new(),
            shared_box,
        };
        if floor {
            let half = Vec3::new(20.0, 0.5, 20.0);
            scene.spawn_collider(&Shape::Box { half }, Transform::from_xyz(0.0, -0.5, 0.0), None, &[]);
        }
        scene
    }

    /// The ticks recorded since the last call.
    pub fn take_ticks(&mut self) -> Vec<TickSeen> {
        std::mem::take(&mut self.app.world_mut().resource_mut::<Recorded>().0)
    }

    /// Colliders then pivots: what `Despawn`, `Translate`, ... name.
    fn node(&self, k: u8) -> Option<Entity> {
        let n = self.colliders.len() + self.pivots.len();
        (n > 0).then(|| {
            let i = k as usize % n;
            self.colliders
                .get(i)
                .copied()
                .unwrap_or_else(|| self.pivots[i - self.colliders.len()])
        })
    }

    fn collider(&self, k: u8) -> Option<Entity> {
        (!self.colliders.is_empty()).then(|| self.colliders[k as usize % self.colliders.len()])
    }

    fn character(&self, k: u8) -> Option<Entity> {
        (!self.characters.is_empty()).then(|| self.characters[k as usize % self.characters.len()])
    }

    /// Forgets entities despawned (with a parent) or no longer colliders.
    fn prune(&mut self) {
        let world = self.app.world();
        self.colliders
            .retain(|&e| world.get_entity(e).is_ok_and(|e| e.contains::<SlidewalkCollider>()));
        self.pivots.retain(|&e| world.get_entity(e).is_ok());
        self.characters.retain(|&e| world.get_entity(e).is_ok());
    }

    /// Whether `ancestor` is `entity` or above it.
    fn is_above(&self, ancestor: Entity, entity: Entity) -> bool {
        let world = self.app.world();
        let mut at = Some(entity);
        while let Some(e) = at {
            if e == ancestor {
                return true;
            }
            at = world.get::<ChildOf>(e).map(|c| c.parent());
        }
        false
    }

    fn spawn_collider(&mut self, shape: &Shape, transform: Transform, parent: Option<u8>, rules: &[Rule]) {
        if self.colliders.len() >= super::ops::MAX_COLLIDERS {
            return;
        }
        let parent = parent.and_then(|p| self.node(p));
        let (collider, data, mesh) = match shape {
            Shape::MeshCuboid { half } => {
                let mesh = self
                    .app
                    .world_mut()
                    .resource_mut::<Assets<Mesh>>()
                    .add(Cuboid::from_size(*half * 2.0));
                (SlidewalkCollider::mesh(), shape_data(shape), Some(mesh))
            }
            Shape::SharedBox => (
                SlidewalkCollider::from_mesh_collider(self.shared_box.clone()),
                shape_data(shape),
                None,
            ),
            _ => {
                let data = shape_data(shape);
                let collider = SlidewalkCollider::triangles(data.positions.clone(), data.indices.clone());
                (collider, data, None)
            }
        };
        let mut entity = self
            .app
            .world_mut()
            .spawn((transform, collider, Shaped(Arc::new(data))));
        if let Some(mesh) = mesh {
            entity.insert(Mesh3d(mesh));
        }
        if let Some(parent) = parent {
            entity.insert(ChildOf(parent));
        }
        let id = entity.id();
        self.colliders.push(id);
        for rule in rules {
            self.give(id, *rule);
        }
    }

    fn give(&mut self, e: Entity, rule: Rule) {
        let Ok(mut entity) = self.app.world_mut().get_entity_mut(e) else {
            return;
        };
        match rule {
            Rule::OneWay(Some(direction)) => {
                entity.insert(OneWay { direction });
            }
            Rule::OneWay(None) => {
                entity.remove::<OneWay>();
            }
            Rule::Layers(Some((m, f))) => {
                entity.insert(SlidewalkLayers::new(m, f));
            }
            Rule::Layers(None) => {
                entity.remove::<SlidewalkLayers>();
            }
            Rule::Sensor(true) => {
                entity.insert(SlidewalkSensor);
            }
            Rule::Sensor(false) => {
                entity.remove::<SlidewalkSensor>();
            }
            Rule::Climbable(true) => {
                entity.insert(Climbable);
            }
            Rule::Climbable(false) => {
                entity.remove::<Climbable>();
            }
            Rule::LaunchPad(Some(velocity)) => {
                entity.insert(LaunchPad { velocity });
            }
            Rule::LaunchPad(None) => {
                entity.remove::<LaunchPad>();
            }
        }
    }

    fn transform_mut(&mut self, e: Option<Entity>) -> Option<Mut<'_, Transform>> {
        self.app.world_mut().get_mut::<Transform>(e?)
    }

    /// Applies one operation (frames run their updates).
    pub fn apply(&mut self, op: &Op) {
        match op {
            Op::Spawn {
                shape,
                translation,
                rotation,
                scale,
                parent,
                rules,
            } => {
                let transform = Transform {
                    translation: *translation,
                    rotation: *rotation,
                    scale: *scale,
                };
                self.spawn_collider(shape, transform, *parent, rules);
            }
            Op::SpawnPivot {
                translation,
                rotation,
                scale,
            } => {
                let transform = Transform {
                    translation: *translation,
                    rotation: *rotation,
                    scale: *scale,
                };
                let id = self.app.world_mut().spawn(transform).id();
                self.pivots.push(id);
            }
            Op::Despawn(k) => {
                if let Some(e) = self.node(*k) {
                    self.app.world_mut().despawn(e);
                    self.prune();
                }
            }
            Op::TakeCollider(k) => {
                if let Some(e) = self.collider(*k) {
                    self.app
                        .world_mut()
                        .entity_mut(e)
                        .remove::<(SlidewalkCollider, Shaped)>();
                    self.colliders.retain(|&c| c != e);
                    self.pivots.push(e);
                }
            }
            Op::Translate(k, to) => {
                if let Some(mut t) = self.transform_mut(self.node(*k)) {
                    t.translation = *to;
                }
            }
            Op::Rotate(k, to) => {
                if let Some(mut t) = self.transform_mut(self.node(*k)) {
                    t.rotation = *to;
                }
            }
            Op::Scale(k, to) => {
                if let Some(mut t) = self.transform_mut(self.node(*k)) {
                    t.scale = *to;
                }
            }
            Op::Reparent(k, parent) => {
                let (Some(child), parent) = (self.node(*k), parent.and_then(|p| self.node(p))) else {
                    return;
                };
                match parent {
                    // No cycles: a game cannot make one either.
                    Some(p) if !self.is_above(child, p) => {
                        self.app.world_mut().entity_mut(child).insert(ChildOf(p));
                    }
                    Some(_) => {}
                    None => {
                        self.app.world_mut().entity_mut(child).remove::<ChildOf>();
                    }
                }
            }
            Op::Drift {
                target,
                velocity,
                spin,
                per_frame,
            } => {
                if let Some(e) = self.node(*target) {
                    let (velocity, spin) = (*velocity, *spin);
                    let mut entity = self.app.world_mut().entity_mut(e);
                    if *per_frame {
                        entity.insert(DriftPerFrame { velocity, spin });
                    } else {
                        entity.insert(DriftPerTick { velocity, spin });
                    }
                }
            }
            Op::Rule(k, rule) => {
                if let Some(e) = self.collider(*k) {
                    self.give(e, *rule);
                }
            }
            Op::SpawnCharacter { feet, config, layers } => {
                if self.characters.len() >= super::ops::MAX_CHARACTERS {
                    return;
                }
                let controller = CharacterController {
                    config: controller_config(*config),
                    active: true,
                };
                let at = CharacterController::default().transform_at_feet(*feet);
                let mut entity = self.app.world_mut().spawn((at, controller));
                if let Some((m, f)) = layers {
                    entity.insert(SlidewalkLayers::new(*m, *f));
                }
                let id = entity.id();
                self.characters.push(id);
            }
            Op::DespawnCharacter(c) => {
                if let Some(e) = self.character(*c) {
                    self.app.world_mut().despawn(e);
                    self.prune();
                }
            }
            Op::Configure(c, config) => {
                if let Some(e) = self.character(*c) {
                    self.app.world_mut().get_mut::<CharacterController>(e).unwrap().config = controller_config(*config);
                    self.app.world_mut().resource_mut::<Unsure>().0.insert(e);
                }
            }
            Op::CharacterLayers(c, layers) => {
                if let Some(e) = self.character(*c) {
                    let mut entity = self.app.world_mut().entity_mut(e);
                    match layers {
                        Some((m, f)) => {
                            entity.insert(SlidewalkLayers::new(*m, *f));
                        }
                        None => {
                            entity.remove::<SlidewalkLayers>();
                        }
                    }
                }
            }
            Op::TeleportFeet(c, feet) => {
                if let Some(e) = self.character(*c) {
                    let world = self.app.world_mut();
                    let config = world.get::<CharacterController>(e).unwrap().config;
                    let mut state = world.get_mut::<MovementState>(e).unwrap();
                    if config.validate().is_ok() {
                        state.teleport_feet(*feet, &config);
                    } else {
                        // A config not yet refused: its radii may be anything.
                        let centre = *feet + state.up * state.radii.y;
                        state.teleport(centre);
                    }
                }
            }
            Op::TeleportTransform(c, centre) => {
                if let Some(e) = self.character(*c) {
                    self.app.world_mut().get_mut::<Transform>(e).unwrap().translation = *centre;
                    self.app.world_mut().resource_mut::<Unsure>().0.insert(e);
                }
            }
            Op::TeleportInto(c, k) => {
                if let (Some(e), Some(into)) = (self.character(*c), self.collider(*k)) {
                    let world = self.app.world_mut();
                    let centre = world.get::<GlobalTransform>(into).unwrap().translation();
                    world.get_mut::<MovementState>(e).unwrap().teleport(centre);
                }
            }
            Op::Intent(c, intent) => {
                if let Some(e) = self.character(*c) {
                    *self.app.world_mut().get_mut::<MovementIntent>(e).unwrap() = movement_intent(intent);
                }
            }
            Op::Active(c, active) => {
                if let Some(e) = self.character(*c) {
                    self.app.world_mut().get_mut::<CharacterController>(e).unwrap().active = *active;
                }
            }
            Op::Frames { count, pacing } => {
                let frame = self.tick * pacing.ticks / pacing.frames;
                self.app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
                for _ in 0..*count {
                    self.app.update();
                }
            }
        }
    }
}

/// The configuration a [`Config`] stands for.
pub fn controller_config(config: Config) -> ControllerConfig {
    let d = ControllerConfig::default();
    match config {
        Config::Default => d,
        Config::EveryMove => d.with_every_move(),
        Config::Scaled(s) => ControllerConfig {
            standing_radii: d.standing_radii * s,
            crouched_radii: d.crouched_radii * s,
            step_height: d.step_height * s,
            snap_distance: d.snap_distance * s,
            ..d
        },
        Config::Radii(r) => ControllerConfig {
            standing_radii: r,
            crouched_radii: r * Vec3::new(1.0, 0.6, 1.0),
            step_height: d.step_height.min(0.5 * r.y),
            ..d.with_every_move()
        },
        Config::Invalid(field) => {
            let mut c = d;
            match field % 6 {
                0 => c.walk_speed = f32::NAN,
                1 => c.standing_radii = Vec3::new(0.4, 0.0, 0.4),
                2 => c.gravity = Vec3::splat(f32::INFINITY),
                3 => c.skin = -1.0,
                4 => c.step_height = 5.0,
                _ => c.crouched_radii = Vec3::splat(1e9),
            }
            c
        }
    }
}

fn movement_intent(i: &Intent) -> MovementIntent {
    MovementIntent {
        direction: i.direction,
        jump: i.jump,
        jump_held: i.jump_held,
        crouch: i.crouch,
        sprint: i.sprint,
        drop: i.drop,
        dash: i.dash,
        impulse: i.impulse,
        facing: if i.direction == Vec3::ZERO {
            Vec3::X
        } else {
            i.direction
        },
        // No water in the scene: the look's pitch is never read.
        ..MovementIntent::default()
    }
}

/// Turns and moves `transform` by `velocity` and `spin` over `dt` seconds.
fn drift(transform: &mut Transform, velocity: Vec3, spin: Vec3, dt: f32) {
    transform.translation += velocity * dt;
    if spin != Vec3::ZERO {
        transform.rotation = (Quat::from_scaled_axis(spin * dt) * transform.rotation).normalize();
    }
}

fn drift_per_tick(time: Res<Time>, mut moving: Query<(&DriftPerTick, &mut Transform)>) {
    for (d, mut t) in &mut moving {
        drift(&mut t, d.velocity, d.spin, time.delta_secs());
    }
}

fn drift_per_frame(time: Res<Time>, mut moving: Query<(&DriftPerFrame, &mut Transform)>) {
    for (d, mut t) in &mut moving {
        drift(&mut t, d.velocity, d.spin, time.delta_secs());
    }
}
