//! Target `sweep`: arbitrary triangle soups (degenerate, duplicated,
//! needles, huge 1e30 and tiny 1e-30 scales, far from the origin, NaN and
//! infinite corners, bad indices) through `MeshCollider::build`, then one
//! ellipsoid of arbitrary radii swept, slid and depenetrated against it,
//! fixed or at a moving pose, with random collision layers for the body
//! and the collider and, now and then, the collider one-way.
//!
//! Checked, beyond "no panic":
//! * the build report adds up and every kept triangle is valid;
//! * `Ellipsoid::new` refuses exactly the non-finite and non-positive radii;
//! * for finite inputs: a hit's time is in `[0, 1]`, its point, normal and
//!   the slide's position are finite, the normals unit;
//! * a slide that starts free never ends penetrating (more than a rounding
//!   tolerance, [`tolerance`]); a sweep that reports no hit leaves the end
//!   of the motion free; a depenetration that says "free" is free. "Free"
//!   and "deep" count only the triangles the rules keep for the body
//!   (layers; a one-way triangle only where the body started the move in
//!   front of it), measured by brute force.

use crate::draw;
use crate::signature::Signature;

mod settle_check;
use arbitrary::{Result, Unstructured};
use glam::{Quat, Vec3};
use slidewalk_sweep::{
    Candidate, CollisionLayers, ContactFilter, Ellipsoid, MeshCollider, PlacedCollider, Pose, SlideOptions,
    StandardRules, closest_point_on_triangle, collide_and_slide, depenetrate, triangle_defect,
};

/// The target: bytes → a case → checks. Returns a behaviour signature.
pub fn run(data: &[u8]) -> u64 {
    let mut u = Unstructured::new(data);
    match Case::generate(&mut u) {
        Ok(case) => case.check(),
        Err(_) => 0,
    }
}

/// The case the bytes stand for.
pub fn describe(data: &[u8]) -> String {
    let Ok(case) = Case::generate(&mut Unstructured::new(data)) else {
        return "(too few bytes for a case)".into();
    };
    let mut out = String::new();
    for (i, t) in case.triangles.iter().enumerate() {
        let corners = t.map(|k| case.positions.get(k as usize).copied());
        out += &format!("triangle {i} {t:?}: {corners:?}\n");
    }
    out += &format!(
        "radii {}\nstart {}\nmotion {}\npose {:?}\noptions {:?}\ncollider layers {:?}, one-way {:?}",
        case.radii, case.start, case.motion, case.pose, case.options, case.collider_layers, case.one_way
    );
    out
}

/// Seeds: a few hand-made cases as bytes are not meaningful here; the
/// driver starts from random bytes.
pub fn seeds() -> Vec<Vec<u8>> {
    vec![vec![0; 64], vec![0x55; 256], (0..=255).collect()]
}

/// One generated case.
#[derive(Debug)]
pub struct Case {
    positions: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    radii: Vec3,
    start: Vec3,
    motion: Vec3,
    pose: Option<(Pose, Vec3, Vec3)>,
    options: SlideOptions,
    collider_layers: CollisionLayers,
    one_way: Option<Vec3>,
}

/// Random layers now and then (drawn last, so older corpus files keep
/// their meaning): mostly all, else masks that may or may not meet.
fn draw_layers(u: &mut Unstructured<'_>) -> Result<CollisionLayers> {
    Ok(if u.ratio(1u8, 4)? {
        CollisionLayers::new(u.int_in_range(0u32..=15)?, u.int_in_range(0u32..=15)?)
    } else {
        CollisionLayers::ALL
    })
}

