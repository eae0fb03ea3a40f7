//! Building a [`MeshCollider`](super::MeshCollider): triangles checked on
//! several threads, the BVH, and the shared-vertex layout in leaf order.

use super::report::{BuildError, BuildReport};
use crate::aabb::Aabb;
use crate::bvh::{Bvh, Prim};
use crate::parallel::map_chunks;
use crate::triangle::{TriangleDefect, triangle_defect};
use glam::Vec3;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Triangles checked per run (runs are spread over the threads).
const CHECK_CHUNK: usize = 32 * 1024;

/// One leaf slot's triangle: its corners as indices into the collider's
/// shared vertices and its index in the input, side by side (16 bytes, on
/// one cache line: a sweep reads a candidate's input index right after its
/// corners).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub(super) struct Slot {
    pub(super) corners: [u32; 3],
    pub(super) input: u32,
}

/// What the build produces: vertices in first-use order, the slots
/// (triangles as vertex indices, with their input index) in leaf order,
/// and the rest of a collider.
pub(super) struct Built {
    pub vertices: Vec<Vec3>,
    pub slots: Vec<Slot>,
    pub bvh: Bvh,
    pub bounds: Aabb,
    pub report: BuildReport,
}

/// One run of triangles checked: the boxes of those kept, and what was
/// rejected, or the first index out of range.
struct Checked {
    prims: Vec<Prim>,
    rejected_non_finite: usize,
    rejected_degenerate: usize,
    error: Option<BuildError>,
}

/// Checks `triangles` (the first one being input triangle `first`).
fn check(positions: &[Vec3], first: usize, triangles: &[[u32; 3]]) -> Checked {
    let mut out = Checked {
        prims: Vec::with_capacity(triangles.len()),
        rejected_non_finite: 0,
        rejected_degenerate: 0,
        error: None,
    };
    for (k, idx) in triangles.iter().enumerate() {
        let mut tri = [Vec3::ZERO; 3];
        for (corner, &index) in tri.iter_mut().zip(idx) {
            match positions.get(index as usize) {
                Some(p) => *corner = *p,
                None => {
                    out.error = Some(BuildError::IndexOutOfRange {
                        triangle: first + k,
                        index,
                        vertex_count: positions.len(),
                    });
                    return out;
                }
            }
        }
        match triangle_defect(tri) {
            Some(TriangleDefect::NonFinite) => out.rejected_non_finite += 1,
            Some(TriangleDefect::Degenerate) => out.rejected_degenerate += 1,
            None => out.prims.push(Prim {
                min: tri[0].min(tri[1]).min(tri[2]),
                index: (first + k) as u32,
                max: tri[0].max(tri[1]).max(tri[2]),
            }),
        }
    }
    out
}

/// Builds with up to `threads` threads; the result is the same for any
/// number of threads.
pub(super) fn build(positions: &[Vec3], triangles: &[[u32; 3]], threads: usize) -> Result<Built, BuildError> {
    let mut report = BuildReport {
        input_triangles: triangles.len(),
        ..Default::default()
    };
    let runs = map_chunks(triangles, CHECK_CHUNK, threads, |first, run| {
        check(positions, first, run)
    });
    let mut prims = Vec::with_capacity(runs.iter().map(|r| r.prims.len()).sum());
    for run in runs {
        if let Some(error) = run.error {
            return Err(error);
        }
        report.rejected_non_finite += run.rejected_non_finite;
        report.rejected_degenerate += run.rejected_degenerate;
        prims.extend_from_slice(&run.prims);
    }
    report.triangles = prims.len();
    if prims.is_empty() {
        return Err(BuildError::NoTriangles(report));
    }
    let bvh = Bvh::from_prims(&mut prims, threads);
    let bounds = bvh.bounds();
    // Vertices in the order the leaves first use them: a leaf's corners sit
    // together in memory. Vertices no kept triangle uses are dropped, and a
    // vertex at the very position of one used shortly before is that one.
    let mut remap = vec![u32::MAX; positions.len()];
    let mut recent = RecentVertices::new();
    let mut vertices = Vec::new();
    let slots = prims
        .iter()
        .map(|p| Slot {
            corners: triangles[p.index as usize].map(|i| {
                let new = &mut remap[i as usize];
                if *new == u32::MAX {
                    *new = recent.find_or_add(positions[i as usize], &mut vertices);
                }
                *new
            }),
            input: p.index,
        })
        .collect();
    vertices.shrink_to_fit();
    Ok(Built {
        vertices,
        slots,
        bvh,
        bounds,
        report,
    })
}

/// Merges a vertex into one at the same position (bit for bit) stored
/// recently: a direct-mapped table from a hash of the position to the last
/// vertex stored with that hash. Duplicates in meshes (the corners of a
/// box's faces, vertices split for normals or texture coordinates) sit
/// close together in leaf order, so this finds most of them in a table that
/// stays in cache, in the same way for any thread count.
struct RecentVertices {
    table: Vec<u32>,
}

impl RecentVertices {
    /// Slots of the table (a power of two).
    const SLOTS: usize = 1 << 14;

    fn new() -> Self {
        Self {
            table: vec![u32::MAX; Self::SLOTS],
        }
    }

    /// The index of a vertex at `p` among the recent ones of `vertices`,
    /// or of `p` pushed onto it.
    #[inline]
    fn find_or_add(&mut self, p: Vec3, vertices: &mut Vec<Vec3>) -> u32 {
        let [x, y, z] = p.to_array().map(f32::to_bits);
        let h = (x.wrapping_mul(0x9e37_79b1) ^ y.wrapping_mul(0x85eb_ca77) ^ z.wrapping_mul(0xc2b2_ae3d))
            .wrapping_mul(0x27d4_eb2f);
        let slot = &mut self.table[(h >> 18) as usize];
        if let Some(q) = vertices.get(*slot as usize)
            && q.to_array().map(f32::to_bits) == [x, y, z]
        {
            return *slot;
        }
        *slot = vertices.len() as u32;
        vertices.push(p);
        *slot
    }
}

/// Positions and index triples of a flat triangle list, bit-identical
/// corners merged into one vertex (NaN corners too: the build rejects
/// their triangles anyway).
pub(super) fn weld(triangles: &[[Vec3; 3]]) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut ids: HashMap<[u32; 3], u32, BuildHasherDefault<BitsHasher>> =
        HashMap::with_capacity_and_hasher(triangles.len(), Default::default());
    let mut positions = Vec::new();
    let indices = triangles
        .iter()
        .map(|t| {
            t.map(|p| {
                *ids.entry(p.to_array().map(f32::to_bits)).or_insert_with(|| {
                    positions.push(p);
                    (positions.len() - 1) as u32
                })
            })
        })
        .collect();
    (positions, indices)
}

/// A fast hash of a few words (multiply and rotate): the keys are
/// coordinates' bits, not chosen by an adversary.
#[derive(Default)]
struct BitsHasher(u64);

impl Hasher for BitsHasher {
    fn write(&mut self, bytes: &[u8]) {
        for word in bytes.chunks(4) {
            let mut w = [0u8; 4];
            w[..word.len()].copy_from_slice(word);
            self.write_u32(u32::from_le_bytes(w));
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
