//! The components that make geometry solid: [`SlidewalkCollider`] on an
//! entity (its `Mesh3d`, explicit triangles, or a prebuilt
//! [`MeshCollider`]), [`Surface`] for its friction and tag, and
//! [`SolidScene`] for a whole spawned scene.

use crate::motion::ColliderMotion;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use slidewalk_sweep::MeshCollider;
use std::sync::Arc;

/// Makes an entity's geometry solid for every character.
///
/// The geometry is in the entity's local space; the entity's
/// `GlobalTransform` places it (scale included). A collider whose
/// `GlobalTransform` changes between ticks is a *mover*: it carries the
/// characters standing on it and pushes those it moves into, whatever
/// moved it.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_slidewalk::SlidewalkCollider;
/// fn spawn(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
///     // Solid as drawn: the entity's `Mesh3d`.
///     commands.spawn((Mesh3d(meshes.add(Cuboid::new(4.0, 1.0, 4.0))), SlidewalkCollider::mesh()));
///     // Solid without a mesh: a 10 m floor quad.
///     let corners = vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(-5.0, 0.0, 5.0)];
///     commands.spawn((SlidewalkCollider::triangles(corners, vec![[0, 1, 2], [0, 2, 3]]), Transform::default()));
/// }
/// ```
///
/// Colliders are swept in the order they were inserted (contacts at the
/// same time go to the earlier one), whatever the order of the app's
/// queries: two apps that insert the same colliders in the same order
/// simulate alike, whatever else they spawn (a window and a headless
/// peer of one network game).
#[derive(Component, Clone, Reflect)]
#[reflect(opaque)]
#[reflect(Component, Clone)]
#[require(Transform, ColliderMotion)]
#[component(on_insert = number_collider)]
pub struct SlidewalkCollider {
    pub(crate) source: ColliderSource,
    pub(crate) surfaces: Option<Arc<TriangleSurfaces>>,
    /// Its place in the order colliders were inserted (set on insertion).
    pub(crate) serial: u64,
}

/// How many colliders have been inserted: the next one's serial.
#[derive(Resource, Default)]
pub(crate) struct ColliderSerials(u64);

/// Gives a collider just inserted the next serial.
fn number_collider(mut world: DeferredWorld, context: HookContext) {
    let Some(mut serials) = world.get_resource_mut::<ColliderSerials>() else {
        return;
    };
    serials.0 += 1;
    let serial = serials.0;
    if let Some(mut collider) = world.get_mut::<SlidewalkCollider>(context.entity) {
        collider.serial = serial;
    }
}

/// Where a collider's triangles come from.
#[derive(Clone)]
pub(crate) enum ColliderSource {
    /// The entity's `Mesh3d`, read when its asset is loaded (and again when it changes).
    Mesh,
    /// Explicit vertices (metres, local space) and triangles (indices into them).
    Triangles(Arc<(Vec<Vec3>, Vec<[u32; 3]>)>),
    /// Triangles already built into the collision core's structure.
    Built(Arc<MeshCollider>),
}

/// A surface per triangle: `surfaces[of_triangle[i]]` is triangle `i`'s.
#[derive(Clone, Debug)]
pub(crate) struct TriangleSurfaces {
    pub surfaces: Vec<Surface>,
    pub of_triangle: Vec<u16>,
}

impl SlidewalkCollider {
    /// The entity's own `Mesh3d`, as drawn: primitives, meshes of a loaded
    /// glTF scene, procedural meshes. Built when the mesh asset is loaded
    /// and again whenever it changes; triangle lists and strips are used,
    /// other topologies are refused with a warning naming the entity.
    pub fn mesh() -> Self {
        Self {
            source: ColliderSource::Mesh,
            surfaces: None,
            serial: 0,
        }
    }

    /// Explicit triangles: `positions` in metres in the entity's local
    /// space, each triangle three indices into them. Non-finite,
    /// degenerate and out-of-range triangles are left out with a warning.
    pub fn triangles(positions: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Self {
        Self {
            source: ColliderSource::Triangles(Arc::new((positions, triangles))),
            surfaces: None,
            serial: 0,
        }
    }

    /// Triangles already built with [`MeshCollider::build`] (in the
    /// entity's local space), shared rather than built again: a level
    /// loaded outside Bevy, or the same prop on many entities.
    pub fn from_mesh_collider(collider: Arc<MeshCollider>) -> Self {
        Self {
            source: ColliderSource::Built(collider),
            surfaces: None,
            serial: 0,
        }
    }

    /// A surface per triangle: triangle `i` (in the order given, before
    /// any is left out) has `surfaces[of_triangle[i]]`. Triangles past the
    /// end of `of_triangle`, or naming no surface, use the entity's
    /// [`Surface`].
    pub fn with_triangle_surfaces(mut self, surfaces: Vec<Surface>, of_triangle: Vec<u16>) -> Self {
        self.surfaces = Some(Arc::new(TriangleSurfaces { surfaces, of_triangle }));
        self
    }
}

/// What a collider's surface is like: how much grip it gives and what it
/// is called in events ("metal", "grass"). Put it on a collider entity,
/// or on a [`SolidScene`] (or any ancestor) to cover the meshes below it.
/// Without one a surface is [`Surface::default`]: full grip, tag
/// `"default"`.
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct Surface {
    /// Grip, 0 (ice: momentum carries on, turning is slow) … 1 (normal).
    /// Scales the character's acceleration and braking on it.
    pub friction: f32,
    /// The name events report (footsteps, landings), e.g. `"metal"`.
    pub tag: Arc<str>,
}

impl Default for Surface {
    fn default() -> Self {
        // One tag for every default surface (no allocation per use).
        static DEFAULT_TAG: std::sync::OnceLock<Arc<str>> = std::sync::OnceLock::new();
        Self {
            friction: 1.0,
            tag: DEFAULT_TAG.get_or_init(|| Arc::from("default")).clone(),
        }
    }
}

impl Surface {
    /// The very same surface (the same tag, by pointer, and grip).
    pub(crate) fn same_as(&self, other: &Surface) -> bool {
        Arc::ptr_eq(&self.tag, &other.tag) && self.friction == other.friction
    }

