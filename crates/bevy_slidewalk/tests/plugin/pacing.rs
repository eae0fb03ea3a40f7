//! What a game does between ticks, at every phase of every pacing: a
//! translation written in `Update` is a teleport, and a collider despawned
//! (or its `SlidewalkCollider` removed) in `Update` is gone at the next
//! tick, even when frames without a tick come first.

use super::*;

/// A change to the world, made once.
type Change = Box<dyn FnOnce(&mut World) + Send + Sync>;

/// A change the test's `Update` system makes once, in the next frame.
#[derive(Resource, Default)]
struct InUpdate(Option<Change>);

fn apply_in_update(world: &mut World) {
    if let Some(change) = world.resource_mut::<InUpdate>().0.take() {
        change(world);
    }
}

/// For every pacing and every frame between two ticks: an app with a
/// floor and a character standing on it, `change` made in `Update` of
/// that frame, then `seconds` more; `check` sees the app and the
/// character.
fn at_every_phase(change: impl Fn(Entity, Entity) -> Change, seconds: f64, check: impl Fn(&App, Entity, &str)) {
    at_every_pacing(|pacing| {
        for phase in 0..pacing.frames_per_tick() {
            let mut app = app_at(pacing);
            app.init_resource::<InUpdate>().add_systems(Update, apply_in_update);
            let ground = floor(&mut app);
            let c = character(&mut app, Vec3::ZERO);
            run(&mut app, 10);
            assert!(get(&app, c).grounded());
            // `phase` frames after the tick's frame.
            frames(&mut app, phase);
            app.world_mut().resource_mut::<InUpdate>().0 = Some(change(ground, c));
            frames(&mut app, 1);
            run(&mut app, ticks(seconds));
            check(&app, c, &format!("changed {phase} frames after a tick"));
        }
    });
}

#[test]
fn a_translation_written_in_update_is_a_teleport_at_any_frame() {
    let to = Vec3::new(8.0, 1.5, -6.0);
    at_every_phase(
        |_, c| Box::new(move |w: &mut World| w.get_mut::<Transform>(c).unwrap().translation = to),
        1.0,
        |app, c, when| {
            let body = get(app, c);
            assert!(
                body.grounded() && (body.feet() - to.with_y(0.0)).length() < 0.01,
                "{when}: at {:?}, not where it was put ({to})",
                body.feet()
            );
            let drawn = app.world().get::<Transform>(c).unwrap().translation;
            assert!((drawn - body.position).length() < 0.01, "{when}: drawn at {drawn}");
        },
    );
}

#[test]
fn a_floor_despawned_in_update_is_gone_at_any_frame() {
    at_every_phase(
        |ground, _| Box::new(move |w: &mut World| _ = w.despawn(ground)),
        1.5,
        |app, c, when| {
            let body = get(app, c);
            assert!(
                !body.grounded() && body.feet().y < -5.0,
                "{when}: stands at {:?} on a floor that is gone",
                body.feet()
            );
            assert!(app.world().resource::<CollisionWorld>().is_empty(), "{when}");
        },
    );
}

#[test]
fn a_collider_taken_off_in_update_is_gone_at_any_frame() {
    at_every_phase(
        |ground, _| {
            Box::new(move |w: &mut World| {
                w.entity_mut(ground).remove::<SlidewalkCollider>();
            })
        },
        1.5,
        |app, c, when| {
            let body = get(app, c);
            assert!(
                !body.grounded() && body.feet().y < -5.0,
                "{when}: stands at {:?} on a floor that is not solid",
                body.feet()
            );
        },
    );
}

#[test]
fn a_collider_taken_off_and_given_back_stays_solid() {
    at_every_phase(
        |ground, _| {
            Box::new(move |w: &mut World| {
                w.entity_mut(ground).remove::<SlidewalkCollider>();
                w.entity_mut(ground).insert(SlidewalkCollider::mesh());
            })
        },
        1.0,
        |app, c, when| {
            let body = get(app, c);
            assert!(
                body.grounded() && body.feet().y.abs() < 0.01,
                "{when}: at {:?}",
                body.feet()
            );
        },
    );
}
