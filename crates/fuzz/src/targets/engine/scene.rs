//! The `engine` target's app: a headless Bevy app with Avian, the plugin
//! and the mirror, time by hand, and the operations applied to it
//! through Avian's and the plugin's public components (the checks that
//! run inside each tick are in `check.rs`).

use super::check::{self, Checks};
use super::ops::{BodySpec, Config, Intent, KINEMATIC_TOP_SPEED, Kind, Op, Pacing};
use super::shapes::{Shape, collider, reach_of};
use avian3d::prelude::{
    AngularVelocity, Collider as AvianCollider, CollisionLayers as AvianLayers, LinearVelocity, Mass, PhysicsPlugins,
    RigidBody, Sensor as AvianSensor,
};
use bevy::app::PluginsState;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk_avian::{IgnoredByCharacters, InnerBody, SlidewalkAvianPlugin};
use std::time::Duration;

/// A body the case spawned: its entity, its collider's (itself or a
/// child), its kind and how far its collider reaches from its origin.
#[derive(Clone, Copy, Debug)]
pub struct Body {
    pub body: Entity,
    pub collider: Entity,
    pub kind: Kind,
    reach: f32,
}

/// The app and the entities the operations name.
pub struct Scene {
    pub app: App,
    tick: Duration,
    pub bodies: Vec<Body>,
    pub characters: Vec<Entity>,
}

/// 60 Hz rounded to whole nanoseconds that 12 divides (so 2 and 4 frames
/// add up to exactly a tick).
fn tick() -> Duration {
    Duration::from_nanos((1_000_000_000 / 60) / 12 * 12)
}

