//! A character with an inner body is felt by Avian's bodies: a 20 kg ball
//! thrown at it at 15 m/s bounces off instead of passing through, knocks
//! the character back, and a `HitByBody` message names the ball.

use super::*;
use avian3d::prelude::{Collider as AvianCollider, LinearVelocity, Mass, RigidBody};
use bevy_slidewalk_avian::{HitByBody, InnerBody};

/// Hits read as a game's `Update` system reads them.
#[derive(Resource, Default)]
struct Hits(Vec<HitByBody>);

fn read_hits(mut hits: MessageReader<HitByBody>, mut seen: ResMut<Hits>) {
    seen.0.extend(hits.read().copied());
}

#[test]
fn a_thrown_ball_bounces_off_a_character_and_knocks_it_back() {
    for fpt in PACINGS {
        let mut app = app(fpt);
        app.init_resource::<Hits>().add_systems(Update, read_hits);
        floor(&mut app);
        let ch = character(&mut app, Vec3::ZERO);
        app.world_mut().entity_mut(ch).insert(InnerBody::default());
        run(&mut app, fpt, 0.3, |_| {});
        let from = state(&app, ch).position;
        let ball = app
            .world_mut()
            .spawn((
                RigidBody::Dynamic,
                AvianCollider::sphere(0.3),
                Mass(20.0),
                LinearVelocity(Vec3::new(0.0, 0.0, 15.0)),
                Transform::from_xyz(0.0, 1.2, -6.0),
            ))
            .id();
        let mut ball_furthest = f32::NEG_INFINITY;
        run(&mut app, fpt, 1.0, |app| {
            let z = app.world().get::<Transform>(ball).unwrap().translation.z;
            ball_furthest = ball_furthest.max(z);
        });
        let moved = state(&app, ch).position - from;
        let hits = &app.world().resource::<Hits>().0;
        println!(
            "{fpt} frames a tick: knocked {:.3} m, ball reached z = {ball_furthest:.2}, {} hits",
            moved.z,
            hits.len()
        );
        assert!(
            ball_furthest < from.z,
            "{fpt} frames a tick: the ball went through the character, to z = {ball_furthest}"
        );
        assert!(moved.z > 0.05, "{fpt} frames a tick: the character moved {moved} m");
        assert!(
            hits.iter().any(|h| h.body == ball && h.character == ch),
            "{fpt} frames a tick: no HitByBody naming the ball: {hits:?}"
        );
        assert_no_overlap(&app, &format!("ball at {fpt} frames a tick"));
    }
}

#[test]
fn the_inner_body_shrinks_when_its_character_crouches_and_stays_inside() {
    use bevy_slidewalk_avian::InnerBodyEntity;
    let mut app = app(1.0);
    floor(&mut app);
    let ch = character(&mut app, Vec3::ZERO);
    app.world_mut().entity_mut(ch).insert(InnerBody::default());
    // The capsule's reach below its centre, and the character's feet
    // below its own.
    let reach = |app: &App| {
        let body = app.world().get::<InnerBodyEntity>(ch).unwrap().0;
        let collider = app.world().get::<AvianCollider>(body).unwrap();
        let aabb = collider.shape().compute_local_aabb();
        let s = state(app, ch);
        (-aabb.mins.y, s.radii.y)
    };
    run(&mut app, 1.0, 0.2, |_| {});
    let (standing, radius) = reach(&app);
    assert!(
        standing < radius,
        "standing: the capsule reaches {standing} m down, the feet {radius}"
    );
    app.world_mut().get_mut::<MovementIntent>(ch).unwrap().crouch = true;
    run(&mut app, 1.0, 0.5, |_| {});
    let (crouched, radius) = reach(&app);
    assert!(
        crouched < radius && crouched < standing,
        "crouched: the capsule reaches {crouched} m down (standing {standing}), the feet {radius}"
    );
}
