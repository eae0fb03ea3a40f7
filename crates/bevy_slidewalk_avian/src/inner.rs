//! A character's inner body: a kinematic convex hull of Avian's that follows
//! the character, so that Avian's bodies bump into it (a thrown ball
//! bounces off), and a body that hits it knocks the character back
//! through `MovementIntent::impulse`, with a [`HitByBody`] message.

use crate::IgnoredByCharacters;
use avian3d::prelude::{
    Collider as AvianCollider, CollisionLayers as AvianLayers, Collisions, ComputedMass, LinearVelocity, Position,
    RigidBody,
};
use bevy::prelude::*;
use bevy_slidewalk::bodies::{
    HitByBody, INNER_INSET, INNER_TELEPORT, InnerBodyEntity, InnerBodyOf, InnerBodySizedFor, Touching, inner_hull,
    knocked_velocity,
};
use bevy_slidewalk::{CharacterController, MovementIntent, MovementState};

/// On a character: give it an inner body in Avian's world. Avian's
/// bodies then collide with the character (a kinematic convex hull inside
/// its ellipsoid everywhere, about 2 cm short of it, [`inner_hull`], so that
/// walking up to a wall or a crate never touches it; resized when the
/// character's radii change, as when it crouches), and a dynamic body's
/// hit knocks the character back.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component, Debug, Clone)]
pub struct InnerBody {
    /// How much of a hit reaches the character: its velocity changes by
    /// `knock_back` × the impulse Avian's contact gave the body (N·s) ÷
    /// (the character's `mass` + the body's mass), as if the two were free
    /// bodies meeting. 1: a 20 kg ball at 15 m/s stopped by an 80 kg
    /// character moves it at 3 m/s; 0: felt by the bodies only.
    pub knock_back: f32,
    /// The inner body's layers in Avian's world (Avian's default: member
    /// of the first layer, meeting every layer).
    pub layers: AvianLayers,
}

impl Default for InnerBody {
    fn default() -> Self {
        Self {
            knock_back: 1.0,
            layers: AvianLayers::default(),
        }
    }
}

/// Avian's hull for a character of `radii` ([`inner_hull`]).
fn hull(radii: Vec3) -> AvianCollider {
    AvianCollider::convex_hull(inner_hull(radii, INNER_INSET)).unwrap_or_else(|| AvianCollider::sphere(0.01))
}

/// Spawns the inner body of each character given an [`InnerBody`], and
/// rebuilds its hull when the character's radii change.
#[allow(clippy::type_complexity)]
pub(crate) fn spawn_inner_bodies(
    mut commands: Commands,
    added: Query<(Entity, &InnerBody, &MovementState), Without<InnerBodyEntity>>,
    inner_bodies: Query<(Entity, &InnerBodyOf, &InnerBodySizedFor)>,
    states: Query<&MovementState>,
) {
    for (character, inner, state) in &added {
        let r = state.0.radii;
        let body = commands
            .spawn((
                RigidBody::Kinematic,
                hull(r),
                InnerBodySizedFor(r),
                inner.layers,
                IgnoredByCharacters,
                InnerBodyOf(character),
                Transform::from_translation(state.0.position),
            ))
            .id();
        commands.entity(character).insert(InnerBodyEntity(body));
    }
    for (body, of, sized) in &inner_bodies {
        if let Ok(state) = states.get(of.0)
            && state.0.radii != sized.0
        {
            commands
                .entity(body)
                .insert((hull(state.0.radii), InnerBodySizedFor(state.0.radii)));
        }
    }
}

/// After the characters moved: each inner body is given the velocity that
/// brings it to its character in Avian's coming step (contacts see it
/// move).
pub(crate) fn follow_characters(
    time: Res<Time>,
    characters: Query<&MovementState>,
    mut bodies: Query<(&InnerBodyOf, &mut Position, &mut LinearVelocity)>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (of, mut at, mut velocity) in &mut bodies {
        if let Ok(state) = characters.get(of.0) {
            let to = state.0.position;
            if to.distance(at.0) > INNER_TELEPORT {
                at.0 = to;
                velocity.0 = Vec3::ZERO;
            } else {
                velocity.0 = (to - at.0) / dt;
            }
        }
    }
}

/// Before the characters move: a dynamic body whose contact with an inner
/// body began in Avian's last step knocks its character back by the
/// impulse that step gave it, and a [`HitByBody`] is written.
#[allow(clippy::type_complexity)]
pub(crate) fn knock_back(
    collisions: Collisions,
    inner: Query<(Entity, &InnerBodyOf)>,
    mut characters: Query<(&CharacterController, &MovementState, &InnerBody, &mut MovementIntent)>,
    bodies: Query<(&RigidBody, &ComputedMass)>,
    mut hits: MessageWriter<HitByBody>,
    mut touching: Local<Touching>,
) {
    touching.next_tick();
    for (inner_entity, of) in &inner {
        let Ok((controller, state, settings, mut intent)) = characters.get_mut(of.0) else {
            continue;
        };
        for pair in collisions.collisions_with(inner_entity) {
            // Avian's normal impulse pushes the second body away from the
            // first: what the other body was given, either way round.
            let (other, impulse) = if pair.collider1 == inner_entity {
                (pair.body2.unwrap_or(pair.collider2), pair.total_normal_impulse())
            } else {
                (pair.body1.unwrap_or(pair.collider1), -pair.total_normal_impulse())
            };
            let Ok((kind, mass)) = bodies.get(other) else {
                continue;
            };
            if !kind.is_dynamic() || impulse == Vec3::ZERO || !impulse.is_finite() {
                continue;
            }
            let Some(knocked) = knocked_velocity(impulse, controller.config.mass, mass.value(), settings.knock_back)
            else {
                continue;
            };
            // On the ground, a hit shoves along it: the ground takes what
            // would lift the character (a ball at the ankles).
            let up = state.0.up;
            let knocked = if state.0.ground.is_some() {
                knocked - up * knocked.dot(up).max(0.0)
            } else {
                knocked
            };
            // Once, as the contact begins: a body the engine then keeps
            // pressing into the inner body (a ball squeezed between it and
            // the floor) is the engine's to resolve, not a new hit.
            if touching.began(of.0, other) {
                intent.impulse += knocked;
                hits.write(HitByBody {
                    character: of.0,
                    body: other,
                    impulse,
                    knocked,
                });
            }
        }
    }
}
