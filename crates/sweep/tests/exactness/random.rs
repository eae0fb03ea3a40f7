//! Random cases: triangles (generic, thin, large, tiny) and motions
//! (random, aimed, along an edge, in the plane, skimming an edge's reach),
//! each checked exactly, with no failure allowed.

use crate::check::{Stats, check_case};
use crate::exact::{dist_point_triangle, in_box, log_uniform, random_point_on, random_start, unit};
use glam::Vec3;

/// A triangle near the origin: generic, thin, large or tiny. Only triangles a
/// `MeshCollider` would keep (`triangle_defect` is `None`).
fn random_triangle(rng: &mut fastrand::Rng) -> [Vec3; 3] {
    loop {
        let tri = match rng.u32(0..5) {
            0 | 1 => [in_box(rng, 2.0), in_box(rng, 2.0), in_box(rng, 2.0)],
            2 => {
                // Thin: height 1e-4 .. 1e-1 of the base.
                let (a, b) = (in_box(rng, 2.5), in_box(rng, 2.5));
                let e = b - a;
                let perp = e.cross(unit(rng)).normalize_or_zero();
                let u = rng.f32() * 1.4 - 0.2;
                [a, b, a + e * u + perp * e.length() * log_uniform(rng, -4.0, -1.0)]
            }
            3 => [in_box(rng, 10.0), in_box(rng, 10.0), in_box(rng, 10.0)],
            _ => {
                let a = in_box(rng, 2.0);
                [a, a + in_box(rng, 0.1), a + in_box(rng, 0.1)]
            }
        };
        if slidewalk_sweep::triangle_defect(tri).is_none() {
            return tri;
        }
    }
}

/// A motion from `s`: random, aimed at the triangle, nearly parallel to an
/// edge, or parallel to the plane.
fn random_motion(rng: &mut fastrand::Rng, s: Vec3, tri: [Vec3; 3], kind: u32) -> Vec3 {
    let len = 6.0 * rng.f32();
    match kind {
        0 => unit(rng) * len,
        1 => {
            let target = random_point_on(rng, tri) + unit(rng) * 1.5 * rng.f32();
            (target - s) * (0.3 + 1.7 * rng.f32())
        }
        2 => {
            let k = rng.usize(0..3);
            let e = (tri[(k + 1) % 3] - tri[k]).normalize();
            let sign = if rng.bool() { 1.0 } else { -1.0 };
            (e * sign + unit(rng) * log_uniform(rng, -6.0, -1.0)) * len
        }
        3 => {
            let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
            let d = unit(rng);
            (d - n * n.dot(d)).normalize_or_zero() * len
        }
        _ => unreachable!("kind 4 needs its own start: skimming_edge_case"),
    }
}

/// Kind 4: a start just out of reach of an edge line (1 + 1e-6 .. 1.1) and a
/// motion along the edge converging on it (or diverging) at 1e-6 .. 1e-1 rad.
/// Returns `(start, motion)`; the start is re-drawn by the caller if it is
/// within 1 of the triangle.
fn skimming_edge_case(rng: &mut fastrand::Rng, tri: [Vec3; 3]) -> (Vec3, Vec3) {
    let k = rng.usize(0..3);
    let (p0, p1) = (tri[k], tri[(k + 1) % 3]);
    let e = (p1 - p0).normalize();
    let perp = e.cross(unit(rng)).normalize_or_zero();
    let gap = 1.0 + log_uniform(rng, -6.0, -1.0);
    let start = p0 + (p1 - p0) * (rng.f32() * 1.4 - 0.2) + perp * gap;
    let sign = if rng.bool() { 1.0 } else { -1.0 };
    let toward = if rng.u32(0..4) == 0 { 1.0 } else { -1.0 };
    let len = 6.0 * rng.f32();
    (start, (e * sign + perp * toward * log_uniform(rng, -6.0, -1.0)) * len)
}

/// Runs `cases` random cases; returns the statistics and the failures.
fn run_random(seed: u64, cases: usize, kinds: &[u32]) -> (Stats, Vec<String>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for i in 0..cases {
        let tri_world = random_triangle(&mut rng);
        let kind = kinds[i % kinds.len()];
        let (s, v) = if kind == 4 {
            let t64 = tri_world.map(Vec3::as_dvec3);
            loop {
                let (s, v) = skimming_edge_case(&mut rng, tri_world);
                if dist_point_triangle(s.as_dvec3(), &t64) > 1.0 {
                    break (s, v);
                }
            }
        } else {
            let s = random_start(&mut rng, tri_world, -6.0);
            (s, random_motion(&mut rng, s, tri_world, kind))
        };
        let tri = tri_world.map(|p| p - s);
        if let Err(e) = check_case(v, tri, &mut stats) {
            failures.push(format!("case {i} (motion kind {kind}): v = {v:?}, tri = {tri:?}: {e}"));
        }
    }
    println!("seed {seed:#x}: {stats:?}, failures: {}", failures.len());
    (stats, failures)
}

fn assert_no_failures(cases: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {cases} cases fail; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
}

/// Every contact is at distance 1 and first, every miss stays clear: no
/// failure at all.
#[test]
fn random_contacts_are_exact_and_first() {
    let (s, failures) = run_random(0x5eed_0001, 20_000, &[0, 1, 1, 3]);
    assert_no_failures(20_000, &failures);
    // The generator must exercise every feature, else the test proves little.
    assert!(
        s.face > 500 && s.edge > 500 && s.vertex > 200 && s.misses > 500,
        "{s:?}"
    );
}

/// Motions nearly parallel to an edge (1e-6 .. 1e-1 rad), from anywhere or
/// skimming the edge's reach: the edge quadratic's leading coefficient is
/// small there. No failure at all.
#[test]
fn random_near_edge_parallel_motions_are_exact() {
    let (s, failures) = run_random(0x5eed_0002, 20_000, &[2, 4]);
    assert_no_failures(20_000, &failures);
    assert!(s.edge > 1000, "{s:?}");
}
