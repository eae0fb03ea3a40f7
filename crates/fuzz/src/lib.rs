//! Fuzz targets for slidewalk and a stable-toolchain fuzzer to run them.
//!
//! cargo-fuzz needs a nightly toolchain; this crate needs none. Each target
//! is a plain function `fn(&[u8]) -> u64` ([`Target::run`]) that turns the
//! bytes into inputs (raw, or structured with [`arbitrary::Unstructured`]),
//! runs the code under test and **checks invariants** with assertions (no
//! NaN out of finite inputs, a slide that starts free never ends
//! penetrating, a loader that answers `Ok` or a clean `Err`, a controller
//! that never produces a non-finite state). It returns a behaviour
//! signature that the driver uses as feedback.
//!
//! * [`driver`]: the fuzzing loop, panic capture and minimizer (in process);
//!   [`mutate`]: its mutations.
//! * `fuzz-run` (the binary): runs one target for a while under a
//!   supervisor process that also catches aborts, out-of-memory and hangs,
//!   and saves every crash under `crates/fuzz/regressions/<target>/`.
//! * `tests/regressions.rs`: replays every saved input through its target
//!   and runs each target for a few thousand fixed-seed executions, so
//!   `cargo test` keeps them as regression tests.
//!
//! See `crates/fuzz/README.md` for how to run them.
//!
//! ```
//! // Every seed of the sweep target runs clean (a broken invariant panics).
//! let target = fuzz::target("sweep").unwrap();
//! for seed in (target.seeds)() {
//!     (target.run)(&seed);
//! }
//! ```
#![deny(missing_docs)]

pub mod draw;
pub mod driver;
pub mod mutate;
pub mod signature;
pub mod targets;

/// A fuzz target.
#[derive(Clone, Copy)]
pub struct Target {
    /// Name on the command line and directory under `regressions/`.
    pub name: &'static str,
    /// What it exercises, one line.
    pub about: &'static str,
    /// Runs the code under test on the bytes; panics when an invariant
    /// breaks; returns a behaviour signature.
    pub run: fn(&[u8]) -> u64,
    /// Seed inputs.
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// The inputs the bytes stand for, for a person reading a crash.
    pub describe: fn(&[u8]) -> String,
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "level_glb",
        about: "raw bytes (mutated real levels) → slidewalk_level::load_bytes → colliders",
        run: targets::level_glb::run,
        seeds: targets::level_glb::seeds,
        describe: targets::level_glb::describe,
    },
    Target {
        name: "level_json",
        about: "structured glTF documents (bad accessors, transforms, conventions) → slidewalk_level::load_bytes",
        run: targets::level_json::run,
        seeds: targets::level_json::seeds,
        describe: targets::level_json::describe,
    },
    Target {
        name: "sweep",
        about: "triangle soups (degenerate, huge, tiny, NaN) → MeshCollider, sweep, collide_and_slide, depenetrate",
        run: targets::sweep::run,
        seeds: targets::sweep::seeds,
        describe: targets::sweep::describe,
    },
    Target {
        name: "controller",
        about: "arbitrary configs, intents, dt and states → Controller::tick on a generated course",
        run: targets::controller::run,
        seeds: targets::controller::seeds,
        describe: targets::controller::describe,
    },
    Target {
        name: "balls",
        about: "arbitrary ball configs, balls and ticks → BallSimulation::step in mesh, analytic and open rooms",
        run: targets::balls::run,
        seeds: targets::balls::seeds,
        describe: targets::balls::describe,
    },
    Target {
        name: "net",
        about: "two peers' handshakes over a network the bytes control (lost, duplicated, corrupted datagrams), strangers' junk and replays → slidewalk_net::Handshake",
        run: targets::net::run,
        seeds: targets::net::seeds,
        describe: targets::net::describe,
    },
    Target {
        name: "world",
        about: "a headless Bevy app with bevy_slidewalk: colliders and characters spawned, moved, re-parented, given rules, despawned, frames at any pacing → every tick against a brute-force reference",
        run: targets::world::run,
        seeds: targets::world::seeds,
        describe: targets::world::describe,
    },
    Target {
        name: "engine",
        about: "bevy_slidewalk's characters among Avian's static, kinematic and dynamic bodies of every shape (bevy_slidewalk_avian), colliders added, removed, made sensors or ignored, bodies thrown, at any pacing → every tick checked through parry's contact query",
        run: targets::engine::run,
        seeds: targets::engine::seeds,
        describe: targets::engine::describe,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
