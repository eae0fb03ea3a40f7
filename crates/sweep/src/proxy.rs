//! Collision proxies: a simple closed shape (a box, a sphere, a capsule or
//! the convex hull) standing in for a finely tessellated mesh, as triangles
//! for a [`crate::MeshCollider`]. A prop modelled with thousands of
//! triangles costs every sweep near it hundreds of candidates; its proxy
//! costs a handful. The shapes are fitted to the mesh's points in the
//! mesh's own frame (metres):
//!
//! * [`ProxyShape::Box`]: the points' bounding box (12 triangles).
//! * [`ProxyShape::Sphere`]: centred on the bounding box, radius reaching
//!   the farthest point; a UV sphere of [`SEGMENTS`] × [`RINGS`] whose
//!   corners are on the sphere (its faces inside it by at most
//!   [`SAGITTA`] of the radius).
//! * [`ProxyShape::Capsule`]: axis along the frame's y through the box's
//!   centre, radius reaching the farthest point across the axis, ends at
//!   the box's bottom and top (a sphere when the box is lower than wide).
//! * [`ProxyShape::Hull`]: the convex hull of the points (at most as many
//!   triangles as the mesh; a mesh of over [`MAX_HULL_CORNERS`] corners is
//!   thinned first, see [`HULL_GRID`]; a flat or straight mesh, which has
//!   no hull volume, gets its bounding box instead).
//!
//! ```
//! use glam::Vec3;
//! use slidewalk_sweep::proxy::{ProxyShape, proxy_mesh};
//!
//! // The eight corners of a unit cube and a point inside: the hull is the cube.
//! let mut points: Vec<Vec3> = (0..8).map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32)).collect();
//! points.push(Vec3::splat(0.5));
//! let hull = proxy_mesh(ProxyShape::Hull, &points).unwrap();
//! assert_eq!(hull.triangles.len(), 12);
//! ```

#[cfg(test)]
mod tests;

use crate::aabb::Aabb;
use glam::{DVec3, Vec3};

/// Sides of a sphere's or capsule's proxy around its axis.
pub const SEGMENTS: u32 = 12;
/// Rings of a sphere's proxy from pole to pole (a capsule's hemispheres
/// have half as many each).
pub const RINGS: u32 = 6;
/// How far inside its sphere (or capsule) a proxy's faces may lie, as a
/// fraction of the radius: the sagitta of its facets.
pub const SAGITTA: f32 = 0.07;

/// The shape a proxy takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyShape {
    /// The bounding box.
    Box,
    /// A sphere around the points.
    Sphere,
    /// A capsule along the frame's y axis.
    Capsule,
    /// The convex hull.
    Hull,
}

impl ProxyShape {
    /// Every shape, in the order [`ProxyShape::word`] lists them.
    pub const ALL: [ProxyShape; 4] = [Self::Box, Self::Sphere, Self::Capsule, Self::Hull];

    /// Its name in a level file: `box`, `sphere`, `capsule` or `hull`.
    pub fn word(self) -> &'static str {
        match self {
            Self::Box => "box",
            Self::Sphere => "sphere",
            Self::Capsule => "capsule",
            Self::Hull => "hull",
        }
    }

    /// The shape called `word` (any case).
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.word().eq_ignore_ascii_case(word))
    }
}

/// A proxy's triangles.
#[derive(Clone, Debug, PartialEq)]
pub struct ProxyMesh {
    /// The shape built: the one asked for, or [`ProxyShape::Box`] for a
    /// hull of points without volume.
    pub shape: ProxyShape,
    /// Corner positions, in the points' frame.
    pub positions: Vec<Vec3>,
    /// Three indices into `positions` per triangle, wound outwards.
    pub triangles: Vec<[u32; 3]>,
}

