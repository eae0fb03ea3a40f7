//! Proves the analytic colliders' sphere sweeps exact: against an
//! independent f64 reference (the first root of the convex distance along
//! the path), against their meshed versions swept by the collision core
//! (a big quad for the plane, a 256-segment closed cylinder), and on
//! hand-computed cases (falling on the plane, head-on at the side, straight
//! down onto a cap, onto the rim at 45°).
//!
//! # Tolerances, and why
//!
//! * **Reference** (`LATE`, `EARLY`: 1e-5 m of travel): the analytic contact
//!   may come neither later nor earlier than the reference's by more than
//!   that. The reference finds the minimum of the convex distance by
//!   golden-section search and the first root by bisection, in f64, with
//!   the capped-cylinder distance written here independently of the crate.
//!   Hit/no-hit may differ only when the path grazes (`GRAZE`: its closest
//!   approach is within 1e-6 m of the radius).
//! * **Meshes**: the 256-gon is inscribed in the circle, so the meshed solid
//!   lies inside the true one and every point of the true solid is within
//!   the sagitta `s = R(1 − cos(π/256))` of it. Hence, with `t(ρ)` the
//!   analytic contact time of a sphere of radius `ρ`,
//!   `t(r) ≤ t_mesh(r) ≤ t(r − s)`, and at the mesh's contact the true
//!   distance is in `[r − s, r]`. These are checked to `MESH_TOL` (1e-4 m),
//!   the core's f32 error at these sizes in eSpace (its own exactness tests
//!   allow 1e-5 of the scale). The plane has no tessellation error (`s = 0`).
//!
//! `cargo test -p sweep --test analytic -- --nocapture` prints the measured figures.

use glam::{Affine3A, DVec3, Quat, Vec3};
use sweep::test_util::{Lcg, Soup};
use sweep::{
    AnalyticHit, AnalyticShape, Cylinder, Ellipsoid, MeshCollider, PlacedCollider, Plane, sweep, sweep_filtered,
    sweep_sphere_cylinder, sweep_sphere_plane,
};

/// Largest lateness of a contact against the reference, metres of travel.
const LATE: f64 = 1e-5;
/// Largest earliness of a contact against the reference, metres of travel.
const EARLY: f64 = 1e-5;
/// Closest approach within this of the radius (metres): hit or miss both accepted.
const GRAZE: f64 = 1e-6;
/// Distance tolerance (metres) when comparing with the meshed shapes.
const MESH_TOL: f64 = 1e-4;
/// Segments of the meshed cylinder.
const SEGMENTS: u32 = 256;

macro_rules! assert_approx_eq {
    ($a:expr, $b:expr, $tol:expr) => {{
        let (a, b, tol) = (($a) as f64, ($b) as f64, ($tol) as f64);
        assert!(
            (a - b).abs() <= tol,
            "{} = {a} but {} = {b}: |Δ| = {:e} > {tol:e}",
            stringify!($a),
            stringify!($b),
            (a - b).abs()
        );
    }};
}

// ---------------------------------------------------------------------------
// Independent f64 reference.
// ---------------------------------------------------------------------------

/// Distance from `p` to the solid capped cylinder (0 inside), written as the
/// distance to a box in the (radial, axial) half-plane.
fn exact_distance(c: &Cylinder, p: DVec3) -> f64 {
    let a = c.axis.as_dvec3().normalize();
    let w = p - c.base.as_dvec3();
    let h = w.dot(a);
    let rho = (w - a * h).length();
    let half = c.height as f64 / 2.0;
    let dx = rho - c.radius as f64;
    let dy = (h - half).abs() - half;
    dx.max(0.0).hypot(dy.max(0.0))
}

/// A sphere's centre moving on a line, against a cylinder.
struct Path<'a> {
    cylinder: &'a Cylinder,
    start: DVec3,
    v: DVec3,
    radius: f64,
}

