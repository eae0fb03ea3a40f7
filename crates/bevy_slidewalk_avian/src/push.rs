//! What characters do to Avian's dynamic bodies after their tick: a body
//! walked (or dashed, or thrown) into is pushed at the contact, by an
//! impulse from the character's mass and its speed into the body, at most
//! `max_push_force` for the tick (Jolt's `CharacterVirtual`); a body stood
//! on is pressed at the feet by the character's weight. Avian's step,
//! later in the same tick, moves the bodies; the characters see them
//! there at their next tick.

use avian3d::prelude::{ColliderOf, ComputedMass, Forces, ReadRigidBodyForces, RigidBody, WriteRigidBodyForces};
use bevy::prelude::*;
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

/// The push on one body by one character: the impulse (N·s) and where.
#[derive(Clone, Copy)]
pub(crate) struct Push {
    body: Entity,
    impulse: Vec3,
    point: Vec3,
}

#[allow(clippy::type_complexity)]
pub(crate) fn push_bodies(
    time: Res<Time>,
    characters: Query<(
        &CharacterController,
        &MovementState,
        &MovementReport,
        &MovementIntent,
        &VelocityBefore,
    )>,
    colliders: Query<&ColliderOf>,
    mut bodies: Query<(&RigidBody, &ComputedMass, Forces)>,
    mut figures: ResMut<PushFigures>,
    mut pushes: Local<Vec<Push>>,
) {
    let dt = time.delta_secs();
    *figures = PushFigures::default();
    if dt <= 0.0 {
        return;
    }
    pushes.clear();
    // The dynamic body a collider belongs to: its entity and mass (kg).
    let dynamic_body = |collider: Entity, bodies: &Query<(&RigidBody, &ComputedMass, Forces)>| {
        let body = colliders.get(collider).ok()?.body;
        let (kind, mass, _) = bodies.get(body).ok()?;
        kind.is_dynamic().then_some((body, mass.value()))
    };
    for (controller, state, report, intent, before) in &characters {
        if !controller.active {
            continue;
        }
        let c = &controller.config;
        let (mass, most) = (c.mass, c.max_push_force * dt);
        let up = state.0.up;
        let cos_walkable = c.walkable_slope_deg.to_radians().cos();
        // What the input asks, across "up" as the controller takes it.
        let across = intent.direction - up * intent.direction.dot(up);
        let wish = across.clamp_length_max(1.0) * c.top_speed(state.0.crouched, intent.sprint);
        let first = pushes.len();
        for (pc, entity) in report.tick.contacts.iter().zip(&report.contact_entities) {
            let Some(entity) = *entity else { continue };
            let ct = &pc.contact;
            // Ground is pressed by the weight below, not pushed.
            if ct.normal.dot(up) >= cos_walkable {
                continue;
            }
            let Some((body, body_mass)) = dynamic_body(entity, &bodies) else {
                continue;
            };
            let Ok((_, _, forces)) = bodies.get(body) else { continue };
            let into = -ct.normal;
            let approach = before.0.dot(into).max(wish.dot(into)) - forces.velocity_at_point(ct.point).dot(into);
            if approach <= 0.0 || !approach.is_finite() {
                continue;
            }
            // The impulse that would leave the two moving together (the
            // reduced mass), no more than the strength allows.
            let reduced = if body_mass.is_finite() && body_mass > 0.0 {
                mass * body_mass / (mass + body_mass)
            } else {
                mass
            };
            let impulse = (reduced * approach).min(most);
            let push = Push {
                body,
                impulse: into * impulse,
                point: ct.point,
            };
            // One push per body: the strongest contact.
            match pushes[first..].iter_mut().find(|p| p.body == body) {
                Some(p) if p.impulse.length_squared() < push.impulse.length_squared() => *p = push,
                Some(_) => {}
                None => pushes.push(push),
            }
        }
        // The weight on a body stood on, at the feet.
        if let Some(ground) = report.tick.ground
            && let Some(entity) = report.ground.as_ref().and_then(|g| g.entity)
            && let Some((body, _)) = dynamic_body(entity, &bodies)
        {
            let weight = c.gravity * mass * dt;
            if weight.is_finite() && weight != Vec3::ZERO {
                pushes.push(Push {
                    body,
                    impulse: weight,
                    point: ground.point,
                });
                figures.weights += 1;
            }
        }
    }
    for push in pushes.iter() {
        if let Ok((_, _, mut forces)) = bodies.get_mut(push.body) {
            forces.apply_linear_impulse_at_point(push.impulse, push.point);
        }
    }
    figures.pushes = pushes.len() as u32 - figures.weights;
}
