//! A tiny deterministic random generator, so generators need no dependency.

use glam::Vec3;

/// 64-bit linear congruential generator (Knuth's MMIX constants); plenty for
/// laying out test geometry and random walks, reproducible from its seed.
/// Not for anything that needs statistical quality.
pub struct Lcg(u64);

impl Lcg {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        let mut rng = Self(seed ^ 0x9e37_79b9_7f4a_7c15);
        rng.next_f32();
        rng
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f32(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }

    /// Uniform in the box `[lo, hi)`.
    pub fn in_box(&mut self, lo: Vec3, hi: Vec3) -> Vec3 {
        Vec3::new(self.range(lo.x, hi.x), self.range(lo.y, hi.y), self.range(lo.z, hi.z))
    }

    /// A unit vector, uniform on the sphere.
    pub fn direction(&mut self) -> Vec3 {
        loop {
            let v = self.in_box(Vec3::splat(-1.0), Vec3::ONE);
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
}
