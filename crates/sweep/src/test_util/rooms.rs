//! The shared adversarial rooms: closed boxes holding thin walls, slivers,
//! needles, spikes, coplanar duplicates, T-junctions, stairs and bumps.

use super::soup::Soup;
use glam::Vec3;

/// A closed box room (inside `-half..half`), walls seen from inside.
pub fn box_room(half: Vec3) -> Soup {
    let mut s = Soup::default();
    s.cuboid(-half, half);
    s
}

/// A room with a 1 cm thin wall across its middle (x = 0), full height.
pub fn thin_wall_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    s.cuboid(Vec3::new(-0.005, -half.y, -half.z), Vec3::new(0.005, half.y, half.z));
    s
}

/// A room whose floor is made of slivers and needles (long thin triangles
/// fanned from one corner) and carries a few spikes.
pub fn sliver_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    // Fan of needles over the floor, just above it (coplanar duplicates of
    // the floor are in `coplanar_room`).
    let y = -half.y + 0.001;
    let o = Vec3::new(-half.x, y, -half.z);
    let n = 64;
    for i in 0..n {
        let a = i as f32 / n as f32;
        let b = (i + 1) as f32 / n as f32;
        let p = |t: f32| Vec3::new(-half.x + 2.0 * half.x * t, y, half.z);
        s.tri(o, p(b), p(a));
    }
    for k in 0..5 {
        let x = -half.x * 0.6 + k as f32 * half.x * 0.3;
        spike(&mut s, Vec3::new(x, -half.y, 0.0), 0.05, half.y * 0.8);
    }
    s
}

/// A thin four-sided spike standing on `base`, `radius` wide and `height` tall.
pub fn spike(s: &mut Soup, base: Vec3, radius: f32, height: f32) {
    let tip = base + Vec3::Y * height;
    let c = [
        Vec3::new(radius, 0.0, 0.0),
        Vec3::new(0.0, 0.0, radius),
        Vec3::new(-radius, 0.0, 0.0),
        Vec3::new(0.0, 0.0, -radius),
    ];
    for i in 0..4 {
        s.tri(base + c[i], base + c[(i + 1) % 4], tip);
    }
}

/// A room whose floor is present twice, coplanar, with different
/// triangulations, plus a T-junction floor (cells of different sizes meeting).
pub fn coplanar_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    let y = -half.y;
    s.grid((-half.x, -half.z), (half.x, half.z), y, 7);
    // T-junctions: left half in 4 cells, right half in 9 cells per side.
    s.grid((-half.x, -half.z), (0.0, half.z), y, 4);
    s.grid((0.0, -half.z), (half.x, half.z), y, 9);
    s
}

/// A room with stairs and a ramp inside, bumps on the floor.
pub fn stairs_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    let floor = -half.y;
    s.stairs(
        Vec3::new(-half.x * 0.8, floor, -half.z * 0.8),
        6,
        half.x * 0.1,
        half.y * 0.08,
        half.z * 0.5,
    );
    s.heightfield((-half.x * 0.5, 0.0), (half.x * 0.9, half.z * 0.9), 12, |x, z| {
        floor + 0.03 * half.y * ((x * 3.1 / half.x).sin() * (z * 2.7 / half.z).cos() + 1.0)
    });
    s
}

/// The shared set of adversarial rooms, named, at unit scale (about 4 m
/// across, 3 m tall): every one is closed.
pub fn adversarial_rooms() -> Vec<(&'static str, Soup)> {
    let half = Vec3::new(2.0, 1.5, 2.0);
    vec![
        ("box room", box_room(half)),
        ("box room, inward winding", box_room(half).flipped()),
        ("1 cm thin wall", thin_wall_room(half)),
        ("slivers, needles, spikes", sliver_room(half)),
        ("coplanar duplicates, T-junctions", coplanar_room(half)),
        ("stairs and bumps", stairs_room(half)),
    ]
}
