//! The collision world of a tick: every [`SlidewalkCollider`](crate::SlidewalkCollider) entity's triangles at
//! its pose, built from the ECS at the start of each tick. Small colliders
//! that have never moved are merged into one structure per set of rules
//! (layers, one-way direction: `merge`), so a scene of a thousand props
//! costs about what one mesh of the same triangles costs; large ones and
//! movers are placed on their own, with their motion over
//! the tick as velocities. Sensors are kept apart (`sensors`): not solid,
//! found through a grid over their boxes, the water among them looked up
//! by point (`water`). What a collider does to a character standing on it
//! is asked by collider index (`moves`). The sync (`crate::sync`) brings
//! it up to date each tick through the changes at the end of this file.

use crate::collider::{Surface, TriangleSurfaces};
use crate::motion::ColliderMotion;
use crate::placement::Placement;
use crate::rules::ColliderRules;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use glam::{Mat3, Vec3};
use slidewalk_sweep::{Aabb, MeshCollider, PlacedCollider, Pose};
use std::sync::Arc;

mod body;
mod merge;
mod moves;
mod sensors;
mod water;

use body::Body;
use merge::Merged;
use sensors::Sensors;

/// Colliders with at most this many triangles are merged with the other
/// resting ones; larger ones keep their own structure (rebuilding a merge
/// is cheap only while its parts are small).
pub const MERGE_MAX_TRIANGLES: usize = 4096;

/// What a collider index of [`CollisionWorld::placed`] stands for.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The resting small colliders of one set of rules, as one.
    Merged(usize),
    Body(usize),
}

/// Every collider of this tick, for the characters and for any system of
/// the app that wants to sweep against the same geometry (balls, agents).
///
/// Indices into [`CollisionWorld::placed`] are valid for one tick: use
/// [`CollisionWorld::entity`] to know what was hit.
#[derive(Resource, Default)]
pub struct CollisionWorld {
    bodies: Vec<Body>,
    by_entity: HashMap<Entity, usize>,
    /// The resting small colliders as one per set of rules (layers,
    /// one-way direction), plain ones first.
    merged: Vec<Merged>,
    slots: Vec<Slot>,
    /// The merged structure no longer matches the bodies.
    stale: bool,
    /// Length of the last tick, seconds.
    dt: f32,
    /// Colliders refused (and warned about) until they change.
    refused: HashSet<Entity>,
    /// Colliders waiting for their mesh asset to load.
    waiting: HashSet<Entity>,
    /// What was wrong with a collider's geometry when it was last built.
    problems: HashMap<Entity, String>,
    /// Movers whose changing shear was warned about.
    warned_reshaped: HashSet<Entity>,
    /// How many times the collider order was made (indices into
    /// [`placed`](Self::placed) hold while it stays the same).
    layout: u64,
    /// The sensors and the grid over their boxes.
    sensors: Sensors,
    /// Colliders whose pose or mover flag changed in this sync, for their
    /// [`ColliderMotion`] (written back after the sync).
    motion_changed: Vec<Entity>,
}

