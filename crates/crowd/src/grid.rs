//! The broad phase between agents: their centres by cell, rebuilt each
//! tick by a counting sort (two passes over the agents, no allocation once
//! warm), queried by boxes. The cells over the box the agents span are
//! numbered densely, x fastest, so a query reads one run of entries per
//! row of cells; agents spread too far apart for that share buckets by
//! their cells wrapped around a tile of buckets instead (cells side by
//! side stay side by side: agents stepped in space order read nearby
//! memory).

use glam::Vec3;

/// Cells a dense numbering may have at most, per agent (and a few more).
const DENSE_CELLS_PER_AGENT: i64 = 2;

/// Agent centres by cell. Cells are boxes `cell` metres wide; each cell
/// has a bucket (its own when numbered densely, else the one it wraps to
/// in a power-of-two tile), and a bucket's agents are contiguous in
/// `entries`, each with its centre (a query reads one run of memory, not
/// the agents).
#[derive(Clone, Debug, Default)]
pub struct Grid {
    inv_cell: Vec3,
    /// The lowest cell and the cells per axis of the dense numbering, or
    /// `None` when the cells are wrapped.
    dense: Option<([i32; 3], [i64; 3])>,
    /// The lowest and highest cell holding an agent, per axis: a query
    /// looks at no cell outside them (levels lie near y = 0, where the
    /// cells' floor is: a box around an agent standing there reaches into
    /// the empty cells below).
    span: ([i32; 3], [i32; 3]),
    /// The wrapped tile: buckets along x (a power of two, as a mask and
    /// its bits) and along z (as a mask).
    wrap: (u32, u32, u32),
    /// Bucket `b`'s agents are `entries[starts[b]..starts[b + 1]]`, each
    /// with its centre.
    starts: Vec<u32>,
    entries: Vec<(Vec3, u32)>,
    /// Each agent's cell.
    cells: Vec<[i32; 3]>,
    /// Each agent's bucket (found once per build).
    buckets: Vec<u32>,
}

/// `x.floor() as i32` (saturating, NaN to 0), by truncation and a step
/// down below zero: `floor` itself is a library call on the baseline
/// x86-64.
pub(crate) fn floor_to_i32(x: f32) -> i32 {
    let t = x as i32;
    t.saturating_sub(i32::from((t as f32) > x))
}

impl Grid {
    /// `p` in cells (clamped to ±10⁹ cells): its cell is the floor.
    fn scaled(&self, p: Vec3) -> Vec3 {
        (p * self.inv_cell).clamp(Vec3::splat(-1e9), Vec3::splat(1e9))
    }

    fn cell_of(&self, p: Vec3) -> [i32; 3] {
        let c = self.scaled(p);
        [c.x, c.y, c.z].map(floor_to_i32)
    }

    /// The bucket of `cell` (within the dense numbering's span when dense).
    fn bucket(&self, cell: [i32; 3]) -> usize {
        match self.dense {
            Some((low, dims)) => {
                let at = |k: usize| i64::from(cell[k]) - i64::from(low[k]);
                ((at(2) * dims[1] + at(1)) * dims[0] + at(0)) as usize
            }
            None => self.wrapped(cell),
        }
    }

    /// The bucket `cell` wraps to: its x and z (y mixed into z: levels
    /// stacked above each other do not share) modulo the tile's sides, so
    /// a cell's neighbours along x are the next buckets and those along z
    /// one row of the tile away.
    fn wrapped(&self, [x, y, z]: [i32; 3]) -> usize {
        let (x_mask, x_bits, z_mask) = self.wrap;
        let wz = (z as u32).wrapping_add((y as u32).wrapping_mul(0x9e37_79b1)) & z_mask;
        ((wz << x_bits) | (x as u32 & x_mask)) as usize
    }

