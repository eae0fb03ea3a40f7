//! The mirror: every Avian collider is also a bevy_slidewalk collider on
//! the same entity, built once per shape, with Avian's layers and sensor
//! flag; the plugin places it by the entity's `GlobalTransform` each tick,
//! so a body Avian moves is a mover (it carries and pushes characters)
//! at the cost of a pose update, not a rebuild.

use crate::IgnoredByCharacters;
use crate::shapes::triangles_of;
use avian3d::parry::shape::{SharedShape, TypedShape};
use avian3d::prelude::{Collider as AvianCollider, CollisionLayers as AvianLayers, Sensor as AvianSensor};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy_slidewalk::sweep::MeshCollider;
use bevy_slidewalk::{SlidewalkCollider, SlidewalkLayers, SlidewalkSensor};
use std::sync::Arc;

/// On an Avian collider the mirror made solid: the triangles it built
/// (shared by every collider of the same shape).
#[derive(Component, Clone)]
pub struct Mirrored {
    /// The triangles, in the collider's frame, unscaled (the entity's
    /// `GlobalTransform` scales and places them).
    pub shape: Arc<MeshCollider>,
}

/// What identifies a shape for the cache: an analytic shape by its
/// numbers (a thousand balls of one size are built once), anything else
/// by its allocation.
#[derive(Clone, PartialEq, Eq, Hash)]
enum ShapeKey {
    Value(u8, [u32; 7]),
    Shared(usize),
}

fn key_of(shape: &SharedShape) -> ShapeKey {
    let bits = |v: &[f32]| {
        let mut out = [0u32; 7];
        for (o, x) in out.iter_mut().zip(v) {
            *o = x.to_bits();
        }
        out
    };
    match shape.as_typed_shape() {
        TypedShape::Ball(b) => ShapeKey::Value(0, bits(&[b.radius])),
        TypedShape::Cuboid(c) => ShapeKey::Value(1, bits(&c.half_extents.to_array())),
        TypedShape::Capsule(c) => {
            let (a, b) = (c.segment.a, c.segment.b);
            ShapeKey::Value(2, bits(&[a.x, a.y, a.z, b.x, b.y, b.z, c.radius]))
        }
        TypedShape::Cylinder(c) => ShapeKey::Value(3, bits(&[c.half_height, c.radius])),
        TypedShape::Cone(c) => ShapeKey::Value(4, bits(&[c.half_height, c.radius])),
        _ => ShapeKey::Shared(Arc::as_ptr(&shape.0) as *const () as usize),
    }
}

/// Triangles built per shape. A shape known by its allocation is kept
/// alive by its entry (so the address is not reused) until no collider
/// holds it.
#[derive(Resource, Default)]
pub struct ShapeCache {
    built: HashMap<ShapeKey, (SharedShape, Option<Arc<MeshCollider>>)>,
    /// Shapes built, for the figures.
    pub builds: u64,
}

impl ShapeCache {
    /// The triangles of `shape` (`None`: it has none to stand on, warned once).
    fn get(&mut self, shape: &SharedShape, entity: Entity) -> Option<Arc<MeshCollider>> {
        let key = key_of(shape);
        if let Some((_, built)) = self.built.get(&key) {
            return built.clone();
        }
        self.builds += 1;
        let triangles = triangles_of(shape.as_ref());
        if !triangles.left_out.is_empty() {
            warn!(
                "bevy_slidewalk_avian: collider {entity}: its {} parts have no faces to stand on; characters pass through them",
                triangles.left_out.join(", ")
            );
        }
        let built = match MeshCollider::build(&triangles.positions, &triangles.triangles) {
            Ok(m) => Some(Arc::new(m)),
            Err(e) => {
                warn!("bevy_slidewalk_avian: collider {entity} is not solid to characters: {e}");
                None
            }
        };
        self.built.insert(key, (shape.clone(), built.clone()));
        built
    }

    /// Forgets shapes only the cache still holds.
    fn prune(&mut self) {
        self.built
            .retain(|k, (shape, _)| matches!(k, ShapeKey::Value(..)) || Arc::strong_count(&shape.0) > 1);
    }

    /// Shapes held.
    pub fn len(&self) -> usize {
        self.built.len()
    }

    /// No shape held.
    pub fn is_empty(&self) -> bool {
        self.built.is_empty()
    }
}

type Watched = Or<(
    Changed<AvianCollider>,
    Changed<AvianLayers>,
    Added<AvianSensor>,
    Added<IgnoredByCharacters>,
)>;

/// What a collider entity has, for the mirror to decide.
type Seen<'a> = (
    Option<&'a AvianCollider>,
    Option<&'a AvianLayers>,
    Has<AvianSensor>,
    Has<IgnoredByCharacters>,
    Option<&'a Mirrored>,
    Option<&'a SlidewalkLayers>,
    Has<SlidewalkSensor>,
);

/// Brings the mirror up to date with the colliders changed, added,
/// removed, made sensors or ignored since it last ran (every frame, and
/// again before each tick's `Prepare`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn mirror_colliders(
    mut commands: Commands,
    mut cache: ResMut<ShapeCache>,
    changed: Query<Entity, Watched>,
    seen: Query<Seen<'_>>,
    mut removed_colliders: RemovedComponents<AvianCollider>,
    mut removed_sensors: RemovedComponents<AvianSensor>,
    mut removed_ignored: RemovedComponents<IgnoredByCharacters>,
    mut dirty: Local<HashSet<Entity>>,
) {
    dirty.clear();
    dirty.extend(changed.iter());
    let gone = removed_colliders.read().count();
    dirty.extend(removed_sensors.read());
    dirty.extend(removed_ignored.read());
    // The removed colliders' entities (if they still exist) are found by
    // what they still carry.
    if gone > 0 {
        cache.prune();
    }
    for entity in dirty.drain() {
        let Ok((collider, layers, sensor, ignored, mirrored, our_layers, our_sensor)) = seen.get(entity) else {
            continue;
        };
        let wanted = collider.filter(|_| !ignored);
        let Some(collider) = wanted else {
            if mirrored.is_some() {
                commands
                    .entity(entity)
                    .try_remove::<(SlidewalkCollider, SlidewalkLayers, SlidewalkSensor, Mirrored)>();
            }
            continue;
        };
        let Some(shape) = cache.get(collider.shape(), entity) else {
            continue;
        };
        let mut e = commands.entity(entity);
        if mirrored.is_none_or(|m| !Arc::ptr_eq(&m.shape, &shape)) {
            e.try_insert((SlidewalkCollider::from_mesh_collider(shape.clone()), Mirrored { shape }));
        }
        let layers = layers.map_or(SlidewalkLayers::ALL, |l| {
            SlidewalkLayers::new(l.memberships.0, l.filters.0)
        });
        if our_layers != Some(&layers) {
            e.try_insert(layers);
        }
        if sensor && !our_sensor {
            e.try_insert(SlidewalkSensor);
        } else if !sensor && our_sensor {
            e.try_remove::<SlidewalkSensor>();
        }
    }
}

/// Takes the mirror off colliders whose Avian collider was removed (the
/// entity kept).
pub(crate) fn unmirror_removed(
    mut commands: Commands,
    orphans: Query<Entity, (With<Mirrored>, Without<AvianCollider>)>,
) {
    for entity in &orphans {
        commands
            .entity(entity)
            .try_remove::<(SlidewalkCollider, SlidewalkLayers, SlidewalkSensor, Mirrored)>();
    }
}
