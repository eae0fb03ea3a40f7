//! Bounding volume hierarchy over triangles: binned SAH build, flattened
//! nodes, and a closure-driven box query (the broad phase).

use crate::aabb::Aabb;
use glam::Vec3;

/// Number of SAH bins per axis.
const BINS: usize = 12;
/// Largest leaf the builder makes when splitting is still possible.
const MAX_LEAF: usize = 4;
/// Deepest level the builder splits to; deeper ranges become leaves, so the
/// traversal stack below never overflows.
const MAX_DEPTH: usize = 60;
/// Cost of visiting a node relative to testing one triangle (SAH).
const TRAVERSAL_COST: f32 = 1.0;

/// One node, 32 bytes. `count == 0`: interior node whose children are at
/// `index` and `index + 1`; otherwise a leaf of `count` primitives from `index`.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Node {
    min: Vec3,
    count: u32,
    max: Vec3,
    index: u32,
}

/// A BVH over primitives given by their boxes. It stores no primitives:
/// [`Bvh::build`] returns, with the tree, which input primitive sits at each
/// leaf slot, and the owner stores its primitives in that order.
#[derive(Clone, Debug)]
pub struct Bvh {
    nodes: Vec<Node>,
}

/// A node tested by a box query, as [`Bvh::trace`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisitedNode {
    /// The node's box (the collider's frame).
    pub bounds: Aabb,
    /// Depth in the tree (root = 0).
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
    /// Number of nodes (interior and leaves).
    pub nodes: usize,
    /// Number of leaves.
    pub leaves: usize,
    /// Depth of the deepest leaf (root = 0).
    pub depth: usize,
    /// Largest number of primitives in one leaf.
    pub max_leaf: usize,
}

impl Bvh {
    /// Builds the hierarchy over `boxes` (one per primitive) with a binned
    /// surface-area heuristic, O(n log n). Returns the tree and, for each
    /// leaf slot, the index of the input primitive to store there.
    pub fn build(boxes: &[Aabb]) -> (Self, Vec<u32>) {
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let centroids: Vec<Vec3> = boxes.iter().map(Aabb::center).collect();
        // About one node per primitive with leaves of 2-4.
        let mut nodes = Vec::with_capacity(boxes.len() + 1);
        nodes.push(Node {
            min: Vec3::ZERO,
            count: 0,
            max: Vec3::ZERO,
            index: 0,
        });
        if boxes.is_empty() {
            // A single empty leaf that nothing intersects.
            nodes[0] = Node {
                min: Vec3::INFINITY,
                count: 0,
                max: Vec3::NEG_INFINITY,
                index: u32::MAX,
            };
            return (Self { nodes }, order);
        }
        // (node, start, end, depth)
        let mut work = vec![(0usize, 0usize, boxes.len(), 0usize)];
        while let Some((node, start, end, depth)) = work.pop() {
            let slice = &mut order[start..end];
            let bounds = Aabb::from_points(
                slice
                    .iter()
                    .flat_map(|&i| [boxes[i as usize].min, boxes[i as usize].max]),
            );
            let count = end - start;
            let split = if depth >= MAX_DEPTH || count == 1 {
                None
            } else {
                split_range(slice, boxes, &centroids, &bounds)
            };
            let mid = match split {
                Some(mid) => start + mid,
                None if count > MAX_LEAF && depth < MAX_DEPTH => start + count / 2,
                None => {
                    nodes[node] = Node {
                        min: bounds.min,
                        count: count as u32,
                        max: bounds.max,
                        index: start as u32,
                    };
                    continue;
                }
            };
            let left = nodes.len();
            nodes.push(Node {
                min: Vec3::ZERO,
                count: 0,
                max: Vec3::ZERO,
                index: 0,
            });
            nodes.push(Node {
                min: Vec3::ZERO,
                count: 0,
                max: Vec3::ZERO,
                index: 0,
            });
            nodes[node] = Node {
                min: bounds.min,
                count: 0,
                max: bounds.max,
                index: left as u32,
            };
            work.push((left, start, mid, depth + 1));
            work.push((left + 1, mid, end, depth + 1));
        }
        nodes.shrink_to_fit();
        (Self { nodes }, order)
    }