    /// Rebuilds the grid over `points` (metres) with cells `cell` metres on
    /// each axis.
    pub fn build(&mut self, points: impl ExactSizeIterator<Item = Vec3> + Clone, cell: Vec3) {
        let n = points.len();
        self.inv_cell = cell.max(Vec3::splat(1e-3)).recip();
        self.cells.clear();
        for p in points.clone() {
            let c = self.cell_of(p);
            self.cells.push(c);
        }
        // Dense when the cells' span is small enough, else wrapped.
        let (low, high) = self.cells.iter().fold(([i32::MAX; 3], [i32::MIN; 3]), |(lo, hi), c| {
            (
                [lo[0].min(c[0]), lo[1].min(c[1]), lo[2].min(c[2])],
                [hi[0].max(c[0]), hi[1].max(c[1]), hi[2].max(c[2])],
            )
        });
        self.span = (low, high);
        let dims = [0, 1, 2].map(|k| (i64::from(high[k]) - i64::from(low[k]) + 1).max(1));
        let dense_cells = dims[0].saturating_mul(dims[1]).saturating_mul(dims[2]);
        let buckets = if n > 0 && dense_cells <= DENSE_CELLS_PER_AGENT * n as i64 + 64 {
            self.dense = Some((low, dims));
            dense_cells as usize
        } else {
            self.dense = None;
            let buckets = (2 * n).next_power_of_two().max(16);
            let bits = buckets.trailing_zeros();
            let x_bits = bits.div_ceil(2);
            self.wrap = ((1 << x_bits) - 1, x_bits, (1 << (bits - x_bits)) - 1);
            buckets
        };
        // Bucket b's count goes to starts[b + 2]; the prefix sums then put
        // its start at starts[b + 1], which counts up as its agents are
        // put in, in order, and ends at its end, the start of the next.
        self.starts.clear();
        self.starts.resize(buckets + 2, 0);
        self.buckets.clear();
        for i in 0..n {
            let b = self.bucket(self.cells[i]);
            self.buckets.push(b as u32);
            self.starts[b + 2] += 1;
        }
        let mut sum = 0;
        for s in &mut self.starts {
            sum += *s;
            *s = sum;
        }
        self.entries.clear();
        self.entries.resize(n, (Vec3::ZERO, 0));
        for (i, p) in points.enumerate() {
            let at = &mut self.starts[self.buckets[i] as usize + 1];
            self.entries[*at as usize] = (p, i as u32);
            *at += 1;
        }
        self.starts.truncate(buckets + 1);
    }

