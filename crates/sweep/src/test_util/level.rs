//! Large generated levels for benchmarks: terrain with buildings and stairs,
//! and a floor crowded with finely tessellated spheres.

use super::rng::Lcg;
use super::soup::Soup;
use crate::proxy::{ProxyShape, proxy_mesh};
use glam::Vec3;

/// A generated level of about `target_triangles` triangles (metres): a bumpy
/// terrain with box buildings and flights of stairs on it, deterministic
/// for a given size. Used by the benchmarks (10k, 100k, 1M).
pub fn generated_level(target_triangles: usize) -> Soup {
    let mut s = Soup::default();
    // Half the triangles in terrain, the rest in buildings (12) and stairs.
    let cells = ((target_triangles as f32 / 4.0).sqrt() as u32).max(4);
    let size = (cells as f32 * 1.0).max(40.0); // ~1 m cells
    s.heightfield((-size / 2.0, -size / 2.0), (size / 2.0, size / 2.0), cells, |x, z| {
        0.4 * (x * 0.13).sin() * (z * 0.11).cos() + 0.05 * (x * 1.7).sin()
    });
    let mut rng = Lcg::new(0x5eed_1e7e1);
    while s.triangles.len() < target_triangles {
        let x = (rng.next_f32() - 0.5) * size * 0.9;
        let z = (rng.next_f32() - 0.5) * size * 0.9;
        if rng.next_f32() < 0.5 {
            let w = 2.0 + rng.next_f32() * 6.0;
            let h = 2.0 + rng.next_f32() * 10.0;
            s.cuboid(Vec3::new(x, -1.0, z), Vec3::new(x + w, h, z + w));
        } else {
            s.stairs(Vec3::new(x, -0.5, z), 10, 0.3, 0.15 + rng.next_f32() * 0.15, 1.5);
        }
    }
    s
}

/// Triangles of one prop of [`dense_level`]: a UV sphere of 45 × 45.
pub const DENSE_PROP_TRIANGLES: usize = 2 * 45 * 44;

/// A level of about `target_triangles` triangles (metres) whose props are
/// finely tessellated, as modelling tools export them: a flat floor of 1 m
/// cells and, on a jittered grid of 1.8 m cells, spheres of 0.4–0.6 m
/// radius with [`DENSE_PROP_TRIANGLES`] triangles each (edges 3–8 cm).
/// Most rest on the floor, some are sunk into it, one in five floats at
/// head height; the gaps between them are about a player's width, so a
/// player walks among and against them with hundreds of triangles in its
/// box. Deterministic for a given size.
pub fn dense_level(target_triangles: usize) -> Soup {
    dense_level_with(target_triangles, None)
}

/// [`dense_level`] with every prop colliding as its `proxy` (the same
/// props, each replaced by [`crate::proxy::proxy_mesh`] of its sphere's
/// points, as a level marking them `"proxy"` loads), or as drawn when `None`.
pub fn dense_level_with(target_triangles: usize, proxy: Option<ProxyShape>) -> Soup {
    let props = target_triangles.div_ceil(DENSE_PROP_TRIANGLES).max(1);
    let per_row = (props as f32).sqrt().ceil() as usize;
    let cell = 1.8f32;
    let half = per_row as f32 * cell / 2.0 + 1.0;
    let mut s = Soup::default();
    let floor_cells = (2.0 * half).ceil() as u32;
    s.grid((-half, -half), (half, half), 0.0, floor_cells);
    let mut rng = Lcg::new(0xde_75e);
    for k in 0..props {
        let (i, j) = ((k % per_row) as f32, (k / per_row) as f32);
        let radius = rng.range(0.4, 0.6);
        let x = -half + 1.0 + cell * (i + 0.5) + rng.range(-0.2, 0.2);
        let z = -half + 1.0 + cell * (j + 0.5) + rng.range(-0.2, 0.2);
        let kind = rng.next_f32();
        let y = if kind < 0.2 {
            1.6 + rng.range(0.0, 0.4) // floating at head height
        } else if kind < 0.4 {
            radius * 0.5 // sunk halfway into the floor
        } else {
            radius // resting on it
        };
        match proxy {
            None => s.uv_sphere(Vec3::new(x, y, z), radius, 45, 45),
            Some(shape) => {
                let mut prop = Soup::default();
                prop.uv_sphere(Vec3::new(x, y, z), radius, 45, 45);
                let made = proxy_mesh(shape, &prop.positions).expect("a prop has finite corners");
                let base = s.positions.len() as u32;
                s.positions.extend(made.positions);
                s.triangles.extend(made.triangles.iter().map(|t| t.map(|i| i + base)));
            }
        }
    }
    s
}
