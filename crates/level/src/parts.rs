//! The level's colliders apart from the merged static one: static parts
//! (one-way or layered static nodes, each its own collider) and sensors
//! (volumes that report who is inside, never solid).

use crate::conventions::SensorKind;
use glam::Vec3;
use slidewalk_sweep::{CollisionLayers, MeshCollider, PlacedCollider};

/// A static mesh node that is one-way or has collision layers (its own
/// `"one_way"` / `"layers"` extras or a parent's): its own collider, in
/// world space, placed after the static collider and before the movers
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