impl CollisionWorld {
    /// The colliders at their poses for the end of this tick, each moving
    /// one with its motion over the tick as velocities (what
    /// [`slidewalk_controller::Surroundings`] and [`slidewalk_sweep::collide_and_slide`] take).
    pub fn placed(&self) -> Vec<PlacedCollider<'_>> {
        self.placed_where(false)
    }

    /// The same colliders at their poses at the start of this tick, with
    /// the same velocities: what a sweep over the whole tick from its
    /// start needs.
    pub fn placed_at_tick_start(&self) -> Vec<PlacedCollider<'_>> {
        self.placed_where(true)
    }

    fn placed_where(&self, at_start: bool) -> Vec<PlacedCollider<'_>> {
        self.slots
            .iter()
            .filter_map(|slot| match *slot {
                Slot::Merged(k) => self.merged.get(k).map(Merged::placed),
                Slot::Body(i) => Some(self.bodies[i].placed(self.dt, at_start)),
            })
            .collect()
    }

    /// Number of colliders in [`CollisionWorld::placed`].
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there is no collider at all.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Number of collider entities.
    pub fn entity_count(&self) -> usize {
        self.bodies.len()
    }

    fn part(&self, collider: usize, triangle: u32) -> Option<(&Body, u32)> {
        match *self.slots.get(collider)? {
            Slot::Body(i) => Some((&self.bodies[i], triangle)),
            Slot::Merged(k) => {
                let m = self.merged.get(k)?;
                let at = m
                    .parts
                    .partition_point(|&(first, _)| first <= triangle)
                    .checked_sub(1)?;
                let (first, body) = m.parts[at];
                Some((&self.bodies[body], triangle - first))
            }
        }
    }

    /// The entity a triangle of a collider of [`CollisionWorld::placed`]
    /// belongs to (`triangle` is the input index a contact reports).
    pub fn entity(&self, collider: usize, triangle: u32) -> Option<Entity> {
        self.part(collider, triangle).map(|(b, _)| b.entity)
    }

    /// The entity a triangle of a collider of [`CollisionWorld::placed`]
    /// belongs to, and that triangle's index in the entity's own collider
    /// (the order its triangles were given in).
    pub fn locate(&self, collider: usize, triangle: u32) -> Option<(Entity, u32)> {
        self.part(collider, triangle).map(|(b, t)| (b.entity, t))
    }

    /// Whether an entity's collider shares its index with other resting
    /// small ones (merged), rather than having one of its own.
    pub fn is_merged(&self, entity: Entity) -> bool {
        self.by_entity.get(&entity).is_some_and(|&i| self.bodies[i].merged())
    }

    /// The surface of a triangle of a collider of [`CollisionWorld::placed`].
    pub fn surface(&self, collider: usize, triangle: u32) -> Option<&Surface> {
        self.part(collider, triangle).map(|(b, t)| b.surface(t))
    }

    /// The friction of a triangle, 0 (ice) … 1 (normal grip); 1 when unknown.
    pub fn friction(&self, collider: usize, triangle: u32) -> f32 {
        self.surface(collider, triangle).map_or(1.0, |s| s.friction)
    }

    /// Whether a collider of [`CollisionWorld::placed`] is a mover (it has
    /// moved since it was added).
    pub fn is_mover(&self, collider: usize) -> bool {
        matches!(self.slots.get(collider), Some(Slot::Body(i)) if self.bodies[*i].mover)
    }

    /// The index in [`CollisionWorld::placed`] of an entity's collider
    /// (several resting small ones share an index), if it has one.
    pub fn index_of(&self, entity: Entity) -> Option<usize> {
        let body = *self.by_entity.get(&entity)?;
        if self.bodies[body].merged() {
            let k = self.merged.iter().position(|m| m.holds(body))?;
            return self.slots.iter().position(|s| matches!(s, Slot::Merged(j) if *j == k));
        }
        self.slots.iter().position(|s| matches!(s, Slot::Body(i) if *i == body))
    }

    /// Changes whenever collider indices of [`placed`](Self::placed) may
    /// change (a collider added or removed, a resting one starting to move).
    pub(crate) fn layout(&self) -> u64 {
        self.layout
    }

    /// World bounds of every collider at its pose (`None` without any).
    pub fn bounds(&self) -> Option<Aabb> {
        let b = self
            .bodies
            .iter()
            .map(|b| b.pose.transform_aabb(b.shape.bounds()))
            .fold(Aabb::EMPTY, Aabb::union);
        b.min.is_finite().then_some(b)
    }

    /// The triangles of one entity's collider in world space at its pose.
    pub fn world_triangles(&self, entity: Entity) -> Vec<[Vec3; 3]> {
        let Some(&i) = self.by_entity.get(&entity) else {
            return Vec::new();
        };
        let b = &self.bodies[i];
        b.shape
            .triangles()
            .map(|t| t.map(|p| b.pose.transform_point(p)))
            .collect()
    }

    /// What was wrong with an entity's collider when it was last built:
    /// why it is not solid, or what part of it was left out (the same
    /// text as the logged warning). `None` when all of it is solid.
    pub fn problem(&self, entity: Entity) -> Option<&str> {
        self.problems.get(&entity).map(String::as_str)
    }

    /// Colliders whose mesh asset has not loaded yet.
    pub fn waiting_for_meshes(&self) -> usize {
        self.waiting.len()
    }

    fn insert(&mut self, body: Body) {
        match self.by_entity.get(&body.entity) {
            Some(&i) => {
                let old = &self.bodies[i];
                self.stale |= old.merged() || body.merged();
                self.bodies[i] = body;
            }
            None => {
                self.stale |= body.merged();
                self.by_entity.insert(body.entity, self.bodies.len());
                self.bodies.push(body);
            }
        }
        self.stale = true;
    }

    /// Puts the bodies in their colliders' insertion order (the sync
    /// meets them in the order of the app's archetypes).
    fn put_in_order(&mut self) {
        self.bodies.sort_by_key(|b| b.serial);
        for (i, body) in self.bodies.iter().enumerate() {
            self.by_entity.insert(body.entity, i);
        }
    }

    fn remove(&mut self, entity: Entity) {
        self.refused.remove(&entity);
        self.waiting.remove(&entity);
        self.problems.remove(&entity);
        let Some(i) = self.by_entity.remove(&entity) else {
            return;
        };
        // Order kept: contacts at the same time go to the earlier collider.
        self.bodies.remove(i);
        for index in self.by_entity.values_mut() {
            if *index > i {
                *index -= 1;
            }
        }
        self.stale = true;
    }

    /// Rebuilds the merged structures and the collider order.
    fn rebuild(&mut self) {
        self.merged = merge::merge(&self.bodies);
        self.slots = (0..self.merged.len())
            .map(Slot::Merged)
            .chain(
                self.bodies
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| !b.merged() && !b.rules.sensor)
                    .map(|(i, _)| Slot::Body(i)),
            )
            .collect();
        self.rebuild_sensors();
        self.stale = false;
        self.layout += 1;
    }
}

