//! The BVH builder: binned SAH over primitive boxes, split across threads
//! without the tree depending on how many there are.
//!
//! Every node is split from its own primitives only (binned surface-area
//! heuristic, up to [`BINS`] bins per axis, along the longest axis only
//! below [`ONE_AXIS_BELOW`] primitives), so the shape of
//! the tree and the order of the primitives are fixed by the input. Ranges
//! of at least [`FORK_MIN`] primitives are *forks*: their two halves may be
//! built on two threads (a shared budget says whether a thread is free);
//! smaller ranges are built by one thread into one block of nodes. The
//! blocks are laid out at the end in one fixed order, so the node array is
//! the same for any thread count, one included.

use crate::aabb::Aabb;
use crate::parallel::ThreadBudget;
use glam::{Vec3, Vec3A};

/// Deepest level the builder splits to; deeper ranges become leaves, so the
/// traversal stacks (tree.rs) never overflow.
pub(super) const MAX_DEPTH: usize = 60;
/// Ranges smaller than this are binned along their longest centre axis
/// only: a third of the binning where most ranges are, for about an eighth
/// of the build time, and no measurable change in the sweeps.
const ONE_AXIS_BELOW: usize = 256;
/// Number of SAH bins per axis.
const BINS: usize = 12;
/// Largest leaf the builder makes when splitting is still possible.
pub(crate) const MAX_LEAF: usize = 8;
/// Cost of visiting a node relative to testing one triangle (SAH). At 2
/// the leaves hold about three triangles rather than one or two: a third
/// fewer nodes (about 10 bytes less per triangle) for a little more work
/// per sweep, since most candidates leave at the cheap reject before the
/// exact test.
const TRAVERSAL_COST: f32 = 2.0;
/// Ranges of at least this many primitives may have their halves built on
/// two threads (a constant, so the tree does not depend on the thread count).
pub(crate) const FORK_MIN: usize = 8192;

/// A node of the binary tree the builder makes, 32 bytes (the wide tree
/// is made from it). `count == 0`: interior node whose children are at
/// `index` and `index + 1`; otherwise a leaf of `count` primitives from
/// `index`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub(super) struct Node {
    pub min: Vec3,
    pub count: u32,
    pub max: Vec3,
    pub index: u32,
}

/// A primitive during the build: its box and its index in the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prim {
    /// Smallest corner of the box.
    pub min: Vec3,
    /// Index of the primitive in the input.
    pub index: u32,
    /// Largest corner of the box.
    pub max: Vec3,
}

impl Prim {
    /// Twice the box centre (what the bins are taken over; no halving).
    #[inline]
    fn centre2(&self) -> Vec3A {
        Vec3A::from(self.min) + Vec3A::from(self.max)
    }
}

/// A range's box and the box of its primitives' (doubled) centres.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    boxes: Aabb3A,
    centres: Aabb3A,
}

/// An [`Aabb`] in SIMD lanes, for the builder's inner loops.
#[derive(Clone, Copy, Debug)]
struct Aabb3A {
    min: Vec3A,
    max: Vec3A,
}

impl Aabb3A {
    const EMPTY: Self = Self {
        min: Vec3A::INFINITY,
        max: Vec3A::NEG_INFINITY,
    };

