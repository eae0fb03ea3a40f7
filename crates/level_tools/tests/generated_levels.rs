//! The generated levels: the committed `assets/levels/*.glb` are exactly what
//! the generator produces now, and the playground loads with its conventions
//! and has the geometry its layout promises (probed with sweeps).

use glam::Vec3;
use slidewalk_level::{Level, Mover, MoverKind, conventions::DoorMotion};
use slidewalk_level_tools::generate::{LEVELS, playground::*};
use slidewalk_sweep::{Ellipsoid, PlacedCollider, SweepHit, sweep};

const LEVEL_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels");

fn playground() -> Level {
    let path = format!("{LEVEL_DIR}/playground.glb");
    slidewalk_level::load(&path)
        .unwrap_or_else(|e| panic!("{e} (run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`)"))
}

/// The default player ellipsoid.
fn player() -> Ellipsoid {
    Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap()
}

/// A 1 cm sphere: sweeps of it are rays with a thickness.
fn ray() -> Ellipsoid {
    Ellipsoid::sphere(0.01).unwrap()
}

fn statics(level: &Level) -> PlacedCollider<'_> {
    PlacedCollider::fixed(level.statics.as_ref().expect("the playground has static geometry"))
}

fn mover<'a>(level: &'a Level, name: &str) -> &'a Mover {
    level
        .movers
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no mover {name}"))
}

fn placed(m: &Mover, openness: f32) -> PlacedCollider<'_> {
    PlacedCollider::moving(&m.collider, m.pose_at(openness), Vec3::ZERO, Vec3::ZERO)
}

/// The first surface of the static geometry straight below `(x, z)`.
fn drop_ray(level: &Level, x: f32, z: f32) -> SweepHit {
    sweep(
        &ray(),
        Vec3::new(x, 20.0, z),
        Vec3::new(0.0, -30.0, 0.0),
        &[statics(level)],
    )
    .unwrap_or_else(|| panic!("nothing below ({x}, {z})"))
}

fn assert_near(actual: f32, expected: f32, tolerance: f32, what: &str) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual}, expected {expected} ± {tolerance}"
    );
}

fn degrees_from_vertical(n: Vec3) -> f32 {
    n.angle_between(Vec3::Y).to_degrees()
}

