//! Benchmarks only: `benches/peers.rs` runs bevy_slidewalk and its peers
//! side by side on the same level and physics engine.
