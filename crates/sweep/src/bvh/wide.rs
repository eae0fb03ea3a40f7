//! The 4-wide node the queries walk, and its making from the builder's
//! binary tree: each wide node takes a binary node's children and opens
//! the largest of them (by surface area) until it holds four, so a walk
//! tests four boxes at once and goes about half as deep.

use super::build::Node;
use crate::aabb::Aabb;
use glam::{BVec4A, Vec3, Vec4};

/// The `child` of a lane that holds nothing.
pub(super) const EMPTY: u32 = u32::MAX;

/// Up to four children's boxes as structure of arrays (`min[axis]` holds
/// that axis of the four lanes, SIMD registers on x86-64 and AArch64), 128
/// bytes aligned to a 64-byte cache line, so a node is two lines, never
/// three. Lane `k`: `count[k] > 0` is a leaf of `count[k]` slots from
/// `child[k]`; `count[k] == 0` is the wide node `child[k]`, or nothing when
/// `child[k] == EMPTY`. An empty lane's box has min NaN, which no box
/// test meets (every comparison with NaN is false), and max −∞, which puts
/// it infinitely far from the swept walk's capsule. (A box min +∞, max −∞
/// is met by a query box from −∞ to +∞, which a rotated collider's query
/// for a motion near `f32::MAX` becomes: the box query followed the lane
/// to node `EMPTY`, found by fuzzing.) Nodes compare bit for bit: the same
/// tree is the same bits, NaN included.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct WideNode {
    pub min: [Vec4; 3],
    pub max: [Vec4; 3],
    pub child: [u32; 4],
    pub count: [u32; 4],
}

impl WideNode {
    /// A node with four empty lanes.
    pub const EMPTY: Self = Self {
        min: [Vec4::NAN; 3],
        max: [Vec4::NEG_INFINITY; 3],
        child: [EMPTY; 4],
        count: [0; 4],
    };

    /// The node's bits, for comparing nodes.
    fn bits(&self) -> ([[u32; 4]; 6], [u32; 4], [u32; 4]) {
        let mut boxes = [[0; 4]; 6];
        for (out, v) in boxes.iter_mut().zip(self.min.iter().chain(&self.max)) {
            *out = v.to_array().map(f32::to_bits);
        }
        (boxes, self.child, self.count)
    }

    /// Lane `k`'s box (min NaN for an empty lane).
    #[inline]
    pub fn bounds(&self, k: usize) -> Aabb {
        Aabb {
            min: Vec3::new(self.min[0][k], self.min[1][k], self.min[2][k]),
            max: Vec3::new(self.max[0][k], self.max[1][k], self.max[2][k]),
        }
    }

    /// Whether lane `k` holds anything.
    #[inline]
    pub fn used(&self, k: usize) -> bool {
        self.count[k] > 0 || self.child[k] != EMPTY
    }

    /// The lanes whose boxes overlap the box `min`–`max` (bit `k` for lane
    /// `k`), never an empty one, whatever the box.
    #[inline]
    pub fn overlapping(&self, min: Vec3, max: Vec3) -> u32 {
        let mut hit = BVec4A::TRUE;
        for axis in 0..3 {
            hit &= Vec4::splat(min[axis]).cmple(self.max[axis]) & self.min[axis].cmple(Vec4::splat(max[axis]));
        }
        hit.bitmask()
    }

    /// Sets lane `k` to the box `bounds` holding `child` and `count`.
    pub fn set_lane(&mut self, k: usize, bounds: &Aabb, child: u32, count: u32) {
        for axis in 0..3 {
            self.min[axis][k] = bounds.min[axis];
            self.max[axis][k] = bounds.max[axis];
        }
        self.child[k] = child;
        self.count[k] = count;
    }

    fn set(&mut self, k: usize, b: &Node, child: u32, count: u32) {
        for axis in 0..3 {
            self.min[axis][k] = b.min[axis];
            self.max[axis][k] = b.max[axis];
        }
        self.child[k] = child;
        self.count[k] = count;
    }
}

impl PartialEq for WideNode {
    fn eq(&self, other: &Self) -> bool {
        self.bits() == other.bits()
    }
}

/// The set bits of `mask`, lowest first.
#[inline]
pub(super) fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            k
        })
    })
}

/// Whether binary node `b` has children.
fn interior(b: &Node) -> bool {
    b.count == 0 && b.index != EMPTY
}

fn surface_area(b: &Node) -> f32 {
    let d = b.max - b.min;
    d.x * d.y + d.y * d.z + d.z * d.x
}

/// The wide tree of the binary tree `binary` (root at 0): node 0 is the
/// root, which holds the binary root's children (or the binary root
/// itself when it is a leaf); every wide node is at most as deep as the
/// binary nodes it holds.
pub(super) fn collapse(binary: &[Node]) -> Vec<WideNode> {
    let mut wide = Vec::with_capacity(binary.len() / 3 + 1);
    wide.push(WideNode::EMPTY);
    let root = &binary[0];
    if interior(root) {
        fill(binary, root, 0, &mut wide);
    } else if root.count > 0 {
        wide[0].set(0, root, root.index, root.count);
    }
    wide.shrink_to_fit();
    wide
}

/// Fills wide node `at` from the interior binary node `b`, and below it.
fn fill(binary: &[Node], b: &Node, at: usize, wide: &mut Vec<WideNode>) {
    let mut lanes = [b.index, b.index + 1, EMPTY, EMPTY];
    let mut used = 2;
    while used < 4 {
        // Open the interior lane with the largest box.
        let widest = (0..used)
            .filter(|&k| interior(&binary[lanes[k] as usize]))
            .max_by(|&i, &j| {
                surface_area(&binary[lanes[i] as usize]).total_cmp(&surface_area(&binary[lanes[j] as usize]))
            });
        let Some(k) = widest else { break };
        let first = binary[lanes[k] as usize].index;
        lanes[k] = first;
        lanes[used] = first + 1;
        used += 1;
    }
    // The children's wide nodes side by side, each subtree after them.
    let mut below = [EMPTY; 4];
    for k in 0..used {
        let n = &binary[lanes[k] as usize];
        if interior(n) {
            below[k] = wide.len() as u32;
            wide.push(WideNode::EMPTY);
            wide[at].set(k, n, below[k], 0);
        } else {
            wide[at].set(k, n, n.index, n.count);
        }
    }
    for k in 0..used {
        if below[k] != EMPTY {
            fill(binary, &binary[lanes[k] as usize], below[k] as usize, wide);
        }
    }
}
