//! The prototype grid (`shaders/grid.wgsl`): Bevy's standard material
//! extended with metre and 25 cm lines and a walkable / too-steep tint that
//! follows the player's controller live (its walkable limit and its up,
//! against gravity). Every drawn mesh of the level whose material has no
//! texture of its own gets it; textured ones keep their look unless the
//! player asks for the grid everywhere (G, or the panel). Doors and lifts
//! get their own tint and stripes that move with them. If the shader
//! fails to compile, the level goes back to its own materials (and the
//! error is on screen, see `view::errors`).

use super::errors::ShaderFailure;
use super::scene::{LevelScene, MoverVisual, SceneSet};
use super::shaders;
use crate::sim::level::CurrentLevel;
use crate::sim::player::LocalPlayer;
use crate::sim::player::PlayerCharacter;
use crate::sim::tuning::CurrentSettings;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;
use slidewalk_level::MoverKind;

/// A level material with the grid.
pub type GridMaterial = ExtendedMaterial<StandardMaterial, Grid>;

/// The grid's parameters, as the shader's `Grid` struct (binding 100).
#[derive(Clone, Copy, Debug, PartialEq, ShaderType, Reflect)]
pub struct GridUniform {
    /// World → grid space: identity for the level, the inverse of the
    /// body's pose for doors and lifts.
    pub grid_from_world: Mat4,
    /// Unit vector against gravity (the controller's up).
    pub up: Vec3,
    /// Cosine of the controller's walkable slope limit.
    pub cos_walkable: f32,
    /// Linear RGB; alpha is how far the albedo goes toward it.
    pub walkable_tint: Vec4,
    /// Linear RGB; alpha is how far the albedo goes toward it.
    pub steep_tint: Vec4,
    /// Linear RGB; alpha is how far the albedo goes toward it (0 for the level).
    pub mover_tint: Vec4,
    /// Line strength, 0 … 1.
    pub line_strength: f32,
    /// Walkable / steep tint strength, 0 … 1.
    pub slope_tint_strength: f32,
    /// 1 for diagonal stripes (doors and lifts), 0 for none.
    pub stripes: f32,
    /// Keeps the struct a multiple of 16 bytes.
    pub padding: f32,
}

/// The grid extension of [`StandardMaterial`].
#[derive(Asset, AsBindGroup, Reflect, Debug, Clone)]
pub struct Grid {
    /// Everything the shader reads.
    #[uniform(100)]
    pub uniform: GridUniform,
}

impl MaterialExtension for Grid {
    fn fragment_shader() -> ShaderRef {
        shaders::GRID.into()
    }
}

/// What the player's controller says about slopes, as the grid shows it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SlopeTint {
    /// Unit vector against gravity.
    pub up: Vec3,
    /// The walkable slope limit, degrees.
    pub walkable_slope_deg: f32,
}

impl Default for SlopeTint {
    fn default() -> Self {
        let config = slidewalk_controller::ControllerConfig::default();
        Self {
            up: Vec3::Y,
            walkable_slope_deg: config.walkable_slope_deg,
        }
    }
}

/// Which part of the level a drawn mesh is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Part {
    Static,
    Door(usize),
    Lift(usize),
}

impl GridUniform {
    fn new(part: Part, tint: &SlopeTint) -> Self {
        // Doors orange, lifts blue, both striped; the walkable tint weaker
        // on them so their own colour reads.
        let (mover_tint, stripes, slope_tint_strength) = match part {
            Part::Static => (Vec4::ZERO, 0.0, 1.0),
            Part::Door(_) => (Vec4::new(0.95, 0.42, 0.08, 0.7), 1.0, 0.4),
            Part::Lift(_) => (Vec4::new(0.12, 0.32, 1.0, 0.7), 1.0, 0.4),
        };
        let mut u = Self {
            grid_from_world: Mat4::IDENTITY,
            up: Vec3::Y,
            cos_walkable: 0.0,
            walkable_tint: Vec4::new(0.45, 0.80, 0.40, 0.25),
            steep_tint: Vec4::new(0.90, 0.22, 0.15, 0.55),
            mover_tint,
            line_strength: 1.0,
            slope_tint_strength,
            stripes,
            padding: 0.0,
        };
        u.follow(tint);
        u
    }

    fn follow(&mut self, tint: &SlopeTint) {
        self.up = tint.up;
        self.cos_walkable = tint.walkable_slope_deg.to_radians().cos();
    }
}

/// A drawn mesh of the level: its own material and its grid version.
#[derive(Component, Debug)]
pub struct LevelSurface {
    own: Handle<StandardMaterial>,
    grid: Handle<GridMaterial>,
    textured: bool,
}

/// The grid materials made for the current level, one per (own material,
/// part): meshes sharing a material share its grid version.
#[derive(Resource, Default, Debug)]
struct GridMaterials {
    generation: Option<u32>,
    made: HashMap<(AssetId<StandardMaterial>, Part), Handle<GridMaterial>>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((MaterialPlugin::<GridMaterial>::default(), rules_plugin))
        .add_systems(
            PostUpdate,
            grids_follow_movers.after(bevy::transform::TransformSystems::Propagate),
        );
}

