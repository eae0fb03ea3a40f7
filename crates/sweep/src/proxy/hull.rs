//! The convex-hull proxy: a large mesh's corners thinned to one per grid
//! cell, and the hull built from them by incremental construction in f64.

use crate::aabb::Aabb;
use glam::{DVec3, Vec3};

/// Most corners a hull is built from as they are; a mesh with more is
/// first thinned to one corner per cell of a [`HULL_GRID`]³ grid over its box.
pub const MAX_HULL_CORNERS: usize = 4096;
/// Cells along each axis of the grid that thins a large mesh's corners.
pub const HULL_GRID: u32 = 32;

/// `points` (finite, within `bounds`) each once, or, beyond
/// [`MAX_HULL_CORNERS`] distinct ones, one per grid cell: the one farthest from the
/// box's middle (so the thinned hull stays out where the mesh is, the
/// other corners of a cell within its diagonal, 5.4% of the box, of it).
/// Keeps the hull's cost near linear in the mesh for props of any size.
pub(super) fn hull_corners(points: Vec<Vec3>, bounds: Aabb) -> Vec<Vec3> {
    // Each corner once (a mesh lists a corner once per triangle around it).
    let mut seen = std::collections::HashSet::new();
    let points: Vec<Vec3> = points
        .into_iter()
        .filter(|p| seen.insert(p.to_array().map(f32::to_bits)))
        .collect();
    if points.len() <= MAX_HULL_CORNERS {
        return points;
    }
    let (lo, size) = (
        bounds.min.as_dvec3(),
        (bounds.max.as_dvec3() - bounds.min.as_dvec3()).max(DVec3::splat(1e-300)),
    );
    let middle = lo + size / 2.0;
    let cells = HULL_GRID as f64;
    let mut best: std::collections::HashMap<[u32; 3], (f64, Vec3)> = std::collections::HashMap::new();
    for p in points {
        let d = p.as_dvec3();
        let cell = ((d - lo) / size * cells)
            .to_array()
            .map(|c| (c as u32).min(HULL_GRID - 1));
        let far = d.distance_squared(middle);
        let entry = best.entry(cell).or_insert((far, p));
        if far > entry.0 {
            *entry = (far, p);
        }
    }
    let mut kept: Vec<(Vec3, [u32; 3])> = best.into_iter().map(|(cell, (_, p))| (p, cell)).collect();
    // In cell order: the hull does not depend on the hash map's order.
    kept.sort_by_key(|(_, cell)| *cell);
    kept.into_iter().map(|(p, _)| p).collect()
}

/// The convex hull of `points` (finite), by incremental construction in
/// f64: positions (the hull's corners) and outward-wound triangles; `None`
/// when the points span no volume (all on a plane, a line or a point, to
/// a millionth of their extent).
pub(super) fn convex_hull(points: &[Vec3]) -> Option<(Vec<Vec3>, Vec<[u32; 3]>)> {
    let p: Vec<DVec3> = points.iter().map(|v| v.as_dvec3()).collect();
    let extent = p.iter().fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(*v), hi.max(*v))
    });
    let scale = (extent.1 - extent.0).max_element();
    if scale.is_nan() || scale <= 0.0 {
        return None;
    }
    let eps = scale * 1e-6;
    // A first tetrahedron: the two points farthest apart along an axis,
    // the point farthest from their line, the point farthest from that plane.
    let axis = (extent.1 - extent.0).max_position();
    let a = (0..p.len()).min_by(|&i, &j| p[i][axis].total_cmp(&p[j][axis]))?;
    let b = (0..p.len()).max_by(|&i, &j| p[i][axis].total_cmp(&p[j][axis]))?;
    let line = (p[b] - p[a]).normalize();
    let off_line = |i: usize| (p[i] - p[a]).reject_from_normalized(line).length();
    let c = (0..p.len()).max_by(|&i, &j| off_line(i).total_cmp(&off_line(j)))?;
    if off_line(c) <= eps {
        return None;
    }
    let normal = (p[b] - p[a]).cross(p[c] - p[a]).normalize();
    let off_plane = |i: usize| (p[i] - p[a]).dot(normal).abs();
    let d = (0..p.len()).max_by(|&i, &j| off_plane(i).total_cmp(&off_plane(j)))?;
    if off_plane(d) <= eps {
        return None;
    }
    let inside = (p[a] + p[b] + p[c] + p[d]) / 4.0;
    let mut faces: Vec<[usize; 3]> = Vec::new();
    let outward = |f: [usize; 3]| {
        let n = (p[f[1]] - p[f[0]]).cross(p[f[2]] - p[f[0]]);
        if n.dot(p[f[0]] - inside) < 0.0 {
            [f[0], f[2], f[1]]
        } else {
            f
        }
    };
    for f in [[a, b, c], [a, b, d], [a, c, d], [b, c, d]] {
        faces.push(outward(f));
    }
    // Farthest from the middle first: the hull grows fast and most inner
    // points are then inside it.
    let mut order: Vec<usize> = (0..p.len()).filter(|i| ![a, b, c, d].contains(i)).collect();
    order.sort_by(|&i, &j| p[j].distance_squared(inside).total_cmp(&p[i].distance_squared(inside)));
    let mut visible = Vec::new();
    for i in order {
        let q = p[i];
        visible.clear();
        visible.extend(faces.iter().map(|f| {
            let n = (p[f[1]] - p[f[0]]).cross(p[f[2]] - p[f[0]]);
            let len = n.length();
            len > 0.0 && n.dot(q - p[f[0]]) > eps * len
        }));
        if !visible.contains(&true) {
            continue;
        }
        // The horizon: edges of visible faces whose other face is not visible.
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for (f, _) in faces.iter().zip(&visible).filter(|(_, v)| **v) {
            for k in 0..3 {
                edges.push((f[k], f[(k + 1) % 3]));
            }
        }
        let horizon: Vec<(usize, usize)> = edges
            .iter()
            .copied()
            .filter(|&(u, v)| !edges.contains(&(v, u)))
            .collect();
        let mut kept: Vec<[usize; 3]> = faces
            .iter()
            .zip(&visible)
            .filter(|(_, v)| !**v)
            .map(|(f, _)| *f)
            .collect();
        kept.extend(horizon.into_iter().map(|(u, v)| [u, v, i]));
        faces = kept;
    }
    // Only the corners in use, numbered in first use.
    let mut index = vec![u32::MAX; p.len()];
    let mut positions = Vec::new();
    let triangles = faces
        .iter()
        .map(|f| {
            f.map(|v| {
                if index[v] == u32::MAX {
                    index[v] = positions.len() as u32;
                    positions.push(points[v]);
                }
                index[v]
            })
        })
        .collect();
    Some((positions, triangles))
}
