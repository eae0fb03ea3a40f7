//! Proves that the swept unit sphere vs triangle narrow phase is exact without an external oracle: every reported contact is at distance 1 and nothing on the path before it is closer, every miss stays at distance ≥ 1, and hand-computed cases give their analytic times, features and normals.
//!
//! # How exactness is checked
//!
//! The distance from a point moving on a line to a triangle (a convex set) is
//! a convex function of time, so its minimum over any interval is found by a
//! golden-section search and its first crossing of 1 by bisection. Both run in
//! `f64` on the *exact* `f32` inputs given to the sweep, with the point–triangle
//! distance of `tests/exact/mod.rs` (projection + barycentric signs, else the
//! nearest edge segment), independent of the crate's Ericson closest point.
//!
//! # Tolerance
//!
//! `TOL = 1e-5 × scale`, `scale = max(1, |v|, max |vertex|)` (eSpace units).
//! The sweep works in `f32`, whose resolution at coordinate magnitude `s` is
//! about `6e-8·s`; the quadratic solves lose a couple of orders of magnitude
//! more, and 1e-5 of the scale is still a hundredth of a millimetre for a
//! 1 m radius. Measured over the 40 000 random cases: worst `|dist(t) − 1|`
//! 9.1e-7·scale, worst dip below 1 before `t` (or anywhere along a missed
//! path) 6.2e-7·scale, so the tolerance has a margin of 10.
//!
//! Distances are what is checked, not times: the time of impact is
//! ill-conditioned when the path grazes (the distance then changes slowly
//! with `t`). Measured `|t − t_exact|`: at most 9.2e-6 on the generic
//! motions, up to 5.9e-2 on the motions nearly parallel to an edge, where
//! our contact is still at distance 1 to 3.3e-7·scale. Each random test
//! prints its figures (`-- --nocapture`).
//!
//! # Regressions
//!
//! `regressions.rs` holds minimal cases (`regression_*`) for rounding
//! problems the random runs once found in the edge/vertex stage and for the
//! non-finite motion the analytic table once caught, each saying what used
//! to go wrong. The random tests accept no inexact case at all.
//!
//! The parts: `check` (one case checked against the exact reference),
//! `random` (the random cases and their tests), `known` (the table of
//! hand-computed cases) and `regressions`.

#[path = "../exact/mod.rs"]
mod exact;

macro_rules! assert_approx_eq {
    ($a:expr, $b:expr, $tol:expr) => {
        assert_approx_eq!($a, $b, $tol, "")
    };
    ($a:expr, $b:expr, $tol:expr, $($msg:tt)+) => {{
        let (a, b, tol) = (($a) as f64, ($b) as f64, ($tol) as f64);
        assert!(
            (a - b).abs() <= tol,
            "{} = {a} but {} = {b}: |Δ| = {:e} > {tol:e}; {}",
            stringify!($a),
            stringify!($b),
            (a - b).abs(),
            format!($($msg)+)
        );
    }};
}

mod check;
mod known;
mod random;
mod regressions;
