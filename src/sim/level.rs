//! The level being played: loaded by `crates/level` from any glTF on disk
//! (not Bevy's render assets, so the simulation never waits on drawing),
//! its spawn point, bounds, and its geometry as `bevy_slidewalk` collider
//! entities (the statics, its one-way, layered, launch-pad and conveyor
//! parts, each door and lift, its sensors, its water and a trigger sensor
//! around each door); opening
//! another level at any time, with errors shown and the game kept running.

use super::input::PlayerInput;
use super::launch::LaunchOptions;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::{
    CharacterController, Climbable, Conveyor, LaunchPad, MovementState, OneWay, SlidewalkCollider, SlidewalkLayers,
    SlidewalkSensor, Surface, Water,
};
use slidewalk_controller::ControllerConfig;
use slidewalk_level::DoorControl;
use slidewalk_level::layers::PLAYER_LAYERS;
use slidewalk_level::{Level, Mover, MoverKind, SensorKind, Spawn};
use slidewalk_play::PlacedBody;
use slidewalk_sweep::{Aabb, Pose};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The demo level, relative to the game's `assets/` folder.
pub const DEMO_LEVEL: &str = "levels/playground.glb";

/// The demo level's path on disk (the workspace's `assets/`, or an
/// `assets/` folder beside the executable when that exists).
pub fn demo_level_path() -> PathBuf {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("assets").join(DEMO_LEVEL)));
    match beside {
        Some(p) if p.exists() => p,
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join(DEMO_LEVEL),
    }
}

/// The level being played.
#[derive(Resource, Clone, Default)]
pub struct CurrentLevel {
    /// Where it was read from (absolute).
    pub path: Option<PathBuf>,
    /// The colliders, movers and spawn points.
    pub level: Option<Arc<Level>>,
    /// Where the player starts, the feet.
    pub spawn: Spawn,
    /// The last checkpoint reached in this level, the feet: where the
    /// player respawns instead of `spawn`.
    pub checkpoint: Option<Spawn>,
    /// World bounds of all its geometry at rest; below them is "fallen out".
    pub bounds: Option<Aabb>,
    /// Counts the levels opened; changes when a new one is in.
    pub generation: u32,
}

/// A door or lift body: where it is this tick and where it was the tick
/// before (its motion over the tick is its velocity).
#[derive(Component, Clone, Debug)]
pub struct MoverBody {
    /// Index in the level's movers.
    pub index: usize,
    /// Pose at the end of this tick.
    pub pose: Pose,
    /// Pose at the end of the previous tick.
    pub previous: Pose,
    /// A door's state (`None` for a lift).
    pub door: Option<DoorControl>,
    /// A lift's place on its schedule, seconds (`None` for a door): the
    /// level's clock until the lift squeezes something and turns back.
    pub lift_s: Option<f64>,
}

impl MoverBody {
    /// A mover at rest.
    pub fn new(index: usize, mover: &Mover) -> Self {
        Self {
            index,
            pose: mover.rest,
            previous: mover.rest,
            door: matches!(mover.kind, MoverKind::Door(_)).then(DoorControl::closed),
            lift_s: matches!(mover.kind, MoverKind::Lift(_)).then_some(0.0),
        }
    }
}

/// Marks the collider entity of the level's static geometry.
#[derive(Component, Debug)]
pub struct LevelStatics;

/// A static node of the level with its own rules (one-way, layers): its
/// own collider entity.
#[derive(Component, Debug)]
pub struct LevelPart {
    /// Index in the level's parts.
    pub index: usize,
}

/// A water volume of the level (`"water": true` extras): its own
/// collider entity, a [`Water`] sensor at the node's pose.
#[derive(Component, Debug)]
pub struct LevelWater {
    /// Index in the level's water.
    pub index: usize,
}

/// A sensor of the level (`"sensor"` extras): what it does when the player
/// enters it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct LevelSensor {
    /// Its node's name.
    pub node: String,
    /// Kill, checkpoint, or a name reported to the game.
    pub kind: SensorKind,
    /// The middle of the bottom of its box, metres: a checkpoint's
    /// respawn point (the feet).
    pub base: Vec3,
}

