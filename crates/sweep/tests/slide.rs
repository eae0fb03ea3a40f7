//! Collide-and-slide behaviour: sliding on floors and walls, creases and
//! corners, the gravity pass, stairs, tunnelling bait, starting embedded and
//! bad input.

use glam::Vec3;
use slidewalk_sweep::test_util::{Soup, min_espace_distance};
use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider, SlideOptions, collide_and_slide};

fn player() -> Ellipsoid {
    Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap()
}

fn floor_soup() -> Soup {
    let mut s = Soup::default();
    s.grid((-20.0, -20.0), (20.0, 20.0), 0.0, 8);
    s
}

fn collider(s: &Soup) -> MeshCollider {
    MeshCollider::build(&s.positions, &s.triangles).unwrap()
}

fn slide(mesh: &MeshCollider, e: &Ellipsoid, start: Vec3, motion: Vec3) -> slidewalk_sweep::SlideResult {
    collide_and_slide(
        e,
        start,
        motion,
        &[PlacedCollider::fixed(mesh)],
        &SlideOptions::default(),
    )
}

#[test]
fn standing_on_a_floor_does_not_drift_under_gravity() {
    let mesh = collider(&floor_soup());
    let e = player();
    let mut pos = Vec3::new(0.3, 0.95, -0.2);
    for _ in 0..600 {
        pos = slide(&mesh, &e, pos, Vec3::new(0.0, -0.1, 0.0)).position;
    }
    assert!(
        (pos.x - 0.3).abs() < 1e-5 && (pos.z + 0.2).abs() < 1e-5,
        "drifted to {pos}"
    );
    assert!((pos.y - 0.9).abs() < 0.9 * 2e-3, "rests at {pos}, expected 0.9 + skin");
}

#[test]
fn walking_into_the_floor_keeps_the_horizontal_part() {
    let mesh = collider(&floor_soup());
    let r = slide(&mesh, &player(), Vec3::new(0.0, 0.91, 0.0), Vec3::new(1.0, -0.5, 0.5));
    assert!(
        (r.position.x - 1.0).abs() < 1e-3 && (r.position.z - 0.5).abs() < 1e-3,
        "{:?}",
        r.position
    );
    assert!(r.position.y >= 0.9 && r.position.y < 0.91, "{:?}", r.position);
    assert_eq!(r.contacts.len(), 1);
    assert!(r.contacts[0].normal.dot(Vec3::Y) > 0.999);
    assert!(!r.blocked);
}

#[test]
fn sliding_along_a_wall_at_an_angle() {
    let mut s = floor_soup();
    s.quad(
        Vec3::new(2.0, 0.0, -10.0),
        Vec3::new(2.0, 3.0, -10.0),
        Vec3::new(2.0, 3.0, 10.0),
        Vec3::new(2.0, 0.0, 10.0),
    );
    let mesh = collider(&s);
    let e = player();
    let r = slide(&mesh, &e, Vec3::new(0.0, 1.0, 0.0), Vec3::new(4.0, 0.0, 3.0));
    // Stopped a skin short of the wall in x, all of the z motion kept.
    assert!(r.position.x < 1.6 && r.position.x > 1.595, "{:?}", r.position);
    assert!((r.position.z - 3.0).abs() < 1e-3, "{:?}", r.position);
    let wall = r.contacts.iter().find(|c| c.normal.x < -0.99).expect("a wall contact");
    assert!((wall.point.x - 2.0).abs() < 1e-4);
    assert!((wall.plane.normal - wall.normal).length() < 1e-6);
}

#[test]
fn acute_corner_does_not_oscillate() {
    // Two walls meeting at 30° along the y axis, opening towards -x.
    let mut s = floor_soup();
    let half = 15f32.to_radians();
    let (a, b) = (
        Vec3::new(-10.0 * half.cos(), 0.0, 10.0 * half.sin()),
        Vec3::new(-10.0 * half.cos(), 0.0, -10.0 * half.sin()),
    );
    s.quad(Vec3::ZERO, a, a + Vec3::Y * 3.0, Vec3::Y * 3.0);
    s.quad(Vec3::ZERO, Vec3::Y * 3.0, b + Vec3::Y * 3.0, b);
    let mesh = collider(&s);
    let e = Ellipsoid::sphere(0.4).unwrap();
    let mut pos = Vec3::new(-4.0, 1.0, 0.3);
    let mut last = Vec::new();
    for _ in 0..200 {
        let r = slide(&mesh, &e, pos, Vec3::new(0.2, 0.0, 0.05));
        pos = r.position;
        last.push(pos);
    }
    // Wedged in the corner: settled, not jittering between the walls.
    let tail = &last[150..];
    let spread = tail.iter().fold(0.0f32, |m, p| m.max((*p - tail[0]).length()));
    assert!(
        spread < 1e-4,
        "still moving by {spread} m in the corner: {:?}",
        &tail[..4]
    );
    assert!(min_espace_distance(&e, pos, mesh.triangles()) >= 1.0 - 1e-5);
}

