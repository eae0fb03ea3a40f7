//! The `engine` target's checks: a system in the plugin's schedule right
//! after the characters moved, so each tick is judged at the poses the
//! characters swept against (`ColliderMotion`, written by this tick's
//! `Prepare`), before Avian's step moves anything.
//!
//! Checked every tick, each with its own panic:
//! * every character's state and report are finite, and so is every
//!   Avian body (the pushes and the knock-back write into them);
//! * no contact or ground names an entity that is not a solid mirrored
//!   collider now (a sensor, an ignored collider, an inner body);
//! * no character ends a tick inside the triangles of a solid collider it
//!   meets, whatever moved it (static, kinematic, dynamic: the plugin
//!   pushes characters out of what moved into them), unless the tick
//!   reports it `crushed` (docs/plugin.md: a mover that squeezes it
//!   against something else, another mover included);
//! * no character overlaps a static or kinematic collider by more than
//!   its skin, through parry's contact query on Avian's own scaled shape
//!   at the pose the tick used (as `tests/avian` checks), from the tick
//!   it was once seen clear of it: a collider that becomes solid over a
//!   character (spawned, reshaped, no longer a sensor or ignored) is only
//!   pushed out of where its faces cut the ellipsoid, and a character
//!   wholly inside one is not seen, so a pair counts once it was clear;
//!   a crushed tick ends it too. Dynamic bodies are left out: Avian may
//!   move one past or around a character within a step (thrown at
//!   20 m/s, or shoved by another body), which no sweep sees; the
//!   triangle check above is what the plugin promises for them.

use avian3d::parry::math::Pose as ParryPose;
use avian3d::parry::query::contact;
use avian3d::parry::shape::ConvexPolyhedron;
use avian3d::prelude::{AngularVelocity, Collider as AvianCollider, ColliderOf, LinearVelocity, Position, RigidBody};
use bevy::prelude::*;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::sweep::{MeshCollider, closest_point_on_triangle};
use bevy_slidewalk::{CharacterState, ColliderMotion};
use bevy_slidewalk_avian::{HitByBody, IgnoredByCharacters, InnerBodyOf, Mirrored};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// What the checks keep between ticks.
#[derive(Resource, Default)]
pub struct Checks {
    /// (character, static or kinematic collider) pairs seen within the
    /// skin at the last tick, with the mirror's shape they were seen with.
    armed: HashMap<(Entity, Entity), usize>,
    /// The ellipsoids' hulls, by radii.
    hulls: HashMap<[u32; 3], ConvexPolyhedron>,
    /// The mirror's shapes (kept alive, so an address is never reused)
    /// and how far their corners reach from their origin.
    bounds: HashMap<usize, (Arc<MeshCollider>, f32)>,
    /// Behaviour codes seen (the signature).
    pub codes: BTreeSet<u64>,
    /// Ticks checked.
    pub ticks: u64,
}

type CharacterRow<'a> = (
    Entity,
    &'a CharacterController,
    &'a MovementState,
    &'a MovementReport,
    Option<&'a SlidewalkLayers>,
);

type ColliderRow<'a> = (
    Entity,
    &'a AvianCollider,
    &'a ColliderMotion,
    &'a GlobalTransform,
    &'a Mirrored,
    Option<&'a SlidewalkLayers>,
    Option<&'a ColliderOf>,
);

/// What a contact's entity is now.
type Named = (
    Has<SlidewalkCollider>,
    Has<SlidewalkSensor>,
    Has<IgnoredByCharacters>,
    Has<InnerBodyOf>,
);

type BodyRow<'a> = (Entity, &'a Position, &'a LinearVelocity, &'a AngularVelocity);

/// Points on an ellipsoid's surface: a polyhedron inside it (an overlap
/// it has, the ellipsoid has at least).
fn ellipsoid_hull(radii: Vec3) -> ConvexPolyhedron {
    let mut points = Vec::new();
    for i in 0..=12 {
        let phi = std::f32::consts::PI * i as f32 / 12.0;
        for j in 0..24 {
            let theta = std::f32::consts::TAU * j as f32 / 24.0;
            points.push(Vec3::new(phi.sin() * theta.cos(), phi.cos(), phi.sin() * theta.sin()) * radii);
        }
    }
    ConvexPolyhedron::from_convex_hull(&points).expect("an ellipsoid's hull")
}

