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
//! use sweep::proxy::{ProxyShape, proxy_mesh};
//!
//! // The eight corners of a unit cube and a point inside: the hull is the cube.
//! let mut points: Vec<Vec3> = (0..8).map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32)).collect();
//! points.push(Vec3::splat(0.5));
//! let hull = proxy_mesh(ProxyShape::Hull, &points).unwrap();
//! assert_eq!(hull.triangles.len(), 12);
//! ```

mod hull;
#[cfg(test)]
mod tests;

pub use hull::{HULL_GRID, MAX_HULL_CORNERS};

use crate::aabb::Aabb;
use glam::{DVec3, Vec3};
use hull::{convex_hull, hull_corners};

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
            rings.push((-half - radius * a.sin(), radius * a.cos()));
        }
        for k in (if half > 0.0 { 0 } else { 1 })..rings_per_half {
            let a = std::f64::consts::FRAC_PI_2 * (k as f64 / rings_per_half as f64);
            rings.push((half + radius * a.sin(), radius * a.cos()));
        }
        self.positions.push((centre - DVec3::Y * (half + radius)).as_vec3());
        for &(y, r) in &rings {
            for s in 0..SEGMENTS {
                let a = std::f64::consts::TAU * s as f64 / SEGMENTS as f64;
                self.positions
                    .push((centre + DVec3::new(r * a.cos(), y, r * a.sin())).as_vec3());
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
