//! The level's colliders apart from the merged static one: static parts
//! (one-way, layered, climbable or launch-pad static nodes, each its own
//! collider) and sensors (volumes that report who is inside, never solid).

use crate::conventions::SensorKind;
use glam::Vec3;
use slidewalk_sweep::{CollisionLayers, MeshCollider, PlacedCollider};

/// A static mesh node that is one-way, has collision layers or is
/// climbable (its own `"one_way"` / `"layers"` / `"climbable"` extras or a
/// parent's), or is a launch pad (its own `"launch"`): its own collider,
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