impl CurrentLevel {
    /// Where the player respawns: the last checkpoint reached, else the
    /// level's spawn.
    pub fn respawn_point(&self) -> Spawn {
        self.checkpoint.unwrap_or(self.spawn)
    }

    /// Puts the player at the respawn point, or where it fits nearest it
    /// apart from `others` (the other players: [`CurrentLevel::place_apart`]),
    /// standing (with `body`'s config), at rest, looking the spawn's way;
    /// the plugin draws it there without interpolating.
    pub fn respawn(
        &self,
        body: &CharacterController,
        state: &mut MovementState,
        input: &mut PlayerInput,
        others: &[PlacedBody],
    ) {
        let at = self.respawn_point();
        state.teleport_feet(self.place_apart(&body.config, at, others), &body.config);
        input.yaw = at.yaw;
        input.pitch = 0.0;
    }

    /// Where a player standing with `config` goes when it should stand at
    /// `at` and `others` may be in the way: `at` itself when it is free,
    /// else the first place around it (in a fixed order, so every peer of
    /// a network game chooses the same) that fits the player against the
    /// level's geometry at rest (with the player's collision layers) and
    /// keeps it apart from `others` ([`slidewalk_play::place_apart`]).
    pub fn place_apart(&self, config: &ControllerConfig, at: Spawn, others: &[PlacedBody]) -> Vec3 {
        let Some(level) = &self.level else {
            return at.position;
        };
        slidewalk_play::place_apart(
            &level.placed_at_rest(),
            PLAYER_LAYERS,
            config,
            at.position,
            at.yaw,
            others,
        )
    }

    /// Whether the level has a kill zone (`"sensor": "kill"`).
    pub fn has_kill_zone(&self) -> bool {
        self.level
            .as_ref()
            .is_some_and(|l| l.sensors.iter().any(|s| s.kind == SensorKind::Kill))
    }
}

/// A door's trigger zone: a sensor box around the door at rest, its
/// `trigger_m` larger on every side; the door opens while the player is in
/// it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct DoorTrigger {
    /// Index in the level's movers.
    pub door: usize,
    /// The player is inside (as of the last tick's sensor events).
    pub occupied: bool,
}

/// The level's surfaces as the plugin's (name as tag, friction).
fn surfaces(level: &Level) -> Vec<Surface> {
    level
        .surfaces
        .iter()
        .map(|s| Surface::new(s.name.as_str()).with_friction(s.friction))
        .collect()
}

/// A one-way direction in the plugin's form (`None`: solid from every side).
fn one_way(direction: Option<Vec3>) -> Option<OneWay> {
    direction.map(|direction| OneWay { direction })
}

