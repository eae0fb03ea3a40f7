//! What the physics tests share: the end-of-tick tolerance, a small
//! deterministic generator, box meshes, and an elastic world without gravity.

use glam::Vec3;
use slidewalk_balls::BallConfig;
use slidewalk_sweep::MeshCollider;

/// Overlap allowed at the end of a tick, metres (float error of the
/// impact times; the skin keeps balls 0.1 mm off surfaces).
pub const TOLERANCE: f32 = 1e-3;

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    pub fn vec(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
}

/// The six faces of a box as triangles.
pub fn box_mesh(min: Vec3, max: Vec3) -> MeshCollider {
    let c = |x: bool, y: bool, z: bool| {
        Vec3::new(
            if x { max.x } else { min.x },
            if y { max.y } else { min.y },
            if z { max.z } else { min.z },
        )
    };
    let v: Vec<Vec3> = (0..8).map(|i| c(i & 1 != 0, i & 2 != 0, i & 4 != 0)).collect();
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    let tris: Vec<[u32; 3]> = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    MeshCollider::build(&v, &tris).unwrap()
}

/// A 20 m square slab whose top is at y = 0.
pub fn floor() -> MeshCollider {
    box_mesh(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0))
}

pub fn elastic() -> BallConfig {
    BallConfig {
        gravity: Vec3::ZERO,
        restitution: 1.0,
        friction: 0.0,
        rest_speed: 0.0,
        sleep_speed: 0.0,
        ..BallConfig::default()
    }
}
