//! What characters do to Rapier's dynamic bodies after their tick (the
//! rule is `bevy_slidewalk::bodies::pushes`): a body walked (or dashed,
//! or thrown) into is pushed at the contact, at most `max_push_force` for
//! the tick; a body stood on is pressed at the feet by the character's
//! weight. Both are added to the body's `ExternalImpulse`, which Rapier
//! applies (and zeroes) in `PhysicsSet::SyncBackend` later in the same
//! tick; Rapier's step then moves the bodies, and the characters see them
//! there at their next tick.
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
use bevy_slidewalk::bodies::{DynamicBody, Push, PushFigures, Pusher, pushes};

#[allow(clippy::too_many_arguments)]
pub(crate) fn push_bodies(
    mut commands: Commands,
    time: Res<Time>,
    characters: Query<Pusher>,
    links: Query<&RapierContextEntityLink>,
    contexts: Query<(&RapierContextColliders, &RapierRigidBodySet)>,
    mut impulses: Query<&mut ExternalImpulse>,
    mut figures: ResMut<PushFigures>,
    mut found: Local<Vec<Push>>,
    mut missing: Local<Vec<(Entity, ExternalImpulse)>>,
) {
    // Rapier's body of a collider (or of a body entity), and its entity.
    let rapier_body = |collider: Entity| {
        let (colliders, bodies) = contexts.get(links.get(collider).ok()?.0).ok()?;
        let entity = colliders
            .collider_parent(bodies, collider)
            .or_else(|| bodies.entity2body().contains_key(&collider).then_some(collider))?;
        let body = bodies.bodies.get(*bodies.entity2body().get(&entity)?)?;
        Some((entity, body))
    };
    let dynamic_body = |collider: Entity, point: Vec3| {
        let (entity, body) = rapier_body(collider)?;
        body.is_dynamic().then(|| DynamicBody {
            body: entity,
            mass: body.mass(),
            velocity: body.velocity_at_point(point),
        })
    };
    *figures = pushes(time.delta_secs(), &characters, dynamic_body, &mut found);
    // Added to what the game put there this tick; inserted where the body
    // has none yet (applied at the sync point before SyncBackend).
    missing.clear();
    for push in found.iter() {
        let Some((_, body)) = rapier_body(push.body) else {
            continue;
        };
        let add = ExternalImpulse::at_point(push.impulse, push.point, body.center_of_mass());
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
}
