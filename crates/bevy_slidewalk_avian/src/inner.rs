//! A character's inner body: a kinematic capsule of Avian's that follows
//! the character, so that Avian's bodies bump into it (a thrown ball
//! bounces off), and a body that hits it knocks the character back
//! through `MovementIntent::impulse`, with a [`HitByBody`] message.

use crate::IgnoredByCharacters;
use avian3d::prelude::{
    Collider as AvianCollider, CollisionLayers as AvianLayers, Collisions, ComputedMass, LinearVelocity, Position,
    RigidBody,
};
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy_slidewalk::bodies::{INNER_INSET, inner_capsule, knocked_velocity};
use bevy_slidewalk::{CharacterController, MovementIntent, MovementState};

/// On a character: give it an inner body in Avian's world. Avian's
/// bodies then collide with the character (a kinematic capsule at least
/// 2 cm inside its ellipsoid everywhere, [`inner_capsule`], so that
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

/// The kinematic body that follows a character (on the body's entity).
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodyOf(pub Entity);

/// On a character with an [`InnerBody`]: the entity of its body.
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodyEntity(pub Entity);

/// A dynamic body of Avian's hit a character's inner body (written the
/// tick the contact began; the knock-back goes on while they press).
#[derive(Message, Clone, Copy, Debug)]
pub struct HitByBody {
    /// The character.
    pub character: Entity,
    /// The body that hit it.
    pub body: Entity,
    /// The impulse Avian's contact gave the body, N·s (towards the body).
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

/// Avian's capsule for a character of `radii`.
fn capsule(radii: Vec3) -> AvianCollider {
    let (radius, half) = inner_capsule(radii, INNER_INSET);
    AvianCollider::capsule(radius, 2.0 * half)
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
                RigidBody::Kinematic,
                capsule(r),
                SizedFor(r),
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
            if to.distance(at.0) > TELEPORT {
                at.0 = to;
                velocity.0 = Vec3::ZERO;
            } else {
                velocity.0 = (to - at.0) / dt;
            }
        }
    }
}

/// Before the characters move: the impulse Avian's last step gave each
/// dynamic body touching an inner body knocks its character back; a
/// [`HitByBody`] is written when such a contact begins (no impulse the
/// tick before).
#[allow(clippy::type_complexity)]
pub(crate) fn knock_back(
    collisions: Collisions,
    inner: Query<(Entity, &InnerBodyOf)>,
    mut characters: Query<(&CharacterController, &InnerBody, &mut MovementIntent)>,
    bodies: Query<(&RigidBody, &ComputedMass)>,
    mut hits: MessageWriter<HitByBody>,
    mut touching: Local<(HashSet<(Entity, Entity)>, HashSet<(Entity, Entity)>)>,
) {
    let (before, now) = &mut *touching;
    std::mem::swap(before, now);
    now.clear();
    for (inner_entity, of) in &inner {
        let Ok((controller, settings, mut intent)) = characters.get_mut(of.0) else {
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
            intent.impulse += knocked;
            // One message per body, however many of its colliders touch.
            if now.insert((of.0, other)) && !before.contains(&(of.0, other)) {
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