/// A collider's triangles as just built, for [`CollisionWorld::adopt`].
pub(crate) struct BuiltBody {
    pub entity: Entity,
    /// The collider's insertion serial (its place in the order).
    pub serial: u64,
    /// Triangles in the entity's frame, `linear` applied.
    pub shape: Arc<MeshCollider>,
    pub linear: Mat3,
    pub surface: Surface,
    pub triangle_surfaces: Option<Arc<TriangleSurfaces>>,
    /// Where it is this tick.
    pub pose: Pose,
    pub rules: ColliderRules,
}

/// The changes the sync makes at the start of a tick, in the order it
/// makes them.
impl CollisionWorld {
    /// A new tick of `dt` seconds: whatever does not move this tick was at
    /// the same pose a tick ago.
    pub(crate) fn begin_tick(&mut self, dt: f32) {
        self.dt = dt;
        self.motion_changed.clear();
        for body in &mut self.bodies {
            body.previous = body.pose;
        }
    }

    /// `entity`'s [`ColliderMotion`] was given back (a rollback restored
    /// it): its pose at the end of the last tick and whether it has moved
    /// are taken from it, before [`begin_tick`](Self::begin_tick).
    pub(crate) fn restore_motion(&mut self, entity: Entity, motion: &ColliderMotion) {
        let Some(&i) = self.by_entity.get(&entity) else {
            return;
        };
        let Some(pose) = motion.pose() else {
            // Given back from before it was first placed: placed anew, as
            // it was then (its restored transform makes the sync look at it).
            self.forget(entity);
            return;
        };
        let body = &self.bodies[i];
        if body.pose != pose || body.mover != motion.is_mover() {
            self.place(i, pose, motion.is_mover());
        }
    }

    /// Body `i` is at `pose`, a mover or not: the sensors' grid is redone
    /// if it is a sensor, the merge if it joins or leaves it.
    fn place(&mut self, i: usize, pose: Pose, mover: bool) {
        let body = &mut self.bodies[i];
        let was_merged = body.merged();
        body.pose = pose;
        body.mover = mover;
        self.sensors.moved |= body.rules.sensor;
        self.stale |= was_merged != body.merged();
    }

