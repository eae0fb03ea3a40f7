//! Triangle meshes with normals for the level generator: flat faces (one
//! normal per face, vertices not shared between faces), boxes, stairs,
//! ramps, round pillars and heightfields. Every shape is wound
//! counter-clockwise seen from outside (glTF front faces) and closed unless
//! it is a floor patch filling a hole in another closed shape.
//!
//! Trigonometry is evaluated in f64 and rounded to f32 once, so the output
//! does not depend on the last bit of a platform's f32 `sin`/`cos`.

use glam::{DVec3, Vec3};

/// A triangle mesh: positions, one normal per vertex, and triangles as
/// index triples (counter-clockwise seen from the side the normals face).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions, metres.
    pub positions: Vec<Vec3>,
    /// Unit vertex normals, one per position.
    pub normals: Vec<Vec3>,
    /// Triangle corners, three indices per triangle.
    pub indices: Vec<u32>,
}

impl MeshData {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// True when the mesh has no triangles.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Appends another mesh.
    pub fn extend(&mut self, other: &MeshData) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.indices.extend(other.indices.iter().map(|i| i + base));
    }

    /// Adds a flat convex polygon (corners in order around it, either
    /// direction) facing `outward`: the winding is chosen so that its normal
    /// points to the side of `outward`.
    pub fn polygon(&mut self, corners: &[Vec3], outward: Vec3) {
        assert!(corners.len() >= 3, "a polygon needs three corners");
        let p0 = corners[0];
        let mut n = Vec3::ZERO;
        for w in corners[1..].windows(2) {
            n += (w[0] - p0).cross(w[1] - p0);
        }
        let n = n.normalize();
        let base = self.positions.len() as u32;
        let count = corners.len() as u32;
        if n.dot(outward) >= 0.0 {
            self.positions.extend_from_slice(corners);
            self.normals.extend(std::iter::repeat_n(n, corners.len()));
        } else {
            self.positions.extend(corners.iter().rev());
            self.normals.extend(std::iter::repeat_n(-n, corners.len()));
        }
        for k in 1..count - 1 {
            self.indices.extend([base, base + k, base + k + 1]);
        }
    }

    /// Adds a closed axis-aligned box with corners `min` and `max` (12 triangles).
    pub fn cuboid(&mut self, min: Vec3, max: Vec3) {
        self.box_faces(min, max, true);
    }

    /// Adds the faces of an axis-aligned box, the top (+y) one only if `top`
    /// (a slab whose top is tiled separately leaves it out).
    pub fn box_faces(&mut self, min: Vec3, max: Vec3, top: bool) {
        let c = |x: bool, y: bool, z: bool| {
            Vec3::new(
                if x { max.x } else { min.x },
                if y { max.y } else { min.y },
                if z { max.z } else { min.z },
            )
        };
        let (f, t) = (false, true);
        self.polygon(&[c(f, f, f), c(t, f, f), c(t, f, t), c(f, f, t)], Vec3::NEG_Y);
        if top {
            self.polygon(&[c(f, t, f), c(t, t, f), c(t, t, t), c(f, t, t)], Vec3::Y);
        }
        self.polygon(&[c(f, f, f), c(t, f, f), c(t, t, f), c(f, t, f)], Vec3::NEG_Z);
        self.polygon(&[c(f, f, t), c(t, f, t), c(t, t, t), c(f, t, t)], Vec3::Z);
        self.polygon(&[c(f, f, f), c(f, f, t), c(f, t, t), c(f, t, f)], Vec3::NEG_X);
        self.polygon(&[c(t, f, f), c(t, f, t), c(t, t, t), c(t, t, f)], Vec3::X);
    }

    /// Adds a closed flight of stairs standing on the horizontal plane through
    /// `base` (the centre of the bottom of the first riser), climbing along
    /// the horizontal unit vector `dir`: `steps` steps of `rise` each; every
    /// step is `run` deep except the last (the landing), which is `landing` deep.
    /// No hidden faces: the solid is one closed surface.
    #[allow(clippy::too_many_arguments)]
    pub fn stairs(&mut self, base: Vec3, dir: Vec3, width: f32, rise: f32, run: f32, steps: u32, landing: f32) {
        let side = Vec3::Y.cross(dir);
        let p = |u: f32, v: f32, y: f32| base + dir * u + side * v + Vec3::Y * y;
        let h = width / 2.0;
        let mut u0 = 0.0;
        for i in 0..steps {
            let u1 = if i + 1 == steps {
                u0 + landing
            } else {
                (i + 1) as f32 * run
            };
            let (y0, y1) = (i as f32 * rise, (i + 1) as f32 * rise);
            self.polygon(&[p(u0, -h, y1), p(u1, -h, y1), p(u1, h, y1), p(u0, h, y1)], Vec3::Y);
            self.polygon(&[p(u0, -h, y0), p(u0, h, y0), p(u0, h, y1), p(u0, -h, y1)], -dir);
            self.polygon(&[p(u0, -h, 0.0), p(u1, -h, 0.0), p(u1, -h, y1), p(u0, -h, y1)], -side);
            self.polygon(&[p(u0, h, 0.0), p(u1, h, 0.0), p(u1, h, y1), p(u0, h, y1)], side);
            u0 = u1;
        }
        let top = steps as f32 * rise;
        self.polygon(&[p(u0, -h, 0.0), p(u0, h, 0.0), p(u0, h, top), p(u0, -h, top)], dir);
        self.polygon(
            &[p(0.0, -h, 0.0), p(u0, -h, 0.0), p(u0, h, 0.0), p(0.0, h, 0.0)],
            Vec3::NEG_Y,
        );
    }

    /// Adds a closed wedge (a ramp) standing on the horizontal plane through
    /// `top_foot`, rising along the horizontal unit vector `dir` to `height`
    /// over a horizontal run of `run`. `top_foot` is the centre of the foot
    /// of its vertical back face (where a platform would start); the ramp's
    /// low edge is at `top_foot - dir * run`.
    pub fn wedge(&mut self, top_foot: Vec3, dir: Vec3, width: f32, height: f32, run: f32) {
        let side = Vec3::Y.cross(dir);
        let h = width / 2.0;
        let p = |u: f32, v: f32, y: f32| top_foot + dir * u + side * v + Vec3::Y * y;
        let slope_up = Vec3::Y - dir; // any vector on the outer side of the slope
        self.polygon(
            &[p(-run, -h, 0.0), p(0.0, -h, height), p(0.0, h, height), p(-run, h, 0.0)],
            slope_up,
        );
        self.polygon(
            &[p(0.0, -h, 0.0), p(0.0, h, 0.0), p(0.0, h, height), p(0.0, -h, height)],
            dir,
        );
        self.polygon(
            &[p(-run, -h, 0.0), p(0.0, -h, 0.0), p(0.0, h, 0.0), p(-run, h, 0.0)],
            Vec3::NEG_Y,
        );
        self.polygon(&[p(-run, -h, 0.0), p(0.0, -h, 0.0), p(0.0, -h, height)], -side);
        self.polygon(&[p(-run, h, 0.0), p(0.0, h, 0.0), p(0.0, h, height)], side);
    }

    /// Adds a closed upright cylinder (a round pillar) with `segments` sides,
    /// its bottom centre at `base`. The sides have smooth (radial) normals,
    /// the caps flat ones.
    pub fn cylinder(&mut self, base: Vec3, radius: f32, height: f32, segments: u32) {
        let ring: Vec<Vec3> = (0..segments)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / segments as f64;
                Vec3::new((a.cos() * radius as f64) as f32, 0.0, (a.sin() * radius as f64) as f32)
            })
            .collect();
        let up = Vec3::Y * height;
        for k in 0..ring.len() {
            let (r0, r1) = (ring[k], ring[(k + 1) % ring.len()]);
            let (n0, n1) = (r0.normalize(), r1.normalize());
            // Counter-clockwise seen from outside: bottom k, top k, top k+1, bottom k+1
            // (the angle grows from +x towards +z, i.e. clockwise seen from above).
            let b = self.positions.len() as u32;
            self.positions
                .extend([base + r0, base + r0 + up, base + r1 + up, base + r1]);
            self.normals.extend([n0, n0, n1, n1]);
            self.indices.extend([b, b + 1, b + 2, b, b + 2, b + 3]);
        }
        let top: Vec<Vec3> = ring.iter().map(|r| base + *r + up).collect();
        let bottom: Vec<Vec3> = ring.iter().map(|r| base + *r).collect();
        self.polygon(&top, Vec3::Y);
        self.polygon(&bottom, Vec3::NEG_Y);
    }

    /// Adds a heightfield of `cells × cells` squares (two triangles each)
    /// over `min..max` in x and z. `h(x, z)` returns the height and its
    /// partial derivatives `(y, dy/dx, dy/dz)` (f64), which give smooth normals.
    /// Vertices are shared between cells; the surface faces up.
    pub fn heightfield(
        &mut self,
        min: (f32, f32),
        max: (f32, f32),
        cells: u32,
        h: impl Fn(f64, f64) -> (f64, f64, f64),
    ) {
        let base = self.positions.len() as u32;
        let coord = |lo: f32, hi: f32, i: u32| lo as f64 + (hi as f64 - lo as f64) * i as f64 / cells as f64;
        for j in 0..=cells {
            for i in 0..=cells {
                let (x, z) = (coord(min.0, max.0, i), coord(min.1, max.1, j));
                let (y, dx, dz) = h(x, z);
                self.positions.push(Vec3::new(x as f32, y as f32, z as f32));
                self.normals.push(DVec3::new(-dx, 1.0, -dz).normalize().as_vec3());
            }
        }
        let row = cells + 1;
        for j in 0..cells {
            for i in 0..cells {
                let v = base + j * row + i;
                self.indices.extend([v, v + row, v + 1, v + 1, v + row, v + row + 1]);
            }
        }
    }

    /// Adds a flat grid of `cells × cells` squares on the plane `y`, facing up.
    pub fn grid(&mut self, min: (f32, f32), max: (f32, f32), y: f32, cells: u32) {
        self.heightfield(min, max, cells, |_, _| (y as f64, 0.0, 0.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle's geometric normal agrees with its vertex normals, and
    /// the closed shapes enclose positive volume (outward winding).
    fn check_outward(m: &MeshData) -> f32 {
        let mut volume = 0.0;
        for t in m.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
            let n = (b - a).cross(c - a);
            for &i in t {
                assert!(n.dot(m.normals[i as usize]) > 0.0, "winding disagrees with the normal");
            }
            volume += a.dot(b.cross(c)) / 6.0;
        }
        volume
    }

    #[test]
    fn closed_shapes_are_wound_outwards() {
        let mut m = MeshData::default();
        m.cuboid(Vec3::ZERO, Vec3::new(2.0, 3.0, 4.0));
        assert!((check_outward(&m) - 24.0).abs() < 1e-4);

        let mut m = MeshData::default();
        m.stairs(Vec3::new(1.0, 0.0, 2.0), Vec3::NEG_Z, 3.0, 0.15, 0.3, 4, 1.0);
        // Steps 0.3 × (0.15 + 0.3 + 0.45) plus a 1 m landing at 0.6, 3 m wide.
        let expected = 3.0 * (0.3 * (0.15 + 0.3 + 0.45) + 1.0 * 0.6);
        assert!((check_outward(&m) - expected).abs() < 1e-4);

        let mut m = MeshData::default();
        m.wedge(Vec3::new(-3.0, 0.0, 1.0), Vec3::X, 2.0, 1.0, 4.0);
        assert!((check_outward(&m) - 4.0).abs() < 1e-4);

        let mut m = MeshData::default();
        m.cylinder(Vec3::new(5.0, 0.0, 5.0), 0.5, 2.0, 24);
        let polygon_area = 0.5 * 24.0 * 0.25 * (std::f32::consts::TAU / 24.0).sin();
        assert!((check_outward(&m) - polygon_area * 2.0).abs() < 1e-3);
    }

    #[test]
    fn heightfields_face_up() {
        let mut m = MeshData::default();
        m.grid((0.0, 0.0), (1.0, 1.0), 0.0, 10);
        assert_eq!(m.triangle_count(), 200);
        check_outward(&m);
        let mut m = MeshData::default();
        m.heightfield((0.0, 0.0), (2.0, 2.0), 8, |x, z| (0.1 * x * z, 0.1 * z, 0.1 * x));
        check_outward(&m);
    }
}
