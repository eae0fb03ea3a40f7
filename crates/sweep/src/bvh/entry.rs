//! Where a walk starts: a grid of cells over the tree's box, each cell
//! holding one wide node made for it (up to four subtrees, opened as deep
//! as four lanes still cover everything near the cell), so a query that
//! lies inside a cell starts several levels below the root and skips the
//! node tests every query there would pass.

use super::wide::{EMPTY, WideNode};
use crate::aabb::Aabb;
use glam::Vec3;
use std::collections::HashMap;

/// Trees of fewer primitives than this have no grid: their walks are short.
pub(super) const GRID_MIN: usize = 4096;

/// Primitives per cell that holds any, about: the grid is as fine as this
/// allows (a finer grid starts deeper and costs more memory).
const PRIMS_PER_CELL: f32 = 256.0;

/// Cells in all (empty ones included) at most, per primitive.
const CELLS_PER_PRIM: f32 = 0.125;

/// How far past its cell's faces a query may reach and still start in that
/// cell, as a share of the cell's side.
const MARGIN: f32 = 0.25;

/// A cell whose neighbourhood holds nothing: a query there meets nothing.
pub(super) const NOTHING: u32 = u32::MAX;

/// The grid of starting nodes. Cell `(i, j, k)` spans `min + (i, j, k) ·
/// side` to one side further; its node covers every primitive whose leaf
/// box reaches within `margin` of it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct EntryGrid {
    min: Vec3,
    side: f32,
    inv_side: f32,
    margin: f32,
    dims: [u32; 3],
    /// Per cell (x fastest, then y, then z): the index of its node in the
    /// tree's nodes, 0 (the root) where no smaller start exists, or
    /// [`NOTHING`].
    start: Vec<u32>,
}

impl EntryGrid {
    /// The node a walk of everything within `lo`–`hi` (the tree's frame)
    /// may start from: a cell's node when the box lies within reach of one
    /// cell, the root (0) otherwise, [`NOTHING`] when nothing is near.
    #[inline]
    pub fn start(&self, lo: Vec3, hi: Vec3) -> u32 {
        let centre = (lo + hi) * 0.5;
        let x = (centre - self.min) * self.inv_side;
        let dims = Vec3::new(self.dims[0] as f32, self.dims[1] as f32, self.dims[2] as f32);
        // Written so that NaN goes to the root. Within the grid the cell is
        // the integer part (no call to floor, which is a library call on
        // the baseline x86-64).
        if !(x.cmpge(Vec3::ZERO).all() && x.cmplt(dims).all()) {
            return 0;
        }
        let [i, j, k] = [x.x as u32, x.y as u32, x.z as u32];
        let at = Vec3::new(i as f32, j as f32, k as f32);
        let cell_lo = self.min + at * self.side - Vec3::splat(self.margin);
        let cell_hi = cell_lo + Vec3::splat(self.side + 2.0 * self.margin);
        if !(lo.cmpge(cell_lo).all() && hi.cmple(cell_hi).all()) {
            return 0;
        }
        self.start[i as usize + self.dims[0] as usize * (j as usize + self.dims[1] as usize * k as usize)]
    }

    /// Heap bytes of the grid itself (its nodes are counted with the tree's).
    pub fn memory_bytes(&self) -> usize {
        self.start.len() * std::mem::size_of::<u32>()
    }
}

/// A lane as the covers handle it: its box, child and count.
#[derive(Clone, Copy, PartialEq)]
struct Lane {
    bounds: Aabb,
    child: u32,
    count: u32,
}

impl Lane {
    fn interior(&self) -> bool {
        self.count == 0
    }

    fn area(&self) -> f32 {
        let d = self.bounds.max - self.bounds.min;
        d.x * d.y + d.y * d.z + d.z * d.x
    }
}

/// Up to four lanes (the first `len` of `lanes`).
#[derive(Clone, Copy)]
struct Lanes {
    lanes: [Lane; 4],
    len: usize,
}

impl Lanes {
    /// The used lanes of `node` whose boxes overlap `cell`.
    fn near(node: &WideNode, cell: &Aabb) -> Self {
        let mask = node.overlapping(cell.min, cell.max);
        let mut near = Lanes {
            lanes: [Lane {
                bounds: Aabb::EMPTY,
                child: 0,
                count: 0,
            }; 4],
            len: 0,
        };
        for k in (0..4).filter(|&k| mask & (1 << k) != 0 && node.used(k)) {
            near.lanes[near.len] = Lane {
                bounds: node.bounds(k),
                child: node.child[k],
                count: node.count[k],
            };
            near.len += 1;
        }
        near
    }

    fn as_slice(&self) -> &[Lane] {
        &self.lanes[..self.len]
    }
}

