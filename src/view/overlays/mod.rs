//! The debug overlays: one gizmo group per overlay, each switched by its
//! function key (F1–F9) and in the panel, all drawn from the tick shown —
//! the live one, or the one picked in the rewind — so a paused walk shows
//! what the collision did then:
//!
//! * F1 contacts: point and normal; colour by role (green ground, orange
//!   wall, blue ceiling, yellow step-up, magenta pushed out), shape by
//!   feature (ring: face, ball: edge, box: vertex);
//! * F2 slide planes: a translucent quad through each contact, fading over
//!   a second;
//! * F3 the ellipsoid (three great ellipses, live radii; seen from behind
//!   only, V) with the intended (white) and actual (cyan) velocity;
//! * F4 the trail of the last 5 s;
//! * F5 the BVH nodes a box over the tick's sweeps reaches (deeper = warmer);
//! * F6 the door (orange) and lift (cyan) colliders;
//! * F7 the ground normal, the slope against the walkable limit (green
//!   walkable, red too steep) and the limit's cone;
//! * F8 the crosshair (drawn by the HUD);
//! * F9 the level's one-way surfaces (the solid side green, an arrow along
//!   the one-way direction), layered parts (violet), sensors (kill red,
//!   checkpoint blue, named yellow) and the doors' trigger zones (orange).
//!
//! Each overlay is its own module (`contacts`, `planes`, `ellipsoid`,
//! `trail`, `bvh`, `movers`, `ground`, `filters`); `switches` holds the gizmo groups
//! and their switches, `player` the player's settings they measure against.

mod bvh;
mod contacts;
mod ellipsoid;
mod filters;
mod ground;
mod movers;
mod planes;
mod player;
mod switches;
mod trail;

pub use ellipsoid::{EllipsoidOverlay, ellipsoid_overlay};
pub use planes::SlideQuad;
pub use switches::{
    BvhGizmos, ContactGizmos, EllipsoidGizmos, FilterGizmos, GroundGizmos, MoverGizmos, SlidePlaneGizmos, TrailGizmos,
};

use bevy::prelude::*;

/// The overlays' plugins: the switches, then one per overlay.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        switches::plugin,
        contacts::plugin,
        planes::plugin,
        ellipsoid::plugin,
        trail::plugin,
        bvh::plugin,
        movers::plugin,
        ground::plugin,
        filters::plugin,
    ));
}
