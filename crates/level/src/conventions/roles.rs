//! What a node can mean to the game: its role (static, spawn, door, lift,
//! no-collide), a door's and a lift's parameters, the analytic collider it
//! asks for, and all of them as read off one node.

use glam::Vec3;
use slidewalk_sweep::CollisionLayers;
use slidewalk_sweep::proxy::ProxyShape;

/// What a node is, as far as the game is concerned.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Static geometry (the default).
    Static,
    /// A player spawn point.
    Spawn,
    /// A door; its mesh and its children's meshes move together.
    Door(DoorSpec),
    /// A lift platform; its mesh and its children's meshes move together.
    Lift(LiftSpec),
    /// Drawn but never collided.
    NoCollide,
}

/// How a door opens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DoorMotion {
    /// Rotates about `axis` (unit, the node's frame, through its origin) by `angle` radians.
    Hinge {
        /// Unit rotation axis in the door node's frame.
        axis: Vec3,
        /// Opening angle, radians (sign gives the direction).
        angle: f32,
    },
    /// Translates by `offset` (world metres). `None` until the door's width is known.
    Slide {
        /// World offset when fully open, metres; `None`: 0.95 × width along local x.
        offset: Option<Vec3>,
    },
}

/// A door's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoorSpec {
    /// The opening motion.
    pub motion: DoorMotion,
    /// Seconds from closed to open.
    pub open_seconds: f32,
    /// The door opens while the player is within this distance (metres) of it.
    pub trigger_radius: f32,
}

/// A lift's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiftSpec {
    /// From the rest position to the far end, world metres.
    pub travel: Vec3,
    /// Travel speed, m/s.
    pub speed: f32,
    /// Wait at each end, seconds.
    pub pause_seconds: f32,
}

/// The analytic collider a static mesh node asks for (`"collider"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyticKind {
    /// `"plane"`: the one-sided infinite plane of the node's local y = 0.
    Plane,
    /// `"cylinder"`: the capped cylinder along the node's local +Y fitting its mesh.
    Cylinder,
}

impl AnalyticKind {
    /// The extras word for it (`"plane"`, `"cylinder"`).
    pub fn word(self) -> &'static str {
        match self {
            Self::Plane => "plane",
            Self::Cylinder => "cylinder",
        }
    }
}

/// The conventions read off one node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeConventions {
    /// Its role.
    pub role: Role,
    /// Its `friction` extra, if any (0 ice … 1 normal).
    pub friction: Option<f32>,
    /// Its `collider` extra, if any (only on static nodes).
    pub collider: Option<AnalyticKind>,
    /// Its `proxy` extra, if any: the shape its own mesh collides as.
    pub proxy: Option<ProxyShape>,
    /// Its `one_way` extra, if any: whether its triangles (and its
    /// children's) stop a body from its local +Y side only.
    pub one_way: Option<bool>,
    /// Its `layers` extra, if any: which bodies its triangles (and its
    /// children's) stop; for a sensor, which bodies it reports.
    pub layers: Option<CollisionLayers>,
    /// Its `sensor` extra, if any: its own mesh is a volume that reports
    /// who is inside, not solid.
    pub sensor: Option<SensorKind>,
    /// Its `climbable` extra, if any: whether its faces (and its
    /// children's) can be climbed by the character.
    pub climbable: Option<bool>,
    /// Its `launch` extra, if any: the world velocity (m/s) its own mesh,
    /// a launch pad, gives a character standing on it.
    pub launch: Option<Vec3>,
    /// Its `water` extra, if any: whether its own mesh is a volume of
    /// water (not solid).
    pub water: Option<bool>,
    /// Its `conveyor` extra, if any: the velocity (m/s, in the node's own
    /// frame) of its own mesh's surface, which carries a character
    /// standing on it.
    pub conveyor: Option<Vec3>,
}

impl NodeConventions {
    /// Whether the node's own mesh is a volume that is not solid (a
    /// sensor or water), whose `"layers"` are its own.
    pub fn is_volume(&self) -> bool {
        self.sensor.is_some() || self.water == Some(true)
    }
}

/// What a `"sensor"` node is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SensorKind {
    /// `"kill"`: the game respawns the player who enters it.
    Kill,
    /// `"checkpoint"`: the player who enters it respawns here from now on.
    Checkpoint,
    /// Any other name: reported as an event (and shown in the HUD).
    Named(String),
}

impl SensorKind {
    /// The kind an extras word names: `"kill"` and `"checkpoint"`
    /// (case-insensitive) or any other name, kept as written. `None` for
    /// a name that is empty or only white space.
    pub fn from_word(word: &str) -> Option<Self> {
        match word.to_ascii_lowercase().as_str() {
            "kill" => Some(Self::Kill),
            "checkpoint" => Some(Self::Checkpoint),
            _ if word.trim().is_empty() => None,
            _ => Some(Self::Named(word.to_owned())),
        }
    }

    /// The extras word for it (`"kill"`, `"checkpoint"` or the name).
    pub fn word(&self) -> &str {
        match self {
            Self::Kill => "kill",
            Self::Checkpoint => "checkpoint",
            Self::Named(name) => name,
        }
    }
}