fn finite(state: &CharacterState, report: &MovementReport) -> bool {
    let ground = state
        .ground
        .is_none_or(|g| g.point.is_finite() && g.normal.is_finite() && g.velocity.is_finite());
    state.position.is_finite()
        && state.velocity.is_finite()
        && state.up.is_finite()
        && state.radii.is_finite()
        && state.air_time.is_finite()
        && state.jump_buffer.is_finite()
        && ground
        && report.tick.pushed.is_finite()
        && report.tick.carried.is_finite()
}

/// The kind of body a collider moves with (none: static).
fn kind_of(of: Option<&ColliderOf>, kinds: &Query<&RigidBody>) -> RigidBody {
    of.and_then(|of| kinds.get(of.body).ok())
        .copied()
        .unwrap_or(RigidBody::Static)
}

/// Far from the origin rounding alone is bigger than 1e-4 of a radius.
fn rounding(position: Vec3) -> f32 {
    16.0 * f32::EPSILON * (position.abs().max_element() + 1.0)
}

impl Checks {
    /// How far `shape`'s corners reach from its origin, metres.
    fn bound(&mut self, shape: &Arc<MeshCollider>) -> f32 {
        let key = Arc::as_ptr(shape) as usize;
        self.bounds
            .entry(key)
            .or_insert_with(|| {
                let reach = (0..shape.len())
                    .flat_map(|slot| shape.triangle(slot))
                    .fold(0.0f32, |m, p| m.max(p.length()));
                (shape.clone(), reach)
            })
            .1
    }

    /// Smallest eSpace distance from the ellipsoid to the collider's
    /// triangles placed by its `GlobalTransform` (infinite when far).
    fn espace_distance(&mut self, state: &CharacterState, mirrored: &Mirrored, global: &GlobalTransform) -> f32 {
        let affine = global.affine();
        let size = Mat3::from(affine.matrix3)
            .to_cols_array_2d()
            .iter()
            .map(|c| Vec3::from(*c).length())
            .fold(0.0f32, f32::max);
        let reach = self.bound(&mirrored.shape) * size;
        if state.position.distance(global.translation()) > reach + state.radii.max_element() + 0.01 {
            return f32::INFINITY;
        }
        let shape = &mirrored.shape;
        (0..shape.len())
            .map(|slot| {
                let [a, b, c] = shape
                    .triangle(slot)
                    .map(|p| (affine.transform_point3(p) - state.position) / state.radii);
                closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
            })
            .fold(f32::INFINITY, f32::min)
    }
}

