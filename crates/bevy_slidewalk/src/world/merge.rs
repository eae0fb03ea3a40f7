//! The resting small colliders merged into one structure per set of rules
//! (layers and one-way direction, in the world): a scene of a thousand
//! props, or a hundred one-way platforms, costs about what one mesh of the
//! same triangles costs.

use super::Body;
use glam::Vec3;
use slidewalk_sweep::{CollisionLayers, MeshCollider, PlacedCollider};

/// Resting small colliders of one set of rules as one, in world space.
pub(super) struct Merged {
    pub shape: MeshCollider,
    /// `(first triangle, body)` per part, by first triangle.
    pub parts: Vec<(u32, usize)>,
    layers: CollisionLayers,
    /// One-way direction in the world (unit), if any.
    one_way: Option<Vec3>,
}

impl Merged {
    /// Placed where it is (the world), with its rules.
    pub fn placed(&self) -> PlacedCollider<'_> {
        PlacedCollider::fixed(&self.shape)
            .with_layers(self.layers)
            .with_one_way(self.one_way)
    }

    /// Whether body `index` is one of its parts.
    pub fn holds(&self, index: usize) -> bool {
        self.parts.iter().any(|&(_, b)| b == index)
    }
}

/// A set of rules as a key: layers and the one-way direction's bits.
type Rules = (CollisionLayers, Option<[u32; 3]>);

/// The bodies to merge (resting, small, not sensors), one structure per
/// set of rules, in the order each set first appears (the plain ones,
/// first among bodies in a scene without rules, first).
pub(super) fn merge(bodies: &[Body]) -> Vec<Merged> {
    let mut sets: Vec<(Rules, Vec<usize>)> = Vec::new();
    for (i, b) in bodies.iter().enumerate().filter(|(_, b)| b.merged()) {
        let key = (
            b.rules.layers,
            b.world_one_way().map(|d| d.to_array().map(f32::to_bits)),
        );
        match sets.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => sets.push((key, vec![i])),
        }
    }
    sets.into_iter()
        .filter_map(|((layers, one_way), members)| {
            let (shape, parts) = build(bodies, &members)?;
            Some(Merged {
                shape,
                parts,
                layers,
                one_way: one_way.map(|bits| Vec3::from_array(bits.map(f32::from_bits))),
            })
        })
        .collect()
}

/// One structure of `members`' triangles in world space, every input
/// triangle of each keeping its place (so input indices map back by
/// offset), with the parts' first triangles.
fn build(bodies: &[Body], members: &[usize]) -> Option<(MeshCollider, Vec<(u32, usize)>)> {
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    let mut parts = Vec::new();
    // A zero vertex for triangles a part's own build left out.
    let mut nowhere: Option<u32> = None;
    for &i in members {
        let b = &bodies[i];
        parts.push((triangles.len() as u32, i));
        let mut input: Vec<Option<[u32; 3]>> = vec![None; b.shape.report().input_triangles];
        for slot in 0..b.shape.len() {
            let at = positions.len() as u32;
            positions.extend(b.shape.triangle(slot).map(|p| b.pose.transform_point(p)));
            input[b.shape.input_index(slot) as usize] = Some([at, at + 1, at + 2]);
        }
        for t in input {
            let t = t.unwrap_or_else(|| {
                let z = *nowhere.get_or_insert_with(|| {
                    positions.push(Vec3::ZERO);
                    positions.len() as u32 - 1
                });
                [z, z, z]
            });
            triangles.push(t);
        }
    }
    let shape = MeshCollider::build(&positions, &triangles).ok()?;
    Some((shape, parts))
}