impl Case {
    /// Draws a case from the bytes.
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let s = draw::scale(u)?;
        let offset = match u.int_in_range(0u8..=5)? {
            0 => draw::sane_vec3(u, 1.0)? * 10f32.powi(u.int_in_range(0..=9)?),
            1 => draw::any_vec3(u, 1e3)?,
            _ => Vec3::ZERO,
        };
        let mut soup = slidewalk_sweep::test_util::Soup::default();
        let parts = u.int_in_range(1u8..=6)?;
        for _ in 0..parts {
            add_part(u, &mut soup, s, offset)?;
        }
        if u.ratio(1u8, 16)? {
            // A bad index.
            let t = u.choose_index(soup.triangles.len())?;
            let k = u.choose_index(3)?;
            soup.triangles[t][k] = soup.positions.len() as u32 + u.int_in_range(0u32..=3)?;
        }
        let radii = match u.int_in_range(0u8..=7)? {
            0 => draw::any_vec3(u, 2.0)?,
            1 => Vec3::splat(draw::in_range(u, 0.05, 2.0)? * s),
            _ => {
                Vec3::new(
                    draw::in_range(u, 0.05, 2.0)?,
                    draw::in_range(u, 0.05, 2.0)?,
                    draw::in_range(u, 0.05, 2.0)?,
                ) * s
            }
        };
        let start = match u.int_in_range(0u8..=7)? {
            0 => draw::any_vec3(u, 3.0)?,
            _ => offset + draw::sane_vec3(u, 3.0 * s)?,
        };
        let motion = match u.int_in_range(0u8..=7)? {
            0 => draw::any_vec3(u, 4.0)?,
            1 => Vec3::ZERO,
            _ => draw::sane_vec3(u, 4.0 * s)?,
        };
        let pose = if u.ratio(1u8, 4)? {
            let pose = Pose {
                rotation: draw::rotation(u)?,
                translation: draw::sane_vec3(u, s)?,
            };
            Some((pose, draw::sane_vec3(u, 2.0 * s)?, draw::sane_vec3(u, 1.0)?))
        } else {
            None
        };
        let options = SlideOptions {
            skin: draw::maybe_f32(u, 1e-3, 0.05)?,
            max_iterations: u.int_in_range(0u32..=8)?,
            depenetration_iterations: u.int_in_range(0u32..=10)?,
            stop_on_ground: if u.arbitrary()? {
                Some(slidewalk_sweep::Ground::y_up(draw::maybe_f32(u, 0.8, 2.0)?))
            } else {
                None
            },
            layers: CollisionLayers::ALL,
            one_way_step: 0.0,
        };
        let mut options = options;
        options.layers = draw_layers(u)?;
        options.one_way_step = if u.ratio(1u8, 4)? {
            draw::in_range(u, 0.0, 2.0 * s)?
        } else {
            0.0
        };
        let collider_layers = draw_layers(u)?;
        let one_way = match u.int_in_range(0u8..=7)? {
            0 => Some(Vec3::Y),
            1 => Some(draw::sane_vec3(u, 1.0)?),
            _ => None,
        };
        Ok(Self {
            positions: soup.positions,
            triangles: soup.triangles,
            radii,
            start,
            motion,
            pose,
            options,
            collider_layers,
            one_way,
        })
    }

    /// Runs the code under test and checks the invariants; panics on a violation.
    pub fn check(&self) -> u64 {
        let mut sig = Signature::default();
        let built = MeshCollider::build(&self.positions, &self.triangles);
        let mesh = match built {
            Ok(mesh) => {
                let r = mesh.report();
                assert_eq!(r.input_triangles, self.triangles.len());
                assert_eq!(r.triangles, mesh.len());
                assert_eq!(
                    r.triangles + r.rejected_degenerate + r.rejected_non_finite,
                    r.input_triangles
                );
                for slot in 0..mesh.len() {
                    let t = mesh.triangle(slot);
                    assert_eq!(triangle_defect(t), None, "kept triangle {t:?}");
                    assert!((mesh.input_index(slot) as usize) < self.triangles.len());
                }
                sig.add(1);
                mesh
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                sig.add(2);
                return sig.finish();
            }
        };
        let ellipsoid = Ellipsoid::new(self.radii);
        let radii_ok = self.radii.is_finite()
            && self.radii.min_element() >= Ellipsoid::MIN_RADIUS
            && self.radii.max_element() <= Ellipsoid::MAX_RADIUS;
        assert_eq!(ellipsoid.is_ok(), radii_ok, "radii {}", self.radii);
        let Ok(e) = ellipsoid else {
            sig.add(3);
            return sig.finish();
        };
        let placed = match self.pose {
            None => PlacedCollider::fixed(&mesh),
            Some((pose, v, w)) => PlacedCollider::moving(&mesh, pose, v, w),
        }
        .with_layers(self.collider_layers)
        .with_one_way(self.one_way);
        let layers = self.options.layers;
        // What a body judged at `judged` meets of the collider, as the
        // queries take its triangles (the sweep's eSpace, relative to the
        // body), triangle by triangle.
        // With the options' rules (the slide's and the depenetration's) or,
        // for the sweep, the layers alone.
        let kept_by = |mut rules: StandardRules, slot: usize, judged: Vec3| {
            let tri = self.in_espace(placed, judged, mesh.triangle(slot), e.radii());
            let candidate = Candidate::new(0, &placed, slot, tri, judged, e.radii());
            rules.keeps_collider(0, &placed) && rules.keeps_triangle(&candidate)
        };
        let kept = |slot: usize, judged: Vec3| kept_by(self.options.rules(), slot, judged);
        // How deep the body centred at `at` is in the triangles kept when
        // judged from each of `judged` (eSpace units, 0 when free).
        let depth = |at: Vec3, judged: &[Vec3]| {
            (0..mesh.len())
                .filter(|&slot| judged.iter().all(|&j| kept(slot, j)))
                .map(|slot| {
                    let [a, b, c] = self.in_espace(placed, at, mesh.triangle(slot), e.radii());
                    1.0 - closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
                })
                .fold(0.0f32, f32::max)
        };
        let world = [placed];
        let finite = self.start.is_finite() && self.motion.is_finite();
        let tol = tolerance(&e, self.start, self.motion, &mesh, self.pose.map(|p| p.0));

        let hit = slidewalk_sweep::sweep_with(&e, self.start, self.motion, &world, layers, ());
        let checkable = finite && in_domain(&e, self.start, self.motion, &mesh, placed.pose);
        if checkable {
            // The broad phase must not change the answer: every triangle,
            // swept one by one, gives no earlier contact. Each is taken to
            // eSpace as the sweep takes it (`slidewalk_sweep::sweep`'s doc): relative
            // to the start, an unrotated collider's corners in its own
            // frame (p − (start − translation)), a rotated one's through
            // the world point. Through the world point for every collider,
            // a translated one's corners round differently (half an ulp of
            // the world coordinates either way: 2e-5 of the time at 2,600 m
            // for a vertex contact, the sweep's and this one equally far
            // from the exact time on each side), which is not the broad
            // phase's doing.
            let inv_r = e.radii().recip();
            let v = self.motion * inv_r;
            let pose = placed.pose;
            let in_espace = |p: Vec3| {
                if pose.rotation == Quat::IDENTITY {
                    (p - (self.start - pose.translation)) * inv_r
                } else {
                    (pose.transform_point(p) - self.start) * inv_r
                }
            };
            let earliest = (0..mesh.len())
                .filter(|&slot| kept_by(StandardRules::for_layers(layers), slot, self.start))
                .filter_map(|slot| {
                    let tri = mesh.triangle(slot).map(in_espace);
                    slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle(v, tri, 1.0).map(|h| h.t)
                })
                .fold(f32::INFINITY, f32::min);
            let found = hit.map_or(f32::INFINITY, |h| h.time);
            assert!(
                found <= earliest + 1e-5,
                "the sweep's first contact is at {found}, one of its triangles is met at {earliest}"
            );
        }
        if let (Some(hit), true) = (hit, finite) {
            assert!((0.0..=1.0).contains(&hit.time), "hit time {}", hit.time);
            assert!(hit.point.is_finite(), "hit point {}", hit.point);
            assert!(is_unit(hit.normal), "hit normal {}", hit.normal);
            assert!(is_unit(hit.espace_normal), "eSpace normal {}", hit.espace_normal);
            assert_eq!(hit.collider, 0);
            assert!((hit.triangle as usize) < self.triangles.len());
            sig.add(10 + hit.feature as u64 + 3 * hit.started_embedded as u64);
        }

        let slide = collide_and_slide(&e, self.start, self.motion, &world, &self.options);
        if !self.start.is_finite() {
            return sig.finish();
        }
        assert!(slide.position.is_finite(), "slide ended at {}", slide.position);
        assert!(slide.iterations <= self.options.max_iterations.max(1));
        for c in &slide.contacts {
            assert!(c.point.is_finite() && is_unit(c.normal), "contact {c:?}");
        }
        sig.add(20 + slide.contacts.len().min(8) as u64);
        sig.add(30 + slide.blocked as u64 + 2 * slide.unresolved_overlap as u64);

        settle_check::check(&e, self.start, self.motion, &world, &self.options, &mut sig);

        let start_depth = depth(self.start, &[self.start]);
        let start_free = start_depth <= 0.0;
        if start_free && checkable {
            let end = depth(slide.position, &[self.start]);
            assert!(
                end <= tol,
                "slide from a free start ends {end} (eSpace) deep, tolerance {tol}: {} → {}",
                self.start,
                slide.position
            );
            if hit.is_none() {
                // (The sweep's rules: the layers alone, no one-way step.)
                let end = (0..mesh.len())
                    .filter(|&slot| kept_by(StandardRules::for_layers(layers), slot, self.start))
                    .map(|slot| {
                        let [a, b, c] =
                            self.in_espace(placed, self.start + self.motion, mesh.triangle(slot), e.radii());
                        1.0 - closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
                    })
                    .fold(0.0f32, f32::max);
                assert!(end <= tol, "no hit reported, yet the end of the motion is {end} deep");
            }
        }
        sig.add(40 + start_free as u64);

        let (freed, free) = depenetrate(&e, self.start, &world, &self.options);
        let tol = tolerance(&e, self.start, Vec3::ZERO, &mesh, self.pose.map(|p| p.0));
        if free && self.start.is_finite() {
            assert!(freed.is_finite(), "depenetrated to {freed}");
            if in_domain(&e, self.start, Vec3::ZERO, &mesh, placed.pose) {
                // Judged, as the depenetration judges, from where it began.
                let depth = depth(freed, &[self.start]);
                assert!(
                    depth <= tol,
                    "depenetration from {} says free at {freed}, yet {depth} deep",
                    self.start
                );
            }
        }
        sig.add(50 + free as u64);
        sig.finish()
    }
}

