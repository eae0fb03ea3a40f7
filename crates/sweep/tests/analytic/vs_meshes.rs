//! The analytic shapes against their meshed versions swept by the
//! collision core (a big quad for the plane, a 256-segment closed
//! cylinder), moved by transforms, and a level mesh with its analytic
//! triangles swapped for the shapes.

use crate::cases::{Case, random_case};
use crate::reference::exact_distance;
use glam::{Affine3A, DVec3, Quat, Vec3};
use slidewalk_sweep::test_util::{Lcg, Soup};
use slidewalk_sweep::{
    AnalyticShape, Candidate, CollisionLayers, Cylinder, Ellipsoid, KeepTriangles, MeshCollider, PlacedCollider, Plane,
    sweep, sweep_with,
};

/// Distance tolerance (metres) when comparing with the meshed shapes.
const MESH_TOL: f64 = 1e-4;
/// Segments of the meshed cylinder.
const SEGMENTS: u32 = 256;

/// The core's sweep of a sphere against `mesh`, time in seconds.
fn mesh_sweep(mesh: &MeshCollider, case: &Case) -> Option<f64> {
    let sphere = Ellipsoid::sphere(case.radius).unwrap();
    let motion = case.velocity * case.t_max;
    sweep(&sphere, case.start, motion, &[PlacedCollider::fixed(mesh)]).map(|h| h.time as f64 * case.t_max as f64)
}

fn mesh_of(soup: &Soup) -> MeshCollider {
    MeshCollider::build(&soup.positions, &soup.triangles).unwrap()
}

/// The 2 × 200 m quad of the plane `y = 0`.
fn big_quad() -> Soup {
    let mut s = Soup::default();
    let h = 100.0;
    s.quad(
        Vec3::new(-h, 0.0, -h),
        Vec3::new(h, 0.0, -h),
        Vec3::new(h, 0.0, h),
        Vec3::new(-h, 0.0, h),
    );
    s
}

fn sagitta(radius: f32, segments: u32) -> f64 {
    radius as f64 * (1.0 - (std::f64::consts::PI / segments as f64).cos())
}

/// Figures of a mesh comparison.
#[derive(Default, Debug)]
struct MeshFigures {
    cases: usize,
    hits: usize,
    grazing: usize,
    worst_distance_excess: f64,
}

/// Compares the analytic sweep of `shape` with the core's sweep of `mesh`
/// (the shape meshed inside it, within `sagitta`) on `case`, per the bounds
/// of the module doc. `distance` is the exact distance to the true shape.
fn compare_with_mesh(
    shape: &AnalyticShape,
    mesh: &MeshCollider,
    sagitta: f64,
    case: &Case,
    distance: impl Fn(DVec3) -> f64,
    figures: &mut MeshFigures,
) {
    figures.cases += 1;
    let ours = shape.sweep_sphere(case.start, case.radius, case.velocity, case.t_max);
    let deep = shape.sweep_sphere(
        case.start,
        case.radius - (sagitta + MESH_TOL) as f32,
        case.velocity,
        case.t_max,
    );
    let theirs = mesh_sweep(mesh, case);
    let speed = case.velocity.length() as f64;
    let (c, v, r) = (case.start.as_dvec3(), case.velocity.as_dvec3(), case.radius as f64);
    let what = || format!("{case:?}: analytic {ours:?}, deep {deep:?}, mesh {theirs:?}");
    if let Some(t_mesh) = theirs {
        figures.hits += 1;
        // At the mesh's contact the true solid is between r − s and r away.
        let d = distance(c + v * t_mesh);
        figures.worst_distance_excess = figures.worst_distance_excess.max(d - r).max(r - sagitta - d);
        assert!(d <= r + MESH_TOL, "mesh contact at {d} from the true shape: {}", what());
        assert!(
            d >= r - sagitta - MESH_TOL,
            "mesh contact at {d}, inside r − s: {}",
            what()
        );
        match ours {
            // The analytic contact is not after the mesh's (in travel).
            Some(hit) => assert!(
                (hit.time as f64 - t_mesh) * speed <= MESH_TOL || d >= r - MESH_TOL,
                "analytic contact after the mesh's: {}",
                what()
            ),
            None => {
                figures.grazing += 1;
                assert!(d >= r - MESH_TOL, "the analytic sweep missed a contact: {}", what());
            }
        }
    } else if let Some(hit) = deep {
        // The mesh reaches at least as far as the shape shrunk by the sagitta.
        panic!(
            "the mesh sweep missed a contact the true shape has even at r − s ({hit:?}): {}",
            what()
        );
    } else if ours.is_some() {
        figures.grazing += 1;
    }
    if let (Some(t_mesh), Some(deep)) = (theirs, deep) {
        assert!(
            (t_mesh - deep.time as f64) * speed <= MESH_TOL * 10.0 || distance(c + v * t_mesh) >= r - MESH_TOL,
            "mesh contact after the shrunk shape's: {}",
            what()
        );
    }
}

#[test]
fn plane_agrees_with_a_meshed_quad() {
    let mesh = mesh_of(&big_quad());
    let plane = AnalyticShape::Plane(Plane::new(Vec3::ZERO, Vec3::Y).unwrap());
    let mut rng = Lcg::new(5);
    let mut figures = MeshFigures::default();
    for _ in 0..10_000 {
        let case = random_case(
            &mut rng,
            &plane,
            (Vec3::new(-20.0, 0.0, -20.0), Vec3::new(20.0, 8.0, 20.0)),
            1e-3,
        );
        compare_with_mesh(&plane, &mesh, 0.0, &case, |p| p.y.max(0.0), &mut figures);
    }
    println!("plane vs quad: {figures:?}");
    assert!(figures.hits > 2_000);
}