/// The proxy of `shape` fitted to `points` (non-finite points are left
/// out); `None` when no point is finite.
pub fn proxy_mesh(shape: ProxyShape, points: &[Vec3]) -> Option<ProxyMesh> {
    let finite: Vec<Vec3> = points.iter().copied().filter(|p| p.is_finite()).collect();
    let bounds = Aabb::from_points(finite.iter().copied());
    if finite.is_empty() || !bounds.min.is_finite() || !bounds.max.is_finite() {
        return None;
    }
    // The round shapes are fitted in f64: near f32's range a centre or a
    // radius overflows (the corners then round to infinity, never to NaN).
    let centre = (bounds.min.as_dvec3() + bounds.max.as_dvec3()) / 2.0;
    let mut mesh = ProxyMesh {
        shape,
        positions: Vec::new(),
        triangles: Vec::new(),
    };
    match shape {
        ProxyShape::Box => mesh.cuboid(bounds),
        ProxyShape::Sphere => {
            let radius = finite.iter().map(|p| p.as_dvec3().distance(centre)).fold(0.0, f64::max);
            mesh.capsule(centre, radius, 0.0);
        }
        ProxyShape::Capsule => {
            let radius = finite
                .iter()
                .map(|p| (p.as_dvec3() - centre).with_y(0.0).length())
                .fold(0.0, f64::max);
            let height = bounds.max.y as f64 - bounds.min.y as f64;
            let half = (height / 2.0 - radius).max(0.0);
            mesh.capsule(centre, radius, half);
        }
        ProxyShape::Hull => match convex_hull(&hull_corners(finite, bounds)) {
            Some((positions, triangles)) => {
                mesh.positions = positions;
                mesh.triangles = triangles;
            }
            None => {
                mesh.shape = ProxyShape::Box;
                mesh.cuboid(bounds);
            }
        },
    }
    Some(mesh)
}

impl ProxyMesh {
    /// Adds the box `b`, wound outwards.
    fn cuboid(&mut self, b: Aabb) {
        let base = self.positions.len() as u32;
        self.positions.extend((0..8).map(|i| {
            Vec3::new(
                if i & 1 == 0 { b.min.x } else { b.max.x },
                if i & 2 == 0 { b.min.y } else { b.max.y },
                if i & 4 == 0 { b.min.z } else { b.max.z },
            )
        }));
        // Each face as a quad of corner numbers (bit 0 x, bit 1 y, bit 2 z), counter-clockwise seen from outside.
        const FACES: [[u32; 4]; 6] = [
            [0, 4, 6, 2], // −x
            [1, 3, 7, 5], // +x
            [0, 1, 5, 4], // −y
            [2, 6, 7, 3], // +y
            [0, 2, 3, 1], // −z
            [4, 5, 7, 6], // +z
        ];
        for [a, b, c, d] in FACES {
            self.triangles.push([base + a, base + b, base + c]);
            self.triangles.push([base + a, base + c, base + d]);
        }
    }

    /// Adds a capsule around the y axis through `centre`: hemispheres of
    /// `radius` whose centres are `half` above and below it (a sphere when
    /// `half` is 0), wound outwards.
    fn capsule(&mut self, centre: DVec3, radius: f64, half: f64) {
        let base = self.positions.len() as u32;
        let rings_per_half = RINGS / 2;
        // Rings from the bottom pole to the top one; the equator ring is
        // doubled when the hemispheres are apart (the cylinder between).
        let mut rings: Vec<(f64, f64)> = Vec::new(); // (y, ring radius)
        for k in 1..=rings_per_half {
            let a = std::f64::consts::FRAC_PI_2 * (1.0 - k as f64 / rings_per_half as f64);
            rings.push((-half - radius * libm::sin(a), radius * libm::cos(a)));
        }
        for k in (if half > 0.0 { 0 } else { 1 })..rings_per_half {
            let a = std::f64::consts::FRAC_PI_2 * (k as f64 / rings_per_half as f64);
            rings.push((half + radius * libm::sin(a), radius * libm::cos(a)));
        }
        self.positions.push((centre - DVec3::Y * (half + radius)).as_vec3());
        for &(y, r) in &rings {
            for s in 0..SEGMENTS {
                let a = std::f64::consts::TAU * s as f64 / SEGMENTS as f64;
                self.positions
                    .push((centre + DVec3::new(r * libm::cos(a), y, r * libm::sin(a))).as_vec3());
            }
        }
        self.positions.push((centre + DVec3::Y * (half + radius)).as_vec3());
        let ring = |k: u32, s: u32| base + 1 + k * SEGMENTS + s % SEGMENTS;
        let last = rings.len() as u32 - 1;
        let top = base + 1 + rings.len() as u32 * SEGMENTS;
        for s in 0..SEGMENTS {
            self.triangles.push([base, ring(0, s), ring(0, s + 1)]);
            for k in 0..last {
                let (a, b, c, d) = (ring(k, s), ring(k + 1, s), ring(k + 1, s + 1), ring(k, s + 1));
                self.triangles.push([a, b, c]);
                self.triangles.push([a, c, d]);
            }
            self.triangles.push([top, ring(last, s + 1), ring(last, s)]);
        }
    }
}

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
fn hull_corners(points: Vec<Vec3>, bounds: Aabb) -> Vec<Vec3> {
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
fn convex_hull(points: &[Vec3]) -> Option<(Vec<Vec3>, Vec<[u32; 3]>)> {
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
