//! What characters do to Rapier's dynamic bodies after their tick: a body
//! walked (or dashed, or thrown) into is pushed at the contact, by an
//! impulse from the character's mass and its speed into the body, at most
//! `max_push_force` for the tick (Jolt's `CharacterVirtual`); a body stood
//! on is pressed at the feet by the character's weight. Both are added to
//! the body's `ExternalImpulse`, which Rapier applies (and zeroes) in
//! `PhysicsSet::SyncBackend` later in the same tick; Rapier's step then
//! moves the bodies, and the characters see them there at their next
//! tick.
//!
//! The body of a collider, its mass, centre of mass and velocity are read
//! from Rapier's own sets (`RapierContextColliders::collider_parent`,
//! `RapierRigidBodySet`), so a body needs no `ReadMassProperties` (filled
//! only on Rapier's mass messages) or `Velocity`. The impulse is not
//! applied to Rapier's body directly: a body with a `Velocity` component
//! written back at the last step would have its velocity set back from it
//! in `SyncBackend`, before the `ExternalImpulse`s are applied.

use bevy::prelude::*;
use bevy_rapier3d::plugin::context::{RapierContextColliders, RapierRigidBodySet};
use bevy_rapier3d::prelude::{ExternalImpulse, RapierContextEntityLink};
use bevy_slidewalk::{CharacterController, MovementIntent, MovementReport, MovementState};

/// A character's velocity as its tick began (world, m/s): what it
/// brought into the bodies it met (a tick takes the speed into a wall
/// away).
#[derive(Component, Clone, Copy, Default, Debug)]
pub struct VelocityBefore(pub Vec3);

/// Pushes and weight applied at the last tick, for figures and tests.
#[derive(Resource, Clone, Copy, Default, Debug)]
pub struct PushFigures {
    /// Bodies pushed (one per character and body).
    pub pushes: u32,
    /// Bodies pressed by a character standing on them.
    pub weights: u32,
}

pub(crate) fn give_velocity_before(add: On<Add, CharacterController>, mut commands: Commands) {
    commands.entity(add.entity).try_insert(VelocityBefore::default());
}

pub(crate) fn record_velocities(mut characters: Query<(&MovementState, &mut VelocityBefore)>) {
    for (state, mut before) in &mut characters {
        before.0 = state.0.world_velocity();
    }
}

/// The push on one body by one character: the impulse (N·s), where, and
/// the body's centre of mass (world) for the torque.
#[derive(Clone, Copy)]
pub(crate) struct Push {
    body: Entity,
    impulse: Vec3,
    point: Vec3,
    centre_of_mass: Vec3,
}

/// A dynamic Rapier body as a push sees it.
#[derive(Clone, Copy)]
struct Body {
    entity: Entity,
    /// kg (0 for a body without mass).
    mass: f32,
    /// World, metres.
    centre_of_mass: Vec3,
}

#[allow(clippy::type_complexity)]
pub(crate) fn push_bodies(
    mut commands: Commands,
    time: Res<Time>,
    characters: Query<(
        &CharacterController,
        &MovementState,
        &MovementReport,
        &MovementIntent,
        &VelocityBefore,
    )>,
    links: Query<&RapierContextEntityLink>,
    contexts: Query<(&RapierContextColliders, &RapierRigidBodySet)>,
    mut impulses: Query<&mut ExternalImpulse>,
    mut figures: ResMut<PushFigures>,
    mut pushes: Local<Vec<Push>>,
    mut missing: Local<Vec<(Entity, ExternalImpulse)>>,
) {
    let dt = time.delta_secs();
    *figures = PushFigures::default();
    if dt <= 0.0 {
        return;
    }
    pushes.clear();
    // The dynamic body a collider belongs to, and its velocity at `point`.
    let dynamic_body = |collider: Entity, point: Vec3| -> Option<(Body, Vec3)> {
        let link = links.get(collider).ok()?;
        let (colliders, bodies) = contexts.get(link.0).ok()?;
        let entity = colliders.collider_parent(bodies, collider)?;
        let handle = bodies.entity2body().get(&entity)?;
        let rb = bodies.bodies.get(*handle)?;
        rb.is_dynamic().then(|| {
            let body = Body {
                entity,
                mass: rb.mass(),
                centre_of_mass: rb.center_of_mass(),
            };
            (body, rb.velocity_at_point(point))
        })
    };
    for (controller, state, report, intent, before) in &characters {
        if !controller.active {
            continue;
        }
        let c = &controller.config;
        let (mass, most) = (c.mass, c.max_push_force * dt);
        let up = state.0.up;
        let cos_walkable = c.walkable_slope_deg.to_radians().cos();
        let wish = intent.direction.clamp_length_max(1.0) * c.top_speed(state.0.crouched, intent.sprint);
        let first = pushes.len();
        for (pc, entity) in report.tick.contacts.iter().zip(&report.contact_entities) {
            let Some(entity) = *entity else { continue };
            let ct = &pc.contact;
            // Ground is pressed by the weight below, not pushed.
            if ct.normal.dot(up) >= cos_walkable {
                continue;
            }
            let Some((body, body_velocity)) = dynamic_body(entity, ct.point) else {
                continue;
            };
            let into = -ct.normal;
            let approach = before.0.dot(into).max(wish.dot(into)) - body_velocity.dot(into);
            if approach <= 0.0 || !approach.is_finite() {
                continue;
            }
            // The impulse that would leave the two moving together (the
            // reduced mass), no more than the strength allows.
            let reduced = if body.mass.is_finite() && body.mass > 0.0 {
                mass * body.mass / (mass + body.mass)
            } else {
                mass
            };
            let impulse = (reduced * approach).min(most);
            let push = Push {
                body: body.entity,
                impulse: into * impulse,
                point: ct.point,
                centre_of_mass: body.centre_of_mass,
            };
            // One push per body: the strongest contact.
            match pushes[first..].iter_mut().find(|p| p.body == body.entity) {
                Some(p) if p.impulse.length_squared() < push.impulse.length_squared() => *p = push,
                Some(_) => {}
                None => pushes.push(push),
            }
        }
        // The weight on a body stood on, at the feet.
        if let Some(ground) = report.tick.ground
            && let Some(entity) = report.ground.as_ref().and_then(|g| g.entity)
            && let Some((body, _)) = dynamic_body(entity, ground.point)
        {
            let weight = c.gravity * mass * dt;
            if weight.is_finite() && weight != Vec3::ZERO {
                pushes.push(Push {
                    body: body.entity,
                    impulse: weight,
                    point: ground.point,
                    centre_of_mass: body.centre_of_mass,
                });
                figures.weights += 1;
            }
        }
    }
    // Added to what the game put there this tick; inserted where the body
    // has none yet (applied at the sync point before SyncBackend).
    missing.clear();
    for push in pushes.iter() {
        let add = ExternalImpulse::at_point(push.impulse, push.point, push.centre_of_mass);
        if let Ok(mut impulse) = impulses.get_mut(push.body) {
            *impulse += add;
        } else if let Some((_, impulse)) = missing.iter_mut().find(|(b, _)| *b == push.body) {
            *impulse += add;
        } else {
            missing.push((push.body, add));
        }
    }
    for (body, impulse) in missing.drain(..) {
        commands.entity(body).try_insert(impulse);
    }
    figures.pushes = pushes.len() as u32 - figures.weights;
}
