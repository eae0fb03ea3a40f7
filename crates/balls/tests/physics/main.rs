//! The proofs the balls owe: reflection, time of impact, conservation,
//! no tunnelling through thin walls at 100 m/s, nothing ending a tick
//! inside geometry or inside another ball, and rest instead of jitter.
//!
//! One test binary, by topic: [`exact`] (reflection, time of impact,
//! conservation, no tunnelling), [`rooms`] (nothing ends inside geometry
//! or another ball; the same on two threads), [`movers`] (lifts and the
//! player), [`rest`] (rest, sleep and jams), [`filters`] (one-way
//! platforms and layers).

mod exact;
mod filters;
mod movers;
mod rest;
mod rooms;
mod support;
