//! Volumes (trigger zones, sensors): whether an ellipsoid overlaps the
//! solid a closed mesh bounds, and [`BoxGrid`], a uniform grid over boxes
//! that finds the volumes near a body by looking at a few cells, however
//! many volumes there are.

use crate::aabb::Aabb;
use crate::cell_hasher::CellHasher;
use crate::collider::PlacedCollider;
use crate::ellipsoid::Ellipsoid;
use crate::query::sweep::triangles_near;
use crate::triangle::{closest_point_on_triangle, segment_crosses_triangle};
use glam::Vec3;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A grid cell's key: its three coordinates packed into 21 bits each.
type CellKey = u64;

/// The cells of a grid: ids by packed key.
type Cells = HashMap<CellKey, Vec<u32>, BuildHasherDefault<CellHasher>>;

/// The key of cell `[x, y, z]` (each clamped to ±2²⁰, far beyond any
/// level at the smallest cell).
fn key([x, y, z]: [i32; 3]) -> CellKey {
    let bits = |v: i32| (v.clamp(-(1 << 20), (1 << 20) - 1) + (1 << 20)) as u64;
    bits(x) | bits(y) << 21 | bits(z) << 42
}

/// Whether `ellipsoid` centred at `centre` (metres) overlaps the volume
/// `volume` bounds: it touches one of its triangles, or its centre is
/// inside (a ray from it crosses the mesh an odd number of times; the mesh
/// should be closed, as a box or any watertight shape is). The volume's
/// layers and one-way direction play no part here.
pub fn ellipsoid_overlaps_volume(ellipsoid: &Ellipsoid, centre: Vec3, volume: &PlacedCollider<'_>) -> bool {
    if !centre.is_finite() {
        return false;
    }
    let one = std::slice::from_ref(volume);
    let mut near = Vec::new();
    triangles_near(ellipsoid, centre, 1.0, one, &mut (), centre, &mut near);
    let inv_r = ellipsoid.radii().recip();
    let touches = near.iter().any(|t| {
        let [a, b, c] = t.world.map(|p| (p - centre) * inv_r);
        closest_point_on_triangle(Vec3::ZERO, a, b, c).length_squared() < 1.0
    });
    touches || contains_point(volume, centre)
}

/// A direction no mesh built on a grid lines up with, so a ray along it
/// from a point does not graze edges and corners (whose crossings would
/// count twice or not at all).
const RAY: Vec3 = Vec3::new(0.000_713_7, 1.0, 0.000_419_3);

/// Whether `point` (metres) is inside the closed mesh `volume` at its
/// pose: a ray from it to beyond the mesh's box crosses the mesh an odd
/// number of times.
pub fn contains_point(volume: &PlacedCollider<'_>, point: Vec3) -> bool {
    let bounds = volume.world_bounds();
    if !bounds.intersects(&Aabb::from_corners(point, point)) {
        return false;
    }
    let end = point + RAY * (bounds.max.y - point.y + 1.0);
    let mut crossings = 0u32;
    volume.query_world(&Aabb::from_corners(point, end), |_, tri| {
        crossings += u32::from(segment_crosses_triangle(point, end, tri).is_some());
    });
    crossings % 2 == 1
}

/// A uniform grid over boxes (metres), each known by its index in the
/// slice it was built from: [`BoxGrid::query`] finds the boxes overlapping
/// a query box by looking at the cells it covers. The cell size follows
/// the boxes' typical size; a box covering more than [`BoxGrid::MAX_CELLS`]
/// cells is kept apart and always checked (one kill zone under a whole
/// level is one of those).
#[derive(Clone, Debug, Default)]
pub struct BoxGrid {
    cell: f32,
    cells: Cells,
    large: Vec<u32>,
    boxes: Vec<Aabb>,
}

impl BoxGrid {
    /// Most cells a box is entered in; larger boxes are kept apart.
    pub const MAX_CELLS: i64 = 64;