impl Scene {
    /// A new app with a floor: 0 none, 1 a 40 m static box, 2 a half-space.
    pub fn new(floor: u8) -> Self {
        let tick = tick();
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            TransformPlugin,
            AssetPlugin::default(),
            MeshPlugin,
            PhysicsPlugins::default(),
            SlidewalkPlugin::default(),
            SlidewalkAvianPlugin::default(),
        ))
        .insert_resource(Time::<Fixed>::from_duration(tick))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick))
        .init_resource::<Checks>()
        .add_systems(FixedUpdate, check::check_tick.after(SlidewalkSystems::Step));
        if app.plugins_state() != PluginsState::Cleaned {
            app.finish();
            app.cleanup();
        }
        // One thread: the fuzzer catches panics on its own thread, and a
        // case runs the same way every time.
        for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
        match floor {
            1 => {
                app.world_mut().spawn((
                    RigidBody::Static,
                    AvianCollider::cuboid(40.0, 1.0, 40.0),
                    Transform::from_xyz(0.0, -0.5, 0.0),
                ));
            }
            2 => {
                app.world_mut()
                    .spawn((RigidBody::Static, AvianCollider::half_space(Vec3::Y)));
            }
            _ => {}
        }
        Self {
            app,
            tick,
            bodies: Vec::new(),
            characters: Vec::new(),
        }
    }

    /// The checks' findings so far.
    pub fn checks(&self) -> &Checks {
        self.app.world().resource::<Checks>()
    }

    fn body(&self, k: u8) -> Option<Body> {
        (!self.bodies.is_empty()).then(|| self.bodies[k as usize % self.bodies.len()])
    }

    fn character(&self, k: u8) -> Option<Entity> {
        (!self.characters.is_empty()).then(|| self.characters[k as usize % self.characters.len()])
    }

    /// Forgets entities despawned.
    fn prune(&mut self) {
        let world = self.app.world();
        self.bodies.retain(|b| world.get_entity(b.body).is_ok());
        self.characters.retain(|&e| world.get_entity(e).is_ok());
    }

    fn spawn(&mut self, spec: &BodySpec) {
        if self.bodies.len() >= super::ops::MAX_BODIES {
            return;
        }
        let collider = collider(&spec.shape);
        let reach = reach_of(&collider, spec.scale) + spec.child.map_or(0.0, |c| c.offset.length());
        let (velocity, spin) = match spec.kind {
            Kind::Static => (Vec3::ZERO, Vec3::ZERO),
            Kind::Kinematic => kinematic_motion(spec.velocity, spec.spin, reach),
            Kind::Dynamic => (spec.velocity, spec.spin),
        };
        let near = spec.near.and_then(|c| self.character(c));
        let world = self.app.world_mut();
        let translation = match near {
            Some(c) => world.get::<MovementState>(c).unwrap().position + spec.translation / 3.0,
            None => spec.translation,
        };
        let placed = Transform::from_translation(translation).with_rotation(spec.rotation);
        let mut body = world.spawn(body_kind(spec.kind));
        if spec.kind != Kind::Static {
            body.insert((LinearVelocity(velocity), AngularVelocity(spin)));
        }
        if let Some(mass) = spec.mass {
            body.insert(Mass(mass));
        }
        let body = body.id();
        let collider_entity = match spec.child {
            None => {
                world.entity_mut(body).insert((collider, placed.with_scale(spec.scale)));
                body
            }
            Some(child) => {
                world.entity_mut(body).insert(placed);
                world
                    .spawn((
                        collider,
                        Transform::from_translation(child.offset)
                            .with_rotation(child.rotation)
                            .with_scale(child.scale),
                        ChildOf(body),
                    ))
                    .id()
            }
        };
        let mut e = world.entity_mut(collider_entity);
        if let Some((m, f)) = spec.layers {
            e.insert(AvianLayers::from_bits(m, f));
        }
        if spec.sensor {
            e.insert(AvianSensor);
        }
        if spec.ignored {
            e.insert(IgnoredByCharacters);
        }
        self.bodies.push(Body {
            body,
            collider: collider_entity,
            kind: spec.kind,
            reach,
        });
    }

    fn throw(&mut self, at: u8, shape: &Shape, from: Vec3, speed: f32, mass: Option<f32>) {
        let Some(target) = self.character(at) else { return };
        if self.bodies.len() >= super::ops::MAX_BODIES {
            return;
        }
        let centre = self.app.world().get::<MovementState>(target).unwrap().position;
        let velocity = -from.normalize_or_zero() * speed;
        let collider = collider(shape);
        let reach = reach_of(&collider, Vec3::ONE);
        let mut body = self.app.world_mut().spawn((
            RigidBody::Dynamic,
            collider,
            LinearVelocity(velocity),
            Transform::from_translation(centre + from),
        ));
        if let Some(mass) = mass {
            body.insert(Mass(mass));
        }
        let id = body.id();
        self.bodies.push(Body {
            body: id,
            collider: id,
            kind: Kind::Dynamic,
            reach,
        });
    }

    /// Applies one operation (frames run their updates).
    pub fn apply(&mut self, op: &Op) {
        match op {
            Op::Spawn(spec) => self.spawn(spec),
            Op::Throw {
                at,
                shape,
                from,
                speed,
                mass,
            } => self.throw(*at, shape, *from, *speed, *mass),
            Op::Hurl(b, c, speed) => {
                let (Some(b), Some(c)) = (self.body(*b), self.character(*c)) else {
                    return;
                };
                if b.kind == Kind::Static {
                    return;
                }
                let world = self.app.world_mut();
                let to = world.get::<MovementState>(c).unwrap().position;
                let from = world.get::<GlobalTransform>(b.body).unwrap().translation();
                let mut velocity = (to - from).normalize_or_zero() * *speed;
                if b.kind == Kind::Kinematic {
                    let spin = world.get::<AngularVelocity>(b.body).unwrap().0;
                    let (v, w) = kinematic_motion(velocity, spin, b.reach);
                    velocity = v;
                    world.get_mut::<AngularVelocity>(b.body).unwrap().0 = w;
                }
                world.get_mut::<LinearVelocity>(b.body).unwrap().0 = velocity;
            }
            Op::Velocity(b, velocity, spin) => {
                let Some(b) = self.body(*b) else { return };
                let (velocity, spin) = match b.kind {
                    Kind::Static => return,
                    Kind::Kinematic => kinematic_motion(*velocity, *spin, b.reach),
                    Kind::Dynamic => (*velocity, *spin),
                };
                let world = self.app.world_mut();
                world.get_mut::<LinearVelocity>(b.body).unwrap().0 = velocity;
                world.get_mut::<AngularVelocity>(b.body).unwrap().0 = spin;
            }
            Op::Despawn(b) => {
                if let Some(b) = self.body(*b) {
                    self.app.world_mut().despawn(b.body);
                    self.prune();
                }
            }
            Op::RemoveCollider(b) => {
                if let Some(b) = self.body(*b) {
                    self.app.world_mut().entity_mut(b.collider).remove::<AvianCollider>();
                }
            }
            Op::Reshape(b, shape) => {
                if let Some(b) = self.body(*b) {
                    let scale = self.app.world().get::<Transform>(b.collider).unwrap().scale;
                    // A shape Avian would scale otherwise than the mirror
                    // (see `Shape::scale_ok`) is a small box instead.
                    let shape = if shape.scale_ok(scale) {
                        shape.clone()
                    } else {
                        Shape::Cuboid(Vec3::splat(0.3))
                    };
                    let collider = collider(&shape);
                    let reach = reach_of(&collider, scale);
                    self.app.world_mut().entity_mut(b.collider).insert(collider);
                    if let Some(kept) = self.bodies.iter_mut().find(|k| k.body == b.body) {
                        kept.reach = kept.reach.max(reach);
                        if kept.kind == Kind::Kinematic {
                            // Slowed to the new reach.
                            let world = self.app.world_mut();
                            let (v, w) = (
                                world.get::<LinearVelocity>(b.body).unwrap().0,
                                world.get::<AngularVelocity>(b.body).unwrap().0,
                            );
                            let (v, w) = kinematic_motion(v, w, kept.reach);
                            world.get_mut::<LinearVelocity>(b.body).unwrap().0 = v;
                            world.get_mut::<AngularVelocity>(b.body).unwrap().0 = w;
                        }
                    }
                }
            }
            Op::Sensor(b, on) => {
                if let Some(b) = self.body(*b) {
                    let mut e = self.app.world_mut().entity_mut(b.collider);
                    if *on {
                        e.insert(AvianSensor);
                    } else {
                        e.remove::<AvianSensor>();
                    }
                }
            }
            Op::Ignored(b, on) => {
                if let Some(b) = self.body(*b) {
                    let mut e = self.app.world_mut().entity_mut(b.collider);
                    if *on {
                        e.insert(IgnoredByCharacters);
                    } else {
                        e.remove::<IgnoredByCharacters>();
                    }
                }
            }
            Op::SpawnCharacter {
                feet,
                config,
                inner,
                layers,
            } => {
                if self.characters.len() >= super::ops::MAX_CHARACTERS {
                    return;
                }
                let controller = CharacterController {
                    config: controller_config(*config),
                    active: true,
                };
                let at = controller.transform_at_feet(*feet);
                let mut e = self.app.world_mut().spawn((at, controller));
                if let Some(knock_back) = inner {
                    e.insert(InnerBody {
                        knock_back: *knock_back,
                        ..default()
                    });
                }
                if let Some((m, f)) = layers {
                    e.insert(SlidewalkLayers::new(*m, *f));
                }
                let id = e.id();
                self.characters.push(id);
            }
            Op::DespawnCharacter(c) => {
                if let Some(c) = self.character(*c) {
                    self.app.world_mut().despawn(c);
                    self.prune();
                }
            }
            Op::Inner(c, knock_back) => {
                if let Some(c) = self.character(*c) {
                    let mut e = self.app.world_mut().entity_mut(c);
                    match knock_back {
                        Some(k) => {
                            e.insert(InnerBody {
                                knock_back: *k,
                                ..default()
                            });
                        }
                        None => {
                            e.remove::<InnerBody>();
                        }
                    }
                }
            }
            Op::Intent(c, intent) => {
                if let Some(c) = self.character(*c) {
                    *self.app.world_mut().get_mut::<MovementIntent>(c).unwrap() = movement_intent(intent);
                }
            }
            Op::Frames { count, pacing } => {
                let frame = match pacing {
                    Pacing::FramesPerTick(n) => self.tick / *n,
                    Pacing::TicksPerFrame(n) => self.tick * *n,
                };
                self.app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
                for _ in 0..*count {
                    self.app.update();
                }
            }
        }
    }
}

