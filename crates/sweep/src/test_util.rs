//! Geometry generators shared by tests, benchmarks, examples and the level
//! tools: adversarial meshes and large generated levels (metres, y up).

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
        let c = |x: bool, y: bool, z: bool| Vec3::new(if x { max.x } else { min.x }, if y { max.y } else { min.y }, if z { max.z } else { min.z });
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

    /// Appends another soup.
    pub fn extend(&mut self, other: &Soup) {
        let n = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.triangles.extend(other.triangles.iter().map(|t| t.map(|i| i + n)));
    }

    /// The same soup with every position multiplied by `s`.
    pub fn scaled(&self, s: f32) -> Soup {
        Soup { positions: self.positions.iter().map(|p| *p * s).collect(), triangles: self.triangles.clone() }
    }

    /// The same soup with every triangle's winding reversed.
    pub fn flipped(&self) -> Soup {
        Soup { positions: self.positions.clone(), triangles: self.triangles.iter().map(|[a, b, c]| [*a, *c, *b]).collect() }
    }

    /// The triangles as corner triples.
    pub fn corners(&self) -> Vec<[Vec3; 3]> {
        self.triangles.iter().map(|t| t.map(|i| self.positions[i as usize])).collect()
    }
}

/// A closed box room (inside `-half..half`), walls seen from inside.
pub fn box_room(half: Vec3) -> Soup {
    let mut s = Soup::default();
    s.cuboid(-half, half);
    s
}

/// A room with a 1 cm thin wall across its middle (x = 0), full height.
pub fn thin_wall_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    s.cuboid(Vec3::new(-0.005, -half.y, -half.z), Vec3::new(0.005, half.y, half.z));
    s
}

/// A room whose floor is made of slivers and needles (long thin triangles
/// fanned from one corner) and carries a few spikes.
pub fn sliver_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    // Fan of needles over the floor, just above it (coplanar duplicates of
    // the floor are in `coplanar_room`).
    let y = -half.y + 0.001;
    let o = Vec3::new(-half.x, y, -half.z);
    let n = 64;
    for i in 0..n {
        let a = i as f32 / n as f32;
        let b = (i + 1) as f32 / n as f32;
        let p = |t: f32| Vec3::new(-half.x + 2.0 * half.x * t, y, half.z);
        s.tri(o, p(b), p(a));
    }
    for k in 0..5 {
        let x = -half.x * 0.6 + k as f32 * half.x * 0.3;
        spike(&mut s, Vec3::new(x, -half.y, 0.0), 0.05, half.y * 0.8);
    }
    s
}

/// A thin four-sided spike standing on `base`, `radius` wide and `height` tall.
pub fn spike(s: &mut Soup, base: Vec3, radius: f32, height: f32) {
    let tip = base + Vec3::Y * height;
    let c = [Vec3::new(radius, 0.0, 0.0), Vec3::new(0.0, 0.0, radius), Vec3::new(-radius, 0.0, 0.0), Vec3::new(0.0, 0.0, -radius)];
    for i in 0..4 {
        s.tri(base + c[i], base + c[(i + 1) % 4], tip);
    }
}

/// A room whose floor is present twice, coplanar, with different
/// triangulations, plus a T-junction floor (cells of different sizes meeting).
pub fn coplanar_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    let y = -half.y;
    s.grid((-half.x, -half.z), (half.x, half.z), y, 7);
    // T-junctions: left half in 4 cells, right half in 9 cells per side.
    s.grid((-half.x, -half.z), (0.0, half.z), y, 4);
    s.grid((0.0, -half.z), (half.x, half.z), y, 9);
    s
}

/// A room with stairs and a ramp inside, bumps on the floor.
pub fn stairs_room(half: Vec3) -> Soup {
    let mut s = box_room(half);
    let floor = -half.y;
    s.stairs(Vec3::new(-half.x * 0.8, floor, -half.z * 0.8), 6, half.x * 0.1, half.y * 0.08, half.z * 0.5);
    s.heightfield((-half.x * 0.5, 0.0), (half.x * 0.9, half.z * 0.9), 12, |x, z| floor + 0.03 * half.y * ((x * 3.1 / half.x).sin() * (z * 2.7 / half.z).cos() + 1.0));
    s
}

/// The shared set of adversarial rooms, named, at unit scale (about 4 m
/// across, 3 m tall): every one is closed.
pub fn adversarial_rooms() -> Vec<(&'static str, Soup)> {
    let half = Vec3::new(2.0, 1.5, 2.0);
    vec![
        ("box room", box_room(half)),
        ("box room, inward winding", box_room(half).flipped()),
        ("1 cm thin wall", thin_wall_room(half)),
        ("slivers, needles, spikes", sliver_room(half)),
        ("coplanar duplicates, T-junctions", coplanar_room(half)),
        ("stairs and bumps", stairs_room(half)),
    ]
}

/// A generated level of about `target_triangles` triangles (metres): a bumpy
/// terrain with box buildings and flights of stairs on it, deterministic
/// for a given size. Used by the benchmarks (10k, 100k, 1M).
pub fn generated_level(target_triangles: usize) -> Soup {
    let mut s = Soup::default();
    // Half the triangles in terrain, the rest in buildings (12) and stairs.
    let cells = ((target_triangles as f32 / 4.0).sqrt() as u32).max(4);
    let size = (cells as f32 * 1.0).max(40.0); // ~1 m cells
    s.heightfield((-size / 2.0, -size / 2.0), (size / 2.0, size / 2.0), cells, |x, z| 0.4 * (x * 0.13).sin() * (z * 0.11).cos() + 0.05 * (x * 1.7).sin());
    let mut rng = Lcg(0x5eed_1e7e1);
    while s.triangles.len() < target_triangles {
        let x = (rng.next() - 0.5) * size * 0.9;
        let z = (rng.next() - 0.5) * size * 0.9;
        if rng.next() < 0.5 {
            let w = 2.0 + rng.next() * 6.0;
            let h = 2.0 + rng.next() * 10.0;
            s.cuboid(Vec3::new(x, -1.0, z), Vec3::new(x + w, h, z + w));
        } else {
            s.stairs(Vec3::new(x, -0.5, z), 10, 0.3, 0.15 + rng.next() * 0.15, 1.5);
        }
    }
    s
}

/// A tiny deterministic generator (no dependency) for the level layout.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}