    /// Calls `visit(i, centre)` once for every agent whose centre's cell
    /// is among the cells the box `min..max` (metres) touches: a superset
    /// of the centres inside the box. `centre` is the point `i` given to
    /// [`Grid::build`].
    pub fn for_each_in(&self, min: Vec3, max: Vec3, mut visit: impl FnMut(usize, Vec3)) {
        if self.entries.is_empty() {
            return;
        }
        let (lo, hi) = (self.cell_of(min), self.cell_of(max));
        if let Some((low, dims)) = self.dense {
            // The box's cells within the span; a row of them along x is one
            // run of buckets, so one run of entries.
            let from = [0, 1, 2].map(|k| lo[k].max(low[k]));
            let to = [0, 1, 2].map(|k| i64::from(hi[k]).min(i64::from(low[k]) + dims[k] - 1) as i32);
            if (0..3).any(|k| from[k] > to[k]) {
                return;
            }
            for z in from[2]..=to[2] {
                for y in from[1]..=to[1] {
                    let first = self.bucket([from[0], y, z]);
                    let last = self.bucket([to[0], y, z]);
                    let run = self.starts[first] as usize..self.starts[last + 1] as usize;
                    for &(p, i) in &self.entries[run] {
                        visit(i as usize, p);
                    }
                }
            }
            return;
        }
        // Only the cells within the agents' span. Other cells wrapping to
        // a bucket are skipped, so each agent is
        // visited once: a centre is in cell `c` when its scaled position
        // is in `c..c + 1` on each axis, which is exactly `cell_of` when
        // the cells are within ±2²⁴ (their corners whole f32 numbers),
        // else `cell_of` itself decides.
        let (lo, hi) = (
            [0, 1, 2].map(|k| lo[k].max(self.span.0[k])),
            [0, 1, 2].map(|k| hi[k].min(self.span.1[k])),
        );
        let corners_exact = lo.iter().chain(&hi).all(|c| c.unsigned_abs() < 1 << 24);
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    let cell = [x, y, z];
                    let b = self.wrapped(cell);
                    let run = &self.entries[self.starts[b] as usize..self.starts[b + 1] as usize];
                    if corners_exact {
                        let low = Vec3::new(x as f32, y as f32, z as f32);
                        let high = low + Vec3::ONE;
                        for &(p, i) in run {
                            let v = self.scaled(p);
                            if v.cmpge(low).all() && v.cmplt(high).all() {
                                visit(i as usize, p);
                            }
                        }
                    } else {
                        for &(p, i) in run {
                            if self.cell_of(p) == cell {
                                visit(i as usize, p);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether the box `min - grow..max + grow` (metres) touches no cell
    /// that the box `min..max` does not, so [`Grid::for_each_in`] visits
    /// the same agents for both.
    pub fn same_cells(&self, min: Vec3, max: Vec3, grow: Vec3) -> bool {
        self.cell_of(min - grow) == self.cell_of(min) && self.cell_of(max + grow) == self.cell_of(max)
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.starts.capacity() * 4
            + self.entries.capacity() * 16
            + self.cells.capacity() * 12
            + self.buckets.capacity() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_to_i32_is_the_floor_saturated() {
        for x in [
            -3.0f32,
            -2.5,
            -1.0,
            -0.75,
            -1e-30,
            -0.0,
            0.0,
            1e-30,
            0.2,
            1.0,
            1.5,
            7.99,
            -1e12,
            1e12,
            2.0e9,
            -2.2e9,
            123_456.7,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ] {
            assert_eq!(floor_to_i32(x), x.floor() as i32, "{x}");
        }
    }

    #[test]
    fn cells_are_the_floor_of_the_scaled_position() {
        let mut grid = Grid::default();
        grid.build(std::iter::empty(), Vec3::new(0.5, 1.0, 2.0));
        for x in [
            -3.0f32, -2.5, -1.0, -0.75, -0.0, 0.0, 0.2, 1.0, 1.5, 7.99, -1e12, 1e12, 123_456.7,
        ] {
            let p = Vec3::new(x, x, x);
            let want = (p * grid.inv_cell).floor().clamp(Vec3::splat(-1e9), Vec3::splat(1e9));
            assert_eq!(grid.cell_of(p), [want.x as i32, want.y as i32, want.z as i32], "{x}");
        }
    }

    #[test]
    fn finds_each_centre_in_the_box_once() {
        let mut points: Vec<Vec3> = (0..500)
            .map(|i| {
                let f = i as f32;
                Vec3::new((f * 0.37).sin() * 20.0, (f * 0.11).cos() * 3.0, (f * 0.73).cos() * 20.0)
            })
            .collect();
        let mut grid = Grid::default();
        grid.build(points.iter().copied(), Vec3::new(1.5, 4.0, 1.5));
        assert!(
            grid.dense.is_none(),
            "more cells between them than twice the agents: wrapped"
        );
        finds_each_once(&grid, &points);
        grid.build(points.iter().copied(), Vec3::new(3.0, 4.0, 3.0));
        assert!(grid.dense.is_some(), "agents close together are numbered densely");
        finds_each_once(&grid, &points);
        // One agent far away: too many cells between, so wrapped.
        points.push(Vec3::new(1e7, 0.0, -1e7));
        grid.build(points.iter().copied(), Vec3::new(1.5, 4.0, 1.5));
        assert!(grid.dense.is_none(), "agents far apart are wrapped");
        finds_each_once(&grid, &points);
    }

    /// Agents far apart whose cells all wrap to one bucket: each query
    /// finds only the agent in its cell, once.
    #[test]
    fn cells_wrapping_to_one_bucket_are_told_apart() {
        // Eight agents, so a tile of 16 buckets, 4 by 4: cells 100 apart
        // along x and 400 apart along z all wrap to the same bucket.
        let points: Vec<Vec3> = (0..8)
            .map(|k| Vec3::new(100.0 * (k / 2) as f32 + 0.5, 0.5, 400.0 * (k % 2) as f32 + 0.5))
            .collect();
        let mut grid = Grid::default();
        grid.build(points.iter().copied(), Vec3::ONE);
        assert!(grid.dense.is_none(), "cells far apart are wrapped");
        let buckets: Vec<usize> = grid.cells.iter().map(|&c| grid.wrapped(c)).collect();
        assert!(buckets.iter().all(|&b| b == buckets[0]), "{buckets:?}");
        for (i, p) in points.iter().enumerate() {
            let mut found = Vec::new();
            grid.for_each_in(*p - Vec3::splat(0.2), *p + Vec3::splat(0.2), |k, _| found.push(k));
            assert_eq!(found, vec![i]);
        }
        finds_each_once(&grid, &points);
    }

    /// Far from the origin (cells past ±2²⁴, where a cell's corners are
    /// not all f32 numbers) the wrapped grid still finds each centre in
    /// its own cell, once.
    #[test]
    fn far_cells_are_told_apart_too() {
        let far = 1.0e8f32;
        let points: Vec<Vec3> = (0..40)
            .map(|k| Vec3::new(far + 8.0 * (k % 5) as f32, 0.0, -far + 8.0 * (k / 5) as f32))
            .chain((0..40).map(|k| Vec3::new(0.5 * k as f32, 0.0, 0.25 * k as f32)))
            .collect();
        let mut grid = Grid::default();
        grid.build(points.iter().copied(), Vec3::ONE);
        assert!(grid.dense.is_none());
        for (i, p) in points.iter().enumerate() {
            let mut found = Vec::new();
            grid.for_each_in(*p, *p, |k, at| found.push((k, at)));
            assert!(found.contains(&(i, *p)), "{i} at {p} not found: {found:?}");
            assert!(
                found.iter().all(|(_, at)| grid.cell_of(*at) == grid.cell_of(*p)),
                "{found:?}"
            );
        }
        finds_each_once(&grid, &points);
    }

    #[test]
    fn a_box_grown_within_its_cells_has_the_same_cells() {
        let mut grid = Grid::default();
        grid.build([Vec3::ZERO].into_iter(), Vec3::splat(2.0));
        let (min, max) = (Vec3::new(0.5, 0.5, 0.5), Vec3::new(1.5, 1.5, 1.5));
        assert!(grid.same_cells(min, max, Vec3::splat(0.4)));
        assert!(
            !grid.same_cells(min, max, Vec3::new(0.0, 0.0, 0.6)),
            "max z reaches the next cell"
        );
        assert!(
            !grid.same_cells(min, max, Vec3::new(0.6, 0.0, 0.0)),
            "min x reaches the cell below"
        );
    }

    fn finds_each_once(grid: &Grid, points: &[Vec3]) {
        for (min, max) in [
            (Vec3::splat(-3.0), Vec3::splat(3.0)),
            (Vec3::new(-20.0, -5.0, -1.0), Vec3::new(20.0, 5.0, 1.0)),
            (Vec3::splat(-0.1), Vec3::splat(0.1)),
            (Vec3::splat(-100.0), Vec3::splat(100.0)),
            (Vec3::splat(500.0), Vec3::splat(600.0)),
        ] {
            let mut found = Vec::new();
            grid.for_each_in(min, max, |i, _| found.push(i));
            let mut sorted = found.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), found.len(), "visited twice");
            for (i, p) in points.iter().enumerate() {
                if p.cmpge(min).all() && p.cmple(max).all() {
                    assert!(found.contains(&i));
                }
            }
        }
    }
}
