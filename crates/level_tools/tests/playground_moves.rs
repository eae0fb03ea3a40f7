//! The playground's moves course: the committed `playground.glb` has the
//! chimney and the platform behind it, the three ledges, the climbable
//! wall, the dash gap, the air-jump platform and the launch pad with its
//! platform, each a named node where the layout says, with the extras that
//! make it what it is, clear of the rest of the level, probed with rays.

use glam::Vec3;
use slidewalk_level::{Level, MAX_LAUNCH_SPEED, StaticPart};
use slidewalk_level_tools::generate::playground::*;
use slidewalk_sweep::{Aabb, Ellipsoid, PlacedCollider, SweepHit, sweep};

const PLAYGROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/playground.glb");

fn playground() -> Level {
    slidewalk_level::load(PLAYGROUND)
        .unwrap_or_else(|e| panic!("{e} (run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`)"))
}

/// A node of the file as glTF has it: its name, its extras and the bounds
/// of its mesh (the playground's nodes are not transformed), if it has one.
struct FileNode {
    name: String,
    extras: Option<serde_json::Value>,
    bounds: Option<Aabb>,
    translation: [f32; 3],
}

fn file_nodes() -> Vec<FileNode> {
    let gltf = gltf::Gltf::open(PLAYGROUND).unwrap();
    gltf.nodes()
        .map(|n| FileNode {
            name: n.name().unwrap_or("").to_owned(),
            extras: n.extras().as_ref().map(|e| serde_json::from_str(e.get()).unwrap()),
            bounds: n.mesh().map(|m| {
                m.primitives().fold(Aabb::EMPTY, |b, p| {
                    let bb = p.bounding_box();
                    b.union(Aabb::from_corners(Vec3::from(bb.min), Vec3::from(bb.max)))
                })
            }),
            translation: n.transform().decomposed().0,
        })
        .collect()
}

fn file_node<'a>(nodes: &'a [FileNode], name: &str) -> &'a FileNode {
    nodes
        .iter()
        .find(|n| n.name == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

fn bounds(nodes: &[FileNode], name: &str) -> Aabb {
    file_node(nodes, name)
        .bounds
        .unwrap_or_else(|| panic!("{name} has no mesh"))
}

fn part<'a>(level: &'a Level, name: &str) -> &'a StaticPart {
    level
        .parts
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no part {name}"))
}

fn assert_box(bounds: Aabb, (min, max): (Vec3, Vec3), what: &str) {
    assert!(
        (bounds.min - min).abs().max_element() < 1e-5 && (bounds.max - max).abs().max_element() < 1e-5,
        "{what}: {bounds:?}, expected {min} … {max}"
    );
}

fn assert_near(actual: f32, expected: f32, what: &str) {
    assert!(
        (actual - expected).abs() < 1e-3,
        "{what}: {actual}, expected {expected}"
    );
}

/// A 1 cm sphere from `from` along `motion` through the level at rest: a ray.
fn ray(level: &Level, from: Vec3, motion: Vec3) -> Option<SweepHit> {
    let placed: Vec<PlacedCollider<'_>> = level.placed_at_rest();
    sweep(&Ellipsoid::sphere(0.01).unwrap(), from, motion, &placed)
}

/// The height of the first surface straight below (x, z), from 20 m up.
fn top_at(level: &Level, x: f32, z: f32) -> f32 {
    let hit = ray(level, Vec3::new(x, 20.0, z), Vec3::new(0.0, -30.0, 0.0))
        .unwrap_or_else(|| panic!("nothing below ({x}, {z})"));
    20.0 - 30.0 * hit.time - 0.01
}

/// Whether the floor (y = 0) is all there is below every point of the
/// rectangle `x0..x1`, `z0..z1` (a half-metre grid).
fn clear_floor(level: &Level, (x0, z0): (f32, f32), (x1, z1): (f32, f32)) -> Result<(), String> {
    let steps = |a: f32, b: f32| {
        let n = ((b - a) / 0.5).ceil() as usize;
        (0..=n).map(move |k| a + (b - a) * k as f32 / n as f32)
    };
    for x in steps(x0, x1) {
        for z in steps(z0, z1) {
            let y = top_at(level, x, z);
            if y.abs() > 1e-3 {
                return Err(format!("something {y} m high at ({x}, {z})"));
            }
        }
    }
    Ok(())
}

