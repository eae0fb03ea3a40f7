//! What the sweeps did, counted per thread: wide nodes opened, child
//! boxes entered, candidate triangles and the exact tests run (those
//! past the cheap reject). Compiled in only with the `counts` feature (the
//! benchmark's per-sweep figures: `cargo bench --bench update --features
//! counts`); without it every count is an empty inline call.

/// Work done by the sweeps of this thread since the last [`take`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepCounts {
    /// Sweeps that walked a tree (one per unrotated collider per sweep).
    pub walks: u64,
    /// Wide nodes opened (their four boxes tested at once).
    pub nodes: u64,
    /// Child boxes the walk entered (nodes and leaves).
    pub entered: u64,
    /// Candidate triangles the walk gave (leaf slots visited).
    pub candidates: u64,
    /// Candidates past the separating-axis reject: the exact tests run.
    pub exact: u64,
}

#[cfg(feature = "counts")]
thread_local! {
    static COUNTS: std::cell::Cell<SweepCounts> = const { std::cell::Cell::new(SweepCounts {
        walks: 0, nodes: 0, entered: 0, candidates: 0, exact: 0,
    }) };
}

/// Adds to this thread's counts.
#[inline(always)]
#[allow(unused_variables)]
pub(crate) fn add(f: impl FnOnce(&mut SweepCounts)) {
    #[cfg(feature = "counts")]
    COUNTS.with(|c| {
        let mut counts = c.get();
        f(&mut counts);
        c.set(counts);
    });
}

/// This thread's counts since the last call (all zero without the
/// `counts` feature).
pub fn take() -> SweepCounts {
    #[cfg(feature = "counts")]
    return COUNTS.with(|c| c.replace(SweepCounts::default()));
    #[cfg(not(feature = "counts"))]
    SweepCounts::default()
}
