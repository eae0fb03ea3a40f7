//! The WGSL shaders of the top-level `shaders/` folder, compiled into the
//! binary and served by Bevy's `embedded://` asset source: `cargo run` from
//! any folder of the workspace and a release binary copied anywhere find
//! them without an `assets/` folder beside them.

use bevy::asset::io::embedded::EmbeddedAssetRegistry;
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// The prototype grid (`shaders/grid.wgsl`).
pub const GRID: &str = "embedded://slidewalk/grid.wgsl";

/// The explosion billboard (`shaders/explosion.wgsl`).
pub const EXPLOSION: &str = "embedded://slidewalk/explosion.wgsl";

/// Every shader: its path under `embedded://`, and its text.
const SHADERS: [(&str, &[u8]); 2] = [
    ("slidewalk/grid.wgsl", include_bytes!("../../shaders/grid.wgsl")),
    (
        "slidewalk/explosion.wgsl",
        include_bytes!("../../shaders/explosion.wgsl"),
    ),
];

pub(super) fn plugin(app: &mut App) {
    let registry = app.world().resource::<EmbeddedAssetRegistry>();
    for (path, text) in SHADERS {
        registry.insert_asset(PathBuf::new(), Path::new(path), text);
    }
}
