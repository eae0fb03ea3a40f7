//! Bringing the [`CollisionWorld`] up to date with the ECS at the start
//! of each tick: colliders' transforms (roots directly, hierarchies by
//! Bevy's propagation), colliders added, removed, changed and moved.

use crate::build::{Built, build_shape};
use crate::collider::{ColliderSource, SlidewalkCollider, Surface};
use crate::motion::ColliderMotion;
use crate::placement::placement;
use crate::removals::PendingRemovals;
use crate::rules::{
    Climbable, ColliderRules, Conveyor, LaunchPad, OneWay, RuleComponents, SlidewalkLayers, SlidewalkSensor, Water,
};
use crate::world::{BuiltBody, CollisionWorld};
use bevy::asset::AssetEvent;
use bevy::mesh::{Mesh, Mesh3d};
use bevy::platform::collections::HashSet;
use bevy::prelude::*;

/// A collider with no parent and no children, moved (or new).
type MovedRootCollider = (
    With<SlidewalkCollider>,
    Without<ChildOf>,
    Without<Children>,
    Or<(Changed<Transform>, Added<GlobalTransform>)>,
);

/// An entity of a hierarchy that moved, or whose place in it changed.
type MovedInHierarchy = (
    Or<(Changed<Transform>, Changed<ChildOf>, Added<GlobalTransform>)>,
    Or<(With<ChildOf>, With<Children>)>,
);

/// Colliders with no parent and no children that moved this tick: their
/// global transform is their transform (what Bevy's propagation would
/// give them at the end of the frame), set now, one by one.
pub(crate) fn place_root_colliders(mut roots: Query<(&Transform, &mut GlobalTransform), MovedRootCollider>) {
    for (transform, mut global) in &mut roots {
        *global = GlobalTransform::from(*transform);
    }
}

/// Whether an entity in a hierarchy moved or the hierarchy changed since
/// the last tick (Bevy's propagation is needed then).
pub(crate) fn hierarchy_moved(moved: Query<(), MovedInHierarchy>, removals: Res<PendingRemovals>) -> bool {
    removals.orphaned || !moved.is_empty()
}

/// The surface an entity has: its own, or its nearest ancestor's.
fn inherited_surface(entity: Entity, surfaces: &Query<&Surface>, parents: &Query<&ChildOf>) -> Surface {
    std::iter::once(entity)
        .chain(parents.iter_ancestors(entity))
        .find_map(|e| surfaces.get(e).ok().cloned())
        .unwrap_or_default()
}

fn describe(entity: Entity, names: &Query<&Name>) -> String {
    match names.get(entity) {
        Ok(name) => format!("collider {entity} ({name})"),
        Err(_) => format!("collider {entity}"),
    }
}

type ColliderItem<'a> = (
    Entity,
    Ref<'a, SlidewalkCollider>,
    Option<Ref<'a, Mesh3d>>,
    Ref<'a, GlobalTransform>,
    Option<&'a SlidewalkLayers>,
    RuleComponents<'a>,
);

/// Colliders that may need a look this tick: new, changed, moved, given
/// new rules.
type Touched = Or<(
    Changed<SlidewalkCollider>,
    Changed<Mesh3d>,
    Changed<GlobalTransform>,
    Changed<SlidewalkLayers>,
    Changed<OneWay>,
    Changed<SlidewalkSensor>,
    Changed<Climbable>,
    Changed<LaunchPad>,
    Changed<Conveyor>,
    Changed<Water>,
)>;

/// What [`update`] reads besides the collider entity itself.
struct Context<'a, 'w, 's> {
    meshes: Option<&'a Assets<Mesh>>,
    changed_meshes: &'a HashSet<AssetId<Mesh>>,
    surfaces: &'a Query<'w, 's, &'static Surface>,
    parents: &'a Query<'w, 's, &'static ChildOf>,
    names: &'a Query<'w, 's, &'static Name>,
}

impl Context<'_, '_, '_> {
    fn mesh_changed(&self, mesh: &Option<Ref<Mesh3d>>) -> bool {
        mesh.as_ref()
            .is_some_and(|m| m.is_changed() || self.changed_meshes.contains(&m.0.id()))
    }
}