/// Everything but the drawing: which meshes get the grid, and the walkable
/// tint following the player's controller ([`SlopeTint`] and every grid
/// material updated when the limit or gravity changes). Separate so a
/// headless test can run it without a renderer (given the material assets).
pub fn rules_plugin(app: &mut App) {
    app.init_resource::<SlopeTint>()
        .init_resource::<GridMaterials>()
        .add_systems(
            Update,
            (follow_controller, tint_materials, adopt_surfaces, choose_materials)
                .chain()
                .after(SceneSet),
        );
}

/// Reads the player's walkable limit and up.
fn follow_controller(players: Query<PlayerCharacter, With<LocalPlayer>>, mut tint: ResMut<SlopeTint>) {
    let Some(body) = players.iter().next() else { return };
    tint.set_if_neq(SlopeTint {
        up: body.state.up,
        walkable_slope_deg: body.controller.config.walkable_slope_deg,
    });
}

/// Puts a changed [`SlopeTint`] into every grid material.
fn tint_materials(tint: Res<SlopeTint>, mut materials: ResMut<Assets<GridMaterial>>) {
    if !tint.is_changed() {
        return;
    }
    for (_, material) in materials.iter_mut() {
        material.extension.uniform.follow(&tint);
    }
}

/// Gives each newly drawn mesh of the level its grid version.
#[allow(clippy::too_many_arguments)]
fn adopt_surfaces(
    new: Query<(Entity, &MeshMaterial3d<StandardMaterial>), Without<LevelSurface>>,
    ancestors: Query<&ChildOf>,
    scenes: Query<(), With<LevelScene>>,
    visuals: Query<&MoverVisual>,
    current: Res<CurrentLevel>,
    own_materials: Res<Assets<StandardMaterial>>,
    mut grid_materials: ResMut<Assets<GridMaterial>>,
    mut made: ResMut<GridMaterials>,
    tint: Res<SlopeTint>,
    mut commands: Commands,
) {
    if made.generation != Some(current.generation) {
        made.generation = Some(current.generation);
        made.made.clear();
    }
    for (entity, own) in &new {
        let lineage: Vec<Entity> = std::iter::once(entity)
            .chain(ancestors.iter_ancestors(entity))
            .collect();
        if !lineage.iter().any(|e| scenes.contains(*e)) {
            continue; // not the level's (an overlay's quad, say)
        }
        let part = lineage
            .iter()
            .find_map(|e| visuals.get(*e).ok())
            .and_then(|v| Some((v.0, &current.level.as_ref()?.movers.get(v.0)?.kind)))
            .map_or(Part::Static, |(index, kind)| match kind {
                MoverKind::Door(_) => Part::Door(index),
                MoverKind::Lift(_) => Part::Lift(index),
            });
        let Some(base) = own_materials.get(&own.0) else {
            continue; // not loaded yet: next frame
        };
        let textured = base.base_color_texture.is_some();
        let grid = made
            .made
            .entry((own.0.id(), part))
            .or_insert_with(|| {
                grid_materials.add(GridMaterial {
                    base: base.clone(),
                    extension: Grid {
                        uniform: GridUniform::new(part, &tint),
                    },
                })
            })
            .clone();
        commands.entity(entity).insert(LevelSurface {
            own: own.0.clone(),
            grid,
            textured,
        });
    }
}

/// Each level mesh drawn with the grid or its own material: the grid
/// unless the shader failed, or the material has its own texture and the
/// player has not asked for the grid everywhere.
fn choose_materials(
    surfaces: Query<(Entity, &LevelSurface, Has<MeshMaterial3d<GridMaterial>>)>,
    settings: Res<CurrentSettings>,
    failure: Res<ShaderFailure>,
    mut commands: Commands,
) {
    for (entity, surface, has_grid) in &surfaces {
        let grid = failure.0.is_none() && (!surface.textured || settings.0.grid_everywhere);
        if grid && !has_grid {
            commands
                .entity(entity)
                .remove::<MeshMaterial3d<StandardMaterial>>()
                .insert(MeshMaterial3d(surface.grid.clone()));
        } else if !grid && has_grid {
            commands
                .entity(entity)
                .remove::<MeshMaterial3d<GridMaterial>>()
                .insert(MeshMaterial3d(surface.own.clone()));
        }
    }
}

/// Door and lift grids move with their bodies (after the frame's
/// transforms are final, so the stripes never lag the mesh).
fn grids_follow_movers(
    visuals: Query<(&MoverVisual, &GlobalTransform)>,
    made: Res<GridMaterials>,
    mut materials: ResMut<Assets<GridMaterial>>,
) {
    for ((_, part), handle) in &made.made {
        let (Part::Door(index) | Part::Lift(index)) = *part else {
            continue;
        };
        let Some((_, pose)) = visuals.iter().find(|(v, _)| v.0 == index) else {
            continue;
        };
        let grid_from_world = pose.to_matrix().inverse();
        let unchanged = materials
            .get(handle)
            .is_none_or(|m| m.extension.uniform.grid_from_world == grid_from_world);
        if !unchanged && let Some(mut m) = materials.get_mut(handle) {
            m.extension.uniform.grid_from_world = grid_from_world;
        }
    }
}
