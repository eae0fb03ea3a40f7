//! What characters do to Avian's dynamic bodies after their tick (the
//! rule is `bevy_slidewalk::bodies::pushes`): a body walked (or dashed,
//! or thrown) into is pushed at the contact, at most `max_push_force` for
//! the tick; a body stood on is pressed at the feet by the character's
//! weight. Avian's step, later in the same tick, moves the bodies; the
//! characters see them there at their next tick.

use avian3d::prelude::{ColliderOf, ComputedMass, Forces, ReadRigidBodyForces, RigidBody, WriteRigidBodyForces};
use bevy::prelude::*;
use bevy_slidewalk::bodies::{DynamicBody, Push, PushFigures, Pusher, pushes};

pub(crate) fn push_bodies(
    time: Res<Time>,
    characters: Query<Pusher>,
    colliders: Query<&ColliderOf>,
    mut bodies: Query<(&RigidBody, &ComputedMass, Forces)>,
    mut figures: ResMut<PushFigures>,
    mut found: Local<Vec<Push>>,
) {
    // The dynamic body a collider belongs to, at a point.
    let dynamic_body = |collider: Entity, point: Vec3| {
        let body = colliders.get(collider).ok()?.body;
        let (kind, mass, forces) = bodies.get(body).ok()?;
        kind.is_dynamic().then(|| DynamicBody {
            body,
            mass: mass.value(),
            velocity: forces.velocity_at_point(point),
        })
    };
    *figures = pushes(time.delta_secs(), &characters, dynamic_body, &mut found);
    for push in found.iter() {
        if let Ok((_, _, mut forces)) = bodies.get_mut(push.body) {
            forces.apply_linear_impulse_at_point(push.impulse, push.point);
        }
    }
}
