//! The `world` target's collider geometry: what the plugin is given
//! (corners and indices, bad triangles included) and what the reference
//! keeps of it (the triangles any build keeps, and a box's size for an
//! exact inside test).

use super::ops::Shape;
use glam::Vec3;

/// A collider's geometry in its local frame, metres.
#[derive(Clone, Debug)]
pub struct ShapeData {
    /// Corners given to `SlidewalkCollider::triangles`.
    pub positions: Vec<Vec3>,
    /// Triangles given to `SlidewalkCollider::triangles` (bad ones included).
    pub indices: Vec<[u32; 3]>,
    /// The triangles the reference counts: well-shaped ones only (a sliver
    /// that a scale may make degenerate, which the plugin's build would
    /// then leave out, is left out here too), faces wound as given.
    pub triangles: Vec<[Vec3; 3]>,
    /// A closed box centred on the origin with these half extents: the
    /// reference tests "inside" exactly.
    pub closed_box: Option<Vec3>,
}

/// A box centred on the origin: 8 corners and 12 triangles wound outward.
pub fn box_triangles(half: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let corner = |i: u32| {
        Vec3::new(
            if i & 1 != 0 { half.x } else { -half.x },
            if i & 2 != 0 { half.y } else { -half.y },
            if i & 4 != 0 { half.z } else { -half.z },
        )
    };
    let positions: Vec<Vec3> = (0..8).map(corner).collect();
    let mut triangles = Vec::new();
    for axis in 0..3u32 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [0u32, 1] {
            let at = |du: u32, dv: u32| side << axis | du << u | dv << v;
            let quad = [at(0, 0), at(1, 0), at(1, 1), at(0, 1)];
            let mut outward = Vec3::ZERO;
            outward[axis as usize] = if side == 1 { 1.0 } else { -1.0 };
            for t in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
                let [a, b, c] = t.map(|i| positions[i as usize]);
                triangles.push(if (b - a).cross(c - a).dot(outward) > 0.0 {
                    t
                } else {
                    [t[0], t[2], t[1]]
                });
            }
        }
    }
    (positions, triangles)
}

/// A closed wedge on y = 0 rising along +X to `2 half.x · tan(angle)`
/// (at most 4 m) at x = +half.x, `2 half.z` wide.
fn ramp_triangles(half: Vec3, angle_deg: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let h = (2.0 * half.x * angle_deg.to_radians().tan()).min(4.0);
    let (x, z) = (half.x, half.z);
    let positions = vec![
        Vec3::new(-x, 0.0, -z),
        Vec3::new(x, 0.0, -z),
        Vec3::new(x, 0.0, z),
        Vec3::new(-x, 0.0, z),
        Vec3::new(x, h, -z),
        Vec3::new(x, h, z),
    ];
    let centre = Vec3::new(x / 3.0, h / 3.0, 0.0);
    let faces = [
        [0, 2, 1],
        [0, 3, 2],
        [0, 4, 5],
        [0, 5, 3],
        [1, 5, 4],
        [1, 2, 5],
        [0, 1, 4],
        [3, 5, 2],
    ];
    let triangles = faces
        .into_iter()
        .map(|t: [u32; 3]| {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            if (b - a).cross(c - a).dot(a - centre) > 0.0 {
                t
            } else {
                [t[0], t[2], t[1]]
            }
        })
        .collect();
    (positions, triangles)
}

/// Whether a triangle is far from degenerate: finite, twice its area more
/// than a hundredth of its longest edge squared (a scale of up to 10
/// between two axes keeps it well inside what a build accepts).
fn well_shaped([a, b, c]: [Vec3; 3]) -> bool {
    let longest2 = (b - a)
        .length_squared()
        .max((c - a).length_squared())
        .max((c - b).length_squared());
    a.is_finite() && b.is_finite() && c.is_finite() && (b - a).cross(c - a).length() > 1e-2 * longest2
}

/// The geometry a [`Shape`] stands for.
pub fn shape_data(shape: &Shape) -> ShapeData {
    let (positions, indices, closed_box) = match shape {
        Shape::Box { half } | Shape::MeshCuboid { half } => {
            let (p, t) = box_triangles(*half);
            (p, t, Some(*half))
        }
        Shape::SharedBox => {
            let half = Vec3::new(1.0, 0.25, 1.0);
            let (p, t) = box_triangles(half);
            (p, t, Some(half))
        }
        Shape::Slab { half_x, half_z } => {
            let (x, z) = (*half_x, *half_z);
            let p = vec![
                Vec3::new(-x, 0.0, -z),
                Vec3::new(-x, 0.0, z),
                Vec3::new(x, 0.0, z),
                Vec3::new(x, 0.0, -z),
            ];
            (p, vec![[0, 1, 2], [0, 2, 3]], None)
        }
        Shape::Ramp { half, angle_deg } => {
            let (p, t) = ramp_triangles(*half, *angle_deg);
            (p, t, None)
        }
        Shape::Soup { triangles, bad } => {
            let mut p: Vec<Vec3> = triangles.iter().flatten().copied().collect();
            let mut t: Vec<[u32; 3]> = (0..triangles.len() as u32)
                .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
                .collect();
            for k in 0..*bad {
                let n = p.len() as u32;
                match k {
                    // A repeated corner (degenerate under any transform).
                    0 => t.push([0, 0, 1]),
                    // A corner that is not a number.
                    1 => {
                        p.push(Vec3::new(f32::NAN, 0.0, 0.0));
                        t.push([0, 1, n]);
                    }
                    // A corner that does not exist.
                    _ => t.push([0, 1, n + 7]),
                }
            }
            (p, t, None)
        }
    };
    let triangles = indices
        .iter()
        .filter_map(|t| {
            let corners = [
                positions.get(t[0] as usize)?,
                positions.get(t[1] as usize)?,
                positions.get(t[2] as usize)?,
            ];
            let corners = corners.map(|p| *p);
            well_shaped(corners).then_some(corners)
        })
        .collect();
    ShapeData {
        positions,
        indices,
        triangles,
        closed_box,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_and_ramps_are_wound_outward() {
        for (p, t) in [
            box_triangles(Vec3::new(1.0, 2.0, 3.0)),
            ramp_triangles(Vec3::new(2.0, 1.0, 1.0), 30.0),
        ] {
            let centre = p.iter().copied().sum::<Vec3>() / p.len() as f32;
            for [a, b, c] in t.iter().map(|t| t.map(|i| p[i as usize])) {
                let n = (b - a).cross(c - a);
                assert!(n.length() > 0.0);
                assert!(n.dot((a + b + c) / 3.0 - centre) > 0.0, "{a} {b} {c}");
            }
        }
        assert_eq!(box_triangles(Vec3::ONE).1.len(), 12);
    }
}