impl Case {
    /// A collider's triangle in eSpace relative to the body at `at`, as
    /// the sweep takes it (`slidewalk_sweep::sweep`'s doc): an unrotated
    /// collider's corners from its own frame, a rotated one's through the
    /// world point.
    fn in_espace(&self, placed: PlacedCollider<'_>, at: Vec3, tri: [Vec3; 3], r: Vec3) -> [Vec3; 3] {
        let pose = placed.pose;
        let inv_r = r.recip();
        tri.map(|p| {
            if pose.rotation == Quat::IDENTITY {
                (p - (at - pose.translation)) * inv_r
            } else {
                (pose.transform_point(p) - at) * inv_r
            }
        })
    }
}

/// How deep (eSpace units) rounding alone may leave an ellipsoid: a
/// hundredth of the default skin, raised to some f32 ulps of the eSpace
/// coordinates involved (the ellipsoid's position and motion, the collider's
/// pose and extent).
pub fn tolerance(e: &Ellipsoid, start: Vec3, motion: Vec3, mesh: &MeshCollider, pose: Option<Pose>) -> f32 {
    let r = e.radii();
    let b = mesh.bounds();
    let t = pose.map_or(Vec3::ZERO, |p| p.translation.abs());
    let extent = b.min.abs().max(b.max.abs()) + t;
    let scale = ((start.abs() + motion.abs() + extent) / r).max_element();
    1e-5 + 64.0 * f32::EPSILON * scale
}

