//! Hand-computed cases with their analytic times, features and normals
//! (faces of either winding, edges, vertices, grazing paths, invalid
//! input), and `t_max` cutting the motion.

use crate::check::{REL_TOL, check_hit_shape};
use crate::exact::{Path, scale_of};
use glam::Vec3;
use slidewalk_sweep::Feature;
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;

#[derive(Clone, Copy, Debug)]
enum Expect {
    Miss,
    Hit {
        t: f32,
        feature: Feature,
        normal: Vec3,
        embedded: bool,
    },
    /// Touching exactly: a hit (at distance 1, not NaN) or a miss are both right.
    Grazing,
    /// Invalid input: anything but a panic or a NaN time.
    NoPanic,
}

struct Analytic {
    name: &'static str,
    start: Vec3,
    motion: Vec3,
    tri: [Vec3; 3],
    expect: Expect,
}

pub(crate) fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn analytic_cases() -> Vec<Analytic> {
    // A big triangle in y = 0 containing the origin, and its reversed winding.
    let floor = [v3(-10.0, 0.0, -10.0), v3(0.0, 0.0, 10.0), v3(10.0, 0.0, -10.0)];
    let floor_rev = [floor[0], floor[2], floor[1]];
    // A triangle in y = 0 whose edge AB is the x axis from -5 to 5, body at z > 0.
    let ledge = [v3(-5.0, 0.0, 0.0), v3(5.0, 0.0, 0.0), v3(0.0, 0.0, 5.0)];
    // A wedge in y = 0 with its tip A at the origin, body at x > 0.
    let wedge = [v3(0.0, 0.0, 0.0), v3(4.0, 0.0, 1.0), v3(4.0, 0.0, -1.0)];
    let s2 = std::f32::consts::FRAC_1_SQRT_2;
    let hit = |t: f32, feature, normal: Vec3| Expect::Hit {
        t,
        feature,
        normal: normal.normalize(),
        embedded: false,
    };
    // Grazing path: closest approach to the x axis exactly 1, at (0, s2, -s2),
    // along u ⟂ (0, 1, -1) and not parallel to the axis.
    let u = v3(1.0, 1.0, 1.0).normalize();
    vec![
        Analytic {
            name: "face from above",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, -4.0, 0.0),
            tri: floor,
            expect: hit(0.5, Feature::Face, Vec3::Y),
        },
        Analytic {
            name: "face from above, reversed winding",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, -4.0, 0.0),
            tri: floor_rev,
            expect: hit(0.5, Feature::Face, Vec3::Y),
        },
        Analytic {
            name: "face from below",
            start: v3(0.0, -3.0, 0.0),
            motion: v3(0.0, 4.0, 0.0),
            tri: floor,
            expect: hit(0.5, Feature::Face, -Vec3::Y),
        },
        Analytic {
            name: "face from below, reversed winding",
            start: v3(0.0, -3.0, 0.0),
            motion: v3(0.0, 4.0, 0.0),
            tri: floor_rev,
            expect: hit(0.5, Feature::Face, -Vec3::Y),
        },
        Analytic {
            name: "face, oblique",
            start: v3(1.0, 2.0, -1.0),
            motion: v3(2.0, -2.0, 1.0),
            tri: floor,
            expect: hit(0.5, Feature::Face, Vec3::Y),
        },
        Analytic {
            name: "face, stops short",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, -1.9, 0.0),
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "face, moving away",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, 4.0, 0.0),
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "edge, in the plane",
            start: v3(0.0, 0.0, -3.0),
            motion: v3(0.0, 0.0, 4.0),
            tri: ledge,
            expect: hit(0.5, Feature::Edge, -Vec3::Z),
        },
        Analytic {
            name: "edge, diagonal from above",
            start: v3(0.0, 3.0, -3.0),
            motion: v3(0.0, -4.0, 4.0),
            tri: ledge,
            expect: hit((3.0 - s2) / 4.0, Feature::Edge, v3(0.0, 1.0, -1.0)),
        },
        Analytic {
            name: "edge, inside the plane slab beside the triangle",
            start: v3(0.0, 0.5, -3.0),
            motion: v3(0.0, 0.0, 4.0),
            tri: ledge,
            expect: hit(
                (3.0 - 0.75f32.sqrt()) / 4.0,
                Feature::Edge,
                v3(0.0, 0.5, -(0.75f32.sqrt())),
            ),
        },
        Analytic {
            name: "vertex, head on",
            start: v3(-3.0, 0.0, 0.0),
            motion: v3(4.0, 0.0, 0.0),
            tri: wedge,
            expect: hit(0.5, Feature::Vertex, -Vec3::X),
        },
        Analytic {
            name: "vertex, diagonal",
            start: v3(-2.0, 2.0, 0.0),
            motion: v3(2.0, -2.0, 0.0),
            tri: wedge,
            expect: hit(1.0 - 0.5 * s2, Feature::Vertex, v3(-1.0, 1.0, 0.0)),
        },
        Analytic {
            name: "grazing an edge across it",
            start: v3(0.0, s2, -s2) - u * 3.0,
            motion: u * 6.0,
            tri: ledge,
            expect: Expect::Grazing,
        },
        Analytic {
            name: "grazing an edge along it",
            start: v3(-8.0, 0.0, -1.0),
            motion: v3(16.0, 0.0, 0.0),
            tri: ledge,
            expect: Expect::Grazing,
        },
        Analytic {
            name: "grazing the face along it",
            start: v3(-3.0, 1.0, 0.0),
            motion: v3(6.0, 0.0, 0.0),
            tri: floor,
            expect: Expect::Grazing,
        },
        Analytic {
            name: "parallel at 1.5 above the face",
            start: v3(-3.0, 1.5, 0.0),
            motion: v3(6.0, 0.0, 0.0),
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "parallel at 0.5, beside the triangle",
            start: v3(-3.0, 0.5, -2.0),
            motion: v3(6.0, 0.0, 0.0),
            tri: ledge,
            expect: Expect::Miss,
        },
        Analytic {
            name: "embedded, moving deeper",
            start: v3(0.0, 0.5, 0.0),
            motion: v3(0.0, -1.0, 0.0),
            tri: floor,
            expect: Expect::Hit {
                t: 0.0,
                feature: Feature::Face,
                normal: Vec3::Y,
                embedded: true,
            },
        },
        Analytic {
            name: "embedded from below, moving deeper",
            start: v3(0.3, -0.5, 0.2),
            motion: v3(0.5, 2.0, 0.0),
            tri: floor_rev,
            expect: Expect::Hit {
                t: 0.0,
                feature: Feature::Face,
                normal: -Vec3::Y,
                embedded: true,
            },
        },
        Analytic {
            name: "embedded, moving away",
            start: v3(0.0, 0.5, 0.0),
            motion: v3(0.0, 1.0, 0.0),
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "embedded, moving along the face",
            start: v3(0.0, 0.5, 0.0),
            motion: v3(1.0, 0.0, 0.0),
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "zero motion",
            start: v3(0.0, 3.0, 0.0),
            motion: Vec3::ZERO,
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "zero motion in the slab",
            start: v3(0.0, 0.5, -3.0),
            motion: Vec3::ZERO,
            tri: ledge,
            expect: Expect::Miss,
        },
        Analytic {
            // No face, but a sliver rounded into a line (far from the
            // origin, after a pose) still stops the sphere at its edge...
            name: "degenerate: collinear",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, -4.0, 0.0),
            tri: [v3(-1.0, 0.0, 0.0), Vec3::ZERO, v3(1.0, 0.0, 0.0)],
            expect: hit(0.5, Feature::Edge, Vec3::Y),
        },
        Analytic {
            // ... and one rounded into a point at that point.
            name: "degenerate: one point",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, -4.0, 0.0),
            tri: [Vec3::ZERO; 3],
            expect: hit(0.5, Feature::Vertex, Vec3::Y),
        },
        Analytic {
            name: "NaN motion",
            start: v3(0.0, 3.0, 0.0),
            motion: Vec3::NAN,
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "NaN motion in the slab",
            start: v3(0.0, 0.5, -3.0),
            motion: v3(f32::NAN, 0.0, 1.0),
            tri: ledge,
            expect: Expect::Miss,
        },
        Analytic {
            name: "infinite motion",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, f32::NEG_INFINITY, 0.0),
            tri: floor,
            expect: Expect::Miss,
        },
        Analytic {
            name: "NaN triangle",
            start: v3(0.0, 3.0, 0.0),
            motion: v3(0.0, -4.0, 0.0),
            tri: [Vec3::NAN, floor[1], floor[2]],
            expect: Expect::NoPanic,
        },
    ]
}