    /// A grid over `boxes` (non-finite boxes are never found).
    pub fn build(boxes: &[Aabb]) -> Self {
        let mut sizes: Vec<f32> = boxes
            .iter()
            .map(|b| b.size().max_element())
            .filter(|s| s.is_finite())
            .collect();
        sizes.sort_by(f32::total_cmp);
        let typical = sizes.get(sizes.len() / 2).copied().unwrap_or(1.0);
        let cell = (2.0 * typical).clamp(0.5, 1024.0);
        let mut grid = Self {
            cell,
            cells: Cells::default(),
            large: Vec::new(),
            boxes: boxes.to_vec(),
        };
        for (i, b) in boxes.iter().enumerate() {
            if !(b.min.is_finite() && b.max.is_finite()) {
                continue;
            }
            let (lo, hi) = grid.range(b);
            let count: i64 = (0..3).map(|k| i64::from(hi[k]) - i64::from(lo[k]) + 1).product();
            if count > Self::MAX_CELLS {
                grid.large.push(i as u32);
                continue;
            }
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        grid.cells.entry(key([x, y, z])).or_default().push(i as u32);
                    }
                }
            }
        }
        grid
    }

    /// How many boxes it was built from.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Whether it was built from no boxes.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// The cells a box covers, first and last on each axis (clamped to
    /// what an `i32` holds).
    fn range(&self, b: &Aabb) -> ([i32; 3], [i32; 3]) {
        let at = |v: f32| (v / self.cell).floor().clamp(i32::MIN as f32, i32::MAX as f32) as i32;
        (
            [at(b.min.x), at(b.min.y), at(b.min.z)],
            [at(b.max.x), at(b.max.y), at(b.max.z)],
        )
    }

    /// Appends to `out` the index of every box overlapping `query`, in
    /// increasing order, each once.
    pub fn query(&self, query: &Aabb, out: &mut Vec<u32>) {
        let first = out.len();
        if !(query.min.is_finite() && query.max.is_finite()) {
            return;
        }
        let overlaps = |i: u32| self.boxes[i as usize].intersects(query);
        out.extend(self.large.iter().copied().filter(|&i| overlaps(i)));
        let (lo, hi) = self.range(query);
        let count: i64 = (0..3).map(|k| i64::from(hi[k]) - i64::from(lo[k]) + 1).product();
        if count > Self::MAX_CELLS * 8 {
            // A query larger than the grid is worth: every box, checked.
            out.extend((0..self.boxes.len() as u32).filter(|&i| overlaps(i)));
        } else {
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        if let Some(ids) = self.cells.get(&key([x, y, z])) {
                            out.extend(ids.iter().copied().filter(|&i| overlaps(i)));
                        }
                    }
                }
            }
        }
        out[first..].sort_unstable();
        let mut kept = first;
        for k in first..out.len() {
            if k == first || out[k] != out[kept - 1] {
                out[kept] = out[k];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::Soup;
    use crate::{MeshCollider, Pose};
    use glam::Quat;

    fn cube(min: Vec3, max: Vec3) -> MeshCollider {
        let mut s = Soup::default();
        s.cuboid(min, max);
        MeshCollider::build(&s.positions, &s.triangles).unwrap()
    }

    #[test]
    fn inside_touching_and_outside_a_box() {
        let mesh = cube(Vec3::ZERO, Vec3::splat(4.0));
        let placed = PlacedCollider::fixed(&mesh);
        let e = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
        // Deep inside (no triangle near), on the diagonals the top's
        // triangles share, touching from outside, and clear of it.
        for (at, expected) in [
            (Vec3::splat(2.0), true),
            (Vec3::new(1.0, 2.0, 1.0), true),
            (Vec3::new(3.0, 2.0, 1.0), true),
            (Vec3::new(2.0, 4.8, 2.0), true),
            (Vec3::new(4.3, 2.0, 2.0), true),
            (Vec3::new(2.0, 5.0, 2.0), false),
            (Vec3::new(4.5, 2.0, 2.0), false),
            (Vec3::new(-3.0, 2.0, 2.0), false),
        ] {
            assert_eq!(ellipsoid_overlaps_volume(&e, at, &placed), expected, "at {at}");
        }
        // Turned and moved: the same, in its new place.
        let pose = Pose {
            rotation: Quat::from_rotation_y(0.7),
            translation: Vec3::new(10.0, 0.0, 0.0),
        };
        let moved = PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO);
        assert!(ellipsoid_overlaps_volume(
            &e,
            pose.transform_point(Vec3::splat(2.0)),
            &moved
        ));
        assert!(!ellipsoid_overlaps_volume(&e, Vec3::splat(2.0), &moved));
    }

    #[test]
    fn the_grid_finds_what_brute_force_finds() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut boxes: Vec<Aabb> = (0..2000)
            .map(|_| {
                let at = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 500.0;
                Aabb::from_corners(at, at + Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 6.0)
            })
            .collect();
        // A kill zone under everything, and a bad box.
        boxes.push(Aabb::from_corners(Vec3::splat(-100.0), Vec3::new(600.0, -90.0, 600.0)));
        boxes.push(Aabb::from_corners(Vec3::NAN, Vec3::ONE));
        let grid = BoxGrid::build(&boxes);
        let mut out = Vec::new();
        for k in 0..3000 {
            let at = Vec3::new(rng.f32(), rng.f32() * 1.3 - 0.3, rng.f32()) * 500.0;
            let size = if k % 100 == 0 { 200.0 } else { 2.0 };
            let query = Aabb::from_corners(at, at + Vec3::splat(size));
            out.clear();
            grid.query(&query, &mut out);
            let expected: Vec<u32> = (0..boxes.len() as u32)
                .filter(|&i| boxes[i as usize].min.is_finite() && boxes[i as usize].intersects(&query))
                .collect();
            assert_eq!(out, expected, "query {query:?}");
        }
    }
}