    /// A surface with full grip called `tag`.
    pub fn new(tag: impl Into<Arc<str>>) -> Self {
        Self {
            friction: 1.0,
            tag: tag.into(),
        }
    }

    /// The same surface with `friction` (0 ice … 1 normal grip).
    pub fn with_friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }
}

/// Makes every mesh under this entity solid: the one-line way to walk a
/// spawned glTF scene.
///
/// Each descendant with a `Mesh3d` and no [`SlidewalkCollider`] of its own
/// gets [`SlidewalkCollider::mesh`], including meshes the scene spawns
/// later. A [`Surface`] on this entity (or on a node in between) covers
/// them.
///
/// ```no_run
/// # use bevy::prelude::*;
/// # use bevy::gltf::GltfAssetLabel;
/// # use bevy::world_serialization::WorldAssetRoot;
/// # use bevy_slidewalk::SolidScene;
/// fn spawn(mut commands: Commands, assets: Res<AssetServer>) {
///     let scene = assets.load(GltfAssetLabel::Scene(0).from_asset("level.glb"));
///     commands.spawn((WorldAssetRoot(scene), SolidScene));
/// }
/// ```
///
/// A headless app (no `DefaultPlugins`) needs Bevy's `ImagePlugin`,
/// `WorldSerializationPlugin` and `MeshPlugin` for a scene, and
/// `GltfPlugin` for a glTF file: without the first two Bevy's loader
/// panics or the scene never spawns. Spawning a `SolidScene` in an app
/// that lacks one logs an error naming it.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Default, Debug, Clone)]
#[require(Transform)]
#[component(on_add = check_scene_plugins)]
pub struct SolidScene;

/// Logs, for a [`SolidScene`] just added, each plugin the app lacks that
/// a scene needs (a headless app adds them itself).
fn check_scene_plugins(world: DeferredWorld, context: HookContext) {
    let needs = [
        (
            world.contains_resource::<Assets<bevy::image::Image>>(),
            "bevy::image::ImagePlugin (without it Bevy's glTF loader panics on its IO thread and the scene never loads)",
        ),
        (
            world.contains_resource::<bevy::world_serialization::WorldInstanceSpawner>(),
            "bevy::world_serialization::WorldSerializationPlugin (it spawns scenes)",
        ),
        (
            world.contains_resource::<Assets<bevy::mesh::Mesh>>(),
            "bevy::mesh::MeshPlugin (the scene's meshes)",
        ),
    ];
    for (_, plugin) in needs.iter().filter(|(present, _)| !present) {
        error!(
            "SolidScene on {}: the app has no {plugin}; DefaultPlugins has it, a headless app must add it",
            context.entity
        );
    }
}

/// Gives [`SlidewalkCollider::mesh`] to meshes under a [`SolidScene`] that
/// have none.
pub(crate) fn adopt_scene_meshes(
    scenes: Query<Entity, With<SolidScene>>,
    new_scenes: Query<Entity, Added<SolidScene>>,
    new_meshes: Query<Entity, (Added<bevy::mesh::Mesh3d>, Without<SlidewalkCollider>)>,
    meshes: Query<(), (With<bevy::mesh::Mesh3d>, Without<SlidewalkCollider>)>,
    children: Query<&Children>,
    parents: Query<&ChildOf>,
    mut commands: Commands,
) {
    for scene in &new_scenes {
        for entity in std::iter::once(scene).chain(children.iter_descendants(scene)) {
            if meshes.contains(entity) {
                commands.entity(entity).insert(SlidewalkCollider::mesh());
            }
        }
    }
    if scenes.is_empty() {
        return;
    }
    for entity in &new_meshes {
        let under_scene = std::iter::once(entity)
            .chain(parents.iter_ancestors(entity))
            .any(|e| scenes.contains(e) && !new_scenes.contains(e));
        if under_scene {
            commands.entity(entity).insert(SlidewalkCollider::mesh());
        }
    }
}
