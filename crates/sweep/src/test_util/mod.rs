//! Geometry generators and checks shared by tests, benchmarks and examples:
//! adversarial meshes, large generated levels (metres, y up) and randomized
//! walks checked by brute force. Built only with the `test-util` feature
//! (and in this crate's own unit tests).

mod level;
mod rng;
mod rooms;
mod soup;
mod walk;

pub use level::{DENSE_PROP_TRIANGLES, dense_level, dense_level_with, generated_level};
pub use rng::Lcg;
pub use rooms::{adversarial_rooms, box_room, coplanar_room, sliver_room, spike, stairs_room, thin_wall_room};
pub use soup::Soup;
pub use walk::{WalkConfig, WalkStats, min_espace_distance, random_walks};