impl Path<'_> {
    fn gap(&self, t: f64) -> f64 {
        exact_distance(self.cylinder, self.start + self.v * t) - self.radius
    }

    /// Minimum of the (convex) gap on `[a, b]`: (time, gap), golden-section search.
    fn min_on(&self, mut a: f64, mut b: f64) -> (f64, f64) {
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
        let (mut f1, mut f2) = (self.gap(x1), self.gap(x2));
        for _ in 0..200 {
            if f1 <= f2 {
                b = x2;
                (x2, f2) = (x1, f1);
                x1 = b - g * (b - a);
                f1 = self.gap(x1);
            } else {
                a = x1;
                (x1, f1) = (x2, f2);
                x2 = a + g * (b - a);
                f2 = self.gap(x2);
            }
        }
        [(a, self.gap(a)), (b, self.gap(b)), (x1, f1)]
            .into_iter()
            .fold((0.0, f64::INFINITY), |best, c| if c.1 < best.1 { c } else { best })
    }

    /// The first contact time in `[0, t_max]` and the closest approach's gap.
    fn first_contact(&self, t_max: f64) -> (Option<f64>, f64) {
        let (t_min, gap_min) = self.min_on(0.0, t_max);
        let gap0 = self.gap(0.0);
        if gap0.min(gap_min) > 0.0 {
            return (None, gap_min.min(gap0));
        }
        let (mut lo, mut hi) = (0.0, if gap0 <= 0.0 { 0.0 } else { t_min });
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if self.gap(mid) > 0.0 { lo = mid } else { hi = mid }
        }
        (Some(hi), gap_min.min(gap0))
    }
}

// ---------------------------------------------------------------------------
// Cases.
// ---------------------------------------------------------------------------

/// A random sweep: start, velocity (m/s), radius, duration (s).
#[derive(Clone, Copy, Debug)]
struct Case {
    start: Vec3,
    velocity: Vec3,
    radius: f32,
    t_max: f32,
}

/// A random case outside `shape` (at least `clearance` beyond the sphere's
/// radius), aimed half the time at a point near the shape's surface.
fn random_case(rng: &mut Lcg, shape: &AnalyticShape, around: (Vec3, Vec3), clearance: f32) -> Case {
    loop {
        let radius = rng.range(0.1, 1.5);
        let start = rng.in_box(around.0, around.1);
        if shape.signed_distance(start) <= radius + clearance {
            continue;
        }
        let direction = if rng.next_f32() < 0.5 {
            let target = rng.in_box(around.0, around.1);
            let on_surface = shape.closest_point(target) + rng.direction() * rng.range(0.0, radius * 1.2);
            (on_surface - start).normalize_or_zero()
        } else {
            rng.direction()
        };
        let speed = rng.range(0.5, 10.0);
        let t_max = rng.range(0.5, 20.0) / speed;
        if direction != Vec3::ZERO {
            return Case {
                start,
                velocity: direction * speed,
                radius,
                t_max,
            };
        }
    }
}

/// A random cylinder, sometimes degenerate (a disk or a segment).
fn random_cylinder(rng: &mut Lcg) -> Cylinder {
    let height = if rng.next_f32() < 0.1 { 0.0 } else { rng.range(0.1, 5.0) };
    let radius = if rng.next_f32() < 0.1 { 0.0 } else { rng.range(0.1, 3.0) };
    Cylinder::new(
        rng.in_box(Vec3::splat(-3.0), Vec3::splat(3.0)),
        rng.direction(),
        height,
        radius,
    )
    .unwrap()
}

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

// ---------------------------------------------------------------------------
// Closed-form cases.
// ---------------------------------------------------------------------------

fn pillar() -> Cylinder {
    Cylinder::new(Vec3::ZERO, Vec3::Y, 2.0, 1.0).unwrap()
}

fn assert_hit(hit: Option<AnalyticHit>, time: f32, point: Vec3, normal: Vec3) {
    let hit = hit.expect("a contact");
    assert_approx_eq!(hit.time, time, 1e-6);
    assert!((hit.point - point).length() < 1e-5, "point {} != {point}", hit.point);
    assert!(
        (hit.normal - normal).length() < 1e-5,
        "normal {} != {normal}",
        hit.normal
    );
    assert!(!hit.started_embedded);
}