#[test]
fn the_shaft_is_a_1_5_m_chimney_with_a_platform_at_7_m_behind_it() {
    let (level, nodes) = (playground(), file_nodes());
    let (inner_lo, inner_hi) = MOVES_SHAFT;
    let t = MOVES_SHAFT_WALL;
    assert_box(
        bounds(&nodes, "moves_shaft"),
        (
            Vec3::new(inner_lo.x - t, 0.0, inner_lo.z - t),
            Vec3::new(inner_hi.x + t, 9.0, inner_hi.z),
        ),
        "moves_shaft",
    );
    assert_box(bounds(&nodes, "moves_shaft_top"), MOVES_SHAFT_TOP, "moves_shaft_top");
    let mid = (inner_lo + inner_hi) / 2.0;
    // 1.5 m between the walls' inner faces, at any height up to 9 m.
    for y in [0.5, 4.5, 8.9] {
        let from = Vec3::new(mid.x, y, mid.z);
        let left = ray(&level, from, Vec3::new(-5.0, 0.0, 0.0)).unwrap();
        let right = ray(&level, from, Vec3::new(5.0, 0.0, 0.0)).unwrap();
        let gap = 5.0 * (left.time + right.time) + 0.02;
        assert_near(gap, 1.5, &format!("clear width at {y} m"));
    }
    // The walls are 9 m tall, open at the front, 2.5 m deep to the back wall.
    assert_near(top_at(&level, inner_lo.x - t / 2.0, mid.z), 9.0, "left wall");
    assert_near(top_at(&level, inner_hi.x + t / 2.0, mid.z), 9.0, "right wall");
    let walk_in = ray(
        &level,
        Vec3::new(mid.x, 1.0, inner_hi.z + 3.0),
        Vec3::new(0.0, 0.0, -10.0),
    )
    .unwrap();
    assert_near(inner_hi.z + 3.0 - 10.0 * walk_in.time - 0.01, -33.5, "back wall");
    assert_near(inner_hi.z - inner_lo.z, 2.5, "shaft depth");
    assert_near(top_at(&level, mid.x, mid.z), 0.0, "the shaft's floor");
    // From the inner back face on, one flat top at 7 m: the back wall,
    // then the platform behind it, 3.5 m in all.
    for z in [-33.52, -33.75, -34.0, -35.5, -36.98] {
        assert_near(top_at(&level, mid.x, z), 7.0, &format!("top at z {z}"));
    }
    // Above 7 m the back is open: a character steps back onto the top.
    assert!(ray(&level, Vec3::new(mid.x, 7.5, mid.z), Vec3::new(0.0, 0.0, -5.0)).is_none());
    assert!(ray(&level, Vec3::new(mid.x, 6.9, mid.z), Vec3::new(0.0, 0.0, -5.0)).is_some());
    clear_floor(
        &level,
        (inner_lo.x - t - 0.5, inner_hi.z + 0.05),
        (inner_hi.x + t + 0.5, inner_hi.z + 5.0),
    )
    .unwrap();
}

