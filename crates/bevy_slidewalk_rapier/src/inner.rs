//! A character's inner body: a kinematic convex hull of Rapier's that follows
//! the character, so that Rapier's bodies bump into it (a thrown ball
//! bounces off), and a body that hits it knocks the character back
//! through `MovementIntent::impulse`, with a [`HitByBody`] message.

use crate::IgnoredByCharacters;
use bevy::prelude::*;
use bevy_rapier3d::plugin::context::{RapierContextColliders, RapierContextSimulation, RapierRigidBodySet};
use bevy_rapier3d::prelude::{
    Collider as RapierCollider, CollisionGroups, RapierContextEntityLink, RigidBody, Velocity,
};
use bevy_slidewalk::bodies::{
    HitByBody, INNER_INSET, INNER_TELEPORT, InnerBodyEntity, InnerBodyOf, InnerBodySizedFor, Touching, inner_hull,
    knocked_velocity,
};
use bevy_slidewalk::{CharacterController, MovementIntent, MovementState};

/// On a character: give it an inner body in Rapier's world. Rapier's
/// bodies then collide with the character (a kinematic convex hull inside
/// its ellipsoid everywhere, about 2 cm short of it, [`inner_hull`], so that
/// walking up to a wall or a crate never touches it; resized when the
/// character's radii change, as when it crouches), and a dynamic body's
/// hit knocks the character back.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component, Debug, Clone)]
pub struct InnerBody {
    /// How much of a hit reaches the character: its velocity changes by
    /// `knock_back` × the impulse Rapier's contact gave the body (N·s) ÷
    /// (the character's `mass` + the body's mass), as if the two were free
    /// bodies meeting. 1: a 20 kg ball at 15 m/s stopped by an 80 kg
    /// character moves it at 3 m/s; 0: felt by the bodies only.
    pub knock_back: f32,
    /// The inner body's groups in Rapier's world (Rapier's default: every
    /// group, both ways).
    pub groups: CollisionGroups,
}

impl Default for InnerBody {
    fn default() -> Self {
        Self {
            knock_back: 1.0,
            groups: CollisionGroups::default(),
        }
    }
}

/// Rapier's hull for a character of `radii` ([`inner_hull`]).
fn hull(radii: Vec3) -> RapierCollider {
    RapierCollider::convex_hull(&inner_hull(radii, INNER_INSET)).unwrap_or_else(|| RapierCollider::ball(0.01))
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
                RigidBody::KinematicVelocityBased,
                hull(r),
                InnerBodySizedFor(r),
                Velocity::default(),
                inner.groups,
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
/// brings it to its character in Rapier's coming step (contacts see it
/// move).
pub(crate) fn follow_characters(
    time: Res<Time>,
    characters: Query<&MovementState>,
    mut bodies: Query<(&InnerBodyOf, &mut Transform, &mut Velocity)>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    for (of, mut at, mut velocity) in &mut bodies {
        if let Ok(state) = characters.get(of.0) {
            let to = state.0.position;
            velocity.angular = Vec3::ZERO;
            if to.distance(at.translation) > INNER_TELEPORT {
                // bevy_rapier takes a changed transform as a teleport.
                at.translation = to;
                velocity.linear = Vec3::ZERO;
            } else {
                velocity.linear = (to - at.translation) / dt;
            }
        }
    }
}

/// Before the characters move: a dynamic body whose contact with an inner
/// body began in Rapier's last step knocks its character back by the
/// impulse that step gave it, and a [`HitByBody`] is written.
#[allow(clippy::type_complexity)]
pub(crate) fn knock_back(
    inner: Query<(Entity, &InnerBodyOf, &RapierContextEntityLink)>,
    contexts: Query<(&RapierContextSimulation, &RapierContextColliders, &RapierRigidBodySet)>,
    mut characters: Query<(&CharacterController, &MovementState, &InnerBody, &mut MovementIntent)>,
    mut hits: MessageWriter<HitByBody>,
    mut touching: Local<Touching>,
) {
    touching.next_tick();
    for (inner_entity, of, link) in &inner {
        let Ok((controller, state, settings, mut intent)) = characters.get_mut(of.0) else {
            continue;
        };
        let Ok((simulation, colliders, bodies)) = contexts.get(link.0) else {
            continue;
        };
        for pair in simulation.contact_pairs_with(colliders, bodies, inner_entity) {
            if !pair.has_any_active_contact() {
                continue;
            }
            // Rapier's total impulse is the one given to the second
            // collider's body: what the other body was given, either way
            // round.
            let (other, impulse) = if pair.collider1() == Some(inner_entity) {
                (pair.collider2(), pair.raw.total_impulse())
            } else {
                (pair.collider1(), -pair.raw.total_impulse())
            };
            let Some(other) = other else { continue };
            let Some(body) = colliders.collider_parent(bodies, other) else {
                continue;
            };
            let Some(rb) = bodies.entity2body().get(&body).and_then(|h| bodies.bodies.get(*h)) else {
                continue;
            };
            if !rb.is_dynamic() || impulse == Vec3::ZERO || !impulse.is_finite() {
                continue;
            }
            let Some(knocked) = knocked_velocity(impulse, controller.config.mass, rb.mass(), settings.knock_back)
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
            // pressing into the body (a ball squeezed between it and the
            // floor) is the engine's to resolve, not a new hit.
            if touching.began(of.0, body) {
                intent.impulse += knocked;
                hits.write(HitByBody {
                    character: of.0,
                    body,
                    impulse,
                    knocked,
                });
            }
        }
    }
}
