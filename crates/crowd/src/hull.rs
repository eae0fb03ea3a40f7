//! The shape other agents see: a convex polytope circumscribing an agent's
//! ellipsoid (every face tangent to it), so the controller's
//! ellipsoid-against-triangles sweep can collide with agents.

use glam::Vec3;
use slidewalk_sweep::MeshCollider;
use std::f32::consts::PI;

/// Resolution of the circumscribing polytope.
///
/// The polytope is the intersection of `sides × (latitudes − 2)` tangent
/// planes of the unit sphere, `latitudes` evenly spaced from pole to pole
/// (the poles are flat caps), `sides` evenly spaced around; scaled by an
/// agent's radii it circumscribes its ellipsoid. More of each: a tighter
/// fit (see [`HullResolution::max_gap`]) and more triangles to sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HullResolution {
    /// Tangent planes around the vertical axis (at least 3).
    pub sides: u32,
    /// Latitudes of tangent planes from the bottom pole to the top pole,
    /// both included (at least 3; odd puts one on the equator, where agents
    /// on one floor meet).
    pub latitudes: u32,
}

impl Default for HullResolution {
    fn default() -> Self {
        Self { sides: 8, latitudes: 5 }
    }
}

impl HullResolution {
    /// The latitude of tangent plane `k`, radians (−π/2 at the bottom pole).
    fn latitude(&self, k: u32) -> f32 {
        -PI / 2.0 + k as f32 * PI / (self.latitudes - 1) as f32
    }

    /// The polytope around the unit sphere: vertices and triangles. Each
    /// vertex is where two neighbouring latitudes' planes meet two
    /// neighbouring sides' planes (on the meridian half-way between them).
    pub fn unit_polytope(&self) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let n = self.sides.max(3);
        let m = self.latitudes.max(3);
        let res = Self { sides: n, latitudes: m };
        let half_turn = (PI / n as f32).cos();
        let mut vertices = Vec::with_capacity((n * (m - 1)) as usize);
        for ring in 0..m - 1 {
            // In the meridian half-plane (ρ, y): the lines
            // ρ·cos φ·cos(π/n) + y·sin φ = 1 of latitudes `ring`, `ring + 1`.
            let (a, b) = (res.latitude(ring), res.latitude(ring + 1));
            let (a1, b1) = (a.cos() * half_turn, a.sin());
            let (a2, b2) = (b.cos() * half_turn, b.sin());
            let det = a1 * b2 - a2 * b1;
            let rho = (b2 - b1) / det;
            let y = (a1 - a2) / det;
            for j in 0..n {
                let theta = (j as f32 + 0.5) * 2.0 * PI / n as f32;
                vertices.push(Vec3::new(rho * theta.cos(), y, rho * theta.sin()));
            }
        }
        let at = |ring: u32, j: u32| ring * n + j % n;
        let mut triangles = Vec::new();
        // Polar caps: n-gons, fanned.
        for j in 1..n - 1 {
            triangles.push([at(0, 0), at(0, j + 1), at(0, j)]);
            triangles.push([at(m - 2, 0), at(m - 2, j), at(m - 2, j + 1)]);
        }
        // The band of latitude plane k (0 < k < m − 1): one planar
        // trapezoid per side, between vertex rings k − 1 and k.
        for k in 1..m - 1 {
            for s in 0..n {
                let (a, b) = (at(k - 1, s + n - 1), at(k - 1, s));
                let (c, d) = (at(k, s), at(k, s + n - 1));
                triangles.push([a, b, c]);
                triangles.push([a, c, d]);
            }
        }
        (vertices, triangles)
    }

    /// The farthest point of the unit polytope from the unit sphere
    /// (eSpace units): no point of an agent's polytope is farther than
    /// this times its largest radius from its ellipsoid.
    pub fn max_gap(&self) -> f32 {
        let (vertices, _) = self.unit_polytope();
        vertices.iter().map(|v| v.length()).fold(0.0, f32::max) - 1.0
    }

    /// Triangles of the polytope.
    pub fn triangle_count(&self) -> usize {
        let (n, m) = (self.sides.max(3) as usize, self.latitudes.max(3) as usize);
        2 * (n - 2) + 2 * n * (m - 2)
    }

    /// The polytope around an ellipsoid of `radii` (metres) centred at the
    /// origin, as a collider. `None` for radii that are not finite and positive.
    pub fn collider(&self, radii: Vec3) -> Option<MeshCollider> {
        if !radii.is_finite() || radii.min_element() <= 0.0 {
            return None;
        }
        let (vertices, triangles) = self.unit_polytope();
        let scaled: Vec<Vec3> = vertices.iter().map(|v| *v * radii).collect();
        MeshCollider::build(&scaled, &triangles).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_is_tangent_to_the_unit_sphere_and_every_vertex_outside() {
        for (sides, latitudes) in [(3, 3), (8, 5), (12, 7), (16, 9), (6, 4)] {
            let res = HullResolution { sides, latitudes };
            let (v, t) = res.unit_polytope();
            assert_eq!(t.len(), res.triangle_count());
            for tri in &t {
                let [a, b, c] = tri.map(|i| v[i as usize]);
                let n = (b - a).cross(c - a).normalize();
                // Tangent: the face's plane is at distance 1 from the centre.
                assert!((n.dot(a).abs() - 1.0).abs() < 1e-4, "{sides}×{latitudes}: {}", n.dot(a));
                // Convex: every vertex on the inner side of every face.
                let out = n * n.dot(a).signum();
                assert!(v.iter().all(|p| out.dot(*p) <= 1.0 + 1e-4));
            }
            assert!(res.max_gap() > 0.0);
        }
        let gap = HullResolution::default().max_gap();
        assert!((gap - 0.1589).abs() < 1e-3, "{gap}");
    }
}
