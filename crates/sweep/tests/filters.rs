//! Layers, one-way colliders and contact filters: a filtered sweep is the
//! brute-force sweep over only the kept triangles, bit for bit, on the
//! adversarial rooms and a generated level; one-way platforms stop a body
//! from above and let it through from below, inside and behind, at grazing
//! angles too; depenetration never pushes a body through a one-way surface
//! it is passing; each rule of the layer masks.

use glam::{Quat, Vec3};
use slidewalk_sweep::query::sphere_triangle::sweep_unit_sphere_triangle;
use slidewalk_sweep::test_util::{Soup, adversarial_rooms, generated_level};
use slidewalk_sweep::{
    Candidate, CollisionLayers, ContactFilter, Ellipsoid, Feature, KeepTriangles, MeshCollider, PlacedCollider, Pose,
    SlideOptions, StandardRules, collide_and_slide, collide_and_slide_filtered, depenetrate, penetration_depth, sweep,
    sweep_with,
};

/// (time, eSpace normal, feature, collider, input triangle, started embedded).
type Hit = (f32, Vec3, Feature, usize, u32, bool);

/// A game's own rule for the tests: veto every third input triangle of
/// collider 1.
fn game_rule(c: &Candidate<'_, '_>) -> bool {
    c.collider() != 1 || c.triangle() % 3 != 0
}

/// The first contact over every triangle the rules and the game's rule
/// keep, the triangles taken to eSpace as the sweep takes them; ties to
/// the earlier collider, then the lower input index.
fn brute_force(
    e: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    world: &[PlacedCollider<'_>],
    layers: CollisionLayers,
) -> Option<Hit> {
    let inv_r = e.radii().recip();
    let v = motion * inv_r;
    let mut rules = (StandardRules::for_layers(layers), KeepTriangles(game_rule));
    let mut best: Option<Hit> = None;
    for (ci, placed) in world.iter().enumerate() {
        if !rules.keeps_collider(ci, placed) {
            continue;
        }
        for slot in 0..placed.mesh.len() {
            let tri = placed.mesh.triangle(slot);
            let tri = if placed.pose.rotation == Quat::IDENTITY {
                let origin = start - placed.pose.translation;
                tri.map(|p| (p - origin) * inv_r)
            } else {
                tri.map(|p| (placed.pose.transform_point(p) - start) * inv_r)
            };
            let input = placed.mesh.input_index(slot);
            if !rules.keeps_triangle(&Candidate::new(ci, placed, slot, tri, start, e.radii())) {
                continue;
            }
            let t_max = best.map_or(1.0, |b| b.0);
            let Some(hit) = sweep_unit_sphere_triangle(v, tri, t_max) else {
                continue;
            };
            let earlier = best.is_none_or(|b| hit.t < b.0 || (hit.t == b.0 && ci == b.3 && input < b.4));
            if earlier {
                best = Some((hit.t, hit.normal, hit.feature, ci, input, hit.embedded));
            }
        }
    }
    best
}

/// Random layers: all, none, or small masks that meet or miss.
fn random_layers(rng: &mut fastrand::Rng) -> CollisionLayers {
    match rng.u32(..4) {
        0 => CollisionLayers::ALL,
        1 => CollisionLayers::NONE,
        _ => CollisionLayers::new(rng.u32(..8), rng.u32(..8)),
    }
}

/// Random sweeps through `soup` placed three times (at rest, translated,
/// rotated), each copy with random layers and sometimes one-way (up, or a
/// random direction): every sweep gives the brute-force answer over the
/// kept triangles. Returns how many hit.
fn check(name: &str, soup: &Soup, sweeps: usize, seed: u64) -> usize {
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
    let mut rng = fastrand::Rng::with_seed(seed);
    let bounds = mesh.bounds();
    let size = bounds.size();
    let mut hits = 0;
    for k in 0..sweeps {
        let one_way = |rng: &mut fastrand::Rng| match rng.u32(..3) {
            0 => None,
            1 => Some(Vec3::Y),
            _ => Some(Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5)),
        };
        let poses = [
            Pose::IDENTITY,
            Pose::from_translation(Vec3::new(0.3, -0.2, 0.1)),
            Pose {
                rotation: Quat::from_rotation_y(0.4) * Quat::from_rotation_x(0.1),
                translation: Vec3::new(-0.2, 0.1, 0.3),
            },
        ];
        let world: Vec<PlacedCollider<'_>> = poses
            .iter()
            .map(|&pose| {
                PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO)
                    .with_layers(random_layers(&mut rng))
                    .with_one_way(one_way(&mut rng))
            })
            .collect();
        let layers = random_layers(&mut rng);
        let mut start = bounds.min + Vec3::new(rng.f32(), rng.f32(), rng.f32()) * size;
        let dir = Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5);
        let motion = match k % 6 {
            0 => dir * 0.3,
            1 => dir * 4.0,
            2 => Vec3::new(dir.x, 0.0, dir.z) * 0.2,
            3 => Vec3::new(0.0, -0.05 - rng.f32(), 0.0),
            4 => Vec3::new(0.0, 0.05 + rng.f32(), 0.0),
            _ => Vec3::new(dir.x, -0.02, dir.z).normalize() * 0.5, // grazing
        };
        if k % 7 == 0 {
            // Resting on whatever is below, a hair above it.
            let fall = Vec3::new(0.0, -2.0 * size.y - 4.0, 0.0);
            let high = start + Vec3::Y * (size.y + 2.0);
            if let Some(h) = sweep(&e, high, fall, &world)
                && !h.started_embedded
            {
                start = high + fall * h.time + Vec3::Y * 0.002 * rng.f32();
            }
        }
        let got = sweep_with(&e, start, motion, &world, layers, KeepTriangles(game_rule)).map(|h| {
            (
                h.time,
                h.espace_normal,
                h.feature,
                h.collider,
                h.triangle,
                h.started_embedded,
            )
        });
        let expected = brute_force(&e, start, motion, &world, layers);
        assert_eq!(
            got, expected,
            "{name}, sweep {k}: start {start}, motion {motion}, layers {layers:?}"
        );
        hits += usize::from(got.is_some());
    }
    hits
}