#[test]
fn the_ledges_stand_in_a_row_with_clear_floor_in_front() {
    let (level, nodes) = (playground(), file_nodes());
    let tops = [0.9, 1.3, 1.8];
    for ((name, lo, hi), top) in MOVES_LEDGES.into_iter().zip(tops) {
        assert_box(bounds(&nodes, name), (lo, hi), name);
        assert_near(hi.x - lo.x, 2.5, name);
        assert_near(hi.z - lo.z, 2.0, name);
        let c = (lo + hi) / 2.0;
        assert_near(top_at(&level, c.x, c.z), top, name);
        // The fronts face +z, along the same line, with 6 m of floor.
        assert_eq!(hi.z, MOVES_LEDGES[0].2.z);
        clear_floor(&level, (lo.x - 0.5, hi.z + 0.05), (hi.x + 0.5, hi.z + 6.0))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    for pair in MOVES_LEDGES.windows(2) {
        let gap = pair[1].1.x - pair[0].2.x;
        assert!(gap >= 3.0, "{} m between {} and {}", gap, pair[0].0, pair[1].0);
    }
}

#[test]
fn the_ladder_is_a_climbable_4_m_block() {
    let (level, nodes) = (playground(), file_nodes());
    let node = file_node(&nodes, "moves_ladder");
    assert_eq!(node.extras, Some(serde_json::json!({"climbable": true})));
    let (lo, hi) = MOVES_LADDER;
    assert_eq!((hi - lo).to_array(), [3.0, 4.0, 2.0]);
    let p = part(&level, "moves_ladder");
    assert!(p.climbable);
    assert_eq!(p.launch, None);
    assert_box(p.collider.bounds(), MOVES_LADDER, "moves_ladder");
    let c = (lo + hi) / 2.0;
    assert_near(top_at(&level, c.x, c.z), 4.0, "ladder top");
    clear_floor(&level, (lo.x - 0.5, hi.z + 0.05), (hi.x + 0.5, hi.z + 6.0)).unwrap();
    // The only climbable part is the ladder.
    let climbable: Vec<&str> = level
        .parts
        .iter()
        .filter(|p| p.climbable)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(climbable, ["moves_ladder"]);
}

#[test]
fn the_dash_gap_is_8_5_m_between_two_1_m_platforms() {
    let (level, nodes) = (playground(), file_nodes());
    let ramp = MOVES_DASH_FROM;
    assert!(ramp.angle_deg <= 25.0);
    let x = ramp.platform_foot.x;
    let from = bounds(&nodes, "moves_dash_from");
    let to = bounds(&nodes, "moves_dash_to");
    assert_box(to, MOVES_DASH_TO, "moves_dash_to");
    for (b, name) in [(from, "from"), (to, "to")] {
        assert_near(b.max.y, 1.0, name);
        assert_near(b.max.x - b.min.x, 3.0, name);
        assert_near(b.max.z - b.min.z, 4.0, name);
        assert_near((b.min.x + b.max.x) / 2.0, x, name);
    }
    // Along −z: the ramp, 4 m of run-up at 1 m, the gap down to the floor, the far platform.
    assert_near(from.max.z, ramp.platform_foot.z, "the run-up starts at the ramp's top");
    assert_near(from.min.z - to.max.z, 8.5, "the gap");
    assert_near(MOVES_DASH_GAP, 8.5, "MOVES_DASH_GAP");
    let gap = file_node(&nodes, "moves_dash_gap");
    assert!(gap.bounds.is_none());
    assert_eq!(Vec3::from(gap.translation), moves_dash_gap_centre());
    assert_near(gap.translation[2], (from.min.z + to.max.z) / 2.0, "the gap's node");
    for z in [from.max.z - 0.05, from.max.z - 2.0, from.min.z + 0.05] {
        assert_near(top_at(&level, x, z), 1.0, &format!("run-up at z {z}"));
    }
    clear_floor(&level, (x - 1.5, to.max.z + 0.05), (x + 1.5, from.min.z - 0.05)).unwrap();
    for z in [to.max.z - 0.05, to.min.z + 0.05] {
        assert_near(top_at(&level, x, z), 1.0, &format!("landing at z {z}"));
    }
    // The ramp: from the floor up to the run-up, no steeper than 25°.
    let base = ramp.base();
    assert!(ramp.run() > 2.0 && ramp.run() < 3.0, "{}", ramp.run());
    assert_near(top_at(&level, x, base.z + 0.02), 0.0, "the ramp's foot");
    let hit = ray(
        &level,
        ramp.surface_at(ramp.run() / 2.0) + Vec3::Y * 2.0,
        Vec3::NEG_Y * 4.0,
    )
    .unwrap();
    assert!(hit.normal.angle_between(Vec3::Y).to_degrees() <= 25.0, "{}", hit.normal);
    let wedge = bounds(&nodes, "moves_dash_ramp");
    assert_near(wedge.max.z, base.z, "the ramp's foot");
    assert_near(wedge.min.z, from.max.z, "the ramp's top");
    assert_near(wedge.max.y, 1.0, "the ramp's top");
    clear_floor(&level, (x - 1.5, base.z + 0.05), (x + 1.5, base.z + 2.5)).unwrap();
}

#[test]
fn the_air_jump_platform_stands_free_at_1_9_m() {
    let (level, nodes) = (playground(), file_nodes());
    let (lo, hi) = MOVES_AIR_JUMP;
    assert_box(bounds(&nodes, "moves_air_jump"), MOVES_AIR_JUMP, "moves_air_jump");
    assert_eq!((hi - lo).to_array(), [3.0, 1.9, 3.0]);
    let c = (lo + hi) / 2.0;
    assert_near(top_at(&level, c.x, c.z), 1.9, "air jump top");
    // 3 m of floor on every side.
    for (a, b) in [
        ((lo.x - 3.0, hi.z + 0.05), (hi.x + 3.0, hi.z + 3.0)),
        ((lo.x - 3.0, lo.z - 3.0), (hi.x + 3.0, lo.z - 0.05)),
        ((lo.x - 3.0, lo.z), (lo.x - 0.05, hi.z)),
        ((hi.x + 0.05, lo.z), (hi.x + 3.0, hi.z)),
    ] {
        clear_floor(&level, a, b).unwrap();
    }
}

#[test]
fn the_launch_pad_throws_up_beside_a_6_m_platform() {
    let (level, nodes) = (playground(), file_nodes());
    let node = file_node(&nodes, "moves_launch_pad");
    assert_eq!(node.extras, Some(serde_json::json!({"launch": [0.0, 12.0, 0.0]})));
    let p = part(&level, "moves_launch_pad");
    assert_eq!(p.launch, Some(Vec3::new(0.0, 12.0, 0.0)));
    assert_eq!(p.launch, Some(MOVES_LAUNCH_VELOCITY));
    assert!(!p.climbable);
    assert_box(p.collider.bounds(), MOVES_LAUNCH_PAD, "moves_launch_pad");
    let (lo, hi) = MOVES_LAUNCH_PAD;
    assert_eq!((hi - lo).to_array(), [1.5, 0.1, 1.5]);
    let launch_pads: Vec<&str> = level
        .parts
        .iter()
        .filter(|p| p.launch.is_some())
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(launch_pads, ["moves_launch_pad"]);
    let top = bounds(&nodes, "moves_launch_top");
    assert_box(top, MOVES_LAUNCH_TOP, "moves_launch_top");
    assert_eq!((top.max - top.min).to_array(), [3.0, 6.0, 3.0]);
    // 1.5 m behind the pad (its back edge to the platform's front face).
    assert_near(lo.z - top.max.z, 1.5, "pad to platform");
    let c = (top.min + top.max) / 2.0;
    assert_near(top_at(&level, c.x, c.z), 6.0, "launch top");
    let pc = (lo + hi) / 2.0;
    assert_near(top_at(&level, pc.x, pc.z), 0.1, "the pad's top");
    assert!(
        pc.x > top.min.x && pc.x < top.max.x,
        "the pad is in front of the platform"
    );
    // Launched straight up at 12 m/s under the default gravity, the feet rise
    // well above the platform's top.
    let g = slidewalk_controller::ControllerConfig::default().gravity.length();
    let apex = 0.1 + 12.0f32.powi(2) / (2.0 * g);
    assert!(apex > 6.5, "apex {apex} m");
    clear_floor(&level, (lo.x - 1.0, hi.z + 0.05), (hi.x + 1.0, hi.z + 4.0)).unwrap();
}

#[test]
fn the_course_keeps_clear_of_the_rest_of_the_level() {
    let nodes = file_nodes();
    let course: Vec<&FileNode> = nodes.iter().filter(|n| n.name.starts_with("moves_")).collect();
    let names: Vec<&str> = course.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "moves_shaft",
            "moves_shaft_top",
            "moves_ledge_090",
            "moves_ledge_130",
            "moves_ledge_180",
            "moves_ladder",
            "moves_dash_ramp",
            "moves_dash_from",
            "moves_dash_gap",
            "moves_dash_to",
            "moves_air_jump",
            "moves_launch_pad",
            "moves_launch_top",
        ]
    );
    let walkable = Aabb::from_corners(Vec3::new(-39.5, -1.0, -39.5), Vec3::new(39.5, 20.0, 39.5));
    let above_ground = |b: Aabb| Aabb::from_corners(b.min.max(Vec3::new(f32::MIN, 0.01, f32::MIN)), b.max);
    for piece in &course {
        let Some(b) = piece.bounds else { continue };
        let inside = walkable.min.cmple(b.min).all() && b.max.cmple(walkable.max).all();
        assert!(inside, "{} is not inside the walls: {b:?}", piece.name);
        // A metre of floor between it and anything else that stands on the ground.
        let near = above_ground(b).expand(Vec3::new(1.0, 0.0, 1.0));
        for other in &nodes {
            let skip = ["Ground", "BoundaryWalls", "KillZone"].contains(&other.name.as_str())
                || other.name.starts_with("moves_");
            let Some(o) = other.bounds.filter(|_| !skip) else {
                continue;
            };
            assert!(
                !near.intersects(&above_ground(o)),
                "{} is near {}: {o:?}",
                piece.name,
                other.name
            );
        }
    }
}

#[test]
fn the_launch_speed_limit_is_the_controllers() {
    let speeds: Vec<f32> = slidewalk_controller::FIELD_RANGES
        .iter()
        .filter(|r| r.field.ends_with("_speed"))
        .map(|r| r.max)
        .collect();
    assert!(!speeds.is_empty());
    assert!(speeds.iter().all(|&s| s <= MAX_LAUNCH_SPEED), "{speeds:?}");
    assert!(speeds.contains(&MAX_LAUNCH_SPEED));
}