fn body_kind(kind: Kind) -> RigidBody {
    match kind {
        Kind::Static => RigidBody::Static,
        Kind::Kinematic => RigidBody::Kinematic,
        Kind::Dynamic => RigidBody::Dynamic,
    }
}

/// A kinematic body's velocity and spin slowed (both alike) until no
/// point within `reach` of its origin (twice that of its centre of mass,
/// which it turns about) moves faster than [`KINEMATIC_TOP_SPEED`].
fn kinematic_motion(velocity: Vec3, spin: Vec3, reach: f32) -> (Vec3, Vec3) {
    let fastest = velocity.length() + spin.length() * 2.0 * reach;
    if fastest <= KINEMATIC_TOP_SPEED {
        (velocity, spin)
    } else {
        let k = KINEMATIC_TOP_SPEED / fastest;
        (velocity * k, spin * k)
    }
}

/// The configuration a [`Config`] stands for.
fn controller_config(config: Config) -> ControllerConfig {
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
        Config::Pushy(mass, force) => ControllerConfig {
            mass,
            max_push_force: force,
            ..d
        },
    }
}

fn movement_intent(i: &Intent) -> MovementIntent {
    MovementIntent {
        direction: i.direction,
        jump: i.jump,
        jump_held: i.jump_held,
        crouch: i.crouch,
        sprint: i.sprint,
        dash: i.dash,
        facing: if i.direction == Vec3::ZERO {
            Vec3::X
        } else {
            i.direction
        },
        ..default()
    }
}