/// Whether the case is one f32 can answer exactly enough to check for
/// penetration and against the brute-force sweep: every corner within 1e4
/// radii of the ellipsoid's start (eSpace), and a motion shorter than that.
/// Farther, f32's resolution (1e-3 of a radius at 1e4) is no longer small
/// against the unit sphere: an extremely flat ellipsoid (radii 1 and 2e-6)
/// put corners 1e6 radii away and got contacts out of rounding noise.
fn in_domain(e: &Ellipsoid, start: Vec3, motion: Vec3, mesh: &MeshCollider, pose: Pose) -> bool {
    const LIMIT: f32 = 1e4;
    let r = e.radii();
    let near = |p: Vec3| {
        let rel = (pose.transform_point(p) - start) / r;
        rel.is_finite() && rel.abs().max_element() <= LIMIT
    };
    // And f32 must resolve a thousandth of the smallest radius where the
    // ellipsoid is (at 2.7e7 m a 5 cm sphere is below f32's 2 m step: the
    // sweep's box could not even be widened by the radius).
    let resolved = start.abs().max_element() * f32::EPSILON <= 1e-3 * r.min_element();
    let m = motion / r;
    resolved
        && m.is_finite()
        && m.abs().max_element() <= LIMIT
        && (0..mesh.len()).all(|slot| mesh.triangle(slot).into_iter().all(near))
}

