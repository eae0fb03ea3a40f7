//! `Soup`: a triangle soup with builders for boxes, grids, heightfields and stairs.

use glam::Vec3;

/// A triangle soup: positions and index triples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Soup {
    /// Vertex positions, metres.
    pub positions: Vec<Vec3>,
    /// Triangles as three indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
}

impl Soup {
    /// Adds a triangle.
    pub fn tri(&mut self, a: Vec3, b: Vec3, c: Vec3) {
        let n = self.positions.len() as u32;
        self.positions.extend([a, b, c]);
        self.triangles.push([n, n + 1, n + 2]);
    }

    /// Adds a quad `a b c d` (in order around it) as two triangles.
    pub fn quad(&mut self, a: Vec3, b: Vec3, c: Vec3, d: Vec3) {
        let n = self.positions.len() as u32;
        self.positions.extend([a, b, c, d]);
        self.triangles.push([n, n + 1, n + 2]);
        self.triangles.push([n, n + 2, n + 3]);
    }

    /// Adds a closed axis-aligned box (12 triangles) with corners `min`, `max`.
    pub fn cuboid(&mut self, min: Vec3, max: Vec3) {
        let c = |x: bool, y: bool, z: bool| {
            Vec3::new(
                if x { max.x } else { min.x },
                if y { max.y } else { min.y },
                if z { max.z } else { min.z },
            )
        };
        let (f, t) = (false, true);
        self.quad(c(f, f, f), c(t, f, f), c(t, f, t), c(f, f, t)); // bottom
        self.quad(c(f, t, f), c(f, t, t), c(t, t, t), c(t, t, f)); // top
        self.quad(c(f, f, f), c(f, t, f), c(t, t, f), c(t, f, f)); // -z
        self.quad(c(f, f, t), c(t, f, t), c(t, t, t), c(f, t, t)); // +z
        self.quad(c(f, f, f), c(f, f, t), c(f, t, t), c(f, t, f)); // -x
        self.quad(c(t, f, f), c(t, t, f), c(t, t, t), c(t, f, t)); // +x
    }

    /// Adds a flat grid of `n × n` cells (2 triangles each) on `y`, spanning
    /// `min..max` in x and z.
    pub fn grid(&mut self, min: (f32, f32), max: (f32, f32), y: f32, n: u32) {
        self.heightfield(min, max, n, |_, _| y);
    }

    /// Adds a heightfield of `n × n` cells over `min..max` (x, z), height `h(x, z)`.
    pub fn heightfield(&mut self, min: (f32, f32), max: (f32, f32), n: u32, h: impl Fn(f32, f32) -> f32) {
        let base = self.positions.len() as u32;
        for j in 0..=n {
            for i in 0..=n {
                let x = min.0 + (max.0 - min.0) * i as f32 / n as f32;
                let z = min.1 + (max.1 - min.1) * j as f32 / n as f32;
                self.positions.push(Vec3::new(x, h(x, z), z));
            }
        }
        let row = n + 1;
        for j in 0..n {
            for i in 0..n {
                let v = base + j * row + i;
                self.triangles.push([v, v + row, v + 1]);
                self.triangles.push([v + 1, v + row, v + row + 1]);
            }
        }
    }

    /// Adds a flight of `steps` stairs going up along +x from `origin`
    /// (each step `run` deep, `rise` high, `width` wide in z), closed boxes.
    pub fn stairs(&mut self, origin: Vec3, steps: u32, run: f32, rise: f32, width: f32) {
        for s in 0..steps {
            let min = origin + Vec3::new(s as f32 * run, 0.0, 0.0);
            let max = origin + Vec3::new((s + 1) as f32 * run, (s + 1) as f32 * rise, width);
            self.cuboid(min, max);
        }
    }

    /// Adds a closed upright cylinder: its bottom disk centred at `base`,
    /// `height` tall along +y, the `segments` side quads' corners on the
    /// circle of `radius` (so the sides are inside the true cylinder by at
    /// most the sagitta `radius · (1 − cos(π / segments))`), the caps as fans
    /// around their centres.
    pub fn cylinder(&mut self, base: Vec3, radius: f32, height: f32, segments: u32) {
        let ring: Vec<Vec3> = (0..segments)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / segments as f64;
                Vec3::new((a.cos() * radius as f64) as f32, 0.0, (a.sin() * radius as f64) as f32)
            })
            .collect();
        let up = Vec3::Y * height;
        for k in 0..ring.len() {
            let (r0, r1) = (base + ring[k], base + ring[(k + 1) % ring.len()]);
            self.quad(r0, r0 + up, r1 + up, r1);
            self.tri(base + up, r1 + up, r0 + up);
            self.tri(base, r0, r1);
        }
    }

    /// Adds a UV sphere centred at `centre` (metres) as modelling tools
    /// export one: `slices` meridians, `stacks` bands from pole to pole,
    /// vertices shared between neighbouring triangles, one vertex per pole,
    /// `2 · slices · (stacks − 1)` triangles (45 × 45 gives 3,960).
    pub fn uv_sphere(&mut self, centre: Vec3, radius: f32, slices: u32, stacks: u32) {
        let (slices, stacks) = (slices.max(3), stacks.max(2));
        let base = self.positions.len() as u32;
        let point = |polar: f64, azimuth: f64| {
            let dir = Vec3::new(
                (polar.sin() * azimuth.cos()) as f32,
                polar.cos() as f32,
                (polar.sin() * azimuth.sin()) as f32,
            );
            centre + dir * radius
        };
        self.positions.push(centre + Vec3::Y * radius);
        for j in 1..stacks {
            let polar = std::f64::consts::PI * j as f64 / stacks as f64;
            for i in 0..slices {
                self.positions
                    .push(point(polar, std::f64::consts::TAU * i as f64 / slices as f64));
            }
        }
        self.positions.push(centre - Vec3::Y * radius);
        let top = base;
        let bottom = base + 1 + (stacks - 1) * slices;
        let ring = |j: u32, i: u32| base + 1 + j * slices + i % slices;
        for i in 0..slices {
            self.triangles.push([top, ring(0, i + 1), ring(0, i)]);
            self.triangles
                .push([bottom, ring(stacks - 2, i), ring(stacks - 2, i + 1)]);
        }
        for j in 0..stacks - 2 {
            for i in 0..slices {
                let (a, b, c, d) = (ring(j, i), ring(j, i + 1), ring(j + 1, i + 1), ring(j + 1, i));
                self.triangles.push([a, b, c]);
                self.triangles.push([a, c, d]);
            }
        }
    }

    /// Appends another soup.
    pub fn extend(&mut self, other: &Soup) {
        let n = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.triangles.extend(other.triangles.iter().map(|t| t.map(|i| i + n)));
    }

    /// The same soup with every position multiplied by `s`.
    pub fn scaled(&self, s: f32) -> Soup {
        Soup {
            positions: self.positions.iter().map(|p| *p * s).collect(),
            triangles: self.triangles.clone(),
        }
    }

    /// The same soup with every triangle's winding reversed.
    pub fn flipped(&self) -> Soup {
        Soup {
            positions: self.positions.clone(),
            triangles: self.triangles.iter().map(|[a, b, c]| [*a, *c, *b]).collect(),
        }
    }

    /// The triangles as corner triples.
    pub fn corners(&self) -> Vec<[Vec3; 3]> {
        self.triangles
            .iter()
            .map(|t| t.map(|i| self.positions[i as usize]))
            .collect()
    }
}
