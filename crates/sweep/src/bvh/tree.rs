//! The [`Bvh`] type: its build (binary tree, collapse to wide nodes,
//! entry grid), the box query, the level-at-a-time prefetch walk, the
//! trace for debug drawing and the shape statistics.

use super::build::{self, MAX_DEPTH, Prim};
use super::entry;
use super::wide::{self, WideNode, lanes};
use crate::aabb::Aabb;
use crate::prefetch::prefetch;
use glam::Vec3;

/// Entries a walk's stack holds at most: each node taken off it puts back
/// at most four, and the wide tree is no deeper than [`MAX_DEPTH`].
pub(super) const STACK: usize = 3 * MAX_DEPTH + 4;

/// The stack of a walk of a tree at most 20 wide levels deep (most trees:
/// a million triangles make 14).
pub(super) const SHALLOW: usize = 3 * 20 + 4;

/// A BVH over primitives given by their boxes. It stores no primitives:
/// [`Bvh::build`] returns, with the tree, which input primitive sits at each
/// leaf slot, and the owner stores its primitives in that order.
#[derive(Clone, Debug, PartialEq)]
pub struct Bvh {
    /// The 4-wide nodes, the root first.
    pub(super) nodes: Vec<WideNode>,
    /// The box of everything in it.
    pub(super) bounds: Aabb,
    /// Where walks start (none for a small tree): its cells' nodes are
    /// at the end of `nodes`.
    pub(super) entry: Option<entry::EntryGrid>,
    /// The entries a walk's stack needs at most: three a level and four.
    pub(super) stack_need: usize,
}

/// A node tested by a box query, as [`Bvh::trace`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisitedNode {
    /// The node's box (the collider's frame).
    pub bounds: Aabb,
    /// Depth in the tree (the root's children = 1).
    pub depth: usize,
    /// A leaf (holds triangles) rather than an interior node.
    pub leaf: bool,
    /// The query box overlaps it (so the query went inside).
    pub overlaps: bool,
    /// Triangles in it (leaves only).
    pub triangles: usize,
}

/// Shape statistics of a built [`Bvh`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BvhStats {
    /// Number of (4-wide) interior nodes.
    pub nodes: usize,
    /// Number of leaves.
    pub leaves: usize,
    /// Depth of the deepest leaf (the root's children = 1).
    pub depth: usize,
    /// Largest number of primitives in one leaf.
    pub max_leaf: usize,
}

/// The builder's primitives: each box with its index in `boxes`.
pub(super) fn prims_of(boxes: &[Aabb]) -> Vec<Prim> {
    boxes
        .iter()
        .enumerate()
        .map(|(i, b)| Prim {
            min: b.min,
            index: i as u32,
            max: b.max,
        })
        .collect()
}

impl Bvh {
    /// Builds the hierarchy over `boxes` (one per primitive) with a binned
    /// surface-area heuristic, O(n log n), on as many threads as the machine
    /// has (the tree is the same for any number). Returns the tree and, for
    /// each leaf slot, the index of the input primitive to store there.
    pub fn build(boxes: &[Aabb]) -> (Self, Vec<u32>) {
        let mut prims = prims_of(boxes);
        let bvh = Self::from_prims(&mut prims, crate::parallel::available_threads());
        (bvh, prims.iter().map(|p| p.index).collect())
    }

    /// Builds over `prims` with up to `threads` threads, reordering them
    /// into leaf-slot order. The nodes and the order depend on the input
    /// only, never on `threads`.
    pub(crate) fn from_prims(prims: &mut [Prim], threads: usize) -> Self {
        if prims.is_empty() {
            // A root with no children, which nothing reaches.
            return Self {
                nodes: vec![WideNode::EMPTY],
                bounds: Aabb {
                    min: Vec3::INFINITY,
                    max: Vec3::NEG_INFINITY,
                },
                entry: None,
                stack_need: 4,
            };
        }
        let binary = build::build_nodes(prims, threads);
        let bounds = Aabb {
            min: binary[0].min,
            max: binary[0].max,
        };
        let mut nodes = wide::collapse(&binary);
        drop(binary);
        let entry = entry::build(&mut nodes, &bounds, prims.len());
        let mut bvh = Self {
            nodes,
            bounds,
            entry,
            stack_need: STACK,
        };
        bvh.stack_need = (3 * bvh.stats().depth + 4).min(STACK);
        bvh
    }