/// Spawns the level's geometry as collider entities: the statics with a
/// surface per triangle, each one-way, layered, climbable, launch-pad or
/// conveyor part, each door and lift at rest with its surface and rules,
/// each sensor, each water volume, and a trigger sensor around each door.
fn spawn_colliders(level: &Level, commands: &mut Commands) {
    let surfaces = surfaces(level);
    if let Some(statics) = &level.statics {
        let collider = SlidewalkCollider::from_mesh_collider(Arc::new(statics.clone()))
            .with_triangle_surfaces(surfaces.clone(), level.static_surfaces.clone());
        commands.spawn((Name::new("level statics"), LevelStatics, collider));
    }
    for (index, p) in level.parts.iter().enumerate() {
        let mut part = commands.spawn((
            Name::new(format!("part {}", p.name)),
            LevelPart { index },
            Transform::default(),
            SlidewalkCollider::from_mesh_collider(Arc::new(p.collider.clone())),
            SlidewalkLayers::from(p.layers),
            surfaces.get(p.surface as usize).cloned().unwrap_or_default(),
        ));
        if let Some(o) = one_way(p.one_way) {
            part.insert(o);
        }
        if p.climbable {
            part.insert(Climbable);
        }
        if let Some(velocity) = p.launch {
            part.insert(LaunchPad { velocity });
        }
        // World velocity, and the part is placed at the identity.
        if let Some(velocity) = p.conveyor {
            part.insert(Conveyor(velocity));
        }
    }
    for (index, m) in level.movers.iter().enumerate() {
        let mut mover = commands.spawn((
            Name::new(format!("mover {}", m.name)),
            MoverBody::new(index, m),
            Transform::from_translation(m.rest.translation).with_rotation(m.rest.rotation),
            SlidewalkCollider::from_mesh_collider(Arc::new(m.collider.clone())),
            SlidewalkLayers::from(m.layers),
            surfaces.get(m.surface as usize).cloned().unwrap_or_default(),
        ));
        if let Some(o) = one_way(m.one_way) {
            mover.insert(o);
        }
        if m.climbable {
            mover.insert(Climbable);
        }
        if let MoverKind::Door(spec) = m.kind {
            let zone = m
                .rest
                .transform_aabb(m.collider.bounds())
                .expand(Vec3::splat(spec.trigger_radius));
            commands.spawn((
                Name::new(format!("trigger of {}", m.name)),
                DoorTrigger {
                    door: index,
                    occupied: false,
                },
                Transform::default(),
                box_collider(zone),
                SlidewalkSensor,
                // The player opens doors.
                SlidewalkLayers::new(u32::MAX, slidewalk_level::layers::PLAYER),
            ));
        }
    }
    for s in &level.sensors {
        commands.spawn((
            Name::new(format!("sensor {}", s.name)),
            LevelSensor {
                node: s.name.clone(),
                kind: s.kind.clone(),
                base: {
                    let b = s.collider.bounds();
                    Vec3::new(b.center().x, b.min.y, b.center().z)
                },
            },
            Transform::default(),
            SlidewalkCollider::from_mesh_collider(Arc::new(s.collider.clone())),
            SlidewalkLayers::from(s.layers),
            SlidewalkSensor,
        ));
    }
    for (index, w) in level.water.iter().enumerate() {
        commands.spawn((
            Name::new(format!("water {}", w.name)),
            LevelWater { index },
            Transform::from_translation(w.pose.translation).with_rotation(w.pose.rotation),
            SlidewalkCollider::from_mesh_collider(Arc::new(w.collider.clone())),
            SlidewalkLayers::from(w.layers),
            Water,
        ));
    }
}

/// A closed box (the collision core's box proxy fitted to its corners),
/// world metres.
fn box_collider(b: Aabb) -> SlidewalkCollider {
    let mesh = slidewalk_sweep::proxy::proxy_mesh(slidewalk_sweep::proxy::ProxyShape::Box, &b.corners())
        .expect("a door's box is finite");
    SlidewalkCollider::triangles(mesh.positions, mesh.triangles)
}

/// The collider entities of a level: its statics, parts, doors and lifts,
/// sensors, water and door triggers.
type LevelGeometry = Or<(
    With<MoverBody>,
    With<LevelStatics>,
    With<LevelPart>,
    With<LevelSensor>,
    With<LevelWater>,
    With<DoorTrigger>,
)>;

/// Asks to open a level file.
#[derive(Message, Clone, Debug)]
pub struct OpenLevel(pub PathBuf);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CurrentLevel>()
        .add_message::<OpenLevel>()
        .add_systems(Startup, open_first_level)
        .add_systems(PreUpdate, open_levels);
}

fn open_first_level(options: Option<Res<LaunchOptions>>, mut open: MessageWriter<OpenLevel>) {
    let path = options.and_then(|o| o.0.level.clone()).unwrap_or_else(demo_level_path);
    open.write(OpenLevel(path));
}