#[test]
fn a_filtered_sweep_is_brute_force_over_the_kept_triangles() {
    let mut total = 0;
    for (i, (name, soup)) in adversarial_rooms().into_iter().enumerate() {
        total += check(name, &soup, 400, 10 + i as u64);
    }
    total += check("generated level", &generated_level(3_000), 600, 99);
    assert!(total > 300, "only {total} sweeps hit anything");
}

/// A 4 × 0.2 × 4 m platform, top at y = 1, as a closed box with outward
/// winding, one-way along +Y.
fn platform() -> MeshCollider {
    let mut soup = Soup::default();
    soup.cuboid(Vec3::new(-2.0, 0.8, -2.0), Vec3::new(2.0, 1.0, 2.0));
    MeshCollider::build(&soup.positions, &soup.triangles).unwrap()
}

fn player() -> Ellipsoid {
    Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap()
}

#[test]
fn a_one_way_platform_stops_from_above_only() {
    let mesh = platform();
    let world = [PlacedCollider::fixed(&mesh).with_one_way(Some(Vec3::Y))];
    let solid = [PlacedCollider::fixed(&mesh)];
    let e = player();
    // From above, straight down and at grazing angles: it stops on top.
    for slope in [1.0f32, 0.1, 0.02] {
        let motion = Vec3::new(1.0, -slope, 0.3).normalize() * 2.0;
        let start = Vec3::new(-1.0, 1.0 + 0.9 + 0.01, 0.0);
        let hit = sweep(&e, start, motion, &world).expect("the top stops it");
        assert!(hit.normal.y > 0.99, "{hit:?}");
        let slid = collide_and_slide(&e, start, motion, &world, &SlideOptions::default());
        assert!(slid.position.y >= 1.9, "sank to {}", slid.position.y);
    }
    // From below, rising through: nothing (while the box is solid).
    let below = Vec3::new(0.0, 0.8 - 0.9 - 0.05, 0.0);
    assert!(sweep(&e, below, Vec3::Y * 3.0, &world).is_none());
    assert!(sweep(&e, below, Vec3::Y * 3.0, &solid).is_some());
    // Inside, any way: nothing; beside it below the top, walking in: nothing.
    for motion in [Vec3::Y, -Vec3::Y, Vec3::X, Vec3::new(1.0, -1.0, 1.0)] {
        assert!(
            sweep(&e, Vec3::new(0.0, 0.9, 0.0), motion, &world).is_none(),
            "{motion}"
        );
    }
    assert!(sweep(&e, Vec3::new(-3.0, 0.95, 0.0), Vec3::X * 2.0, &world).is_none());
    assert!(sweep(&e, Vec3::new(-3.0, 0.95, 0.0), Vec3::X * 2.0, &solid).is_some());
    // Rising through and ending with the body half through the top: the
    // slide leaves it there (it is passing), no push up or down.
    let slid = collide_and_slide(&e, below, Vec3::Y * 1.4, &world, &SlideOptions::default());
    assert_eq!(slid.position, below + Vec3::Y * 1.4);
    assert!(slid.contacts.is_empty());
}

