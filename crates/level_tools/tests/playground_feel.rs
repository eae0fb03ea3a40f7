//! The playground's feel course: the committed `playground.glb` has the
//! surf ramp with its stairs and landing, the strafe-jump run over its
//! pit, the pool with its water, the slide under the low bar, the ledge to
//! hang from and the two walkways, each a named node where `FEEL_*` says,
//! with the extras that make it what it is, clear of the rest of the
//! level, probed with rays.

use glam::Vec3;
use slidewalk_level::Level;
use slidewalk_level_tools::generate::playground::*;
use slidewalk_sweep::{Aabb, Ellipsoid, PlacedCollider, SweepHit, sweep};

const PLAYGROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/playground.glb");

fn playground() -> Level {
    slidewalk_level::load(PLAYGROUND)
        .unwrap_or_else(|e| panic!("{e} (run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`)"))
}

/// Every node of the file with a mesh: its name, its extras and its
/// bounds (the playground's nodes are not transformed).
fn file_nodes() -> Vec<(String, Option<serde_json::Value>, Aabb)> {
    let gltf = gltf::Gltf::open(PLAYGROUND).unwrap();
    gltf.nodes()
        .filter_map(|n| {
            let bounds = n.mesh()?.primitives().fold(Aabb::EMPTY, |b, p| {
                let bb = p.bounding_box();
                b.union(Aabb::from_corners(Vec3::from(bb.min), Vec3::from(bb.max)))
            });
            let extras = n.extras().as_ref().map(|e| serde_json::from_str(e.get()).unwrap());
            Some((n.name().unwrap_or("").to_owned(), extras, bounds))
        })
        .collect()
}

fn bounds(name: &str) -> Aabb {
    file_nodes()
        .into_iter()
        .find(|n| n.0 == name)
        .unwrap_or_else(|| panic!("no node {name} with a mesh"))
        .2
}

fn assert_box(b: Aabb, (min, max): (Vec3, Vec3), what: &str) {
    assert!(
        (b.min - min).abs().max_element() < 1e-4 && (b.max - max).abs().max_element() < 1e-4,
        "{what}: {b:?}, expected {min} … {max}"
    );
}

fn assert_near(actual: f32, expected: f32, what: &str) {
    assert!(
        (actual - expected).abs() < 2e-3,
        "{what}: {actual}, expected {expected}"
    );
}

/// A 1 cm sphere from `from` along `motion` through the level at rest: a ray.
fn ray(level: &Level, from: Vec3, motion: Vec3) -> Option<SweepHit> {
    let placed: Vec<PlacedCollider<'_>> = level.placed_at_rest();
    sweep(&Ellipsoid::sphere(0.01).unwrap(), from, motion, &placed)
}

/// The height of the first solid surface straight below (x, z), from 20 m up.
fn top_at(level: &Level, x: f32, z: f32) -> f32 {
    let hit = ray(level, Vec3::new(x, 20.0, z), Vec3::new(0.0, -30.0, 0.0))
        .unwrap_or_else(|| panic!("nothing below ({x}, {z})"));
    20.0 - 30.0 * hit.time - 0.01
}

#[test]
fn the_surf_ramp_is_a_60_degree_slope_14_m_long_between_its_stairs_and_landing() {
    let level = playground();
    let r = FEEL_SURF_RAMP;
    assert!(!r.walkable && (r.angle_deg - 60.0).abs() < 1e-6);
    let b = bounds(r.name);
    assert_near(b.max.x - b.min.x, 14.0, "length");
    assert_near(b.max.y, 6.5, "height");
    // The slope's normal is 60° from up, facing −z, all along it.
    for x in [b.min.x + 0.5, (b.min.x + b.max.x) / 2.0, b.max.x - 0.5] {
        let from = r.surface_at(r.run() / 2.0) + Vec3::new(x - r.platform_foot.x, 0.0, -2.0);
        let hit = ray(&level, from, Vec3::new(0.0, 0.0, 5.0)).unwrap();
        let angle = hit.normal.angle_between(Vec3::Y).to_degrees();
        assert!(
            (angle - 60.0).abs() < 0.1 && hit.normal.z < 0.0,
            "at x {x}: {}",
            hit.normal
        );
    }
    // The stairs' top (2.5 m) meets the ramp's near end; the landing (0.5
    // m) its far end.
    let f = FEEL_SURF_STAIRS;
    assert_near(f.top(), 2.5, "the start's height");
    let start = f.tread_centre(f.steps - 1);
    assert_near(top_at(&level, start.x, start.z), 2.5, "the start");
    assert_near(start.x + f.landing / 2.0, b.min.x, "the start's end");
    assert_box(bounds("feel_surf_landing"), FEEL_SURF_LANDING, "feel_surf_landing");
    assert_near(FEEL_SURF_LANDING.0.x, b.max.x, "the landing's start");
    assert_near(top_at(&level, b.max.x + 1.0, 32.0), 0.5, "the landing");
}

