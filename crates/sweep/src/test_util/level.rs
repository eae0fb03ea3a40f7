//! Large generated levels for benchmarks: terrain with buildings and stairs.

use super::Soup;
use super::rng::Lcg;
use glam::Vec3;

/// A generated level of about `target_triangles` triangles (metres): a bumpy
/// terrain with box buildings and flights of stairs on it, deterministic
/// for a given size. Used by the benchmarks (10k, 100k, 1M).
pub fn generated_level(target_triangles: usize) -> Soup {
    let mut s = Soup::default();
    // Half the triangles in terrain, the rest in buildings (12) and stairs.
    let cells = ((target_triangles as f32 / 4.0).sqrt() as u32).max(4);
    let size = (cells as f32 * 1.0).max(40.0); // ~1 m cells
    s.heightfield((-size / 2.0, -size / 2.0), (size / 2.0, size / 2.0), cells, |x, z| {
        0.4 * (x * 0.13).sin() * (z * 0.11).cos() + 0.05 * (x * 1.7).sin()
    });
    let mut rng = Lcg::new(0x5eed_1e7e1);
    while s.triangles.len() < target_triangles {
        let x = (rng.next_f32() - 0.5) * size * 0.9;
        let z = (rng.next_f32() - 0.5) * size * 0.9;
        if rng.next_f32() < 0.5 {
            let w = 2.0 + rng.next_f32() * 6.0;
            let h = 2.0 + rng.next_f32() * 10.0;
            s.cuboid(Vec3::new(x, -1.0, z), Vec3::new(x + w, h, z + w));
        } else {
            s.stairs(Vec3::new(x, -0.5, z), 10, 0.3, 0.15 + rng.next_f32() * 0.15, 1.5);
        }
    }
    s
}
