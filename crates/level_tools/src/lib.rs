//! Tools for slidewalk levels, beside the loader (`level`): the level
//! checker and the demo level generator. Both are also binaries:
//! `cargo run -p slidewalk_level_tools --bin level-check -- FILE.glb` walks a level
//! with random walkers driving the character controller and says whether it
//! passes; `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`
//! writes the demo levels into `assets/levels/` (with no folder given, into
//! the current directory).
//!
//! [`walk_level`] runs the checker's walks on a loaded [`slidewalk_level::Level`];
//! [`analytic_fit`] says how well each analytic collider's triangles fit
//! its exact shape; [`MoverSchedule`] runs a level's doors and lifts by the
//! game's rules for a simulation of its own; [`generate`] builds the demo
//! levels in code and writes binary glTF.
//!
//! ```
//! use slidewalk_level_tools::{CheckConfig, generate, walk_level};
//! use std::path::Path;
//!
//! // The demo level, generated in code and read back as a game would.
//! let glb = generate::playground_glb();
//! let level = slidewalk_level::load_bytes(&glb, None, Path::new("playground.glb")).unwrap();
//! // A few short walks on one thread (the checker's default is 32 × 600 ticks).
//! let report = walk_level(&level, &CheckConfig { walks: 2, ticks: 30, threads: 1, ..Default::default() });
//! assert!(report.passed(), "{:?}", report.failure());
//! assert_eq!(report.walks_started, 2);
//! ```
#![deny(missing_docs)]

mod check;
mod fit;
pub mod generate;
mod movers;

pub use check::{CheckConfig, SOAK_REVISIT_SECONDS, THIN_CHECK_TICKS, WalkReport, penetration_tolerance, walk_level};
pub use fit::{AnalyticFit, analytic_fit};
pub use movers::MoverSchedule;