#[test]
fn the_strafe_jump_pit_is_5_8_m_between_two_1_5_m_platforms() {
    let level = playground();
    let (from, to) = (bounds("feel_strafe_from"), bounds("feel_strafe_to"));
    assert_box(from, FEEL_STRAFE_FROM, "feel_strafe_from");
    assert_box(to, FEEL_STRAFE_TO, "feel_strafe_to");
    assert_near(to.min.x - from.max.x, FEEL_STRAFE_GAP, "the gap");
    assert_near(FEEL_STRAFE_GAP, 5.8, "FEEL_STRAFE_GAP");
    let z = (from.min.z + from.max.z) / 2.0;
    assert_near(top_at(&level, from.max.x - 0.05, z), 1.5, "the run-up's end");
    assert_near(top_at(&level, to.min.x + 0.05, z), 1.5, "the far side");
    for x in [from.max.x + 0.05, feel_strafe_gap_centre().x, to.min.x - 0.05] {
        assert_near(top_at(&level, x, z), 0.0, &format!("the pit at x {x}"));
    }
    // 25 m of run-up, reached by the stairs at its start.
    assert_near(from.max.x - from.min.x, 25.0, "the run-up");
    let s = FEEL_STRAFE_STAIRS;
    assert_near(s.top(), 1.5, "the stairs' top");
    assert_near(s.base.x + s.length(), from.min.x, "the stairs' end");
}

#[test]
fn the_pool_holds_3_m_of_water_half_a_metre_below_its_walls() {
    let (level, nodes) = (playground(), file_nodes());
    let water = nodes.iter().find(|n| n.0 == "feel_pool_water").unwrap();
    assert_eq!(water.1, Some(serde_json::json!({"water": true})));
    assert_box(water.2, FEEL_POOL_WATER, "feel_pool_water");
    let (lo, hi) = FEEL_POOL_WATER;
    assert!(hi.y - lo.y >= 3.0);
    let volume = level.water.iter().find(|w| w.name == "feel_pool_water").unwrap();
    assert_eq!(level.water.len(), 1);
    assert!(!level.parts.iter().any(|p| p.name == "feel_pool_water"));
    assert_box(volume.collider.bounds(), FEEL_POOL_WATER, "the water volume");
    // The water fills the pool's inside, whose floor is the ground; the
    // walls stand 0.5 m above its surface, the far one 2 m deep to stand on.
    let c = (lo + hi) / 2.0;
    assert_near(top_at(&level, c.x, c.z), 0.0, "the pool's floor");
    assert_box(
        Aabb::from_corners(FEEL_POOL.0, FEEL_POOL.1),
        (lo, Vec3::new(hi.x, 3.5, hi.z)),
        "the pool's inside",
    );
    for (x, z) in [
        (c.x, lo.z - 1.0),
        (c.x, hi.z + 0.5),
        (lo.x - 0.5, c.z),
        (hi.x + 0.5, c.z),
    ] {
        assert_near(top_at(&level, x, z) - hi.y, 0.5, &format!("the wall at ({x}, {z})"));
    }
    assert_near(FEEL_POOL_WALLS.1, 2.0, "the far wall");
    let s = FEEL_POOL_STAIRS;
    assert_near(s.top(), 3.5, "the stairs' top");
    assert_near(
        s.base.z - s.length(),
        hi.z + FEEL_POOL_WALLS.0,
        "the stairs reach the near wall",
    );
}

#[test]
fn the_slide_goes_down_a_slope_under_a_bar_a_crouched_player_clears() {
    let level = playground();
    let (up, slope) = (FEEL_SLIDE_UP, FEEL_SLIDE_SLOPE);
    assert!(up.walkable && slope.walkable && slope.angle_deg <= 20.0);
    let c = up.platform_centre();
    assert_near(top_at(&level, c.x, c.z), 1.5, "the run-up");
    assert_near(
        up.platform_foot.z - up.platform_depth,
        slope.platform_foot.z,
        "the slope's top",
    );
    let (z0, z1) = FEEL_SLIDE_BAR_Z;
    let z = (z0 + z1) / 2.0;
    let surface = slope.surface_at(z - slope.base().z).y;
    // From above, the bar; from under it, the slope 1.45 m below it.
    let under = ray(&level, Vec3::new(c.x, surface + 0.05, z), Vec3::new(0.0, 3.0, 0.0)).unwrap();
    let clear = 0.05 + 3.0 * under.time + 0.01;
    assert_near(clear, FEEL_SLIDE_BAR_CLEAR, "the clearance");
    let (crouched, standing) = (1.1, 1.8);
    assert!(clear > crouched + 0.2 && clear < standing - 0.2, "{clear}");
    let b = bounds("feel_slide_bar");
    assert!(
        b.min.x < c.x - up.width / 2.0 && b.max.x > c.x + up.width / 2.0,
        "{b:?}"
    );
    // The floor is clear 5 m on past the slope's foot.
    for dz in [0.5, 2.5, 5.0] {
        assert_near(top_at(&level, c.x, slope.base().z - dz), 0.0, "the run-out");
    }
}

