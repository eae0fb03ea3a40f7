//! The walkable static surface cut into cells, so how much of it the
//! walkers stood on can be counted.

use glam::Vec3;
use slidewalk_level::layers::PLAYER_LAYERS;
use slidewalk_level::{Level, spawn};
use std::collections::HashSet;

/// The walkable static surface as a set of cells (cubes of `cell` metres),
/// so how much of it walkers stood on can be counted.
pub(super) struct Coverage {
    /// Side of a cell, metres.
    pub(super) cell: f32,
    /// Area of the walkable static surface, square metres.
    pub(super) area_m2: f64,
    /// The cells the walkable surface touches.
    pub(super) cells: HashSet<[i32; 3]>,
}

/// Most cells the coverage count holds; a larger walkable surface gets larger cells.
const MAX_COVERAGE_CELLS: f64 = 1e6;

impl Coverage {
    /// The walkable static triangles of `level` (facing up within the
    /// slope whose cosine is `walkable_cos`), those of the static parts
    /// the player meets among them, in cells.
    pub(super) fn of(level: &Level, walkable_cos: f32) -> Self {
        let parts = level
            .parts
            .iter()
            .filter(|p| PLAYER_LAYERS.interacts_with(p.layers))
            .map(|p| &p.collider);
        let walkable: Vec<[Vec3; 3]> = level
            .statics
            .iter()
            .chain(parts)
            .flat_map(|s| s.triangles())
            .filter(|t| spawn::is_walkable(*t, walkable_cos))
            .collect();
        let area_m2: f64 = walkable
            .iter()
            .map(|t| 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).length() as f64)
            .sum();
        let cell = (area_m2 / MAX_COVERAGE_CELLS).sqrt().max(1.0) as f32;
        let mut coverage = Coverage {
            cell,
            area_m2,
            cells: HashSet::new(),
        };
        // Each triangle cut in halves across its longest edge until no edge
        // is over half a cell: its pieces' corners and centres mark the
        // cells it touches (pieces grow with its area and perimeter, so a
        // long sliver costs its length, not its length squared).
        let mut pieces = Vec::new();
        for t in walkable {
            pieces.push(t);
            while let Some(t) = pieces.pop() {
                let edges = [(0, 1, 2), (1, 2, 0), (2, 0, 1)].map(|(a, b, c)| ((t[a] - t[b]).length(), a, b, c));
                let (longest, a, b, c) = edges.into_iter().fold(edges[0], |m, e| if e.0 > m.0 { e } else { m });
                if longest <= cell / 2.0 || !longest.is_finite() {
                    for p in [t[0], t[1], t[2], (t[0] + t[1] + t[2]) / 3.0] {
                        coverage.cells.insert(coverage.key(p));
                    }
                    continue;
                }
                let mid = (t[a] + t[b]) / 2.0;
                pieces.push([t[a], mid, t[c]]);
                pieces.push([mid, t[b], t[c]]);
            }
        }
        coverage
    }

    /// The cell holding `p`.
    pub(super) fn key(&self, p: Vec3) -> [i32; 3] {
        (p / self.cell).floor().as_ivec3().to_array()
    }
}
