//! The magic room (`assets/levels/magic_room.glb`): five planes and three
//! cylinders as its layout promises, every triangle belonging to one of
//! them, a free spawn, balls that cannot leave sideways, and the exact
//! shapes meeting a ball where the player's triangles do (to the cylinders'
//! 48-segment sagitta).

use glam::Vec3;
use slidewalk_level::Level;
use slidewalk_level_tools::analytic_fit;
use slidewalk_level_tools::generate::magic_room::{COLUMNS, CYLINDER_SEGMENTS, ROOM_HALF, SPAWN, WALL_HEIGHT, WALLS};
use slidewalk_sweep::test_util::Lcg;
use slidewalk_sweep::{AnalyticShape, Ellipsoid, PlacedCollider, penetration_depth, sweep};

fn magic_room() -> Level {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/magic_room.glb");
    slidewalk_level::load(path)
        .unwrap_or_else(|e| panic!("{e} (run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`)"))
}

fn near(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

/// The exact shapes' signed distance from `p` (the nearest of them).
fn distance(level: &Level, p: Vec3) -> f32 {
    level
        .analytic
        .iter()
        .map(|a| a.shape.signed_distance(p))
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn five_planes_and_three_cylinders_where_the_layout_says() {
    let level = magic_room();
    assert_eq!(level.analytic.len(), 8);
    for (wall, a) in WALLS.iter().zip(&level.analytic) {
        assert_eq!(a.name, wall.name);
        let AnalyticShape::Plane(p) = a.shape else {
            panic!("{} is not a plane", a.name)
        };
        assert!(
            near(p.normal, wall.normal) && p.signed_distance(wall.origin).abs() < 1e-5,
            "{p:?}"
        );
        // Facing into the room: its middle is in front of every wall.
        assert!(p.signed_distance(Vec3::new(0.0, WALL_HEIGHT / 2.0, 0.0)) > 3.9);
    }
    for (column, a) in COLUMNS.iter().zip(&level.analytic[5..]) {
        assert_eq!(a.name, column.name);
        let AnalyticShape::Cylinder(c) = a.shape else {
            panic!("{} is not a cylinder", a.name)
        };
        assert!(near(c.base, column.base) && near(c.axis, column.axis), "{c:?}");
        assert!(
            (c.radius - column.radius).abs() < 1e-5 && (c.height - column.height).abs() < 1e-5,
            "{c:?}"
        );
        let b = c.bounds();
        assert!(b.min.y >= 0.0 && b.max.y <= WALL_HEIGHT, "{} sticks out: {b:?}", a.name);
        assert!(
            b.min.x.min(b.min.z) > -ROOM_HALF && b.max.x.max(b.max.z) < ROOM_HALF,
            "{} sticks out",
            a.name
        );
    }
    // Every triangle is an analytic node's, and its vertices are on the shape.
    assert!(level.static_analytic.iter().all(|&a| a));
    for fit in analytic_fit(&level) {
        assert!(fit.max_vertex_distance < 1e-5, "{fit:?}");
    }
    let cylinder_triangles = CYLINDER_SEGMENTS as usize * 2 + 2 * (CYLINDER_SEGMENTS as usize - 2);
    let counts: Vec<usize> = level.analytic.iter().map(|a| a.triangles.len()).collect();
    assert_eq!(
        counts,
        [
            2,
            2,
            2,
            2,
            2,
            cylinder_triangles,
            cylinder_triangles,
            cylinder_triangles
        ]
    );
}

#[test]
fn the_cylinders_keep_clear_of_each_other() {
    let level = magic_room();
    let mut rng = Lcg::new(30);
    let cylinders = &level.analytic[5..];
    for a in cylinders {
        for b in cylinders.iter().filter(|b| b.name != a.name) {
            for _ in 0..2_000 {
                let on_a = a
                    .shape
                    .closest_point(rng.in_box(Vec3::splat(-ROOM_HALF), Vec3::splat(ROOM_HALF)));
                let gap = b.shape.signed_distance(on_a);
                assert!(gap >= 0.49, "{} comes within {gap} m of {}", a.name, b.name);
            }
        }
    }
}

#[test]
fn the_spawn_is_free_and_on_the_floor() {
    let level = magic_room();
    assert_eq!(level.spawns.len(), 1);
    assert_eq!(level.spawns[0].position, SPAWN);
    assert_eq!(level.spawns[0].yaw, 0.0, "looking along −z");
    let player = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
    let world = [PlacedCollider::fixed(level.statics.as_ref().unwrap())];
    let centre = SPAWN + Vec3::Y * 0.92;
    assert_eq!(penetration_depth(&player, centre, &world), 0.0);
    let fall = sweep(&player, centre, Vec3::new(0.0, -1.0, 0.0), &world).expect("the floor below");
    assert!((fall.point.y).abs() < 1e-5 && fall.normal.y > 0.999, "{fall:?}");
    assert!(distance(&level, centre) > 0.9);
}

#[test]
fn balls_cannot_leave_sideways() {
    let level = magic_room();
    let mut rng = Lcg::new(5);
    for _ in 0..5_000 {
        let start = rng.in_box(Vec3::new(-7.5, 0.3, -7.5), Vec3::new(7.5, 30.0, 7.5));
        if distance(&level, start) <= 0.25 {
            continue;
        }
        let v = rng.direction() * 20.0;
        if v.x.hypot(v.z) < 0.2 {
            continue;
        }
        let hit = level
            .analytic
            .iter()
            .filter_map(|a| a.shape.sweep_sphere(start, 0.2, v, 1e4))
            .min_by(|a, b| a.time.total_cmp(&b.time))
            .unwrap_or_else(|| panic!("a ball from {start} along {v} left the room"));
        assert!(hit.normal.dot(v) < 0.0);
    }
}

#[test]
fn balls_meet_the_shapes_where_the_player_meets_the_triangles() {
    let level = magic_room();
    let world = [PlacedCollider::fixed(level.statics.as_ref().unwrap())];
    let sagitta = 1.0 - (std::f32::consts::PI / CYLINDER_SEGMENTS as f32).cos(); // radius 1
    let mut rng = Lcg::new(48);
    let (mut hits, mut cylinder_hits) = (0, 0);
    for _ in 0..5_000 {
        let radius = rng.range(0.1, 0.5);
        // Low enough and short enough to stay below the walls' tops.
        let start = rng.in_box(Vec3::new(-7.9, 0.0, -7.9), Vec3::new(7.9, 5.0, 7.9));
        if distance(&level, start) <= radius + sagitta + 1e-3 {
            continue;
        }
        let v = rng.direction() * rng.range(1.0, 10.0);
        let t_max = 2.5 / v.length();
        let ball = Ellipsoid::sphere(radius).unwrap();
        let mesh = sweep(&ball, start, v * t_max, &world).map(|h| h.time * t_max);
        let exact = level
            .analytic
            .iter()
            .filter_map(|a| a.shape.sweep_sphere(start, radius, v, t_max).map(|h| (h, a)))
            .min_by(|a, b| a.0.time.total_cmp(&b.0.time));
        let what = format!("radius {radius} from {start} at {v}: mesh {mesh:?}, exact {exact:?}");
        match (mesh, exact) {
            (Some(t_mesh), Some((hit, a))) => {
                hits += 1;
                cylinder_hits += matches!(a.shape, AnalyticShape::Cylinder(_)) as usize;
                assert!(hit.time <= t_mesh + 1e-5, "{what}");
                // At the mesh's contact the exact shapes are between r − s and r away.
                let d = distance(&level, start + v * t_mesh);
                assert!(d <= radius + 1e-4 && d >= radius - sagitta - 1e-4, "{d}: {what}");
            }
            (Some(t_mesh), None) => {
                let d = distance(&level, start + v * t_mesh);
                assert!(d >= radius - 1e-4, "the exact shapes missed a contact: {what}");
            }
            (None, Some(_)) => {
                // Only a graze: the shapes are at most the sagitta outside the triangles.
                let deep = radius - sagitta - 1e-4;
                let deep_hit = level
                    .analytic
                    .iter()
                    .find_map(|a| a.shape.sweep_sphere(start, deep, v, t_max));
                assert!(deep_hit.is_none(), "{what}");
            }
            (None, None) => {}
        }
    }
    assert!(
        hits > 500 && cylinder_hits > 100,
        "{hits} hits, {cylinder_hits} on cylinders"
    );
}