    /// Calls `visit(slot)` for every leaf slot whose leaf box intersects
    /// `query`. Slots index the primitives in the order [`Bvh::build`] returned.
    #[inline]
    pub fn query(&self, query: &Aabb, mut visit: impl FnMut(usize)) {
        let mut stack = [0u32; MAX_DEPTH + 2];
        let mut top = 1usize; // stack[0] = root
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            if !(query.min.cmple(node.max).all() && node.min.cmple(query.max).all()) {
                continue;
            }
            if node.count > 0 {
                let first = node.index as usize;
                for slot in first..first + node.count as usize {
                    visit(slot);
                }
            } else if node.index != u32::MAX {
                stack[top] = node.index;
                stack[top + 1] = node.index + 1;
                top += 2;
            }
        }
    }

    /// Walks the nodes exactly as [`Bvh::query`] does and calls
    /// `visit(node)` for every node it tests, in order (for debug drawing:
    /// which parts of the tree a sweep's box reaches). Slower than `query`;
    /// not for the hot path.
    pub fn trace(&self, query: &Aabb, mut visit: impl FnMut(VisitedNode)) {
        let mut stack = vec![(0u32, 0u32)];
        while let Some((i, depth)) = stack.pop() {
            let node = &self.nodes[i as usize];
            let overlaps = query.min.cmple(node.max).all() && node.min.cmple(query.max).all();
            let leaf = node.count > 0 || node.index == u32::MAX;
            visit(VisitedNode {
                bounds: Aabb {
                    min: node.min,
                    max: node.max,
                },
                depth: depth as usize,
                leaf,
                overlaps,
                triangles: node.count as usize,
            });
            if overlaps && !leaf {
                stack.push((node.index, depth + 1));
                stack.push((node.index + 1, depth + 1));
            }
        }
    }

    /// Size and shape figures.
    pub fn stats(&self) -> BvhStats {
        let mut stats = BvhStats {
            nodes: self.nodes.len(),
            leaves: 0,
            depth: 0,
            max_leaf: 0,
        };
        let mut stack = vec![(0usize, 0usize)];
        while let Some((i, depth)) = stack.pop() {
            let node = &self.nodes[i];
            stats.depth = stats.depth.max(depth);
            if node.count > 0 || node.index == u32::MAX {
                stats.leaves += 1;
                stats.max_leaf = stats.max_leaf.max(node.count as usize);
            } else {
                stack.push((node.index as usize, depth + 1));
                stack.push((node.index as usize + 1, depth + 1));
            }
        }
        stats
    }

    /// Heap bytes used by the nodes.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
    }
}

