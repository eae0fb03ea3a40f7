//! [`MeshCollider`]: the validated triangles in BVH leaf order over shared
//! vertices, its box and swept queries, and fetching ahead on colliders
//! larger than the caches.

use super::build::{self, Slot};
use super::report::{BuildError, BuildReport};
use crate::aabb::Aabb;
use crate::bvh::{Bvh, BvhStats};
use crate::prefetch::prefetch;
use glam::Vec3;

/// A static triangle mesh ready for sweeps: degenerate and non-finite
/// triangles removed, the rest stored in BVH leaf order as three indices
/// into shared vertices.
///
/// Layout, per triangle: 16 bytes for its slot (three vertex indices and
/// the input index, together on one cache line), 12 bytes per vertex
/// (shared: as many vertices as the input's
/// indices share, or fewer where corners at the same position are used
/// close together in leaf order; those of rejected triangles dropped; in
/// the order the leaves first use them), and the BVH's 128-byte 4-wide
/// nodes (one per three or so leaves; leaves of up to eight triangles,
/// about three on average), and for 4,096 triangles or more the BVH's
/// entry grid (a node per cell with triangles near it, a cell per 256
/// triangles or so: under 1 byte per triangle).
#[derive(Clone, Debug)]
pub struct MeshCollider {
    /// Vertex positions (the collider's local frame, metres), in the order
    /// the leaf slots first use them.
    pub(super) vertices: Vec<Vec3>,
    /// Each leaf slot's triangle: three indices into `vertices` and its
    /// index in the input.
    pub(super) slots: Vec<Slot>,
    pub(super) bvh: Bvh,
    pub(super) bounds: Aabb,
    pub(super) report: BuildReport,
}

/// Colliders of at least this many triangles (about 3 MB, beyond a
/// core's second-level cache) fetch ahead in sweeps (see
/// [`MeshCollider::query_swept`]).
const FETCH_AHEAD_TRIANGLES: usize = 65_536;

impl MeshCollider {
    /// Builds a collider from vertex positions (metres) and triangles given
    /// as three vertex indices each. Triangles with a NaN/infinite corner or
    /// (nearly) zero area are skipped and counted in [`MeshCollider::report`].
    ///
    /// The checks and the BVH build run on as many threads as the machine
    /// has; the collider is the same for any number of threads.
    pub fn build(positions: &[Vec3], triangles: &[[u32; 3]]) -> Result<Self, BuildError> {
        Self::build_with_threads(positions, triangles, crate::parallel::available_threads())
    }

    /// [`MeshCollider::build`] on up to `threads` threads (1: the calling
    /// thread only). The result does not depend on `threads`.
    pub fn build_with_threads(positions: &[Vec3], triangles: &[[u32; 3]], threads: usize) -> Result<Self, BuildError> {
        let built = build::build(positions, triangles, threads)?;
        Ok(Self {
            vertices: built.vertices,
            slots: built.slots,
            bvh: built.bvh,
            bounds: built.bounds,
            report: built.report,
        })
    }

    /// Builds from a flat triangle list (three consecutive positions per
    /// triangle), as produced by non-indexed meshes. Bit-identical corners
    /// become one shared vertex.
    pub fn from_triangles(triangles: &[[Vec3; 3]]) -> Result<Self, BuildError> {
        let (positions, indices) = build::weld(triangles);
        Self::build(&positions, &indices)
    }

    /// What was kept and rejected.
    pub fn report(&self) -> &BuildReport {
        &self.report
    }

    /// Number of triangles kept.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a collider has at least one triangle.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Local-frame bounds of all triangles.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Triangle at a leaf slot (local frame).
    #[inline]
    pub fn triangle(&self, slot: usize) -> [Vec3; 3] {
        self.slots[slot].corners.map(|i| self.vertices[i as usize])
    }

