//! The level's colliders apart from the merged static one: static parts
//! (one-way, layered, climbable, launch-pad or conveyor static nodes, each
//! its own collider), sensors (volumes that report who is inside, never
//! solid) and water volumes (never solid either).

use crate::conventions::SensorKind;
use glam::Vec3;
use slidewalk_sweep::{CollisionLayers, MeshCollider, PlacedCollider, Pose};

/// A static mesh node that is one-way, has collision layers or is
/// climbable (its own `"one_way"` / `"layers"` / `"climbable"` extras or a
/// parent's), or is a launch pad or a conveyor (its own `"launch"` /
/// `"conveyor"`): its own collider,
/// in world space, placed after the static collider and before the movers
/// ([`crate::Level::placed`]).
#[derive(Clone, Debug)]
pub struct StaticPart {
    /// The glTF node's name (or `node N`).
    pub name: String,
    /// The glTF node index.
    pub node: usize,
    /// Its triangles in world space (metres), every GPU instance of its mesh.
    pub collider: MeshCollider,
    /// Index in [`crate::Level::surfaces`] (the node's friction).
    pub surface: u16,
    /// Which bodies it stops ([`CollisionLayers::ALL`] unless `"layers"` says).
    pub layers: CollisionLayers,
    /// `Some(direction)`: one-way along this unit world direction (the
    /// node's +Y as a normal, or its one-way parent's).
    pub one_way: Option<Vec3>,
    /// Whether the character can climb its faces (`"climbable": true` on
    /// the node or a parent).
    pub climbable: bool,
    /// `Some(velocity)`: a launch pad (`"launch"` on the node itself); a
    /// character standing on it is given this world velocity, m/s (not
    /// zero, at most [`crate::MAX_LAUNCH_SPEED`] long).
    pub launch: Option<Vec3>,
    /// `Some(velocity)`: a conveyor (`"conveyor"` on the node itself); its
    /// surface moves at this world velocity, m/s (the extra's, given in
    /// the node's frame, turned by the node's world rotation; not zero, at
    /// most [`crate::MAX_CONVEYOR_SPEED`] long), carrying a character
    /// standing on it.
    pub conveyor: Option<Vec3>,
}

impl StaticPart {
    /// The part where it always is, with its layers and one-way direction.
    pub fn placed(&self) -> PlacedCollider<'_> {
        PlacedCollider::fixed(&self.collider)
            .with_layers(self.layers)
            .with_one_way(self.one_way)
    }
}

/// A `"sensor"` node's own mesh: a volume that reports who is inside
/// (`"kill"`, `"checkpoint"` or a name of the level's own). Not in any
/// collider bodies meet.
#[derive(Clone, Debug)]
pub struct Sensor {
    /// The glTF node's name (or `node N`).
    pub name: String,
    /// The glTF node index.
    pub node: usize,
    /// What it is for.
    pub kind: SensorKind,
    /// Its triangles in world space (metres), every GPU instance of its mesh.
    pub collider: MeshCollider,
    /// Which bodies it reports ([`CollisionLayers::ALL`] unless `"layers"` says).
    pub layers: CollisionLayers,
}

impl Sensor {
    /// The sensor's volume where it always is, with its layers (for a
    /// broad phase of sensors of the game's own).
    pub fn placed(&self) -> PlacedCollider<'_> {
        PlacedCollider::fixed(&self.collider).with_layers(self.layers)
    }
}

/// A `"water": true` node's own mesh: a volume of water, not solid. The
/// water fills the bounding box of [`collider`](Self::collider) (in the
/// node's frame) placed at [`pose`](Self::pose); its top is the surface.
#[derive(Clone, Debug)]
pub struct WaterVolume {
    /// The glTF node's name (or `node N`).
    pub name: String,
    /// The glTF node index.
    pub node: usize,
    /// Its triangles in the node's frame (the node's world rotation and
    /// translation removed, its scale kept), metres, every GPU instance
    /// of its mesh.
    pub collider: MeshCollider,
    /// The node's world rotation and translation.
    pub pose: Pose,
    /// Which bodies it wets ([`CollisionLayers::ALL`] unless `"layers"` says).
    pub layers: CollisionLayers,
}

impl WaterVolume {
    /// The volume where it always is, with its layers.
    pub fn placed(&self) -> PlacedCollider<'_> {
        PlacedCollider::moving(&self.collider, self.pose, Vec3::ZERO, Vec3::ZERO).with_layers(self.layers)
    }
}