#[test]
fn three_planes_stop_the_motion() {
    // Floor plus two walls meeting at a right angle: push into the corner and down.
    let mut s = floor_soup();
    s.quad(
        Vec3::new(1.0, 0.0, -5.0),
        Vec3::new(1.0, 3.0, -5.0),
        Vec3::new(1.0, 3.0, 5.0),
        Vec3::new(1.0, 0.0, 5.0),
    );
    s.quad(
        Vec3::new(-5.0, 0.0, 1.0),
        Vec3::new(5.0, 0.0, 1.0),
        Vec3::new(5.0, 3.0, 1.0),
        Vec3::new(-5.0, 3.0, 1.0),
    );
    let mesh = collider(&s);
    let e = Ellipsoid::sphere(0.5).unwrap();
    let r = slide(&mesh, &e, Vec3::new(0.0, 0.51, 0.0), Vec3::new(2.0, -1.0, 2.0));
    assert!(r.blocked, "{r:?}");
    assert!(
        (r.position - Vec3::new(0.5, 0.5, 0.5)).length() < 0.01,
        "{:?}",
        r.position
    );
}

#[test]
fn low_stairs_are_climbed_by_walking_and_gravity() {
    // Risers of 0.15 m: the ellipsoid's curved bottom rolls over them.
    let mut s = floor_soup();
    s.stairs(Vec3::new(1.0, 0.0, -1.0), 6, 0.3, 0.15, 2.0);
    let mesh = collider(&s);
    let e = player();
    let mut pos = Vec3::new(0.0, 0.901, 0.0);
    let mut top = pos;
    for _ in 0..120 {
        // 60 Hz: walk at 3 m/s, then a gravity pass.
        pos = slide(&mesh, &e, pos, Vec3::new(0.05, 0.0, 0.0)).position;
        pos = slide(&mesh, &e, pos, Vec3::new(0.0, -0.02, 0.0)).position;
        if pos.y > top.y {
            top = pos;
        }
    }
    // Reached the top (6 × 0.15 m = 0.9 m) on the last step, then walked off its far end.
    assert!(top.y > 0.9 + 0.89 && top.x > 2.5 - 0.4, "highest point {top}");
    assert!(pos.x > 3.0, "stuck at {pos}");
}

#[test]
fn a_long_move_does_not_tunnel_through_a_thin_wall() {
    let mut s = floor_soup();
    s.cuboid(Vec3::new(3.0, 0.0, -5.0), Vec3::new(3.01, 3.0, 5.0));
    let mesh = collider(&s);
    let e = player();
    for speed in [0.5f32, 10.0, 1000.0, 1e6] {
        let r = slide(&mesh, &e, Vec3::new(0.0, 1.0, 0.0), Vec3::new(speed, 0.0, 0.0));
        if (2.0..=1000.0).contains(&speed) {
            // Stopped a skin short (the skin grows with the motion's f32 error).
            assert!(r.position.x > 2.59, "speed {speed}: {:?}", r.position);
        }
        assert!(
            r.position.x < 3.0 - 0.399,
            "speed {speed}: tunnelled to {:?}",
            r.position
        );
    }
}

#[test]
fn starting_embedded_is_pushed_out() {
    let mesh = collider(&floor_soup());
    let e = player();
    let r = slide(&mesh, &e, Vec3::new(0.0, 0.7, 0.0), Vec3::ZERO);
    assert!((r.depenetration - Vec3::new(0.0, 0.2, 0.0)).length() < 2e-3, "{r:?}");
    assert!(r.contacts.iter().any(|c| c.depenetration));
    assert!(!r.unresolved_overlap);
    assert!(min_espace_distance(&e, r.position, mesh.triangles()) >= 1.0);
    // Centre exactly on the floor: pushed out along the face normal, not NaN.
    let r = slide(&mesh, &e, Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.0));
    assert!(r.position.is_finite() && r.position.y.abs() >= 0.9 - 1e-4, "{r:?}");
}