#[test]
fn sphere_falling_on_the_plane() {
    let floor = Plane::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y).unwrap();
    let hit = sweep_sphere_plane(&floor, Vec3::new(2.0, 9.0, 0.0), 0.5, Vec3::new(0.0, -4.0, 0.0), 5.0);
    assert_hit(hit, 2.375, Vec3::new(2.0, -1.0, 0.0), Vec3::Y);
    // Tilted: the plane through the origin facing (1, 1, 0)/√2, dropped on from above.
    let tilted = Plane::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0)).unwrap();
    let hit = sweep_sphere_plane(&tilted, Vec3::new(0.0, 10.0, 0.0), 1.0, Vec3::NEG_Y, 20.0);
    let t = 10.0 - std::f32::consts::SQRT_2;
    assert_hit(
        hit,
        t,
        Vec3::new(-0.5, 0.5, 0.0) * (10.0 - t),
        Vec3::new(1.0, 1.0, 0.0).normalize(),
    );
}

#[test]
fn head_on_at_the_side() {
    let hit = sweep_sphere_cylinder(
        &pillar(),
        Vec3::new(5.0, 1.0, 0.0),
        0.5,
        Vec3::new(-2.0, 0.0, 0.0),
        10.0,
    );
    assert_hit(hit, 1.75, Vec3::new(1.0, 1.0, 0.0), Vec3::X);
    let diagonal = Vec3::new(-1.0, 0.0, -1.0).normalize();
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(4.0, 0.3, 4.0), 0.25, diagonal, 10.0);
    assert_hit(hit, 32f32.sqrt() - 1.25, -diagonal + Vec3::Y * 0.3, -diagonal);
}

#[test]
fn straight_down_onto_a_cap() {
    let hit = sweep_sphere_cylinder(
        &pillar(),
        Vec3::new(0.3, 7.0, -0.2),
        0.5,
        Vec3::new(0.0, -3.0, 0.0),
        10.0,
    );
    assert_hit(hit, 1.5, Vec3::new(0.3, 2.0, -0.2), Vec3::Y);
    // And up into the bottom one.
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(-0.6, -4.0, 0.0), 1.0, Vec3::Y, 10.0);
    assert_hit(hit, 3.0, Vec3::new(-0.6, 0.0, 0.0), Vec3::NEG_Y);
}

#[test]
fn onto_the_rim_at_45_degrees() {
    let out = Vec3::new(1.0, 1.0, 0.0).normalize();
    let rim = Vec3::new(1.0, 2.0, 0.0);
    for radius in [0.1, 0.5, 2.0] {
        let hit = sweep_sphere_cylinder(&pillar(), rim + out * 5.0, radius, -out * 2.0, 10.0);
        assert_hit(hit, (5.0 - radius) / 2.0, rim, out);
    }
    // The bottom rim, from the side below and behind (−z).
    let out = Vec3::new(0.0, -1.0, -1.0).normalize();
    let rim = Vec3::new(0.0, 0.0, -1.0);
    let hit = sweep_sphere_cylinder(&pillar(), rim + out * 3.0, 0.4, -out, 10.0);
    assert_hit(hit, 2.6, rim, out);
}

#[test]
fn overlapping_and_moving_inwards_hits_at_once() {
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(1.3, 1.0, 0.0), 0.5, Vec3::NEG_X, 1.0).unwrap();
    assert_eq!(hit.time, 0.0);
    assert!(hit.started_embedded);
    assert!((hit.normal - Vec3::X).length() < 1e-6);
    // Moving out of the overlap, or along the surface: let go.
    assert_eq!(
        sweep_sphere_cylinder(&pillar(), Vec3::new(1.3, 1.0, 0.0), 0.5, Vec3::X, 1.0),
        None
    );
    assert_eq!(
        sweep_sphere_cylinder(&pillar(), Vec3::new(1.3, 1.0, 0.0), 0.5, Vec3::Y, 1.0),
        None
    );
    // Centre inside the solid, moving deeper: a contact now.
    let hit = sweep_sphere_cylinder(&pillar(), Vec3::new(0.0, 1.8, 0.0), 0.1, Vec3::NEG_Y, 1.0).unwrap();
    assert!(hit.started_embedded && hit.time == 0.0);
    assert!((hit.point - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-6);
}

// ---------------------------------------------------------------------------
// Random cases against the reference.
// ---------------------------------------------------------------------------