#[test]
fn a_one_way_wall_turned_by_its_pose_lets_through_from_behind() {
    // A 4 m square in its frame's y = 0 plane, one-way along the side its
    // winding faces, turned so that side faces world +X: a wall at x = 0.
    let mut soup = Soup::default();
    soup.quad(
        Vec3::new(-2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, 2.0),
        Vec3::new(-2.0, 0.0, 2.0),
    );
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let faces = {
        let [a, b, c] = mesh.triangle(0);
        (b - a).cross(c - a).y.signum()
    };
    let pose = Pose {
        rotation: Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2 * faces),
        translation: Vec3::ZERO,
    };
    assert!((pose.rotation * (Vec3::Y * faces) - Vec3::X).length() < 1e-6);
    let world = [PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO).with_one_way(Some(Vec3::Y * faces))];
    let e = Ellipsoid::sphere(0.5).unwrap();
    // From the front (+X side) moving in: stopped, at a grazing angle too.
    assert!(sweep(&e, Vec3::X, -Vec3::X * 2.0, &world).is_some());
    assert!(sweep(&e, Vec3::new(0.52, 0.0, -1.0), Vec3::new(-0.05, 0.0, 2.0), &world).is_some());
    // From behind: through.
    assert!(sweep(&e, -Vec3::X, Vec3::X * 2.0, &world).is_none());
    // A one-way direction the other way round: no triangle faces it.
    let reversed = [PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO).with_one_way(Some(-Vec3::Y * faces))];
    assert!(sweep(&e, Vec3::X, -Vec3::X * 2.0, &reversed).is_none());
    assert!(sweep(&e, -Vec3::X, Vec3::X * 2.0, &reversed).is_none());
}

#[test]
fn depenetration_never_pushes_through_a_one_way_surface_it_is_passing() {
    let mesh = platform();
    let world = [PlacedCollider::fixed(&mesh).with_one_way(Some(Vec3::Y))];
    let e = player();
    let options = SlideOptions::default();
    // Half through from below: left where it is, and counted as free.
    for y in [0.5, 0.9, 1.3, 1.7] {
        let centre = Vec3::new(0.0, y, 0.0);
        assert_eq!(depenetrate(&e, centre, &world, &options), (centre, true), "at {y}");
        assert_eq!(penetration_depth(&e, centre, &world), 0.0, "at {y}");
    }
    // Sunk a little from above (within the slack): pushed up on top.
    let sunk = Vec3::new(0.0, 1.0 + 0.9 - 0.05, 0.0);
    assert!(penetration_depth(&e, sunk, &world) > 0.0);
    let (freed, free) = depenetrate(&e, sunk, &world, &options);
    assert!(free && freed.y >= 1.9 && (freed.y - 1.9) < 0.01, "{freed}");
}