/// Up to four lanes covering every leaf of `nodes` whose box overlaps
/// `cell`: the root's lanes near it, each interior one opened (largest
/// box first) into its lanes near the cell while four still hold them.
fn cover(nodes: &[WideNode], cell: &Aabb) -> Lanes {
    let mut cover = Lanes::near(&nodes[0], cell);
    loop {
        // The interior lanes, largest box first.
        let mut order = [0usize, 1, 2, 3];
        let order = &mut order[..cover.len];
        order.sort_by(|&a, &b| cover.lanes[b].area().total_cmp(&cover.lanes[a].area()));
        let opened = order
            .iter()
            .copied()
            .filter(|&k| cover.lanes[k].interior())
            .find_map(|k| {
                let below = Lanes::near(&nodes[cover.lanes[k].child as usize], cell);
                (cover.len - 1 + below.len <= 4).then_some((k, below))
            });
        let Some((k, below)) = opened else {
            return cover;
        };
        cover.lanes[k] = cover.lanes[cover.len - 1];
        cover.len -= 1;
        for lane in below.as_slice() {
            cover.lanes[cover.len] = *lane;
            cover.len += 1;
        }
    }
}

/// The centres of the leaves' boxes.
fn leaf_centres(nodes: &[WideNode]) -> Vec<Vec3> {
    let mut centres = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let node = &nodes[i];
        for k in (0..4).filter(|&k| node.used(k)) {
            if node.count[k] > 0 {
                centres.push(node.bounds(k).center());
            } else {
                stack.push(node.child[k] as usize);
            }
        }
    }
    centres
}

/// How many cells of side `side` from `min` hold a centre.
fn occupied(centres: &[Vec3], min: Vec3, side: f32) -> usize {
    let mut keys: Vec<[i64; 3]> = centres
        .iter()
        .map(|&c| {
            let at = ((c - min) / side).floor();
            [at.x as i64, at.y as i64, at.z as i64]
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len()
}

/// Builds the grid of the tree `nodes` (root at 0) over `bounds` holding
/// `prims` primitives, appending each cell's node to `nodes`; `None` for a
/// small tree.
pub(super) fn build(nodes: &mut Vec<WideNode>, bounds: &Aabb, prims: usize) -> Option<EntryGrid> {
    if prims < GRID_MIN || !bounds.min.is_finite() || !bounds.max.is_finite() {
        return None;
    }
    let extent = (bounds.max - bounds.min).max(Vec3::splat(1e-3));
    // The side: cells holding about PRIMS_PER_CELL each, found from the
    // leaves' centres (a level is mostly surface, so the count of
    // occupied cells goes as 1 / side²), no more cells than the cap allows.
    let centres = leaf_centres(nodes);
    let wanted = (prims as f32 / PRIMS_PER_CELL).max(1.0);
    let most_cells = prims as f32 * CELLS_PER_PRIM;
    let smallest = (extent.x * extent.y * extent.z / most_cells).cbrt();
    let mut side = smallest.max((extent.x * extent.z / wanted).sqrt());
    for _ in 0..3 {
        let got = occupied(&centres, bounds.min, side) as f32;
        side = (side * (got / wanted).sqrt()).max(smallest);
    }
    // The cap holds whatever the shape (a thin line of triangles has one
    // cell across on two axes, which the volume above does not see).
    let count = |e: f32, side: f32| ((e / side).ceil() as u32).max(1);
    let cells = |side: f32| {
        [extent.x, extent.y, extent.z]
            .map(|e| count(e, side) as f64)
            .iter()
            .product::<f64>()
    };
    while cells(side) > f64::from(most_cells.max(1.0)) {
        side *= 1.25;
    }
    let dims = [count(extent.x, side), count(extent.y, side), count(extent.z, side)];
    let margin = side * MARGIN;
    // Each cell's cover is built for a little more than the margin the
    // queries check, so rounding at the border never leaves a leaf out.
    let slack = side * 1e-3 + (bounds.min.abs().max(bounds.max.abs())).max_element() * 1e-6;
    let mut start = Vec::with_capacity(cells(side) as usize);
    // Cells with the same lanes share a node; one with the root's lanes
    // starts at the root.
    let mut made: HashMap<[(u32, u32); 4], u32> = HashMap::new();
    let mut root = [(EMPTY, 0u32); 4];
    for (k, lane) in Lanes::near(&nodes[0], bounds).as_slice().iter().enumerate() {
        root[k] = (lane.child, lane.count);
    }
    root.sort_unstable();
    for k in 0..dims[2] {
        for j in 0..dims[1] {
            for i in 0..dims[0] {
                let lo = bounds.min + Vec3::new(i as f32, j as f32, k as f32) * side;
                let cell = Aabb {
                    min: lo - Vec3::splat(margin + slack),
                    max: lo + Vec3::splat(side + margin + slack),
                };
                let cover = cover(nodes, &cell);
                let lanes = cover.as_slice();
                if lanes.is_empty() {
                    start.push(NOTHING);
                    continue;
                }
                let mut key = [(EMPTY, 0u32); 4];
                for (k, lane) in lanes.iter().enumerate() {
                    key[k] = (lane.child, lane.count);
                }
                key.sort_unstable();
                if key == root {
                    start.push(0);
                    continue;
                }
                let at = *made.entry(key).or_insert_with(|| {
                    let mut node = WideNode::EMPTY;
                    for (k, lane) in lanes.iter().enumerate() {
                        node.set_lane(k, &lane.bounds, lane.child, lane.count);
                    }
                    nodes.push(node);
                    (nodes.len() - 1) as u32
                });
                start.push(at);
            }
        }
    }
    nodes.shrink_to_fit();
    Some(EntryGrid {
        min: bounds.min,
        side,
        inv_side: side.recip(),
        margin,
        dims,
        start,
    })
}
