//! The level's collision layers: the named layers a node's `"layers"`
//! extra may use, the layers of the game's bodies (the player, the crowd,
//! the balls), and colliders as a body of some layers meets them.
//!
//! A layer is a bit of [`CollisionLayers`]: `"world"` is bit 0, `"player"`
//! bit 1, `"crowd"` bit 2, `"balls"` bit 3; bits 4 to 31 have no name and
//! are a game's own. A body and a collider meet when each one's
//! memberships meet the other's filter (Rapier's rule,
//! [`CollisionLayers::interacts_with`]). The game's bodies are members of
//! their own layer and meet every layer, so a collider's `"collides"`
//! list alone says which of them it stops.

use slidewalk_sweep::{CollisionLayers, PlacedCollider};

/// The named layers and their bit numbers, as the `"layers"` extra spells them.
pub const LAYER_NAMES: [(&str, u32); 4] = [("world", 0), ("player", 1), ("crowd", 2), ("balls", 3)];

/// Bit of the `"world"` layer.
pub const WORLD: u32 = 1 << 0;
/// Bit of the `"player"` layer.
pub const PLAYER: u32 = 1 << 1;
/// Bit of the `"crowd"` layer.
pub const CROWD: u32 = 1 << 2;
/// Bit of the `"balls"` layer.
pub const BALLS: u32 = 1 << 3;

/// The player's layers: a member of `"player"`, meeting every layer.
pub const PLAYER_LAYERS: CollisionLayers = CollisionLayers::new(PLAYER, u32::MAX);
/// A crowd agent's layers: a member of `"crowd"`, meeting every layer.
pub const CROWD_LAYERS: CollisionLayers = CollisionLayers::new(CROWD, u32::MAX);
/// A ball's layers: a member of `"balls"`, meeting every layer.
pub const BALL_LAYERS: CollisionLayers = CollisionLayers::new(BALLS, u32::MAX);

/// The bit number of a named layer (case-insensitive), if it has one.
pub fn layer_number(name: &str) -> Option<u32> {
    LAYER_NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, bit)| bit)
}

/// `colliders` as a body with `layers` meets them, for queries that take
/// no layers of their own (which meet as [`CollisionLayers::ALL`]): each
/// collider that body meets gets [`CollisionLayers::ALL`], each other one
/// [`CollisionLayers::NONE`]. Indices, poses and one-way directions stay.
pub fn met_by<'a>(colliders: &[PlacedCollider<'a>], layers: CollisionLayers) -> Vec<PlacedCollider<'a>> {
    colliders
        .iter()
        .map(|c| {
            let meets = layers.interacts_with(c.layers);
            c.with_layers(if meets {
                CollisionLayers::ALL
            } else {
                CollisionLayers::NONE
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_layers_are_their_bits() {
        for (name, bit) in LAYER_NAMES {
            assert_eq!(layer_number(name), Some(bit));
            assert_eq!(layer_number(&name.to_ascii_uppercase()), Some(bit));
        }
        assert_eq!([WORLD, PLAYER, CROWD, BALLS], LAYER_NAMES.map(|(_, bit)| 1u32 << bit));
        assert_eq!(layer_number("ghosts"), None);
    }

    #[test]
    fn a_barrier_for_the_crowd_and_balls_lets_the_player_through() {
        let barrier = CollisionLayers::new(u32::MAX, CROWD | BALLS);
        assert!(!PLAYER_LAYERS.interacts_with(barrier));
        assert!(CROWD_LAYERS.interacts_with(barrier));
        assert!(BALL_LAYERS.interacts_with(barrier));
        let grate = CollisionLayers::new(u32::MAX, PLAYER | CROWD);
        assert!(PLAYER_LAYERS.interacts_with(grate));
        assert!(CROWD_LAYERS.interacts_with(grate));
        assert!(!BALL_LAYERS.interacts_with(grate));
    }
}
