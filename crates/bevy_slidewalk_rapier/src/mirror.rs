//! The mirror: every Rapier collider is also a bevy_slidewalk collider on
//! the same entity, built once per shape from Rapier's unscaled shape,
//! with Rapier's collision groups and sensor flag; the plugin places (and
//! scales) it by the entity's `GlobalTransform` each tick, so a body
//! Rapier moves is a mover (it carries and pushes characters) at the cost
//! of a pose update, not a rebuild.

use crate::IgnoredByCharacters;
use crate::shapes::{shape_of, triangles_of};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy_rapier3d::parry::shape::TypedShape;
use bevy_rapier3d::prelude::{Collider as RapierCollider, ColliderDisabled, CollisionGroups, Sensor as RapierSensor};
use bevy_slidewalk::sweep::MeshCollider;
use bevy_slidewalk::{SlidewalkCollider, SlidewalkLayers, SlidewalkSensor};
use std::sync::Arc;

/// On a Rapier collider the mirror made solid: the triangles it built
/// (shared by every collider of the same shape).
#[derive(Component, Clone)]
pub struct Mirrored {
    /// The triangles, in the collider's frame, unscaled (the entity's
    /// `GlobalTransform` scales and places them).
    pub shape: Arc<MeshCollider>,
}

/// What identifies a shape for the cache: an analytic shape by its
/// numbers (a thousand balls of one size are built once), anything else
/// by the address of its data.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum ShapeKey {
    Value(u8, [u32; 7]),
    Shared(usize),
}

/// Rapier's shape of `collider` before the entity's scale: bevy_rapier
/// keeps it beside the scaled one (`Collider::raw`) and applies the scale
/// of the `GlobalTransform` itself, as our plugin does. At scale one the
/// two are the same allocation unless the game edited `raw` in place
/// (`Collider::as_*_mut` edit `raw` only), and `raw` is then what Rapier
/// simulates.
fn unscaled(collider: &RapierCollider) -> TypedShape<'_> {
    if collider.scale() == Vec3::ONE {
        collider.raw.as_typed_shape()
    } else {
        collider.as_unscaled_typed_shape().as_typed_shape()
    }
}

fn key_of(shape: TypedShape<'_>) -> ShapeKey {
    let bits = |v: &[f32]| {
        let mut out = [0u32; 7];
        for (o, x) in out.iter_mut().zip(v) {
            *o = x.to_bits();
        }
        out
    };
    match shape {
        TypedShape::Ball(b) => ShapeKey::Value(0, bits(&[b.radius])),
        TypedShape::Cuboid(c) => ShapeKey::Value(1, bits(&c.half_extents.to_array())),
        TypedShape::Capsule(c) => {
            let (a, b) = (c.segment.a, c.segment.b);
            ShapeKey::Value(2, bits(&[a.x, a.y, a.z, b.x, b.y, b.z, c.radius]))
        }
        TypedShape::Cylinder(c) => ShapeKey::Value(3, bits(&[c.half_height, c.radius])),
        TypedShape::Cone(c) => ShapeKey::Value(4, bits(&[c.half_height, c.radius])),
        other => ShapeKey::Shared(std::ptr::from_ref(shape_of(other)).cast::<()>() as usize),
    }
}

/// One built shape.
struct Entry {
    /// A clone of a Rapier collider that has the shape (keeps its
    /// allocation, the key, from being reused while the entry lives).
    _keep: Option<RapierCollider>,
    built: Option<Arc<MeshCollider>>,
    /// Colliders mirrored with it.
    users: u32,
}

/// Triangles built per shape. A shape known by the address of its data is
/// kept alive by its entry until no mirrored collider uses it (bevy_rapier
/// does not hand out its unscaled `SharedShape`, so the entry holds a
/// clone of the collider and counts its users).
#[derive(Resource, Default)]
pub struct ShapeCache {
    built: HashMap<ShapeKey, Entry>,
    users: HashMap<Entity, ShapeKey>,
    /// Shapes built, for the figures.
    pub builds: u64,
}

impl ShapeCache {
    /// The triangles of `collider`'s unscaled shape for `entity` (`None`:
    /// it has none to stand on, warned once per shape).
    fn get(&mut self, collider: &RapierCollider, entity: Entity) -> Option<Arc<MeshCollider>> {
        let shape = unscaled(collider);
        let key = key_of(shape);
        if !self.built.contains_key(&key) {
            self.builds += 1;
            let triangles = triangles_of(shape_of(shape));
            if !triangles.left_out.is_empty() {
                warn!(
                    "bevy_slidewalk_rapier: collider {entity}: its {} parts have no faces to stand on; characters pass through them",
                    triangles.left_out.join(", ")
                );
            }
            let built = match MeshCollider::build(&triangles.positions, &triangles.triangles) {
                Ok(m) => Some(Arc::new(m)),
                Err(e) => {
                    warn!("bevy_slidewalk_rapier: collider {entity} is not solid to characters: {e}");
                    None
                }
            };
            let keep = matches!(key, ShapeKey::Shared(_)).then(|| collider.clone());
            self.built.insert(
                key.clone(),
                Entry {
                    _keep: keep,
                    built,
                    users: 0,
                },
            );
        }
        self.attach(entity, key.clone());
        self.built.get(&key).and_then(|e| e.built.clone())
    }