/// Checks the tick the characters just took (panics naming the broken rule).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_tick(
    characters: Query<CharacterRow>,
    colliders: Query<ColliderRow, (With<SlidewalkCollider>, Without<SlidewalkSensor>)>,
    named: Query<Named>,
    kinds: Query<&RigidBody>,
    bodies: Query<BodyRow>,
    mut hits: MessageReader<HitByBody>,
    mut checks: ResMut<Checks>,
) {
    let checks = &mut *checks;
    checks.ticks += 1;
    let mut armed = HashMap::new();
    for (ch, controller, state, report, layers) in &characters {
        let s = &state.0;
        assert!(
            finite(s, report),
            "character {ch}: a non-finite state or report after a tick: {s:?}, pushed {}, carried {}",
            report.tick.pushed,
            report.tick.carried
        );
        let met = report.ground.as_ref().and_then(|g| g.entity);
        for &e in report.contact_entities.iter().flatten().chain(&met) {
            let Ok((solid, sensor, ignored, inner)) = named.get(e) else {
                panic!("character {ch}: a contact with {e}, which is despawned");
            };
            assert!(
                solid && !sensor && !ignored && !inner,
                "character {ch}: a contact with {e}, which is not a solid mirrored collider \
                 (collider {solid}, sensor {sensor}, ignored {ignored}, inner body {inner})"
            );
        }
        let tick = &report.tick;
        for (i, flag) in [
            tick.ground.is_some(),
            tick.crushed,
            tick.pushed != Vec3::ZERO,
            tick.carried != Vec3::ZERO,
            tick.stepped,
            tick.landed,
            tick.jumped,
            tick.dashed.is_some(),
            tick.launched.is_some(),
        ]
        .into_iter()
        .enumerate()
        {
            if flag {
                checks.codes.insert(100 + i as u64);
            }
        }
        if tick.crushed {
            continue;
        }
        let layers = layers.copied().unwrap_or(SlidewalkLayers::ALL);
        let skin = controller.config.skin * s.radii.max_element();
        let slack = 1e-4 + rounding(s.position);
        for (entity, collider, motion, global, mirrored, their, of) in &colliders {
            if !layers.interacts_with(their.copied().unwrap_or(SlidewalkLayers::ALL)) {
                continue;
            }
            let kind = kind_of(of, &kinds);
            if report.contact_entities.contains(&Some(entity)) {
                checks.codes.insert(10 + kind as u64);
            }
            // The plugin's promise for any collider, moved or not.
            let clearance = checks.espace_distance(s, mirrored, global);
            assert!(
                clearance >= 1.0 - 1e-4 - rounding(s.position) / s.radii.min_element(),
                "character {ch}: inside the triangles of {kind:?} collider {entity} by {:.2e} of its radius at {}, \
                 not crushed",
                1.0 - clearance,
                s.position
            );
            if kind.is_dynamic() {
                continue;
            }
            // Avian's own shape, from the tick the pair was seen clear.
            let Some(pose) = motion.pose() else { continue };
            let scale = global.compute_transform().scale;
            if (collider.scale() - scale).abs().max_element() > 1e-4 * scale.max_element() {
                // Avian has not taken the entity's scale yet (it does at its step).
                checks.codes.insert(20);
                continue;
            }
            let placed = ParryPose::from_parts(pose.translation, pose.rotation);
            let at = ParryPose::from_translation(s.position);
            let shape = collider.shape_scaled();
            let aabb = shape.compute_aabb(&placed);
            let near = s.radii + 0.05;
            let depth = if aabb.mins.cmpgt(s.position + near).any() || aabb.maxs.cmplt(s.position - near).any() {
                f32::NEG_INFINITY
            } else {
                let hull = checks
                    .hulls
                    .entry(s.radii.to_array().map(f32::to_bits))
                    .or_insert_with(|| ellipsoid_hull(s.radii));
                // The engine's shape first (parry measured a half-space
                // from its solid side the other way round, tests/avian says).
                match contact(&placed, shape.as_ref(), &at, hull, 0.05) {
                    Ok(Some(c)) => -c.dist - skin,
                    Ok(None) => f32::NEG_INFINITY,
                    Err(_) => {
                        checks.codes.insert(21);
                        continue;
                    }
                }
            };
            let key = Arc::as_ptr(&mirrored.shape) as usize;
            let was_clear = checks.armed.get(&(ch, entity)) == Some(&key);
            if was_clear && depth > slack {
                // Two places, so that the fuzzer keeps a crash of each: a
                // depenetration (something moved or appeared into it)
                // pushed it there, or its own move took it there.
                assert!(
                    tick.pushed == Vec3::ZERO,
                    "character {ch}: {depth:.2e} m beyond its skin inside {kind:?} collider {entity} \
                     (Avian's shape at {pose:?}) at {}, not crushed, clear of it the tick before; \
                     pushed {} out of what overlapped it",
                    s.position,
                    tick.pushed
                );
                panic!(
                    "character {ch}: {depth:.2e} m beyond its skin inside {kind:?} collider {entity} \
                     (Avian's shape at {pose:?}) at {}, not crushed, clear of it the tick before",
                    s.position
                );
            }
            if depth <= slack {
                armed.insert((ch, entity), key);
            } else {
                checks.codes.insert(30 + kind as u64);
            }
        }
    }
    checks.armed = armed;
    for (body, position, linear, angular) in &bodies {
        assert!(
            position.0.is_finite() && linear.0.is_finite() && angular.0.is_finite(),
            "Avian body {body}: non-finite at {}, velocity {}, spin {}",
            position.0,
            linear.0,
            angular.0
        );
    }
    for hit in hits.read() {
        assert!(
            hit.knocked.is_finite() && hit.impulse.is_finite(),
            "a non-finite hit: {hit:?}"
        );
        checks.codes.insert(40);
    }
}
