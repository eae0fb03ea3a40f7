//! Tests of the proxies: every shape closed, wound outwards and small,
//! holding the mesh and colliding; odd points; a large mesh's thinned
//! hull; a cube's hull and the box for flat points.

use super::{HULL_GRID, MAX_HULL_CORNERS, ProxyMesh, ProxyShape, SAGITTA, proxy_mesh};
use crate::collider::{MeshCollider, PlacedCollider};
use crate::ellipsoid::Ellipsoid;
use crate::test_util::Soup;
use glam::Vec3;

/// Whether the triangles close a volume, wound outwards: every edge is
/// met once each way, and the signed volume is positive.
fn closed_outwards(m: &ProxyMesh) -> bool {
    let mut edges = std::collections::HashMap::new();
    for t in &m.triangles {
        for k in 0..3 {
            *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
        }
    }
    let volume: f64 = m
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.positions[i as usize].as_dvec3());
            a.dot(b.cross(c)) / 6.0
        })
        .sum();
    edges
        .iter()
        .all(|(&(u, v), &n)| n == 1 && edges.get(&(v, u)) == Some(&1))
        && volume > 0.0
}

fn sphere_points(centre: Vec3, radius: f32) -> Vec<Vec3> {
    let mut s = Soup::default();
    s.uv_sphere(centre, radius, 45, 45);
    s.positions
}

#[test]
fn every_shape_is_closed_wound_outwards_and_small() {
    let points = sphere_points(Vec3::new(3.0, 1.0, -2.0), 0.5);
    for shape in ProxyShape::ALL {
        let m = proxy_mesh(shape, &points).unwrap();
        assert_eq!(m.shape, shape);
        assert!(closed_outwards(&m), "{shape:?}");
        let most = if shape == ProxyShape::Hull { 2 * 45 * 44 } else { 200 };
        assert!(m.triangles.len() <= most, "{shape:?}: {}", m.triangles.len());
        assert_eq!(ProxyShape::from_word(&shape.word().to_uppercase()), Some(shape));
    }
    let capsule = proxy_mesh(
        ProxyShape::Capsule,
        &[Vec3::new(0.0, -2.0, 0.0), Vec3::new(0.5, 2.0, 0.0)],
    )
    .unwrap();
    assert!(closed_outwards(&capsule));
}

/// How far `q` is outside the convex `m` (its farthest face plane), metres.
fn outside(m: &ProxyMesh, q: Vec3) -> f32 {
    m.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.positions[i as usize]);
            (q - a).dot((b - a).cross(c - a).normalize())
        })
        .fold(f32::MIN, f32::max)
}

#[test]
fn each_shape_holds_the_mesh_up_to_its_tessellation() {
    let (centre, radius) = (Vec3::new(3.0, 1.0, -2.0), 0.5);
    let points = sphere_points(centre, radius);
    for shape in ProxyShape::ALL {
        let m = proxy_mesh(shape, &points).unwrap();
        let worst = points.iter().map(|p| outside(&m, *p)).fold(f32::MIN, f32::max);
        let allowed = match shape {
            ProxyShape::Box | ProxyShape::Hull => 1e-5,
            ProxyShape::Sphere | ProxyShape::Capsule => SAGITTA * radius,
        };
        eprintln!(
            "{shape:?}: {} triangles, mesh points at most {worst:.4} m outside",
            m.triangles.len()
        );
        assert!(worst <= allowed, "{shape:?}: a mesh point {worst} m outside");
        // And it collides: a sweep towards it stops at it.
        let collider = MeshCollider::build(&m.positions, &m.triangles).unwrap();
        let hit = crate::query::sweep::sweep(
            &Ellipsoid::new(Vec3::splat(0.1)).unwrap(),
            centre + Vec3::X * 2.0,
            Vec3::NEG_X * 2.0,
            &[PlacedCollider::fixed(&collider)],
        )
        .unwrap();
        assert!(
            (hit.point.x - (centre.x + radius)).abs() < SAGITTA * radius,
            "{shape:?}: {hit:?}"
        );
    }
}

#[test]
fn odd_points_never_panic_and_never_give_nan_corners() {
    let mut rng = crate::test_util::Lcg::new(7);
    let odd = [
        0.0,
        -0.0,
        1e-30,
        1e-7,
        1.0,
        1e7,
        1e19,
        3.4e38,
        -3.4e38,
        f32::NAN,
        f32::INFINITY,
    ];
    for case in 0..400 {
        let n = 1 + case % 40;
        let points: Vec<Vec3> = (0..n)
            .map(|_| {
                let mut v = rng.in_box(Vec3::splat(-1.0), Vec3::ONE);
                for axis in 0..3 {
                    if rng.next_f32() < 0.2 {
                        v[axis] = odd[(rng.next_f32() * odd.len() as f32) as usize % odd.len()];
                    }
                }
                v
            })
            .collect();
        for shape in ProxyShape::ALL {
            if let Some(m) = proxy_mesh(shape, &points) {
                assert!(m.triangles.iter().flatten().all(|&i| (i as usize) < m.positions.len()));
                let finite = points.iter().filter(|p| p.is_finite()).count();
                assert!(finite > 0, "{shape:?}: a mesh from no finite point");
                // Huge inputs may round to infinity, which a collider rejects; never NaN.
                assert!(m.positions.iter().all(|p| !p.is_nan()), "{shape:?} of {points:?}");
            }
        }
    }
}

#[test]
fn a_large_mesh_s_hull_is_thinned_and_still_holds_it() {
    let (centre, radius) = (Vec3::new(-4.0, 2.0, 1.0), 3.0);
    let mut s = Soup::default();
    s.uv_sphere(centre, radius, 200, 200);
    assert!(s.positions.len() > 4 * MAX_HULL_CORNERS);
    let started = std::time::Instant::now();
    let m = proxy_mesh(ProxyShape::Hull, &s.positions).unwrap();
    eprintln!(
        "hull of {} corners: {} triangles in {:?}",
        s.positions.len(),
        m.triangles.len(),
        started.elapsed()
    );
    assert_eq!(m.shape, ProxyShape::Hull);
    assert!(closed_outwards(&m));
    assert!(
        m.positions.len() <= (HULL_GRID * HULL_GRID * 6) as usize,
        "{}",
        m.positions.len()
    );
    let worst = s.positions.iter().map(|p| outside(&m, *p)).fold(f32::MIN, f32::max);
    let diagonal = 2.0 * radius * 3f32.sqrt() / HULL_GRID as f32;
    assert!(
        worst <= diagonal,
        "{worst} m outside (a cell's diagonal is {diagonal} m)"
    );
}

#[test]
fn a_hull_of_a_cube_with_inner_points_is_the_cube_and_flat_points_get_a_box() {
    let mut points: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32) * 2.0)
        .collect();
    points.extend((0..50).map(|k| Vec3::splat(0.5 + k as f32 * 0.02)));
    points.push(Vec3::NAN);
    let hull = proxy_mesh(ProxyShape::Hull, &points).unwrap();
    assert_eq!((hull.shape, hull.positions.len()), (ProxyShape::Hull, 8));
    assert!(closed_outwards(&hull));
    let flat = [Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::ONE.with_y(0.0)];
    assert_eq!(proxy_mesh(ProxyShape::Hull, &flat).unwrap().shape, ProxyShape::Box);
    assert!(proxy_mesh(ProxyShape::Sphere, &[Vec3::NAN]).is_none());
}
