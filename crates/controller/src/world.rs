//! `World`: what the controller collides with this tick (placed colliders)
//! and how grippy each surface is.

use sweep::PlacedCollider;

/// The colliders of this tick and their surfaces.
///
/// Each collider must be at its pose for the end of this tick, with
/// velocities equal to its motion over this tick (a door's or lift's), and
/// keep its index from tick to tick: the platform stood on is remembered by
/// index and carries the character by its velocity.
#[derive(Clone, Copy)]
pub struct World<'a> {
    /// The colliders: the static level, doors, lifts.
    pub colliders: &'a [PlacedCollider<'a>],
    /// Friction of a surface, 0 (ice) … 1 (normal grip), by collider index
    /// and triangle (the collider's input index).
    pub friction: &'a dyn Fn(usize, u32) -> f32,
}

fn full_grip(_: usize, _: u32) -> f32 {
    1.0
}

impl<'a> World<'a> {
    /// Colliders whose surfaces all have friction 1.
    pub fn new(colliders: &'a [PlacedCollider<'a>]) -> Self {
        Self {
            colliders,
            friction: &full_grip,
        }
    }

    /// The same colliders with a friction per surface.
    pub fn with_friction(self, friction: &'a dyn Fn(usize, u32) -> f32) -> Self {
        Self { friction, ..self }
    }

    /// Friction at a contact, clamped to 0..1 (non-finite counts as 1).
    pub fn friction_of(&self, collider: usize, triangle: u32) -> f32 {
        let f = (self.friction)(collider, triangle);
        if f.is_finite() { f.clamp(0.0, 1.0) } else { 1.0 }
    }
}