#[test]
fn analytic_cases_give_known_answers() {
    for case in analytic_cases() {
        let tri = case.tri.map(|p| p - case.start);
        let v = case.motion;
        let name = case.name;
        let got = sweep_unit_sphere_triangle(v, tri, 1.0);
        match case.expect {
            Expect::Miss => assert!(got.is_none(), "{name}: expected a miss, got {got:?}"),
            Expect::Hit {
                t,
                feature,
                normal,
                embedded,
            } => {
                let h = got.unwrap_or_else(|| panic!("{name}: expected a hit at t = {t}, got a miss"));
                assert_approx_eq!(h.t, t, 1e-6, "{name}: {h:?}");
                assert_eq!(h.feature, feature, "{name}: {h:?}");
                assert_eq!(h.embedded, embedded, "{name}: {h:?}");
                assert_approx_eq!(
                    (h.normal - normal).length(),
                    0.0,
                    1e-6,
                    "{name}: normal {} vs {normal}",
                    h.normal
                );
                check_hit_shape(&h, v, tri, REL_TOL * scale_of(v, &tri)).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            Expect::Grazing => {
                if let Some(h) = got {
                    assert!(!h.t.is_nan() && !h.normal.is_nan(), "{name}: NaN in {h:?}");
                    check_hit_shape(&h, v, tri, REL_TOL * scale_of(v, &tri)).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                // Either way the path never enters the sphere's reach.
                let (_, dmin) = Path::unit(v, tri).min_on(0.0, 1.0);
                assert!(
                    dmin >= 1.0 - 1e-5 * scale_of(v, &tri),
                    "{name}: bad case, min distance {dmin}"
                );
            }
            Expect::NoPanic => {
                if let Some(h) = got {
                    assert!((0.0..=1.0).contains(&h.t), "{name}: t = {} for {h:?}", h.t);
                }
            }
        }
    }
}

/// `t_max` cuts the motion: the same face hit is a miss when `t_max` stops
/// short of it, and a hit at the same time when it does not.
#[test]
fn t_max_limits_the_search() {
    let tri = [v3(-10.0, -3.0, -10.0), v3(0.0, -3.0, 10.0), v3(10.0, -3.0, -10.0)];
    let v = v3(0.0, -4.0, 0.0);
    assert!(sweep_unit_sphere_triangle(v, tri, 0.49).is_none());
    let h = sweep_unit_sphere_triangle(v, tri, 0.51).expect("hit before t_max");
    assert_approx_eq!(h.t, 0.5, 1e-6);
    // An edge hit beyond t_max is not reported either.
    let ledge = [v3(-5.0, 0.0, 3.0), v3(5.0, 0.0, 3.0), v3(0.0, 0.0, 8.0)];
    let v = v3(0.0, 0.0, 4.0);
    assert!(sweep_unit_sphere_triangle(v, ledge, 0.49).is_none());
    assert_approx_eq!(
        sweep_unit_sphere_triangle(v, ledge, 1.0).expect("edge hit").t,
        0.5,
        1e-6
    );
}
