//! Regressions: minimal reproductions of rounding bugs the random runs and
//! the known cases found in the narrow phase, all fixed, each saying what
//! used to go wrong.

use crate::check::{Stats, check_case};
use crate::exact::Path;
use crate::known::v3;
use slidewalk_sweep::Feature;
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;

/// A unit sphere falls straight down past the border edge of a ledge, its
/// centre's path 0.001 outside the edge: the edge passes 0.001 from the
/// centre, so the sphere must stop at `t = (2 − √(1 − 1e-6)) / 4 ≈ 0.25`, on
/// the edge.
///
/// What went wrong: the plane contact point at the slab entry (`t0 = 0.25`)
/// is 0.001 outside the triangle, so the face test rejects it; the edge root
/// is `t0 + 1.25e-7` exactly but came out of `f32` a few ulps *below* `t0`,
/// and the `t >= lo` filter discarded it. Nothing else was hit and the sphere
/// fell through the ledge (also through the public `slidewalk_sweep::sweep`). Edge and
/// vertex roots are now clamped to the slab entry.
#[test]
fn regression_ledge_edge_root_below_slab_entry() {
    let ledge = [v3(-5.0, 0.0, 0.0), v3(5.0, 0.0, 0.0), v3(0.0, 0.0, 5.0)];
    let start = v3(2.7, 2.0, -0.001);
    let v = v3(0.0, -4.0, 0.0);
    let tri = ledge.map(|p| p - start);
    let h =
        sweep_unit_sphere_triangle(v, tri, 1.0).expect("the edge passes 0.001 from the centre's path: it must be hit");
    assert_approx_eq!(h.t, 0.25, 1e-6);
    assert_eq!(h.feature, Feature::Edge);
    let mut stats = Stats::default();
    check_case(v, tri, &mut stats).unwrap();
    // The same through the public sweep of a unit sphere.
    let mesh = slidewalk_sweep::MeshCollider::build(&ledge, &[[0, 1, 2]]).unwrap();
    let hit = slidewalk_sweep::sweep(
        &slidewalk_sweep::Ellipsoid::sphere(1.0).unwrap(),
        start,
        v,
        &[slidewalk_sweep::PlacedCollider::fixed(&mesh)],
    );
    assert!(hit.is_some(), "sweep misses the ledge");
}

/// A unit sphere moves in the plane of a triangle, 1e-4 outside reach of its
/// edge (on the x axis) and converging on it at 3e-4 rad: it must stop at
/// `t = 1/6`, distance 1 from the edge.
///
/// What went wrong: the edge quadratic's leading coefficient, then computed
/// as `|e|²|v|² − (e·v)²` (with cancellation), was under
/// `f32::EPSILON·|e|²|v|²`, so the edge was skipped as "parallel"; the
/// vertices are far, and the sphere ended 5e-4 inside the edge (any motion
/// within ~3.5e-4 rad of an edge's direction could sink up to `|v|·3.5e-4`
/// into it). The coefficient is now `|e × v|²` and the parallel threshold
/// `1e-12·|e|²|v|²`.
#[test]
fn regression_near_parallel_edge_motion() {
    let ledge = [v3(-2.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), v3(0.0, 0.0, 2.0)];
    let start = v3(-1.0, 0.0, -1.0001);
    let v = v3(2.0, 0.0, 0.0006);
    let tri = ledge.map(|p| p - start);
    // The path does come within 0.9995 of the edge.
    let (_, dmin) = Path::unit(v, tri).min_on(0.0, 1.0);
    assert_approx_eq!(dmin, 0.9995, 1e-6);
    let h = sweep_unit_sphere_triangle(v, tri, 1.0).expect("the path comes within 0.9995 of the edge: it must be hit");
    assert_eq!(h.feature, Feature::Edge);
    let mut stats = Stats::default();
    check_case(v, tri, &mut stats).unwrap();
}

/// A unit sphere at the origin, 1e-4 out of reach of the long edge
/// `tri[0]–tri[1]` (length 100, in the plane y = 0 with the sphere), moves
/// 0.5 straight into it: it must stop at once (`t ≈ 2e-4`), on the edge.
///
/// What went wrong: the edge quadratic's constant term, then computed as
/// `e2·(|w|² − 1) − (e·w)²`, is a difference of numbers near
/// `e2·|w|² ≈ 3e7` whose true value is `≈ 2·e2·1e-4 ≈ 2`; it came out
/// negative, the edge was taken as "already inside its cylinder" and
/// skipped, the vertices are far, and the sphere passed 0.5 into the edge.
/// The rounding grew as `|w|²`: with the slide's 1e-3 skin, edges whose far
/// end was beyond ~130 radii were exposed. The constant term is now
/// `|e × w|² − e2`.
#[test]
fn regression_start_just_out_of_long_edge_reach() {
    let tri = [
        v3(-30.180035, 0.0, 61.501347),
        v3(15.179573, 0.0, -27.619392),
        v3(37.060143, 0.0, 39.62078),
    ];
    let v = v3(0.4456037, 0.0, 0.22679804);
    let path = Path::unit(v, tri);
    assert!(
        path.dist(0.0) > 1.0 + 9e-5 && path.dist(0.0) < 1.0 + 1.1e-4,
        "start gap {}",
        path.dist(0.0) - 1.0
    );
    assert!(path.min_on(0.0, 1.0).1 < 0.6);
    let h = sweep_unit_sphere_triangle(v, tri, 1.0).expect("the sphere moves 0.5 into the edge: it must be hit");
    assert_eq!(h.feature, Feature::Edge);
    let mut stats = Stats::default();
    check_case(v, tri, &mut stats).unwrap();
}

/// A NaN or infinite motion from inside the plane's slab (beside the
/// triangle, not touching it) must report no contact, from the narrow phase
/// and from the public `slidewalk_sweep::sweep`.
///
/// What went wrong: it reported a vertex contact at `t = 0` with a NaN
/// normal: `smallest_root` returns `(c / q).max(0.0)`, `f32::max` turned the
/// NaN root into 0, which passed `t >= lo` with `lo = 0`. `slidewalk_sweep::sweep`
/// passed it on for an infinite motion (a zero world normal, a NaN eSpace
/// normal). A non-finite motion now returns no contact up front.
#[test]
fn regression_non_finite_motion_in_plane_slab() {
    let ledge = [v3(-5.0, 0.0, 0.0), v3(5.0, 0.0, 0.0), v3(0.0, 0.0, 5.0)];
    let start = v3(0.0, 0.5, -3.0);
    let tri = ledge.map(|p| p - start);
    for v in [v3(f32::NAN, 0.0, 1.0), v3(0.0, 0.0, f32::INFINITY)] {
        let got = sweep_unit_sphere_triangle(v, tri, 1.0);
        assert!(got.is_none(), "motion {v}: {got:?}");
    }
    let mesh = slidewalk_sweep::MeshCollider::build(&ledge, &[[0, 1, 2]]).unwrap();
    let world = [slidewalk_sweep::PlacedCollider::fixed(&mesh)];
    let hit = slidewalk_sweep::sweep(
        &slidewalk_sweep::Ellipsoid::sphere(1.0).unwrap(),
        start,
        v3(0.0, 0.0, f32::INFINITY),
        &world,
    );
    assert!(hit.is_none(), "{hit:?}");
}