/// Whether `v` has length 1 (to 1e-3).
fn is_unit(v: Vec3) -> bool {
    (v.length() - 1.0).abs() <= 1e-3
}

/// Adds one piece of geometry to the soup, in units of `s`, around `offset`.
fn add_part(u: &mut Unstructured<'_>, soup: &mut slidewalk_sweep::test_util::Soup, s: f32, offset: Vec3) -> Result<()> {
    let p = |u: &mut Unstructured<'_>| -> Result<Vec3> { Ok(offset + draw::sane_vec3(u, 2.0 * s)?) };
    match u.int_in_range(0u8..=9)? {
        0 => {
            // Corners anything at all.
            let (a, b, c) = (
                draw::any_vec3(u, 2.0)?,
                draw::any_vec3(u, 2.0)?,
                draw::any_vec3(u, 2.0)?,
            );
            soup.tri(a, b, c);
        }
        1 => {
            let (a, b, c) = (p(u)?, p(u)?, p(u)?);
            soup.tri(a, b, c);
        }
        2 => {
            // A floor quad.
            let (h, y) = (draw::in_range(u, 0.1, 4.0)? * s, draw::unit(u)? * s);
            let o = offset;
            soup.quad(
                o + Vec3::new(-h, y, -h),
                o + Vec3::new(h, y, -h),
                o + Vec3::new(h, y, h),
                o + Vec3::new(-h, y, h),
            );
        }
        3 => {
            let (a, b) = (p(u)?, p(u)?);
            soup.cuboid(a.min(b), a.max(b));
        }
        4 => {
            // Degenerate: a repeated corner, or three collinear ones.
            let (a, b) = (p(u)?, p(u)?);
            let c = if u.arbitrary()? {
                a
            } else {
                a + (b - a) * draw::unit(u)?
            };
            soup.tri(a, b, c);
        }
        5 => {
            // A needle or sliver: one corner a hair off the opposite edge.
            let (a, b) = (p(u)?, p(u)?);
            let off = draw::sane_vec3(u, 1.0)? * s * 10f32.powi(-u.int_in_range(1..=9)?);
            soup.tri(a, b, (a + b) * 0.5 + off);
        }
        6 => {
            // A copy of an earlier triangle (coplanar duplicate), maybe flipped.
            if let Some(&[i, j, k]) = soup.triangles.last() {
                let [a, b, c] = [i, j, k].map(|i| soup.positions.get(i as usize).copied().unwrap_or(Vec3::ZERO));
                if u.arbitrary()? {
                    soup.tri(a, c, b);
                } else {
                    soup.tri(a, b, c);
                }
            }
        }
        7 => {
            let steps = u.int_in_range(1u32..=4)?;
            let rise = draw::in_range(u, 0.01, 0.6)? * s;
            soup.stairs(offset + draw::sane_vec3(u, s)?, steps, 0.3 * s, rise, s);
        }
        8 => {
            // A thin wall: two faces a hair apart.
            let (x, t) = (draw::unit(u)? * s, s * 10f32.powi(-u.int_in_range(1..=7)?));
            let o = offset;
            for dx in [0.0, t] {
                soup.quad(
                    o + Vec3::new(x + dx, -s, -s),
                    o + Vec3::new(x + dx, s, -s),
                    o + Vec3::new(x + dx, s, s),
                    o + Vec3::new(x + dx, -s, s),
                );
            }
        }
        _ => {
            // A spike: triangles meeting at a sharp point.
            let tip = p(u)?;
            let base = tip - Vec3::Y * s;
            let w = draw::in_range(u, 0.001, 0.5)? * s;
            soup.tri(base + Vec3::new(-w, 0.0, -w), base + Vec3::new(w, 0.0, -w), tip);
            soup.tri(base + Vec3::new(w, 0.0, -w), base + Vec3::new(0.0, 0.0, w), tip);
            soup.tri(base + Vec3::new(0.0, 0.0, w), base + Vec3::new(-w, 0.0, -w), tip);
        }
    }
    Ok(())
}