    /// The colliders whose [`ColliderMotion`] changed in this sync, with it.
    pub(crate) fn changed_motions(&self) -> impl Iterator<Item = (Entity, ColliderMotion)> + '_ {
        self.motion_changed.iter().filter_map(|e| {
            let body = &self.bodies[*self.by_entity.get(e)?];
            Some((*e, ColliderMotion::new(body.pose, body.mover)))
        })
    }

    /// The collider of `entity` is gone (or was never built).
    pub(crate) fn forget(&mut self, entity: Entity) {
        self.remove(entity);
    }

    /// Where `entity`'s collider is and whether it has moved since it was
    /// added (`None`: not in the world).
    pub(crate) fn placement_of(&self, entity: Entity) -> Option<(Placement, bool)> {
        let body = &self.bodies[*self.by_entity.get(&entity)?];
        Some((
            Placement {
                pose: body.pose,
                linear: body.linear,
            },
            body.mover,
        ))
    }

    /// Whether `entity`'s collider waits for its mesh asset.
    pub(crate) fn is_waiting(&self, entity: Entity) -> bool {
        self.waiting.contains(&entity)
    }

    /// Whether `entity`'s collider was refused (until it changes).
    pub(crate) fn is_refused(&self, entity: Entity) -> bool {
        self.refused.contains(&entity)
    }

    /// The colliders waiting for their mesh asset.
    pub(crate) fn waiting(&self) -> Vec<Entity> {
        self.waiting.iter().copied().collect()
    }

    /// `entity`'s collider moved to `pose`, its shape unchanged: from now
    /// on a mover, placed on its own.
    pub(crate) fn move_to(&mut self, entity: Entity, pose: Pose) {
        let Some(&i) = self.by_entity.get(&entity) else {
            return;
        };
        if pose != self.bodies[i].pose {
            self.motion_changed.push(entity);
            self.place(i, pose, true);
        }
    }

    /// `entity`'s collider waits for its mesh asset to load.
    pub(crate) fn wait_for_mesh(&mut self, entity: Entity) {
        self.refused.remove(&entity);
        self.waiting.insert(entity);
    }

    /// A collider built: it replaces the entity's old triangles (keeping
    /// where it was a tick ago, so a rebuilt mover keeps its velocity);
    /// `problem` says what part of it was left out.
    pub(crate) fn adopt(&mut self, built: BuiltBody, problem: Option<String>) {
        let entity = built.entity;
        self.refused.remove(&entity);
        self.waiting.remove(&entity);
        match problem {
            Some(p) => self.problems.insert(entity, p),
            None => self.problems.remove(&entity),
        };
        let known = self.by_entity.get(&entity).map(|&i| &self.bodies[i]);
        let (previous, mover) = known.map_or((built.pose, false), |b| (b.pose, b.mover));
        let moved = known.is_some() && previous != built.pose;
        self.motion_changed.push(entity);
        self.insert(Body {
            entity,
            serial: built.serial,
            shape: built.shape,
            linear: built.linear,
            surface: built.surface,
            triangle_surfaces: built.triangle_surfaces,
            pose: built.pose,
            previous,
            mover: mover || moved,
            rules: built.rules,
        });
    }

    /// `entity`'s collider cannot be built: not solid until it changes,
    /// `reason` kept for [`problem`](Self::problem).
    pub(crate) fn refuse(&mut self, entity: Entity, reason: String) {
        self.remove(entity);
        self.refused.insert(entity);
        self.problems.insert(entity, reason);
    }

    /// Whether this is the first time `entity`'s shear changed as it moved
    /// (warned about once).
    pub(crate) fn first_reshape(&mut self, entity: Entity) -> bool {
        self.warned_reshaped.insert(entity)
    }

    /// `entity`'s collider has new rules (layers, one-way, sensor).
    pub(crate) fn set_rules(&mut self, entity: Entity, rules: ColliderRules) {
        if let Some(&i) = self.by_entity.get(&entity)
            && self.bodies[i].rules != rules
        {
            self.bodies[i].rules = rules;
            self.stale = true;
        }
    }

    /// `entity`'s collider has a new surface.
    pub(crate) fn set_surface(&mut self, entity: Entity, surface: Surface) {
        if let Some(&i) = self.by_entity.get(&entity) {
            self.bodies[i].surface = surface;
        }
    }

    /// The sync is done: the merged structure rebuilt if it no longer
    /// matches, the sensors' grid if one moved.
    pub(crate) fn finish_sync(&mut self) {
        if self.stale {
            if !self.bodies.is_sorted_by_key(|b| b.serial) {
                self.put_in_order();
            }
            self.rebuild();
        } else if self.sensors.moved {
            self.rebuild_sensors();
        }
    }
}