    /// Calls `visit(slot)` for every leaf slot whose leaf box intersects
    /// `query`. Slots index the primitives in the order [`Bvh::build`] returned.
    #[inline]
    pub fn query(&self, query: &Aabb, mut visit: impl FnMut(usize)) {
        let mut stack = [0u32; STACK];
        stack[0] = self.start(query.min, query.max);
        if stack[0] == entry::NOTHING {
            return;
        }
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            for k in lanes(node.overlapping(query.min, query.max)) {
                let first = node.child[k] as usize;
                match node.count[k] {
                    0 => {
                        stack[top] = node.child[k];
                        top += 1;
                    }
                    count => (first..first + count as usize).for_each(&mut visit),
                }
            }
        }
    }

    /// Starts loading the nodes a [`Bvh::query`] with each of `boxes`
    /// would read, and hands `leaf(first, count)` each leaf one of them
    /// reaches (once per box that reaches it). The boxes are walked
    /// together a level at a time: the loads of one level, for every box,
    /// are under way at once, where a query waits for each node before it
    /// knows the next. A hint only, for a caller about to query many
    /// places of a tree larger than the caches (a crowd's agents).
    pub(crate) fn fetch_near(&self, boxes: &[Aabb], mut leaf: impl FnMut(usize, u32)) {
        let mut level: Vec<(u32, u32)> = Vec::with_capacity(4 * boxes.len());
        for (b, q) in boxes.iter().enumerate() {
            let start = self.start(q.min, q.max);
            if start != entry::NOTHING {
                prefetch(std::slice::from_ref(&self.nodes[start as usize]));
                level.push((start, b as u32));
            }
        }
        let mut next = Vec::with_capacity(level.capacity());
        while !level.is_empty() {
            for &(at, b) in &level {
                let node = &self.nodes[at as usize];
                let q = &boxes[b as usize];
                for k in lanes(node.overlapping(q.min, q.max)) {
                    let child = node.child[k];
                    match node.count[k] {
                        0 => {
                            prefetch(std::slice::from_ref(&self.nodes[child as usize]));
                            next.push((child, b));
                        }
                        count => leaf(child as usize, count),
                    }
                }
            }
            std::mem::swap(&mut level, &mut next);
            next.clear();
        }
    }

    /// Walks the nodes as [`Bvh::query`] does, but always from the root
    /// (the whole way down, ignoring the entry grid: it reaches the same
    /// leaves), and calls `visit(node)` for every child box it tests, in
    /// order (for debug drawing: which parts of the tree a sweep's box
    /// reaches). Slower than `query`; not for the hot path.
    pub fn trace(&self, query: &Aabb, mut visit: impl FnMut(VisitedNode)) {
        let mut stack = vec![(0u32, 1usize)];
        while let Some((i, depth)) = stack.pop() {
            let node = &self.nodes[i as usize];
            let hit = node.overlapping(query.min, query.max);
            for k in (0..4).filter(|&k| node.used(k)) {
                let overlaps = hit & (1 << k) != 0;
                let leaf = node.count[k] > 0;
                visit(VisitedNode {
                    bounds: node.bounds(k),
                    depth,
                    leaf,
                    overlaps,
                    triangles: node.count[k] as usize,
                });
                if overlaps && !leaf {
                    stack.push((node.child[k], depth + 1));
                }
            }
        }
    }

    /// Size and shape figures.
    pub fn stats(&self) -> BvhStats {
        // The tree's nodes, counted as walked (the entry grid's are not).
        let mut stats = BvhStats {
            nodes: 0,
            leaves: 0,
            depth: 0,
            max_leaf: 0,
        };
        let mut stack = vec![(0usize, 1usize)];
        while let Some((i, depth)) = stack.pop() {
            let node = &self.nodes[i];
            stats.nodes += 1;
            for k in (0..4).filter(|&k| node.used(k)) {
                stats.depth = stats.depth.max(depth);
                match node.count[k] {
                    0 => stack.push((node.child[k] as usize, depth + 1)),
                    count => {
                        stats.leaves += 1;
                        stats.max_leaf = stats.max_leaf.max(count as usize);
                    }
                }
            }
        }
        stats
    }

    /// The box of everything in the tree (empty for an empty tree).
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// The node a walk of everything within `lo`–`hi` starts from: the
    /// root, or a smaller one the entry grid holds for that place
    /// ([`entry::NOTHING`] when nothing is there).
    #[inline]
    pub(super) fn start(&self, lo: Vec3, hi: Vec3) -> u32 {
        match &self.entry {
            Some(grid) => grid.start(lo, hi),
            None => 0,
        }
    }

    /// Heap bytes used by the nodes and the entry grid.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<WideNode>() + self.entry.as_ref().map_or(0, |g| g.memory_bytes())
    }
}