#[test]
fn the_ledge_is_a_2_5_m_wall_6_m_wide() {
    let level = playground();
    let (lo, hi) = FEEL_HANG_WALL;
    assert_box(bounds("feel_hang_wall"), FEEL_HANG_WALL, "feel_hang_wall");
    assert!(hi.y >= 2.5 && hi.x - lo.x >= 5.0);
    let c = (lo + hi) / 2.0;
    assert_near(top_at(&level, c.x, c.z), 2.5, "its top");
    // Its face is upright, facing −z, with floor in front.
    let hit = ray(&level, Vec3::new(c.x, 1.5, lo.z - 3.0), Vec3::new(0.0, 0.0, 5.0)).unwrap();
    assert!(hit.normal.abs_diff_eq(Vec3::NEG_Z, 1e-4), "{}", hit.normal);
    assert_near(top_at(&level, c.x, lo.z - 2.0), 0.0, "the floor in front");
}

#[test]
fn the_walkways_carry_2_m_s_in_opposite_directions() {
    let (level, nodes) = (playground(), file_nodes());
    for (name, lo, hi, v) in FEEL_WALKWAYS {
        let node = nodes.iter().find(|n| n.0 == name).unwrap();
        assert_eq!(node.1, Some(serde_json::json!({"conveyor": [v.x, v.y, v.z]})));
        assert_box(node.2, (lo, hi), name);
        let part = level.parts.iter().find(|p| p.name == name).unwrap();
        assert_eq!(part.conveyor, Some(v));
        assert_near(hi.y, 0.2, name);
    }
    let [(_, _, _, east), (_, _, _, west)] = FEEL_WALKWAYS;
    assert_eq!((east, west), (Vec3::new(2.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0)));
    let conveyors = level.parts.iter().filter(|p| p.conveyor.is_some()).count();
    assert_eq!(conveyors, 2);
}

#[test]
fn the_feel_course_keeps_clear_of_the_rest_of_the_level() {
    let nodes = file_nodes();
    let course: Vec<_> = nodes.iter().filter(|n| n.0.starts_with("feel_")).collect();
    assert_eq!(
        course.len(),
        16,
        "{:?}",
        course.iter().map(|n| &n.0).collect::<Vec<_>>()
    );
    let walkable = Aabb::from_corners(Vec3::new(-39.5, -1.0, -39.5), Vec3::new(39.5, 20.0, 39.5));
    let above_ground = |b: Aabb| Aabb::from_corners(b.min.max(Vec3::new(f32::MIN, 0.01, f32::MIN)), b.max);
    for (name, _, b) in &course {
        let inside = walkable.min.cmple(b.min).all() && b.max.cmple(walkable.max).all();
        assert!(inside, "{name} is not inside the walls: {b:?}");
        // A metre of floor between it and anything else standing on the
        // ground, and 4.5 m from the spawn (where players are placed).
        let near = above_ground(*b).expand(Vec3::new(1.0, 0.0, 1.0));
        for (other, _, o) in &nodes {
            let skip = ["Ground", "BoundaryWalls", "KillZone"].contains(&other.as_str()) || other.starts_with("feel_");
            assert!(
                skip || !near.intersects(&above_ground(*o)),
                "{name} is near {other}: {o:?}"
            );
        }
        let spawn = Aabb::from_corners(SPAWN, SPAWN + Vec3::Y).expand(Vec3::new(4.5, 0.0, 4.5));
        assert!(!spawn.intersects(b), "{name} is near the spawn: {b:?}");
        // What stands 2.65 m high or more (a jump and a step up reach the
        // 4 m boundary walls' tops from there) keeps 8 m from them: a
        // sprinting jump (7.5 m/s) does not carry that far. The surf ramp
        // is too steep to stand on.
        if b.max.y >= BOUNDARY_HEIGHT - 1.35 && name != FEEL_SURF_RAMP.name {
            let inner = GROUND.max.x - BOUNDARY_THICKNESS - 8.0;
            let within = b.min.x >= -inner && b.max.x <= inner && b.min.z >= -inner && b.max.z <= inner;
            assert!(within, "{name} ({} m high) is near the boundary walls: {b:?}", b.max.y);
        }
    }
}
