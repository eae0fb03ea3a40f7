//! The broad phase: a uniform hash grid of boxes (each ball's remaining
//! path in the tick). A box covering too many cells goes on a short list
//! tested against every query instead.

use glam::Vec3;
use slidewalk_sweep::CellHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

type Cells = HashMap<(i32, i32, i32), Vec<u32>, BuildHasherDefault<CellHasher>>;

/// Cells one box may cover before it goes on the oversized list.
const MAX_CELLS: i64 = 64;

/// An axis-aligned box, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Bounds {
    /// The box around a sphere moving from `a` to `b`.
    pub fn of_path(a: Vec3, b: Vec3, radius: f32) -> Self {
        Self {
            min: a.min(b) - Vec3::splat(radius),
            max: a.max(b) + Vec3::splat(radius),
        }
    }

    /// Whether the boxes overlap (touching counts).
    pub fn overlaps(&self, other: &Bounds) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }
}

/// Boxes by cell.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    cell: f32,
    cells: Cells,
    bounds: Vec<Option<Bounds>>,
    oversized: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
}

impl Grid {
    /// Empties the grid for `count` items with cells `cell` metres wide.
    pub fn reset(&mut self, count: usize, cell: f32) {
        self.cell = cell.max(1e-3);
        // Keep the cells' lists (their memory) from tick to tick, unless
        // the balls have wandered over far more cells than they fill.
        if self.cells.len() > 8 * count + 4096 {
            self.cells.clear();
        }
        for list in self.cells.values_mut() {
            list.clear();
        }
        self.bounds.clear();
        self.bounds.resize(count, None);
        self.oversized.clear();
        self.seen.clear();
        self.seen.resize(count, 0);
        self.stamp = 0;
    }

    fn range(&self, b: &Bounds) -> ([i32; 3], [i32; 3]) {
        let lo = (b.min / self.cell).floor();
        let hi = (b.max / self.cell).floor();
        let clamp = |v: f32| v.clamp(-1e9, 1e9) as i32;
        (
            [clamp(lo.x), clamp(lo.y), clamp(lo.z)],
            [clamp(hi.x), clamp(hi.y), clamp(hi.z)],
        )
    }

    /// Cells in the box `lo..=hi`, saturating: three spans of up to 2e9
    /// cells overflow an `i64` product (the fuzzer's ten-million-second
    /// tick wrapped it below the cap, and the grid tried to fill them all).
    fn cell_count(lo: [i32; 3], hi: [i32; 3]) -> i64 {
        (0..3)
            .map(|k| (hi[k] as i64 - lo[k] as i64 + 1).max(1))
            .fold(1i64, i64::saturating_mul)
    }

    /// Puts item `id` in the grid with box `b` (taking out its old box).
    pub fn insert(&mut self, id: u32, b: Bounds) {
        self.remove(id);
        self.bounds[id as usize] = Some(b);
        let (lo, hi) = self.range(&b);
        if Self::cell_count(lo, hi) > MAX_CELLS {
            self.oversized.push(id);
            return;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    self.cells.entry((x, y, z)).or_default().push(id);
                }
            }
        }
    }

    /// Takes item `id` out.
    pub fn remove(&mut self, id: u32) {
        let Some(b) = self.bounds[id as usize].take() else {
            return;
        };
        let (lo, hi) = self.range(&b);
        if Self::cell_count(lo, hi) > MAX_CELLS {
            self.oversized.retain(|&o| o != id);
            return;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    if let Some(list) = self.cells.get_mut(&(x, y, z))
                        && let Some(k) = list.iter().position(|&o| o == id)
                    {
                        list.swap_remove(k);
                    }
                }
            }
        }
    }

    /// Every other item whose box overlaps item `id`'s, once each.
    pub fn neighbours(&mut self, id: u32, out: &mut Vec<u32>) {
        self.neighbours_within(id, 0.0, out);
    }

    /// Every other item whose box comes within `margin` (metres) of item
    /// `id`'s, once each.
    pub fn neighbours_within(&mut self, id: u32, margin: f32, out: &mut Vec<u32>) {
        out.clear();
        let Some(mut b) = self.bounds[id as usize] else { return };
        b.min -= Vec3::splat(margin);
        b.max += Vec3::splat(margin);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.seen[id as usize] = stamp;
        let mut consider = |other: u32, seen: &mut [u32], bounds: &[Option<Bounds>]| {
            if seen[other as usize] != stamp {
                seen[other as usize] = stamp;
                if bounds[other as usize].is_some_and(|o| o.overlaps(&b)) {
                    out.push(other);
                }
            }
        };
        for &other in &self.oversized {
            consider(other, &mut self.seen, &self.bounds);
        }
        let (lo, hi) = self.range(&b);
        if Self::cell_count(lo, hi) > MAX_CELLS {
            // An oversized query: test every item.
            for other in 0..self.bounds.len() as u32 {
                consider(other, &mut self.seen, &self.bounds);
            }
            return;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    if let Some(list) = self.cells.get(&(x, y, z)) {
                        for &other in list {
                            consider(other, &mut self.seen, &self.bounds);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_across_the_whole_grid_is_oversized() {
        // Found by the fuzzer (crates/fuzz): ±1e9 cells on each axis
        // overflowed the cell count, which then passed the cap.
        assert_eq!(Grid::cell_count([-1_000_000_000; 3], [1_000_000_000; 3]), i64::MAX);
        let mut g = Grid::default();
        g.reset(1, 0.25);
        g.insert(0, Bounds::of_path(Vec3::splat(-1e15), Vec3::splat(1e15), 0.1));
        assert_eq!(g.oversized, vec![0]);
        assert!(g.cells.is_empty());
    }

    #[test]
    fn neighbours_are_the_overlapping_boxes_once_each() {
        let mut g = Grid::default();
        g.reset(4, 1.0);
        g.insert(0, Bounds::of_path(Vec3::ZERO, Vec3::new(2.5, 0.0, 0.0), 0.1));
        g.insert(
            1,
            Bounds::of_path(Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.1),
        );
        g.insert(
            2,
            Bounds::of_path(Vec3::new(5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0), 0.1),
        );
        // A huge one: on the oversized list, still found.
        g.insert(3, Bounds::of_path(Vec3::splat(-50.0), Vec3::splat(50.0), 0.1));
        let mut out = Vec::new();
        g.neighbours(0, &mut out);
        out.sort();
        assert_eq!(out, vec![1, 3]);
        g.insert(
            1,
            Bounds::of_path(Vec3::new(9.0, 0.0, 0.0), Vec3::new(9.0, 0.0, 0.0), 0.1),
        );
        g.neighbours(0, &mut out);
        assert_eq!(out, vec![3]);
        g.remove(3);
        g.neighbours(0, &mut out);
        assert!(out.is_empty());
    }
}