/// Loads requested levels; a failure leaves the current level in play and says why.
fn open_levels(
    mut requests: MessageReader<OpenLevel>,
    mut current: ResMut<CurrentLevel>,
    mut notices: ResMut<Notices>,
    options: Option<Res<LaunchOptions>>,
    geometry: Query<Entity, LevelGeometry>,
    net: Option<Res<super::launch::NetPlayers>>,
    mut commands: Commands,
) {
    for OpenLevel(path) in requests.read() {
        if net.is_some() && current.level.is_some() {
            notices.error(format!(
                "{}: another level cannot be opened during a network game",
                path.display()
            ));
            continue;
        }
        let path = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        let level = match slidewalk_level::load(&path) {
            Ok(level) => level,
            Err(e) => {
                notices.error(format!("{e}"));
                for detail in e.details() {
                    warn!("{}: {detail}", path.display());
                }
                continue;
            }
        };
        for entity in &geometry {
            commands.entity(entity).despawn();
        }
        let first = current.generation == 0;
        let walker = ControllerConfig::default();
        let asked = options.as_deref().filter(|_| first);
        let (mut spawn, found, placed_by_flag) = choose_spawn(&level, &walker, asked);
        let bounds = level_bounds(&level);
        spawn_colliders(&level, &mut commands);
        let name = path
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned());
        if placed_by_flag {
            // A spawn from the command line or a script can be inside a wall
            // or a step: the player starts on top of it, and is told.
            let (position, note) = slidewalk_play::place_asked_spawn(&level, &walker, spawn.position);
            spawn.position = position;
            match note {
                Some((text, false)) => notices.info(format!("{name}: {text}")),
                Some((text, true)) => notices.error(format!("{name}: {text}")),
                None => {}
            }
        }
        report_level(&level, &name, &spawn, found, placed_by_flag, &walker, &mut notices);
        info!(
            "opened {} ({} triangles, {} movers)",
            path.display(),
            level.report.triangles,
            level.movers.len()
        );
        current.level = Some(Arc::new(level));
        current.path = Some(path);
        current.spawn = spawn;
        current.checkpoint = None;
        current.bounds = bounds;
        current.generation += 1;
    }
}

/// Where the player starts in `level`: its spawn node, or on top of the
/// geometry, or above it when nothing faces up; then at the command
/// line's `--spawn` and `--yaw` when they are `asked` for (the first
/// level). Also whether a place to stand was found, and whether the
/// command line placed the player.
fn choose_spawn(level: &Level, walker: &ControllerConfig, asked: Option<&LaunchOptions>) -> (Spawn, bool, bool) {
    let walkable = libm::cosf(walker.walkable_slope_deg.to_radians());
    let found = slidewalk_level::spawn::start_point(level, walker.standing_radii, walkable);
    let mut spawn = found.unwrap_or_else(|| slidewalk_play::above_the_level(level));
    let mut placed_by_flag = false;
    if let Some(o) = asked {
        if let Some(at) = o.0.spawn {
            spawn.position = at;
            placed_by_flag = true;
        }
        if let Some(yaw) = o.0.yaw_deg {
            spawn.yaw = yaw.to_radians();
        }
    }
    (spawn, found.is_some(), placed_by_flag)
}

/// What the player is told about a level just opened (`name`): what of it
/// was ignored, meshes that do not collide, and a missing spawn node.
fn report_level(
    level: &Level,
    name: &str,
    spawn: &Spawn,
    found: bool,
    placed_by_flag: bool,
    walker: &ControllerConfig,
    notices: &mut Notices,
) {
    for notice in &level.report.notices {
        notices.info(format!("{name}: {notice}"));
    }
    if let [first, ..] = level.report.undecoded_meshes.as_slice() {
        notices.error(format!(
            "{name}: {} meshes do not collide (their Draco data cannot be decoded), {first:?} among them",
            level.report.undecoded_meshes.len()
        ));
    }
    if level.spawns.is_empty() && !placed_by_flag {
        if found {
            notices.info(format!(
                "{name}: no spawn node, starting on top of the geometry at {:.1}",
                spawn.position
            ));
        } else {
            notices.error(format!(
                "{name}: no spawn node and nowhere to stand (no surface faces up within {:.0}°); \
                 starting above the level",
                walker.walkable_slope_deg
            ));
        }
    }
}

/// World bounds of the static geometry and the movers at rest.
fn level_bounds(level: &Level) -> Option<Aabb> {
    let b = slidewalk_sweep::PlacedCollider::world_bounds_of(&level.placed_at_rest());
    b.min.is_finite().then_some(b)
}