    #[inline]
    fn union(self, o: Self) -> Self {
        Self {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    #[inline]
    fn grow(self, p: Vec3A) -> Self {
        Self {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    #[inline]
    fn surface_area(self) -> f32 {
        let s = self.max - self.min;
        if s.min_element() < 0.0 {
            return 0.0;
        }
        2.0 * (s.x * s.y + s.y * s.z + s.z * s.x)
    }

    fn to_aabb(self) -> Aabb {
        Aabb {
            min: self.min.into(),
            max: self.max.into(),
        }
    }
}

/// Bounds of a range of primitives, by one pass over them.
fn bounds_of(prims: &[Prim]) -> Bounds {
    prims.iter().fold(
        Bounds {
            boxes: Aabb3A::EMPTY,
            centres: Aabb3A::EMPTY,
        },
        |b, p| Bounds {
            boxes: b.boxes.union(Aabb3A {
                min: p.min.into(),
                max: p.max.into(),
            }),
            centres: b.centres.grow(p.centre2()),
        },
    )
}

/// A chosen split: primitives `..mid` go left, with the bounds of each side.
struct Split {
    mid: usize,
    left: Bounds,
    right: Bounds,
}

/// The bin of `x`, a centre coordinate already scaled to `0..=last`:
/// rounded to the nearest integer by adding 2²³ (which leaves it in the low
/// mantissa bits), without the range checks of an `as` cast.
#[inline]
fn bin_of(x: f32, last: f32) -> usize {
    ((x.min(last) + 8_388_608.0).to_bits() & 0xff) as usize
}

/// Chooses a binned-SAH split of `src` (whose bounds are `bounds`) and
/// writes it partitioned into `dst` (as long); `None` when a leaf is
/// cheaper or no split separates them (all centres equal), `dst` untouched.
///
/// One pass bins the primitives along all three axes (each bin keeps the
/// box of its primitives and their number; up to [`BINS`] bins, fewer for
/// small ranges); a second moves them to their side of the chosen split,
/// in order, without branches, and gathers each side's centre bounds on
/// the way, so a child's bounds never need a pass of their own.
fn split(src: &[Prim], dst: &mut [Prim], bounds: &Bounds) -> Option<Split> {
    let count = src.len();
    let bins = count.clamp(4, BINS);
    let last = (bins - 1) as f32;
    let cmin = bounds.centres.min;
    let extent = bounds.centres.max - cmin;
    // Bins per unit of (doubled) centre along each axis; 0 where flat.
    let valid = extent.cmpgt(Vec3A::ZERO) & extent.is_finite_mask();
    let scale = Vec3A::select(valid, Vec3A::splat(bins as f32) / extent, Vec3A::ZERO);
    // Small ranges are binned along their longest axis only.
    let longest = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    let axes: &[usize] = if count < ONE_AXIS_BELOW { &[longest] } else { &[0, 1, 2] };
    let mut boxes = [[Aabb3A::EMPTY; BINS]; 3];
    let mut counts = [[0u32; BINS]; 3];
    for p in src {
        let (min, max) = (Vec3A::from(p.min), Vec3A::from(p.max));
        let x = (min + max - cmin) * scale;
        for &axis in axes {
            let k = bin_of(x[axis], last);
            let bin = &mut boxes[axis][k];
            bin.min = bin.min.min(min);
            bin.max = bin.max.max(max);
            counts[axis][k] += 1;
        }
    }
    let parent_area = bounds.boxes.surface_area().max(f32::MIN_POSITIVE);
    // (axis, bins on the left, cost, left box, right box, left count)
    let mut best: Option<(usize, usize, f32, Aabb3A, Aabb3A, u32)> = None;
    for &axis in axes {
        if !valid.test(axis) {
            continue;
        }
        let (boxes, counts) = (&boxes[axis][..bins], &counts[axis][..bins]);
        // Right-side boxes and counts, sweeping from the right.
        let mut right_box = [Aabb3A::EMPTY; BINS];
        let mut right_count = [0u32; BINS];
        let (mut acc, mut n) = (Aabb3A::EMPTY, 0);
        for k in (1..bins).rev() {
            acc = acc.union(boxes[k]);
            n += counts[k];
            right_box[k] = acc;
            right_count[k] = n;
        }
        let (mut acc, mut n) = (Aabb3A::EMPTY, 0);
        for k in 1..bins {
            acc = acc.union(boxes[k - 1]);
            n += counts[k - 1];
            if n == 0 || right_count[k] == 0 {
                continue;
            }
            let cost = TRAVERSAL_COST
                + (n as f32 * acc.surface_area() + right_count[k] as f32 * right_box[k].surface_area()) / parent_area;
            if best.as_ref().is_none_or(|b| cost < b.2) {
                best = Some((axis, k, cost, acc, right_box[k], n));
            }
        }
    }
    let (axis, k, cost, left_box, right_box, left_count) = best?;
    if count <= MAX_LEAF && cost >= count as f32 {
        return None;
    }
    // Partition: bins below k go left, both sides keep their order.
    let (cmin, scale) = (cmin[axis], scale[axis]);
    let (mut left_centres, mut right_centres) = (Aabb3A::EMPTY, Aabb3A::EMPTY);
    let (mut l, mut r) = (0, left_count as usize);
    for p in src {
        let c = p.centre2();
        let left = bin_of((c[axis] - cmin) * scale, last) < k;
        let side = glam::BVec3A::splat(left);
        left_centres = Aabb3A {
            min: Vec3A::select(side, left_centres.min.min(c), left_centres.min),
            max: Vec3A::select(side, left_centres.max.max(c), left_centres.max),
        };
        right_centres = Aabb3A {
            min: Vec3A::select(side, right_centres.min, right_centres.min.min(c)),
            max: Vec3A::select(side, right_centres.max, right_centres.max.max(c)),
        };
        dst[if left { l } else { r }] = *p;
        l += usize::from(left);
        r += usize::from(!left);
    }
    debug_assert_eq!((l, r), (left_count as usize, count));
    Some(Split {
        mid: l,
        left: Bounds {
            boxes: left_box,
            centres: left_centres,
        },
        right: Bounds {
            boxes: right_box,
            centres: right_centres,
        },
    })
}

/// How a range is split, or not: the split, a median cut (no SAH split
/// exists but the range is too big for a leaf), or a leaf. A split leaves
/// the range in `other`, partitioned; a leaf leaves it in `cur`.
fn choose(cur: &[Prim], other: &mut [Prim], bounds: &Bounds, depth: usize) -> Option<Split> {
    let count = cur.len();
    if depth >= MAX_DEPTH || count == 1 {
        return None;
    }
    if let Some(s) = split(cur, other, bounds) {
        return Some(s);
    }
    if count > MAX_LEAF && depth < MAX_DEPTH {
        let mid = count / 2;
        other.copy_from_slice(cur);
        return Some(Split {
            mid,
            left: bounds_of(&other[..mid]),
            right: bounds_of(&other[mid..]),
        });
    }
    None
}

/// A node with the given box, for `count == 0` interior (children at
/// `index`, `index + 1`), otherwise a leaf of `count` slots from `index`.
fn node(bounds: &Bounds, count: usize, index: usize) -> Node {
    let b = bounds.boxes.to_aabb();
    Node {
        min: b.min,
        count: count as u32,
        max: b.max,
        index: index as u32,
    }
}

/// The range's primitives and the other buffer: where they are now
/// (`scratch` when `flipped`) and where a split moves them.
fn buffers<'a>(prims: &'a mut [Prim], scratch: &'a mut [Prim], flipped: bool) -> (&'a mut [Prim], &'a mut [Prim]) {
    if flipped { (scratch, prims) } else { (prims, scratch) }
}

/// Builds the subtree of `prims` (slots from `first_slot`) by one thread
/// into one block: its root at 0, every interior node's children adjacent.
/// The primitives are in `scratch` when `flipped`; each split moves them
/// to the other buffer, and a leaf found in `scratch` is copied back, so
/// they all end in `prims`.
fn build_block(
    prims: &mut [Prim],
    scratch: &mut [Prim],
    first_slot: usize,
    bounds: Bounds,
    depth: usize,
    flipped: bool,
) -> Vec<Node> {
    // Leaves of a few primitives make about half a node per primitive.
    let mut nodes = Vec::with_capacity(prims.len() / 2 + 1);
    nodes.push(node(&bounds, 0, 0));
    // (node, start, end, bounds, depth, flipped)
    let mut work = vec![(0usize, 0usize, prims.len(), bounds, depth, flipped)];
    while let Some((at, start, end, bounds, depth, flipped)) = work.pop() {
        let (cur, other) = buffers(&mut prims[start..end], &mut scratch[start..end], flipped);
        match choose(cur, other, &bounds, depth) {
            None => {
                if flipped {
                    prims[start..end].copy_from_slice(&scratch[start..end]);
                }
                nodes[at] = node(&bounds, end - start, first_slot + start);
            }
            Some(s) => {
                let left = nodes.len();
                nodes.push(node(&s.left, 0, 0));
                nodes.push(node(&s.right, 0, 0));
                nodes[at] = node(&bounds, 0, left);
                work.push((left, start, start + s.mid, s.left, depth + 1, !flipped));
                work.push((left + 1, start + s.mid, end, s.right, depth + 1, !flipped));
            }
        }
    }
    nodes
}

/// A built subtree: one block, or a fork whose halves were built apart.
enum Part {
    Block(Vec<Node>),
    Fork(Node, Box<[Part; 2]>),
}

/// Builds the subtree of `prims` (with `scratch` as long; the primitives
/// are in `scratch` when `flipped`), forking big ranges.
fn build_part(
    prims: &mut [Prim],
    scratch: &mut [Prim],
    first_slot: usize,
    bounds: Bounds,
    depth: usize,
    flipped: bool,
    budget: &ThreadBudget,
) -> Part {
    if prims.len() < FORK_MIN || depth + 1 >= MAX_DEPTH {
        return Part::Block(build_block(prims, scratch, first_slot, bounds, depth, flipped));
    }
    let (cur, other) = buffers(prims, scratch, flipped);
    let Some(s) = split(cur, other, &bounds) else {
        return Part::Block(build_block(prims, scratch, first_slot, bounds, depth, flipped));
    };
    let (left, right) = prims.split_at_mut(s.mid);
    let (left_scratch, right_scratch) = scratch.split_at_mut(s.mid);
    let (l, r) = budget.join(
        || build_part(left, left_scratch, first_slot, s.left, depth + 1, !flipped, budget),
        || {
            build_part(
                right,
                right_scratch,
                first_slot + s.mid,
                s.right,
                depth + 1,
                !flipped,
                budget,
            )
        },
    );
    Part::Fork(node(&bounds, 0, 0), Box::new([l, r]))
}

/// A block's node with its children's index moved to where the block's
/// nodes after the root land (from `base` on).
fn moved(mut n: Node, base: usize) -> Node {
    if n.count == 0 {
        n.index = (base + n.index as usize - 1) as u32;
    }
    n
}

/// Writes `part`'s root at `out[root]` and the rest of it after `out`'s
/// end: a block keeps its own order, a fork puts its two roots side by side
/// and then the rest of the left half, then the rest of the right.
fn lay_out(part: Part, root: usize, out: &mut Vec<Node>) {
    match part {
        Part::Block(block) => {
            // Block index j > 0 lands at base + j - 1.
            let base = out.len();
            out[root] = moved(block[0], base);
            out.extend(block[1..].iter().map(|&n| moved(n, base)));
        }
        Part::Fork(mut n, halves) => {
            let left = out.len();
            out.push(n);
            out.push(n);
            n.index = left as u32;
            out[root] = n;
            let [l, r] = *halves;
            lay_out(l, left, out);
            lay_out(r, left + 1, out);
        }
    }
}

/// Builds the node array over `prims` (reordered into leaf-slot order) with
/// up to `threads` threads. The same input gives the same nodes and order
/// for any `threads`.
pub(crate) fn build_nodes(prims: &mut [Prim], threads: usize) -> Vec<Node> {
    let bounds = bounds_of(prims);
    let budget = ThreadBudget::new(threads);
    let mut scratch = prims.to_vec();
    let part = build_part(prims, &mut scratch, 0, bounds, 0, false, &budget);
    drop(scratch);
    let mut nodes = Vec::with_capacity(prims.len() / 2 + 1);
    nodes.push(node(&bounds, 0, 0));
    lay_out(part, 0, &mut nodes);
    nodes.shrink_to_fit();
    nodes
}