/// Chooses a binned-SAH split of `slice` and partitions it; returns the
/// number of primitives on the left, or `None` when a leaf is cheaper.
fn split_range(slice: &mut [u32], boxes: &[Aabb], centroids: &[Vec3], bounds: &Aabb) -> Option<usize> {
    let cbounds = Aabb::from_points(slice.iter().map(|&i| centroids[i as usize]));
    let extent = cbounds.size();
    let count = slice.len();
    let leaf_cost = count as f32;
    let parent_area = bounds.surface_area().max(f32::MIN_POSITIVE);
    let mut best: Option<(usize, usize, f32)> = None; // (axis, bins on the left, cost)
    for axis in 0..3 {
        if extent[axis] <= 0.0 || !extent[axis].is_finite() {
            continue;
        }
        let scale = BINS as f32 / extent[axis];
        let bin_of = |i: u32| (((centroids[i as usize][axis] - cbounds.min[axis]) * scale) as usize).min(BINS - 1);
        let mut bin_boxes = [Aabb::EMPTY; BINS];
        let mut bin_counts = [0usize; BINS];
        for &i in slice.iter() {
            let b = bin_of(i);
            bin_boxes[b] = bin_boxes[b].union(boxes[i as usize]);
            bin_counts[b] += 1;
        }
        // Sweep from the right to get right-side areas, then from the left.
        let mut right_area = [0.0f32; BINS];
        let mut right_count = [0usize; BINS];
        let (mut acc, mut n) = (Aabb::EMPTY, 0);
        for k in (1..BINS).rev() {
            acc = acc.union(bin_boxes[k]);
            n += bin_counts[k];
            right_area[k] = acc.surface_area();
            right_count[k] = n;
        }
        let (mut acc, mut n) = (Aabb::EMPTY, 0);
        for k in 1..BINS {
            acc = acc.union(bin_boxes[k - 1]);
            n += bin_counts[k - 1];
            if n == 0 || right_count[k] == 0 {
                continue;
            }
            let cost =
                TRAVERSAL_COST + (n as f32 * acc.surface_area() + right_count[k] as f32 * right_area[k]) / parent_area;
            if best.is_none_or(|(_, _, c)| cost < c) {
                best = Some((axis, k, cost));
            }
        }
    }
    let (axis, k, cost) = best?;
    if count <= MAX_LEAF && cost >= leaf_cost {
        return None;
    }
    let scale = BINS as f32 / extent[axis];
    let min = cbounds.min[axis];
    let mut left = 0;
    for j in 0..count {
        let i = slice[j];
        let b = (((centroids[i as usize][axis] - min) * scale) as usize).min(BINS - 1);
        if b < k {
            slice.swap(left, j);
            left += 1;
        }
    }
    (left > 0 && left < count).then_some(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(boxes: &[Aabb], q: &Aabb) -> Vec<u32> {
        (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].intersects(q))
            .collect()
    }

    #[test]
    fn query_finds_every_overlapping_box() {
        let mut rng = fastrand::Rng::with_seed(7);
        let boxes: Vec<Aabb> = (0..5000)
            .map(|_| {
                let p = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 100.0;
                Aabb::from_corners(p, p + Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 3.0)
            })
            .collect();
        let (bvh, order) = Bvh::build(&boxes);
        let stats = bvh.stats();
        assert!(stats.depth <= MAX_DEPTH, "{stats:?}");
        for _ in 0..200 {
            let p = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 100.0;
            let q = Aabb::from_corners(p, p + Vec3::splat(rng.f32() * 10.0));
            let mut found = Vec::new();
            bvh.query(&q, |slot| found.push(order[slot]));
            found.sort();
            // Leaves may report boxes that do not overlap; none may be missed.
            let found: Vec<u32> = found
                .into_iter()
                .filter(|&i| boxes[i as usize].intersects(&q))
                .collect();
            assert_eq!(found, brute(&boxes, &q));
            // The trace tests the same nodes: its overlapping leaves hold
            // exactly the slots the query visited.
            let mut queried = 0;
            bvh.query(&q, |_| queried += 1);
            let mut traced = 0;
            let mut tested = 0;
            bvh.trace(&q, |node| {
                tested += 1;
                assert_eq!(node.overlaps, node.bounds.intersects(&q));
                if node.leaf && node.overlaps {
                    traced += node.triangles;
                }
            });
            assert_eq!(traced, queried);
            assert!(tested < stats.nodes, "a small box tests a fraction of the tree");
        }
    }

    #[test]
    fn empty_and_coincident_inputs() {
        let (bvh, _) = Bvh::build(&[]);
        bvh.query(&Aabb::from_corners(Vec3::splat(-1e30), Vec3::splat(1e30)), |_| {
            panic!("empty BVH reported a primitive")
        });
        // 1000 identical boxes: no SAH split exists, the builder must still terminate.
        let same = vec![Aabb::from_corners(Vec3::ZERO, Vec3::ONE); 1000];
        let (bvh, _) = Bvh::build(&same);
        let mut n = 0;
        bvh.query(&Aabb::from_corners(Vec3::splat(0.5), Vec3::splat(0.6)), |_| n += 1);
        assert_eq!(n, 1000);
        assert!(bvh.stats().depth <= MAX_DEPTH);
    }
}