    /// Records that `entity` is mirrored with the shape of `key`.
    fn attach(&mut self, entity: Entity, key: ShapeKey) {
        let old = self.users.insert(entity, key.clone());
        if old.as_ref() == Some(&key) {
            return;
        }
        if let Some(entry) = self.built.get_mut(&key) {
            entry.users += 1;
        }
        if let Some(old) = old {
            self.release_key(&old);
        }
    }

    /// Records that `entity` is no longer mirrored (idempotent).
    fn release(&mut self, entity: Entity) {
        if let Some(key) = self.users.remove(&entity) {
            self.release_key(&key);
        }
    }

    /// Forgets a shape known by its address once no collider uses it.
    fn release_key(&mut self, key: &ShapeKey) {
        let Some(entry) = self.built.get_mut(key) else { return };
        entry.users = entry.users.saturating_sub(1);
        if entry.users == 0 && matches!(key, ShapeKey::Shared(_)) {
            self.built.remove(key);
        }
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
    Changed<RapierCollider>,
    Changed<CollisionGroups>,
    Added<RapierSensor>,
    Added<IgnoredByCharacters>,
    Added<ColliderDisabled>,
)>;

/// What a collider entity has, for the mirror to decide.
type Seen<'a> = (
    Option<&'a RapierCollider>,
    Option<&'a CollisionGroups>,
    Has<RapierSensor>,
    (Has<IgnoredByCharacters>, Has<ColliderDisabled>),
    Option<&'a Mirrored>,
    Option<&'a SlidewalkLayers>,
    Has<SlidewalkSensor>,
);

/// Components removed since the mirror last ran.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Removed<'w, 's> {
    colliders: RemovedComponents<'w, 's, RapierCollider>,
    groups: RemovedComponents<'w, 's, CollisionGroups>,
    sensors: RemovedComponents<'w, 's, RapierSensor>,
    ignored: RemovedComponents<'w, 's, IgnoredByCharacters>,
    disabled: RemovedComponents<'w, 's, ColliderDisabled>,
}

/// Brings the mirror up to date with the colliders changed, added,
/// removed, regrouped, made sensors, disabled or ignored since it last ran
/// (every frame, and again before each tick's `Prepare`).
pub(crate) fn mirror_colliders(
    mut commands: Commands,
    mut cache: ResMut<ShapeCache>,
    changed: Query<Entity, Watched>,
    seen: Query<Seen<'_>>,
    mut removed: Removed<'_, '_>,
    mut dirty: Local<HashSet<Entity>>,
) {
    dirty.clear();
    dirty.extend(changed.iter());
    dirty.extend(removed.colliders.read());
    dirty.extend(removed.groups.read());
    dirty.extend(removed.sensors.read());
    dirty.extend(removed.ignored.read());
    dirty.extend(removed.disabled.read());
    for entity in dirty.drain() {
        // Despawned: nothing to take off, the shape let go.
        let Ok((collider, groups, sensor, (ignored, disabled), mirrored, our_layers, our_sensor)) = seen.get(entity)
        else {
            cache.release(entity);
            continue;
        };
        let wanted = collider.filter(|_| !ignored && !disabled);
        let Some(collider) = wanted else {
            cache.release(entity);
            if mirrored.is_some() {
                commands
                    .entity(entity)
                    .try_remove::<(SlidewalkCollider, SlidewalkLayers, SlidewalkSensor, Mirrored)>();
            }
            continue;
        };
        let Some(shape) = cache.get(collider, entity) else {
            if mirrored.is_some() {
                commands
                    .entity(entity)
                    .try_remove::<(SlidewalkCollider, SlidewalkLayers, SlidewalkSensor, Mirrored)>();
            }
            continue;
        };
        let mut e = commands.entity(entity);
        if mirrored.is_none_or(|m| !Arc::ptr_eq(&m.shape, &shape)) {
            e.try_insert((SlidewalkCollider::from_mesh_collider(shape.clone()), Mirrored { shape }));
        }
        // No CollisionGroups: Rapier's default, every group both ways.
        let layers = groups.map_or(SlidewalkLayers::ALL, |g| {
            SlidewalkLayers::new(g.memberships.bits(), g.filters.bits())
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

/// Takes the mirror off colliders whose Rapier collider was removed (the
/// entity kept) if the removal was not seen.
pub(crate) fn unmirror_removed(
    mut commands: Commands,
    mut cache: ResMut<ShapeCache>,
    orphans: Query<Entity, (With<Mirrored>, Without<RapierCollider>)>,
) {
    for entity in &orphans {
        cache.release(entity);
        commands
            .entity(entity)
            .try_remove::<(SlidewalkCollider, SlidewalkLayers, SlidewalkSensor, Mirrored)>();
    }
}