/// Brings the collision world up to date with the ECS: colliders added,
/// removed or changed (their mesh asset included), their poses, and which
/// of them move. Only colliders that changed are looked at (a scene of
/// resting props costs a pass over a list, not a look at each entity).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(crate) fn sync_colliders(
    mut world: ResMut<CollisionWorld>,
    time: Res<Time>,
    meshes: Option<Res<Assets<Mesh>>>,
    mut mesh_events: MessageReader<AssetEvent<Mesh>>,
    touched: Query<ColliderItem, Touched>,
    all: Query<ColliderItem>,
    changed_surfaces: Query<Entity, (With<SlidewalkCollider>, Changed<Surface>)>,
    surfaces: Query<&'static Surface>,
    parents: Query<&'static ChildOf>,
    names: Query<&'static Name>,
    mut removals: ResMut<PendingRemovals>,
    // Those given back since the last sync (by a rollback); all of them
    // to write back to.
    mut motions: ParamSet<(
        Query<(Entity, &ColliderMotion), Changed<ColliderMotion>>,
        Query<&mut ColliderMotion>,
    )>,
) {
    let world = &mut *world;
    // Given back by a rollback (the sync's own writes are not seen here:
    // a system's changes are older than its next run).
    for (entity, motion) in &motions.p0() {
        world.restore_motion(entity, motion);
    }
    world.begin_tick(time.delta_secs());
    removals.orphaned = false;
    for entity in removals.colliders.drain() {
        // Still a collider: removed and given one again since.
        if !all.contains(entity) {
            world.forget(entity);
        }
    }
    let changed_meshes: HashSet<AssetId<Mesh>> = mesh_events
        .read()
        .filter_map(|e| match e {
            AssetEvent::Modified { id } | AssetEvent::LoadedWithDependencies { id } | AssetEvent::Added { id } => {
                Some(*id)
            }
            _ => None,
        })
        .collect();
    let cx = Context {
        meshes: meshes.as_deref(),
        changed_meshes: &changed_meshes,
        surfaces: &surfaces,
        parents: &parents,
        names: &names,
    };
    for item in &touched {
        update(world, &cx, &item);
    }
    // Colliders still waiting for their mesh, and meshes loaded or changed.
    for entity in world.waiting() {
        if let Ok(item) = all.get(entity)
            && !touched.contains(entity)
        {
            update(world, &cx, &item);
        }
    }
    if !changed_meshes.is_empty() {
        for item in &all {
            if cx.mesh_changed(&item.2) && !touched.contains(item.0) && !world.is_waiting(item.0) {
                update(world, &cx, &item);
            }
        }
    }
    for entity in &changed_surfaces {
        world.set_surface(entity, inherited_surface(entity, &surfaces, &parents));
    }
    for entity in removals.rules.drain() {
        if let Ok((_, _, _, _, layers, rules)) = all.get(entity) {
            world.set_rules(entity, ColliderRules::of(layers, rules));
        }
    }
    world.finish_sync();
    let mut motions = motions.p1();
    for (entity, now) in world.changed_motions() {
        if let Ok(mut motion) = motions.get_mut(entity) {
            motion.set_if_neq(now);
        }
    }
}

/// Builds, rebuilds or moves one collider.
fn update(world: &mut CollisionWorld, cx: &Context, (entity, collider, mesh, global, layers, rules): &ColliderItem) {
    let entity = *entity;
    let rules = ColliderRules::of(*layers, *rules);
    let known = world.placement_of(entity);
    let at = placement(global);
    let reshaped = known.as_ref().is_some_and(|(was, _)| !at.same_shape(was));
    let mover = known.as_ref().is_some_and(|&(_, mover)| mover);
    let from_mesh = matches!(collider.source, ColliderSource::Mesh);
    let needs_build = collider.is_changed()
        || (from_mesh && cx.mesh_changed(mesh))
        || reshaped
        || (known.is_none() && (world.is_waiting(entity) || !world.is_refused(entity)));
    if !needs_build {
        if known.is_some() && global.is_changed() {
            world.move_to(entity, at.pose);
        }
        world.set_rules(entity, rules);
        return;
    }
    if reshaped && !at.is_axis_scale() && mover && world.first_reshape(entity) {
        warn!(
            "{}: its shear changes as it moves (a rotating child of a non-uniformly scaled parent?); \
             its triangles are rebuilt at each such tick",
            describe(entity, cx.names)
        );
    }
    match build_shape(collider, mesh.as_deref(), cx.meshes, &at) {
        Ok(None) => world.wait_for_mesh(entity),
        Ok(Some(Built { shape, warnings })) => {
            let problem = (!warnings.is_empty()).then(|| warnings.join("; "));
            if let Some(problem) = &problem {
                warn!("{}: {problem}; the rest of it is solid", describe(entity, cx.names));
            }
            let body = BuiltBody {
                entity,
                serial: collider.serial,
                shape,
                linear: at.linear,
                surface: inherited_surface(entity, cx.surfaces, cx.parents),
                triangle_surfaces: collider.surfaces.clone(),
                pose: at.pose,
                rules,
            };
            world.adopt(body, problem);
        }
        Err(e) => {
            warn!("{} is not solid: {e}", describe(entity, cx.names));
            world.refuse(entity, e);
        }
    }
}