#[test]
fn layers_follow_the_collision_groups_rule() {
    let mesh = platform();
    let e = player();
    let start = Vec3::new(0.0, 3.0, 0.0);
    let fall = -Vec3::Y * 3.0;
    let meets = |body: CollisionLayers, wall: CollisionLayers| {
        let world = [PlacedCollider::fixed(&mesh).with_layers(wall)];
        let hit = sweep_with(&e, start, fall, &world, body, ()).is_some();
        let options = SlideOptions {
            layers: body,
            ..SlideOptions::default()
        };
        let slid = collide_and_slide(&e, start, fall, &world, &options);
        assert_eq!(hit, slid.position.y > 1.5, "{body:?} / {wall:?}");
        assert_eq!(hit, body.interacts_with(wall));
        hit
    };
    let (a, b) = (1 << 0, 1 << 1);
    assert!(meets(CollisionLayers::ALL, CollisionLayers::ALL));
    assert!(meets(CollisionLayers::new(a, b), CollisionLayers::new(b, a)));
    // Each side's membership must meet the other's filter.
    assert!(!meets(CollisionLayers::new(a, b), CollisionLayers::new(b, b)));
    assert!(!meets(CollisionLayers::new(a, a), CollisionLayers::new(b, a)));
    assert!(!meets(CollisionLayers::ALL, CollisionLayers::NONE));
    assert!(!meets(CollisionLayers::NONE, CollisionLayers::ALL));
    assert!(meets(CollisionLayers::new(a, u32::MAX), CollisionLayers::new(b, a | b)));
}

#[test]
fn a_game_filter_vetoes_colliders_and_triangles_everywhere() {
    let mesh = platform();
    let world = [PlacedCollider::fixed(&mesh)];
    let e = player();
    /// Vetoes collider 0 whole.
    struct NotTheFirst;
    impl ContactFilter for NotTheFirst {
        fn keeps_collider(&mut self, index: usize, _: &PlacedCollider<'_>) -> bool {
            index != 0
        }
    }
    let start = Vec3::new(0.0, 3.0, 0.0);
    assert!(sweep_with(&e, start, -Vec3::Y * 3.0, &world, CollisionLayers::ALL, NotTheFirst).is_none());
    let options = SlideOptions::default();
    let through = collide_and_slide_filtered(&e, start, -Vec3::Y * 3.0, &world, &options, NotTheFirst, |_| {
        slidewalk_sweep::ContactResponse::Slide
    });
    assert_eq!(through.position, start - Vec3::Y * 3.0);
    // Overlapping a vetoed triangle is no overlap: not pushed out.
    let inside = Vec3::new(0.0, 0.9, 0.0);
    let everything = KeepTriangles(|_: &Candidate<'_, '_>| false);
    let stay = collide_and_slide_filtered(&e, inside, Vec3::ZERO, &world, &options, everything, |_| {
        slidewalk_sweep::ContactResponse::Slide
    });
    assert_eq!(stay.position, inside);
    assert!(!stay.unresolved_overlap);
}

#[test]
fn a_turned_one_way_platform_lets_a_body_through_its_sides_at_any_turn() {
    // The sides of a one-way box are at right angles to its direction; at
    // most turns rounding puts a side's normal a hair (1e-8) towards the
    // direction or away from it, and a side that counted as facing it
    // stopped a body walking in from beside the box at some turns only.
    let mesh = platform();
    let e = player();
    let mut rng = fastrand::Rng::with_seed(50);
    let mut stopped = Vec::new();
    for _ in 0..500 {
        let axis = Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5).normalize_or(Vec3::Y);
        let rotation = Quat::from_axis_angle(axis, rng.f32() * std::f32::consts::TAU);
        let pose = Pose {
            rotation,
            translation: Vec3::new(rng.f32() * 40.0 - 20.0, rng.f32() * 10.0, rng.f32() * 40.0 - 20.0),
        };
        let world = [PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO).with_one_way(Some(Vec3::Y))];
        // Beside the box, level with it, walking in along its own x or z.
        for (from, along) in [
            (Vec3::new(-3.0, 0.9, 0.0), Vec3::X),
            (Vec3::new(3.0, 0.9, 0.0), -Vec3::X),
            (Vec3::new(0.0, 0.9, -3.0), Vec3::Z),
            (Vec3::new(0.0, 0.9, 3.0), -Vec3::Z),
        ] {
            let start = pose.transform_point(from);
            if let Some(hit) = sweep(&e, start, rotation * along * 2.0, &world) {
                stopped.push((rotation, along, hit.normal));
            }
        }
    }
    assert!(
        stopped.is_empty(),
        "{} of 2000 stopped by a side: {:?}",
        stopped.len(),
        &stopped[..stopped.len().min(3)]
    );
}
