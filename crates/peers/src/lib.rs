//! Benchmarks only: `benches/peers.rs` runs bevy_slidewalk and its peers
//! (bevy-tnua on Avian, Rapier's kinematic character controller) side by
//! side on the same level.
