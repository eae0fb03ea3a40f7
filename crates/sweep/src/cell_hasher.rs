//! [`CellHasher`]: the hash of uniform-grid cell keys, shared by every
//! grid over space (the volumes' [`BoxGrid`](crate::BoxGrid), the balls'
//! broad phase).

use std::hash::Hasher;

/// Hashes a grid cell's key, a packed `u64` or its integer coordinates
/// (`(i32, i32, i32)`), by one multiply and rotate per word (Fibonacci
/// hashing, as rustc's FxHash does).
///
/// Grids look cells up for every body every tick, and the standard
/// SipHash, built against hostile keys, cost more than half of a
/// 10,000-ball tick. Cell keys come from positions, not from strangers,
/// so a fast hash is safe here; it is not for keys an attacker chooses.
/// The final rotation brings every word's high bits down to the low bits
/// a hash table indexes by, so cells that differ only in `y` or `z` do not
/// share buckets.
///
/// Use it through [`std::hash::BuildHasherDefault`]:
///
/// ```
/// use slidewalk_sweep::CellHasher;
/// use std::collections::HashMap;
/// use std::hash::BuildHasherDefault;
///
/// let mut cells: HashMap<(i32, i32, i32), Vec<u32>, BuildHasherDefault<CellHasher>> = HashMap::default();
/// cells.entry((1, -2, 3)).or_default().push(7);
/// assert_eq!(cells[&(1, -2, 3)], vec![7]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Cell keys hash through `write_u64` and `write_i32`; any other
        // input still hashes, by byte.
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_i32(&mut self, i: i32) {
        self.write_u64(u64::from(i as u32));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::hash::{BuildHasher, BuildHasherDefault};

    /// The low bits a small table indexes by must vary with every
    /// coordinate, not only `x`.
    #[test]
    fn neighbouring_cells_spread_over_the_low_bits() {
        let build = BuildHasherDefault::<CellHasher>::default();
        let mut buckets = HashSet::new();
        for x in 0..4 {
            for y in 0..4 {
                for z in 0..4 {
                    buckets.insert(build.hash_one((x, y, z)) & 255);
                }
            }
        }
        // 64 cells over 256 buckets: a good hash leaves few collisions.
        assert!(buckets.len() >= 48, "{} distinct buckets of 64 cells", buckets.len());
    }
}