#[test]
fn committed_levels_match_the_generator() {
    for level in LEVELS {
        let (name, generate) = (level.file, level.generate);
        let path = format!("{LEVEL_DIR}/{name}");
        let committed = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {path}: {e}; run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`"
            )
        });
        let fresh = generate();
        assert!(
            committed == fresh,
            "{path} ({} bytes) differs from what the generator produces now ({} bytes): \
             run `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels` and commit the result",
            committed.len(),
            fresh.len()
        );
        assert!(fresh == generate(), "generating {name} twice gave different bytes");
    }
}

#[test]
fn playground_loads_with_its_conventions() {
    let level = playground();
    let r = &level.report;
    assert_eq!(r.rejected(), 0, "rejected triangles: {r:?}");
    assert_eq!(r.skipped_primitives, 0);
    assert_eq!(r.nocollide_triangles, 0);
    assert!(
        r.triangles > 5_000 && r.triangles < 100_000,
        "{} triangles",
        r.triangles
    );

    assert_eq!(level.spawns.len(), 1);
    assert_eq!(level.spawns[0].position, SPAWN);
    assert_eq!(level.spawns[0].yaw, 0.0, "the spawn looks along -z");

    assert_eq!(level.movers.len(), 2, "one door and one lift");
    let door = mover(&level, "Door");
    let MoverKind::Door(spec) = door.kind else {
        panic!("Door is not a door: {:?}", door.kind)
    };
    assert_eq!(
        spec.motion,
        DoorMotion::Hinge {
            axis: Vec3::Y,
            angle: DOOR_ANGLE_DEG.to_radians()
        }
    );
    assert_eq!((spec.open_seconds, spec.trigger_radius), (DOOR_OPEN_S, DOOR_TRIGGER_M));
    assert_eq!(door.rest.translation, DOOR_HINGE);
    assert!((door.collider.bounds().size() - DOOR_SIZE).abs().max_element() < 1e-5);

    let lift = mover(&level, "Lift");
    let MoverKind::Lift(spec) = lift.kind else {
        panic!("Lift is not a lift: {:?}", lift.kind)
    };
    assert_eq!(
        (spec.travel, spec.speed, spec.pause_seconds),
        (LIFT_TRAVEL, LIFT_SPEED, LIFT_PAUSE_S)
    );
    assert_eq!(lift.rest.translation, LIFT_REST);
    assert!((lift.collider.bounds().size() - LIFT_SIZE).abs().max_element() < 1e-5);

    let ice = level
        .surfaces
        .iter()
        .find(|s| s.name == "IcePatch")
        .expect("the ice patch has a surface");
    assert_eq!(ice.friction, ICE_FRICTION);
    let ice_hit = drop_ray(&level, ICE_PATCH.centre().x, ICE_PATCH.centre().z);
    assert_eq!(
        level.surfaces[level.static_surfaces[ice_hit.triangle as usize] as usize].name,
        "IcePatch"
    );
    let ground_hit = drop_ray(&level, 0.0, 35.0);
    assert_eq!(
        level.surfaces[level.static_surfaces[ground_hit.triangle as usize] as usize].friction,
        1.0
    );
}

#[test]
fn spawn_stands_free_on_the_ground_inside_the_walls() {
    let level = playground();
    let world = [statics(&level)];
    assert_near(
        drop_ray(&level, SPAWN.x, SPAWN.z).point.y,
        0.0,
        1e-4,
        "ground at the spawn",
    );
    // Standing 5 cm above the ground, the player touches nothing and lands on it.
    let centre = SPAWN + Vec3::Y * 0.95;
    let land = sweep(&player(), centre, Vec3::new(0.0, -0.1, 0.0), &world).expect("lands");
    assert!(!land.started_embedded);
    assert_near(land.time, 0.5, 1e-3, "landing time");
    assert!(land.normal.dot(Vec3::Y) > 0.9999);
    // The boundary walls: the walkable area ends 0.5 m inside the ground's
    // edge (probed along lines clear of the feel course behind the spawn).
    let inner = GROUND.max.x - BOUNDARY_THICKNESS;
    for (from, dir, coord) in [
        (Vec3::new(0.0, 1.0, 34.0), Vec3::X, 0),
        (Vec3::new(0.0, 1.0, 34.0), Vec3::NEG_X, 0),
        (Vec3::new(30.0, 1.0, 30.0), Vec3::Z, 2),
        (Vec3::new(36.0, 1.0, 30.0), Vec3::NEG_Z, 2),
    ] {
        let hit = sweep(&ray(), from, dir * 100.0, &world).expect("a boundary wall");
        assert_near(hit.point[coord].abs(), inner, 1e-4, "boundary wall");
        assert!(hit.normal.dot(-dir) > 0.9999);
    }
}

#[test]
fn stairs_have_their_risers_and_the_ledge_its_height() {
    let level = playground();
    for flight in [STAIRS_015, STAIRS_030] {
        for i in 0..flight.steps {
            let c = flight.tread_centre(i);
            let hit = drop_ray(&level, c.x, c.z);
            assert_near(
                hit.point.y,
                (i + 1) as f32 * flight.rise,
                1e-4,
                &format!("{} step {i}", flight.name),
            );
            assert!(hit.normal.dot(Vec3::Y) > 0.9999, "{} step {i} is level", flight.name);
        }
        assert_near(flight.tread_centre(flight.steps - 1).y, flight.top(), 1e-5, "landing");
        // The first riser is vertical, facing down the stairs, at the base.
        let from = flight.base - flight.dir + Vec3::Y * (flight.rise / 2.0);
        let hit = sweep(&ray(), from, flight.dir * 2.0, &[statics(&level)]).expect("the first riser");
        assert!((hit.point - Vec3::new(flight.base.x, hit.point.y, flight.base.z)).length() < 1e-4);
        assert!(hit.normal.dot(-flight.dir) > 0.9999);
    }
    let (lo, hi) = LEDGE_070;
    assert_near(
        drop_ray(&level, (lo.x + hi.x) / 2.0, (lo.z + hi.z) / 2.0).point.y,
        0.7,
        1e-4,
        "ledge",
    );
}

#[test]
fn ramps_have_their_slopes_and_lead_to_platforms() {
    let level = playground();
    let world = [statics(&level)];
    let tan = |deg: f32| (deg as f64).to_radians().tan() as f32;
    for ramp in RAMPS {
        assert!(ramp.width >= 2.5);
        for fraction in [0.25, 0.5, 0.75] {
            let d = ramp.run() * fraction;
            let p = ramp.surface_at(d);
            let hit = drop_ray(&level, p.x, p.z);
            // The ray's 1 cm sphere touches the slope a little uphill of its axis.
            let along = (hit.point - ramp.base()).dot(ramp.dir);
            assert!((along - d).abs() < 0.01);
            assert_near(
                hit.point.y,
                along * tan(ramp.angle_deg),
                1e-4,
                &format!("{} height", ramp.name),
            );
            assert_near(
                degrees_from_vertical(hit.normal),
                ramp.angle_deg,
                0.5,
                &format!("{} slope", ramp.name),
            );
        }
        // The player ellipsoid dropped on the middle of the slope meets its face.
        let mid = ramp.surface_at(ramp.run() / 2.0);
        let hit = sweep(&player(), mid + Vec3::Y * 5.0, Vec3::new(0.0, -6.0, 0.0), &world).expect("the slope");
        assert_near(
            degrees_from_vertical(hit.normal),
            ramp.angle_deg,
            0.5,
            &format!("{} under the player", ramp.name),
        );
        assert!((hit.normal - ramp.normal()).length() < 1e-3);
        let top = ramp.platform_centre();
        let hit = drop_ray(&level, top.x, top.z);
        assert_near(
            hit.point.y,
            ramp.height,
            1e-4,
            &format!("{} platform", ramp.platform_name),
        );
    }
    let fall = RAMPS.iter().find(|r| r.angle_deg == 30.0).unwrap();
    assert!(
        (2.0..=3.0).contains(&fall.height),
        "the 30° platform is the ledge to fall from"
    );
    assert!(!RAMPS.iter().find(|r| r.angle_deg == 55.0).unwrap().walkable);
}

#[test]
fn passages_thin_wall_and_pillars() {
    let level = playground();
    let world = [statics(&level)];

    // Narrow corridor: 0.95 m clear; the player fits, walking its whole length.
    let c = NARROW_CORRIDOR.centre() + Vec3::Y;
    let right = sweep(&ray(), c, Vec3::X * 2.0, &world).unwrap().point.x;
    let left = sweep(&ray(), c, Vec3::NEG_X * 2.0, &world).unwrap().point.x;
    assert_near(right - left, 0.95, 1e-4, "corridor clear width");
    let walk = Vec3::new(c.x, 0.95, NARROW_CORRIDOR.max.y + 1.0);
    let length = NARROW_CORRIDOR.max.y - NARROW_CORRIDOR.min.y + 2.0;
    assert_eq!(
        sweep(&player(), walk, Vec3::NEG_Z * length, &world),
        None,
        "the player fits the corridor"
    );

    // Low ceiling: 1.3 m clear; standing hits the roof's edge, crouching passes.
    let c = LOW_CEILING.centre();
    let up = sweep(&ray(), c + Vec3::Y * 0.5, Vec3::Y * 3.0, &world).unwrap();
    assert_near(up.point.y, LOW_CEILING_HEIGHT, 1e-4, "low ceiling");
    assert!(up.normal.dot(Vec3::NEG_Y) > 0.9999);
    let start = Vec3::new(c.x, 0.0, LOW_CEILING.max.y + 1.0);
    let length = LOW_CEILING.max.y - LOW_CEILING.min.y + 2.0;
    let standing = sweep(&player(), start + Vec3::Y * 0.95, Vec3::NEG_Z * length, &world).expect("standing hits");
    assert_near(standing.point.z, LOW_CEILING.max.y, 1e-3, "roof edge");
    let crouched = Ellipsoid::new(Vec3::new(0.4, 0.6, 0.4)).unwrap();
    assert_eq!(
        sweep(&crouched, start + Vec3::Y * 0.62, Vec3::NEG_Z * length, &world),
        None,
        "crouching passes"
    );

    // Thin wall: 1 cm, and the player does not pass through it.
    let (lo, hi) = THIN_WALL;
    assert_near(hi.z - lo.z, 0.01, 1e-5, "thin wall thickness");
    let x = (lo.x + hi.x) / 2.0;
    for dir in [Vec3::Z, Vec3::NEG_Z] {
        let from = Vec3::new(x, 0.95, (lo.z + hi.z) / 2.0) - dir * 2.0;
        let hit = sweep(&player(), from, dir * 4.0, &world).expect("the thin wall stops the player");
        assert!(hit.normal.dot(-dir) > 0.9999);
        assert_near(
            hit.point.z,
            if dir.z > 0.0 { lo.z } else { hi.z },
            1e-4,
            "thin wall face",
        );
    }

    // Round pillars: a ray towards a pillar's axis meets it at its radius.
    for p in PILLARS {
        let hit = sweep(&ray(), p + Vec3::new(-2.0, 1.0, 0.0), Vec3::X * 2.0, &world).expect("a pillar");
        assert_near(p.x - hit.point.x, PILLAR_RADIUS, 1e-3, "pillar radius");
        assert_near(drop_ray(&level, p.x, p.z).point.y, PILLAR_HEIGHT, 1e-4, "pillar height");
    }
}

#[test]
fn floor_patches_fine_grid_and_bumps() {
    let level = playground();
    let colliders = level.statics.as_ref().unwrap();
    let inside = |t: &[Vec3; 3]| {
        t.iter().all(|p| {
            p.y == 0.0
                && p.x >= FINE_GRID.min.x
                && p.x <= FINE_GRID.max.x
                && p.z >= FINE_GRID.min.y
                && p.z <= FINE_GRID.max.y
        })
    };
    let fine = colliders.triangles().filter(|t| inside(t)).count();
    let cells = (FINE_GRID_CELLS * FINE_GRID_CELLS * 2) as usize;
    assert_eq!(fine, cells, "the fine grid's triangles and nothing else on it");
    let hit = drop_ray(&level, FINE_GRID.centre().x + 0.03, FINE_GRID.centre().z + 0.07);
    assert_near(hit.point.y, 0.0, 1e-5, "fine grid height");

    let (mut lowest, mut highest) = (f32::MAX, f32::MIN);
    for i in 1..12 {
        for j in 1..12 {
            let x = BUMPY_PATCH.min.x + (BUMPY_PATCH.max.x - BUMPY_PATCH.min.x) * i as f32 / 12.0;
            let z = BUMPY_PATCH.min.y + (BUMPY_PATCH.max.y - BUMPY_PATCH.min.y) * j as f32 / 12.0;
            let hit = drop_ray(&level, x, z);
            let (h, _, _) = bump_height(hit.point.x as f64, hit.point.z as f64);
            assert_near(hit.point.y, h as f32, 8e-3, "bump height");
            lowest = lowest.min(hit.point.y);
            highest = highest.max(hit.point.y);
        }
    }
    assert!(
        lowest < -0.04 && highest > 0.04 && highest < 0.15,
        "bumps from {lowest} to {highest}"
    );
    // Around the patch the ground is flat at y = 0.
    assert_near(
        drop_ray(&level, BUMPY_PATCH.min.x - 0.5, 21.0).point.y,
        0.0,
        1e-6,
        "ground next to the bumps",
    );
}

#[test]
fn door_closes_its_doorway_and_opens_into_room_b() {
    let level = playground();
    let door = mover(&level, "Door");
    let (width, height) = DOORWAY;
    assert!(width > DOOR_SIZE.x && width - DOOR_SIZE.x < 0.2 && height > DOOR_SIZE.y);

    // A ray through the doorway from room A stops at the closed leaf...
    let from = Vec3::new(0.0, 1.0, DIVIDER_Z + 2.0);
    let closed = [statics(&level), placed(door, 0.0)];
    let hit = sweep(&ray(), from, Vec3::NEG_Z * 10.0, &closed).expect("the closed door");
    assert_eq!(hit.collider, 1);
    assert_near(hit.point.z, DIVIDER_Z + DOOR_SIZE.z / 2.0, 1e-4, "closed leaf");
    // ...and, the door open, reaches room B's back wall.
    let open = [statics(&level), placed(door, 1.0)];
    let hit = sweep(&ray(), from, Vec3::NEG_Z * 10.0, &open).expect("room B's back wall");
    assert_eq!(hit.collider, 0);
    assert_near(hit.point.z, ROOMS.min.y, 1e-4, "room B's back wall");
    // The open leaf lies along the doorway's −x jamb, inside room B.
    let bounds = door.collider.bounds();
    let leaf_end = door.pose_at(1.0).transform_point(Vec3::new(bounds.max.x, 1.0, 0.0));
    assert_near(leaf_end.x, DOOR_HINGE.x, 1e-4, "open leaf x");
    assert_near(leaf_end.z, DIVIDER_Z - DOOR_SIZE.x, 1e-4, "open leaf z");
    // The player walks through the open doorway without touching anything.
    let centre = Vec3::new(0.05, 0.95, DIVIDER_Z + 2.0);
    assert_eq!(
        sweep(&player(), centre, Vec3::NEG_Z * 4.0, &open),
        None,
        "the player fits the doorway"
    );
    // With the door closed, only the doorway leads from room A to room B.
    for x in [-3.0, -2.0, 2.0, 3.0] {
        let hit = sweep(&ray(), Vec3::new(x, 1.0, DIVIDER_Z + 2.0), Vec3::NEG_Z * 4.0, &closed).expect("divider");
        assert_near(hit.point.z, DIVIDER_Z + ROOM_WALL / 2.0, 1e-4, "divider");
    }
}

#[test]
fn lift_rises_flush_with_the_upper_floor() {
    let level = playground();
    let lift = mover(&level, "Lift");
    let probe = |openness: f32| {
        let world = [statics(&level), placed(lift, openness)];
        let from = LIFT_REST + Vec3::new(0.5, 20.0, 0.5);
        sweep(&ray(), from, Vec3::new(0.0, -30.0, 0.0), &world).expect("the lift")
    };
    let bottom = probe(0.0);
    assert_eq!(bottom.collider, 1);
    assert_near(bottom.point.y, LIFT_SIZE.y, 1e-4, "lift at rest");
    let top = probe(1.0);
    assert_eq!(top.collider, 1);
    assert_near(top.point.y, UPPER_FLOOR_HEIGHT, 1e-4, "lift at the top");
    let floor = UPPER_FLOOR.centre();
    assert_near(
        drop_ray(&level, floor.x, floor.z).point.y,
        UPPER_FLOOR_HEIGHT,
        1e-4,
        "upper floor",
    );
    // The lift runs along the upper floor's +x face, 5 cm from it, where its railing is open.
    let face = sweep(&ray(), LIFT_REST + Vec3::Y * 3.0, Vec3::NEG_X * 5.0, &[statics(&level)]).unwrap();
    assert_near(face.point.x, UPPER_FLOOR.max.x, 1e-4, "upper floor face");
    assert_near(
        LIFT_REST.x - LIFT_SIZE.x / 2.0 - UPPER_FLOOR.max.x,
        0.05,
        1e-4,
        "gap to the upper floor",
    );
    let over = sweep(
        &ray(),
        LIFT_REST + Vec3::Y * 4.8,
        Vec3::NEG_X * 20.0,
        &[statics(&level)],
    )
    .unwrap();
    assert!(
        over.point.x < UPPER_FLOOR.max.x - 1.0,
        "the railing is open where the lift arrives"
    );
    // The upper floor's walls are too tall to jump: a vertical face from the ground to the top.
    for y in [0.5, 2.0, 4.0] {
        let hit = sweep(
            &ray(),
            Vec3::new(-10.0, y, -18.0),
            Vec3::NEG_X * 10.0,
            &[statics(&level)],
        )
        .unwrap();
        assert_near(hit.point.x, UPPER_FLOOR.max.x, 1e-4, "upper floor wall");
    }
    // The beacon stands on the upper floor.
    assert_near(
        drop_ray(&level, BEACON.x, BEACON.z).point.y,
        UPPER_FLOOR_HEIGHT + 1.2,
        1e-4,
        "beacon",
    );
}
