//! A spawn node's point: where the feet stand and which way the view
//! looks, refused when the node's transform puts it out of reach.

use crate::level::Spawn;
use glam::{Mat4, Vec3};

/// Farthest a spawn point may be from the origin on any axis, metres
/// (beyond it an `f32` position is coarser than 6 cm).
const SPAWN_LIMIT: f32 = 1e6;

/// The spawn point of a node at `world`: its origin, looking along its
/// −Z; a message saying why not when it is not finite or beyond
/// [`SPAWN_LIMIT`].
pub(super) fn spawn_at(world: &Mat4) -> Result<Spawn, String> {
    let forward = world.transform_vector3(Vec3::NEG_Z);
    let position = world.transform_point3(Vec3::ZERO);
    // Where the player is put: NaN or far out would break every tick.
    if !(position.is_finite() && position.abs().max_element() <= SPAWN_LIMIT) {
        return Err(format!(
            "a spawn point must be within {SPAWN_LIMIT:e} m of the origin on every axis, \
             but its transform puts it at [{}]",
            position
                .to_array()
                .map(|x| if x.abs() < 1e9 {
                    format!("{x}")
                } else {
                    format!("{x:e}")
                })
                .join(", ")
        ));
    }
    Ok(Spawn {
        position,
        yaw: libm::atan2f(-forward.x, -forward.z),
    })
}
