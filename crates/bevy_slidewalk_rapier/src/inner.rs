//! A character's inner body: a kinematic capsule of Rapier's that follows
//! the character, so that Rapier's bodies bump into it (a thrown ball
//! bounces off), and a body that hits it knocks the character back
//! through `MovementIntent::impulse`, with a [`HitByBody`] message.

use crate::IgnoredByCharacters;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy_rapier3d::plugin::context::{RapierContextColliders, RapierContextSimulation, RapierRigidBodySet};
use bevy_rapier3d::prelude::{
    Collider as RapierCollider, CollisionGroups, RapierContextEntityLink, RigidBody, Velocity,
};
use bevy_slidewalk::bodies::{INNER_INSET, inner_capsule, knocked_velocity};
use bevy_slidewalk::{CharacterController, MovementIntent, MovementState};

/// On a character: give it an inner body in Rapier's world. Rapier's
/// bodies then collide with the character (a kinematic capsule at least
/// 2 cm inside its ellipsoid everywhere, [`inner_capsule`], so that
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

/// The kinematic body that follows a character (on the body's entity).
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodyOf(pub Entity);

/// On a character with an [`InnerBody`]: the entity of its body.
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodyEntity(pub Entity);

/// A dynamic body of Rapier's hit a character's inner body (written the
/// tick the contact began; the knock-back goes on while they press).
#[derive(Message, Clone, Copy, Debug)]
pub struct HitByBody {
    /// The character.
    pub character: Entity,
    /// The body that hit it.
    pub body: Entity,
    /// The impulse Rapier's contact gave the body, N·s (towards the body).
    pub impulse: Vec3,
    /// The velocity the hit added to the character, m/s.
    pub knocked: Vec3,
}

/// On an inner body: the character's radii its capsule was sized for.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct SizedFor(Vec3);

/// Farther than this from its character at a tick (m), an inner body is
/// put there instead of sent there (a respawn, a teleport).
const TELEPORT: f32 = 1.0;

/// Rapier's capsule for a character of `radii`.
fn capsule(radii: Vec3) -> RapierCollider {
    let (radius, half) = inner_capsule(radii, INNER_INSET);
    RapierCollider::capsule_y(half, radius)
}

/// Spawns the inner body of each character given an [`InnerBody`], and
/// despawns those of characters gone or without one.
#[allow(clippy::type_complexity)]
pub(crate) fn spawn_inner_bodies(
    mut commands: Commands,
    added: Query<(Entity, &InnerBody, &MovementState), Without<InnerBodyEntity>>,
    orphans: Query<(Entity, &InnerBodyOf)>,
    owners: Query<(), (With<InnerBody>, With<InnerBodyEntity>)>,
    inner_bodies: Query<(Entity, &InnerBodyOf, &SizedFor)>,
    states: Query<&MovementState>,
) {
    for (character, inner, state) in &added {
        let r = state.0.radii;
        let body = commands
            .spawn((
                RigidBody::KinematicVelocityBased,
                capsule(r),
                SizedFor(r),
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
                .insert((capsule(state.0.radii), SizedFor(state.0.radii)));
        }
    }
    for (body, of) in &orphans {
        if owners.get(of.0).is_err() {
            commands.entity(body).despawn();
            if let Ok(mut e) = commands.get_entity(of.0) {
                e.try_remove::<InnerBodyEntity>();
            }
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
            if to.distance(at.translation) > TELEPORT {
                // bevy_rapier takes a changed transform as a teleport.
                at.translation = to;
                velocity.linear = Vec3::ZERO;
            } else {
                velocity.linear = (to - at.translation) / dt;
            }
        }
    }
}

/// Before the characters move: the impulse Rapier's last step gave each
/// dynamic body touching an inner body knocks its character back; a
/// [`HitByBody`] is written when such a contact begins (no impulse the
/// tick before).
#[allow(clippy::type_complexity)]
pub(crate) fn knock_back(
    inner: Query<(Entity, &InnerBodyOf, &RapierContextEntityLink)>,
    contexts: Query<(&RapierContextSimulation, &RapierContextColliders, &RapierRigidBodySet)>,
    mut characters: Query<(&CharacterController, &InnerBody, &mut MovementIntent)>,
    mut hits: MessageWriter<HitByBody>,
    mut touching: Local<(HashSet<(Entity, Entity)>, HashSet<(Entity, Entity)>)>,
) {
    let (before, now) = &mut *touching;
    std::mem::swap(before, now);
    now.clear();
    for (inner_entity, of, link) in &inner {
        let Ok((controller, settings, mut intent)) = characters.get_mut(of.0) else {
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
            intent.impulse += knocked;
            // One message per body, however many of its colliders touch.
            if now.insert((of.0, body)) && !before.contains(&(of.0, body)) {
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