    /// All triangles, in slot order (local frame).
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = [Vec3; 3]> + Clone + '_ {
        self.slots.iter().map(|t| t.corners.map(|i| self.vertices[i as usize]))
    }

    /// Number of shared vertices stored.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// The input triangle index of a leaf slot (what [`crate::SweepHit::triangle`] reports).
    #[inline]
    pub fn input_index(&self, slot: usize) -> u32 {
        self.slots[slot].input
    }

    /// Calls `visit(slot)` for each triangle whose BVH leaf overlaps `query`
    /// (local frame). A superset of the triangles touching the box.
    #[inline]
    pub fn query(&self, query: &Aabb, visit: impl FnMut(usize)) {
        self.bvh.query(query, visit)
    }

    /// The swept-sphere query of the BVH (see `Bvh::query_swept`): slots a
    /// sphere of radius `reach` in eSpace may touch, nearest first, the
    /// search shrinking to the time `visit` returns. `origin` is in the
    /// local frame (metres).
    #[inline]
    pub(crate) fn query_swept(
        &self,
        origin: Vec3,
        inv_radii: Vec3,
        v: Vec3,
        reach: f32,
        t_max: f32,
        mut visit: impl FnMut(usize) -> f32,
    ) {
        // On a collider larger than the caches, the walk fetches ahead:
        // a leaf's slots start loading when the walk decides to visit it,
        // and its corners once its turn comes, all at once rather than
        // each after the one before. (On a small one that costs more
        // than it saves.)
        let fetch = self.fetches_ahead();
        let entered = |first: usize, count: u32| {
            if fetch {
                prefetch(&self.slots[first..first + count as usize]);
            }
        };
        let leaf = |slots: std::ops::Range<usize>, mut t_max: f32| {
            if fetch {
                self.fetch_corners(slots.clone());
            }
            for slot in slots {
                t_max = visit(slot);
            }
            t_max
        };
        self.bvh
            .query_swept(origin, inv_radii, v, reach, t_max, fetch, entered, leaf)
    }

    /// Whether the collider is larger than the caches (65,536 triangles or
    /// more): its sweeps then fetch ahead, and [`MeshCollider::fetch_near`]
    /// does something.
    #[inline]
    pub fn fetches_ahead(&self) -> bool {
        self.slots.len() >= FETCH_AHEAD_TRIANGLES
    }

    /// Starts loading what sweeps and queries near each of `boxes` (local
    /// frame, metres) will read: the tree's nodes a level at a time for all
    /// the boxes together, then their leaves' triangles and corners. A hint
    /// only (no answer depends on it), for a caller about to tick many
    /// characters in different places of a collider larger than the caches,
    /// as a crowd does: their loads are then under way together instead of
    /// one after another. Does nothing on a smaller collider.
    pub fn fetch_near(&self, boxes: &[Aabb]) {
        if !self.fetches_ahead() {
            return;
        }
        let mut leaves = Vec::new();
        self.bvh.fetch_near(boxes, |first, count| {
            let slots = first..first + count as usize;
            prefetch(&self.slots[slots.clone()]);
            leaves.push(slots);
        });
        for slots in leaves {
            self.fetch_corners(slots);
        }
    }

    /// Starts loading the corners of the triangles in `slots` (their slots
    /// read: loaded, or waited for).
    #[inline(always)]
    fn fetch_corners(&self, slots: std::ops::Range<usize>) {
        for slot in &self.slots[slots] {
            for i in slot.corners {
                prefetch(std::slice::from_ref(&self.vertices[i as usize]));
            }
        }
    }

    /// The BVH nodes a [`MeshCollider::query`] with `query` (local frame)
    /// tests, each with whether it went inside (debug drawing).
    pub fn trace_query(&self, query: &Aabb, visit: impl FnMut(crate::bvh::VisitedNode)) {
        self.bvh.trace(query, visit)
    }

    /// BVH shape figures.
    pub fn bvh_stats(&self) -> BvhStats {
        self.bvh.stats()
    }

    /// Heap bytes used (vertices, slots, BVH).
    pub fn memory_bytes(&self) -> usize {
        self.vertices.len() * std::mem::size_of::<Vec3>()
            + self.slots.len() * std::mem::size_of::<Slot>()
            + self.bvh.memory_bytes()
    }
}
