//! Drawing the level: Bevy's glTF scene of the level file (from any path,
//! through the `disk` asset source), and the door and lift nodes moved to
//! their bodies' poses, interpolated between ticks.
//! A level Bevy cannot draw is drawn from its collision geometry; the HUD
//! says so in one line.

use super::window::DISK_SOURCE;
use crate::notices::Notices;
use crate::sim::level::CurrentLevel;
use crate::sim::level::MoverBody;
use bevy::asset::{AssetPath, LoadState, RecursiveDependencyLoadState};
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::world_serialization::WorldAssetRoot;
use slidewalk_level::Level;

/// The entity drawing the current level, and what it draws.
#[derive(Component, Debug)]
pub struct LevelScene {
    generation: u32,
    failure_reported: bool,
}

impl LevelScene {
    /// The drawing of the level opened as `generation` (`CurrentLevel`).
    pub fn new(generation: u32) -> Self {
        Self {
            generation,
            failure_reported: false,
        }
    }
}

/// A drawn node that belongs to a door or lift (index in the level's movers).
#[derive(Component, Debug)]
pub struct MoverVisual(pub usize);

/// The level's drawing systems (the grid adopts the drawn meshes after them).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SceneSet;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (draw_level, report_drawing_failure, find_mover_nodes, move_mover_nodes)
            .chain()
            .in_set(SceneSet),
    );
}

/// The asset path of a file on disk, through the `disk` source.
fn disk_path(path: &std::path::Path) -> AssetPath<'static> {
    let text = path.to_string_lossy().replace('\\', "/");
    AssetPath::from(text.trim_start_matches('/').to_owned()).with_source(DISK_SOURCE)
}

/// Spawns the glTF scene of a newly opened level (and drops the old one).
fn draw_level(
    current: Res<CurrentLevel>,
    scenes: Query<(Entity, &LevelScene)>,
    asset_server: Res<AssetServer>,
    mut commands: Commands,
) {
    let Some(path) = &current.path else { return };
    if scenes.iter().any(|(_, s)| s.generation == current.generation) {
        return;
    }
    for (entity, _) in &scenes {
        commands.entity(entity).despawn();
    }
    let scene = GltfAssetLabel::Scene(0).from_asset(disk_path(path));
    commands.spawn((
        Name::new("level scene"),
        LevelScene::new(current.generation),
        WorldAssetRoot(asset_server.load(scene)),
        Transform::IDENTITY,
    ));
}

/// Says so when Bevy cannot draw the level, in one line, and draws the
/// level's collision geometry instead (a file Bevy's loader refuses, such
/// as a Draco-compressed one, is still walked and seen). A part of it
/// failing (a texture) leaves the rest drawn.
fn report_drawing_failure(
    mut scenes: Query<(Entity, &mut LevelScene, &WorldAssetRoot)>,
    asset_server: Res<AssetServer>,
    current: Res<CurrentLevel>,
    mut notices: ResMut<Notices>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut commands: Commands,
) {
    for (entity, mut scene, root) in &mut scenes {
        if scene.failure_reported {
            continue;
        }
        let Some((own, _, dependencies)) = asset_server.get_load_states(&root.0) else {
            continue;
        };
        let file = current
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or(String::new(), |f| f.to_string_lossy().into_owned());
        match (own, dependencies) {
            (LoadState::Failed(e), _) => {
                scene.failure_reported = true;
                notices.error(slidewalk_play::messages::level_not_drawn(&file, &e.to_string()));
                if let Some(level) = &current.level {
                    spawn_collision_drawing(level, entity, &mut meshes, &mut materials, &mut commands);
                }
            }
            (_, RecursiveDependencyLoadState::Failed(e)) => {
                scene.failure_reported = true;
                notices.error(format!(
                    "{file}: part of the level cannot be drawn ({}); it is still walkable",
                    slidewalk_play::messages::one_line(&e.to_string())
                ));
            }
            _ => {}
        }
    }
}

/// Draws `level`'s collision geometry under the level's scene entity
/// `scene`: the statics as one mesh, each door and lift as its own, linked
/// to its body so it moves with it. Flat-shaded, both sides drawn (the
/// collision is two-sided), given the grid like any untextured level mesh.
pub fn spawn_collision_drawing(
    level: &Level,
    scene: Entity,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    commands: &mut Commands,
) {
    let material = materials.add(StandardMaterial {
        base_color: Color::srgb(0.75, 0.75, 0.72),
        perceptual_roughness: 0.9,
        double_sided: true,
        cull_mode: None,
        ..default()
    });
    if let Some(statics) = &level.statics {
        commands.spawn((
            Name::new("level collision geometry"),
            Mesh3d(meshes.add(flat_mesh(statics.triangles()))),
            MeshMaterial3d(material.clone()),
            Transform::IDENTITY,
            ChildOf(scene),
        ));
    }
    for (index, mover) in level.movers.iter().enumerate() {
        commands.spawn((
            Name::new(format!("{} collision geometry", mover.name)),
            MoverVisual(index),
            Mesh3d(meshes.add(flat_mesh(mover.collider.triangles()))),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(mover.rest.translation).with_rotation(mover.rest.rotation),
            ChildOf(scene),
        ));
    }
}

/// A flat-shaded triangle-list mesh of `triangles` (metres).
fn flat_mesh(triangles: impl Iterator<Item = [Vec3; 3]>) -> Mesh {
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    for t in triangles {
        let normal = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero();
        positions.extend(t.map(|p| p.to_array()));
        normals.extend([normal.to_array(); 3]);
    }
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
}

/// Named entities not yet linked to a mover (and not a mover's body).
type UnlinkedNodes<'w, 's> = Query<'w, 's, (Entity, &'static Name), (Without<MoverVisual>, Without<MoverBody>)>;

/// Links the drawn nodes named like the level's doors and lifts to them.
fn find_mover_nodes(current: Res<CurrentLevel>, nodes: UnlinkedNodes, mut commands: Commands) {
    let Some(level) = &current.level else { return };
    if level.movers.is_empty() {
        return;
    }
    for (entity, name) in &nodes {
        if let Some(index) = level.movers.iter().position(|m| m.name == name.as_str()) {
            commands.entity(entity).insert(MoverVisual(index));
        }
    }
}

/// Moves the drawn door and lift nodes to their bodies' poses,
/// interpolated between the last two ticks.
fn move_mover_nodes(
    time: Res<Time<Fixed>>,
    bodies: Query<&MoverBody>,
    mut visuals: Query<(&MoverVisual, &mut Transform, Option<&ChildOf>)>,
    parents: Query<&GlobalTransform>,
) {
    let a = time.overstep_fraction();
    for (visual, mut transform, parent) in &mut visuals {
        let Some(body) = bodies.iter().find(|b| b.index == visual.0) else {
            continue;
        };
        let world = Transform {
            translation: body.previous.translation.lerp(body.pose.translation, a),
            rotation: body.previous.rotation.slerp(body.pose.rotation, a),
            scale: transform.scale,
        };
        // The pose is the node's world pose; nodes under a moved parent
        // get it relative to that parent.
        let local = match parent.and_then(|p| parents.get(p.parent()).ok()) {
            Some(parent) => {
                let inverse = parent.affine().inverse();
                Transform {
                    translation: inverse.transform_point3(world.translation),
                    rotation: parent.to_scale_rotation_translation().1.inverse() * world.rotation,
                    scale: transform.scale,
                }
            }
            None => world,
        };
        *transform = local;
    }
}