#[test]
fn cylinder_contacts_are_never_late_nor_early() {
    let mut rng = Lcg::new(30);
    let (mut hits, mut rims, mut grazing, mut worst_late, mut worst_early) = (0, 0, 0, 0f64, 0f64);
    let cases = 20_000;
    for i in 0..cases {
        let cylinder = random_cylinder(&mut rng);
        let shape = AnalyticShape::Cylinder(cylinder);
        let case = random_case(&mut rng, &shape, (Vec3::splat(-8.0), Vec3::splat(8.0)), 1e-3);
        let path = Path {
            cylinder: &cylinder,
            start: case.start.as_dvec3(),
            v: case.velocity.as_dvec3(),
            radius: case.radius as f64,
        };
        let (reference, closest_gap) = path.first_contact(case.t_max as f64);
        let ours = shape.sweep_sphere(case.start, case.radius, case.velocity, case.t_max);
        let speed = case.velocity.length() as f64;
        let what = || format!("case {i}: {case:?} against {cylinder:?}: ours {ours:?}, reference {reference:?}");
        match (ours, reference) {
            (Some(hit), Some(t)) => {
                hits += 1;
                // Neither along nor across the axis: a rim contact.
                rims += (0.05..0.95).contains(&hit.normal.dot(cylinder.axis).abs()) as usize;
                let late = (hit.time as f64 - t) * speed;
                worst_late = worst_late.max(late);
                worst_early = worst_early.max(-late);
                assert!(late <= LATE, "{:e} m late: {}", late, what());
                assert!(
                    -late <= EARLY || closest_gap.abs() <= GRAZE,
                    "{:e} m early: {}",
                    -late,
                    what()
                );
                let gap = path.gap(hit.time as f64);
                assert!(gap.abs() <= 1e-5, "contact at gap {gap:e}: {}", what());
                let cp = hit.point.as_dvec3();
                assert!(
                    exact_distance(&cylinder, cp) <= 1e-5,
                    "contact point off the surface: {}",
                    what()
                );
                let centre = path.start + path.v * hit.time as f64;
                let expected_normal = (centre - cp).normalize();
                assert!(
                    (hit.normal.as_dvec3() - expected_normal).length() <= 1e-3,
                    "normal: {}",
                    what()
                );
            }
            (None, None) => {}
            _ => {
                grazing += 1;
                assert!(
                    closest_gap.abs() <= GRAZE,
                    "hit/no-hit disagree, gap {closest_gap:e}: {}",
                    what()
                );
            }
        }
    }
    println!(
        "cylinder vs reference: {cases} cases, {hits} hits ({rims} on a rim), {grazing} grazing disagreements, \
         worst late {worst_late:e} m, worst early {worst_early:e} m"
    );
    assert!(hits > cases / 4, "too few hits ({hits}) to test anything");
    assert!(
        rims > hits / 10,
        "too few rim contacts ({rims}) to test the advancement"
    );
}

#[test]
fn moving_away_never_hits() {
    let mut rng = Lcg::new(7);
    for _ in 0..5_000 {
        let cylinder = random_cylinder(&mut rng);
        let shape = AnalyticShape::Cylinder(cylinder);
        let case = random_case(&mut rng, &shape, (Vec3::splat(-8.0), Vec3::splat(8.0)), 1e-3);
        // Away from the closest point: the distance to a convex solid only grows.
        let out = (case.start - shape.closest_point(case.start)).normalize();
        let mut v = rng.direction() * case.velocity.length();
        if v.dot(out) < 0.0 {
            v -= 2.0 * v.dot(out) * out;
        }
        assert_eq!(
            shape.sweep_sphere(case.start, case.radius, v, 100.0),
            None,
            "{case:?} {cylinder:?}"
        );
        // A plane: start in front, move away from it or along it.
        let plane = Plane::new(Vec3::ZERO, rng.direction()).unwrap();
        let n = plane.normal;
        let start = case.start + n * (case.radius + 0.01 - plane.signed_distance(case.start)).max(0.0);
        let along = v - n * v.dot(n);
        for v in [along, along + n * v.dot(n).abs()] {
            assert_eq!(sweep_sphere_plane(&plane, start, case.radius, v, 100.0), None);
        }
    }
}

// ---------------------------------------------------------------------------
// Against the meshed shapes, swept by the collision core.
// ---------------------------------------------------------------------------

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
        assert!(sweep_filtered(&sphere, case.start, motion, &colliders, |_, _| false).is_none());
        let all = sweep(&sphere, case.start, motion, &colliders).map(|h| h.time * case.t_max);
        let floor_only = sweep_filtered(&sphere, case.start, motion, &colliders, |_, t| t < 2);
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