#[test]
fn non_finite_motion_is_ignored() {
    let mesh = collider(&floor_soup());
    let start = Vec3::new(0.0, 1.0, 0.0);
    for bad in [Vec3::NAN, Vec3::new(f32::INFINITY, 0.0, 0.0)] {
        let r = slide(&mesh, &player(), start, bad);
        assert_eq!(r.position, start);
    }
}

/// A ramp rising along +x at `degrees`, 10 m long, on the floor.
fn ramp_soup(degrees: f32) -> Soup {
    let mut s = floor_soup();
    let h = 10.0 * degrees.to_radians().tan();
    s.quad(
        Vec3::new(0.0, 0.0, -5.0),
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(10.0, h, 5.0),
        Vec3::new(10.0, h, -5.0),
    );
    s
}

#[test]
fn gravity_pass_stops_on_walkable_ground_only() {
    let e = player();
    let ground = slidewalk_sweep::Ground::y_up(50f32.to_radians());
    let gravity_pass = SlideOptions {
        stop_on_ground: Some(ground),
        ..Default::default()
    };
    for (degrees, walkable) in [(15.0f32, true), (30.0, true), (40.0, true), (55.0, false)] {
        let mesh = collider(&ramp_soup(degrees));
        let world = [PlacedCollider::fixed(&mesh)];
        // Stand on the ramp at x = 5 (well above the floor), then 120 gravity passes.
        let start = Vec3::new(
            5.0,
            5.0 * degrees.to_radians().tan() + 0.9 / degrees.to_radians().cos() + 0.01,
            0.0,
        );
        let run = |options: &SlideOptions| {
            let mut pos = start;
            for _ in 0..120 {
                pos = collide_and_slide(&e, pos, Vec3::new(0.0, -0.05, 0.0), &world, options).position;
            }
            pos
        };
        let with_stop = run(&gravity_pass);
        let papers = run(&SlideOptions::default());
        // The papers' projection always creeps down the slope.
        assert!(
            papers.x < start.x - 0.1,
            "{degrees}°: plain projection did not slide: {papers}"
        );
        if walkable {
            assert!(
                (with_stop.x - start.x).abs() < 1e-3,
                "{degrees}°: crept from {start} to {with_stop}"
            );
        } else {
            assert!(
                with_stop.x < start.x - 0.5,
                "{degrees}°: held on a steep slope at {with_stop}"
            );
        }
    }
}

#[test]
fn the_caller_chooses_the_response_to_each_contact() {
    use slidewalk_sweep::{ContactResponse, collide_and_slide_with};
    // A 50° slope rising along -z from z = 0.
    let mut s = Soup::default();
    let run = 10.0 / 50f32.to_radians().tan();
    s.quad(
        Vec3::new(-5.0, 0.0, 0.0),
        Vec3::new(5.0, 0.0, 0.0),
        Vec3::new(5.0, 10.0, -run),
        Vec3::new(-5.0, 10.0, -run),
    );
    let mesh = collider(&s);
    let e = player();
    let world = [PlacedCollider::fixed(&mesh)];
    let start = Vec3::new(0.0, 0.95, 1.0);
    let motion = Vec3::new(0.3, 0.0, -2.0);
    let opts = SlideOptions::default();
    // Slide: climbs the slope, like collide_and_slide.
    let plain = collide_and_slide_with(&e, start, motion, &world, &opts, |_| ContactResponse::Slide);
    assert_eq!(plain, collide_and_slide(&e, start, motion, &world, &opts));
    assert!(plain.position.y > start.y + 0.1, "{}", plain.position);
    // SlideAlso with the normal made horizontal: a wall, no climbing, the
    // sideways part kept; the contact's plane is the substitute.
    let wall = collide_and_slide_with(&e, start, motion, &world, &opts, |c| {
        ContactResponse::SlideAlso(Vec3::new(c.normal.x, 0.0, c.normal.z).normalize())
    });
    assert!(wall.position.y <= start.y + 1e-4, "{}", wall.position);
    assert!(wall.position.x > 0.29, "{}", wall.position);
    assert!(wall.contacts[0].plane.normal.y.abs() < 1e-6);
    assert!(min_espace_distance(&e, wall.position, mesh.triangles()) >= 1.0);
    // Stop: ends at the first contact.
    let stop = collide_and_slide_with(&e, start, motion, &world, &opts, |_| ContactResponse::Stop);
    assert_eq!(stop.contacts.len(), 1);
    assert_eq!(stop.iterations, 1);
    assert!(stop.position.x < 0.3 && stop.position.z > start.z - 2.0);
}