#[test]
fn cylinder_agrees_with_a_meshed_cylinder() {
    let cylinder = Cylinder::new(Vec3::new(2.0, -1.0, 3.0), Vec3::Y, 3.0, 1.5).unwrap();
    let mut soup = Soup::default();
    soup.cylinder(cylinder.base, cylinder.radius, cylinder.height, SEGMENTS);
    let mesh = mesh_of(&soup);
    let s = sagitta(cylinder.radius, SEGMENTS);
    let shape = AnalyticShape::Cylinder(cylinder);
    let mut rng = Lcg::new(256);
    let mut figures = MeshFigures::default();
    let around = (cylinder.base - Vec3::splat(6.0), cylinder.base + Vec3::splat(6.0));
    for _ in 0..10_000 {
        let case = random_case(&mut rng, &shape, around, s as f32 + 1e-3);
        compare_with_mesh(&shape, &mesh, s, &case, |p| exact_distance(&cylinder, p), &mut figures);
    }
    println!("cylinder vs {SEGMENTS}-gon prism (sagitta {s:e} m): {figures:?}");
    assert!(figures.hits > 2_000);
}

#[test]
fn transformed_shapes_agree_with_transformed_meshes() {
    let transform = Affine3A::from_scale_rotation_translation(
        Vec3::splat(1.7),
        Quat::from_euler(glam::EulerRot::XYZ, 0.4, -1.1, 2.0),
        Vec3::new(-3.0, 5.0, 1.0),
    );
    let cylinder = Cylinder::new(Vec3::ZERO, Vec3::Y, 2.0, 1.0).unwrap();
    let mut soup = Soup::default();
    soup.cylinder(Vec3::ZERO, 1.0, 2.0, SEGMENTS);
    soup.positions = soup.positions.iter().map(|p| transform.transform_point3(*p)).collect();
    let mesh = mesh_of(&soup);
    let moved = AnalyticShape::Cylinder(cylinder).transformed(&transform).unwrap();
    let AnalyticShape::Cylinder(moved_cylinder) = moved else {
        unreachable!()
    };
    let s = sagitta(moved_cylinder.radius, SEGMENTS);
    let mut rng = Lcg::new(17);
    let mut figures = MeshFigures::default();
    let centre = transform.transform_point3(Vec3::Y);
    for _ in 0..3_000 {
        let case = random_case(
            &mut rng,
            &moved,
            (centre - Vec3::splat(6.0), centre + Vec3::splat(6.0)),
            s as f32 + 1e-3,
        );
        compare_with_mesh(
            &moved,
            &mesh,
            s,
            &case,
            |p| exact_distance(&moved_cylinder, p),
            &mut figures,
        );
    }
    println!("transformed cylinder: {figures:?}");
    assert!(figures.hits > 500);
}

#[test]
fn a_level_mesh_minus_the_analytic_triangles_plus_the_shapes_is_the_mesh() {
    // A floor quad (triangles 0 and 1) and a pillar standing on it.
    let mut soup = big_quad();
    let pillar = Cylinder::new(Vec3::ZERO, Vec3::Y, 3.0, 1.0).unwrap();
    soup.cylinder(pillar.base, pillar.radius, pillar.height, SEGMENTS);
    let mesh = mesh_of(&soup);
    let shapes = [
        AnalyticShape::Plane(Plane::new(Vec3::ZERO, Vec3::Y).unwrap()),
        AnalyticShape::Cylinder(pillar),
    ];
    let s = sagitta(1.0, SEGMENTS);
    let mut rng = Lcg::new(99);
    let mut compared = 0;
    for _ in 0..2_000 {
        let case = random_case(
            &mut rng,
            &shapes[1],
            (Vec3::new(-5.0, 0.0, -5.0), Vec3::splat(5.0)),
            s as f32 + 1e-3,
        );
        if shapes[0].signed_distance(case.start) <= case.radius + 1e-3 {
            continue;
        }
        let sphere = Ellipsoid::sphere(case.radius).unwrap();
        let motion = case.velocity * case.t_max;
        let colliders = [PlacedCollider::fixed(&mesh)];
        // Every triangle is analytic here: the filtered sweep sees none.
        assert!(
            sweep_with(
                &sphere,
                case.start,
                motion,
                &colliders,
                CollisionLayers::ALL,
                KeepTriangles(|_: &Candidate<'_, '_>| false)
            )
            .is_none()
        );
        let all = sweep(&sphere, case.start, motion, &colliders).map(|h| h.time * case.t_max);
        let floor_only = sweep_with(
            &sphere,
            case.start,
            motion,
            &colliders,
            CollisionLayers::ALL,
            KeepTriangles(|c: &Candidate<'_, '_>| c.triangle() < 2),
        );
        let exact = shapes
            .iter()
            .filter_map(|shape| shape.sweep_sphere(case.start, case.radius, case.velocity, case.t_max))
            .map(|h| h.time)
            .reduce(f32::min);
        if let Some(f) = floor_only {
            assert!(f.triangle < 2);
        }
        match (all, exact) {
            (Some(m), Some(e)) => {
                assert!(
                    (e - m) * case.velocity.length() <= MESH_TOL as f32,
                    "{case:?}: exact {e}, mesh {m}"
                );
                compared += 1;
            }
            (Some(m), None) => {
                let centre = (case.start + case.velocity * m).as_dvec3();
                let d = exact_distance(&pillar, centre).min(centre.y);
                assert!(
                    d >= case.radius as f64 - MESH_TOL,
                    "{case:?}: the exact shapes missed the mesh's contact"
                );
            }
            _ => {}
        }
    }
    assert!(compared > 300, "{compared}");
}
