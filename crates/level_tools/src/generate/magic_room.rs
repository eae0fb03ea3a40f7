//! The magic room, `magic_room.glb`: the scene of NeHe lesson 30 (Dimitrios
//! Christopoulos, *Collision Detection and Physically Based Modeling*), a
//! room of five planes with three cylinders in it, for the bouncing balls.
//!
//! Metres, y up. The room is [`ROOM_HALF`] × 2 = 16 m square (x, z ∈ [−8, 8]),
//! open above, its floor at y = 0 and its four walls [`WALL_HEIGHT`] (8 m)
//! tall. Every surface is an analytic collider (`"collider"` in its extras)
//! with a mesh of its own, so it is drawn and the player collides with it:
//!
//! | node | collider | where |
//! |---|---|---|
//! | `Floor` | plane, normal +y | y = 0, a 16 × 16 m quad |
//! | `WallWest`, `WallEast` | planes, normals +x, −x (into the room) | x = −8, x = 8, quads 16 m wide, 8 m tall |
//! | `WallNorth`, `WallSouth` | planes, normals +z, −z | z = −8, z = 8 |
//! | `Pillar` | cylinder, axis +y, radius 1, 8 m tall | standing at the centre, base (0, 0, 0) |
//! | `LogX` | cylinder, axis +x, radius 1, 14 m long | lying along x at y = 2, z = −4, from x = −7 to 7 |
//! | `LogZ` | cylinder, axis +z, radius 1, 14 m long | lying along z at y = 4.5, x = 4, from z = −7 to 7 |
//! | `Spawn` | — | (0, 0, 6) looking along −z, at the pillar |
//!
//! For balls the planes are infinite, so a ball never leaves the room
//! (above the walls too); the player meets the quads, too tall to jump.
//! `LogX` rests 1 m above the floor (walk round its ends, 1 m from the
//! walls), `LogZ` 3.5 m (walk under it) and 0.5 m above `LogX` where they
//! cross. The cylinders' meshes have [`CYLINDER_SEGMENTS`] sides (vertices
//! on the circle, faces inside it by 2 mm at 1 m radius) and flat caps.
//!
//! Each node stands in its own frame, as the analytic conventions read it:
//! a plane's node has its origin on the plane and its local +y along the
//! normal, its quad in its local y = 0; a cylinder's node has its origin at
//! the centre of the bottom disk and its local +y along the axis.

use super::glb::{Document, NodeDef};
use super::mesh::MeshData;
use glam::{Mat3, Quat, Vec3};

/// Half the room's inside width: x and z span `[−ROOM_HALF, ROOM_HALF]`, metres.
pub const ROOM_HALF: f32 = 8.0;
/// Height of the walls' quads, metres (the analytic planes have no top).
pub const WALL_HEIGHT: f32 = 8.0;
/// Where the feet stand at the start; the view is along −z.
pub const SPAWN: Vec3 = Vec3::new(0.0, 0.0, 6.0);
/// Sides of each cylinder's mesh.
pub const CYLINDER_SEGMENTS: u32 = 48;

/// A wall or the floor: an analytic plane and the quad drawn on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    /// Node name.
    pub name: &'static str,
    /// The node's origin, a point of the plane (the centre of the quad's bottom edge for a wall).
    pub origin: Vec3,
    /// Unit normal, into the room.
    pub normal: Vec3,
}

/// The floor and the four walls.
pub const WALLS: [Wall; 5] = [
    Wall {
        name: "Floor",
        origin: Vec3::ZERO,
        normal: Vec3::Y,
    },
    Wall {
        name: "WallWest",
        origin: Vec3::new(-ROOM_HALF, 0.0, 0.0),
        normal: Vec3::X,
    },
    Wall {
        name: "WallEast",
        origin: Vec3::new(ROOM_HALF, 0.0, 0.0),
        normal: Vec3::NEG_X,
    },
    Wall {
        name: "WallNorth",
        origin: Vec3::new(0.0, 0.0, -ROOM_HALF),
        normal: Vec3::Z,
    },
    Wall {
        name: "WallSouth",
        origin: Vec3::new(0.0, 0.0, ROOM_HALF),
        normal: Vec3::NEG_Z,
    },
];

/// A cylinder of the room.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    /// Node name.
    pub name: &'static str,
    /// Centre of the bottom disk (the node's origin), metres.
    pub base: Vec3,
    /// Unit axis (the node's local +y), an axis of the world.
    pub axis: Vec3,
    /// Radius, metres.
    pub radius: f32,
    /// Length along the axis, metres.
    pub height: f32,
}

impl Column {
    /// The middle of the axis.
    pub fn centre(&self) -> Vec3 {
        self.base + self.axis * (self.height / 2.0)
    }
}

/// The pillar and the two logs.
pub const COLUMNS: [Column; 3] = [
    Column {
        name: "Pillar",
        base: Vec3::ZERO,
        axis: Vec3::Y,
        radius: 1.0,
        height: WALL_HEIGHT,
    },
    Column {
        name: "LogX",
        base: Vec3::new(-7.0, 2.0, -4.0),
        axis: Vec3::X,
        radius: 1.0,
        height: 14.0,
    },
    Column {
        name: "LogZ",
        base: Vec3::new(4.0, 4.5, -7.0),
        axis: Vec3::Z,
        radius: 1.0,
        height: 14.0,
    },
];

/// The rotation taking local +y to `axis` (an axis of the world), and the
/// same rotation as an exact matrix of 0s and ±1s (for laying out vertices
/// in the node's frame without rounding).
fn turn_to(axis: Vec3) -> (Option<Quat>, Mat3) {
    if axis == Vec3::Y {
        return (None, Mat3::IDENTITY);
    }
    let rotation = Quat::from_rotation_arc(Vec3::Y, axis);
    let exact = Mat3::from_cols_array(&Mat3::from_quat(rotation).to_cols_array().map(f32::round));
    (Some(rotation), exact)
}

/// The magic room as a glTF document.
pub fn document() -> Document {
    let mut doc = Document {
        scene_name: "MagicRoom".into(),
        ..Default::default()
    };
    let m_floor = doc.material("Floor", [0.42, 0.40, 0.36]);
    let m_wall = doc.material("Wall", [0.62, 0.58, 0.52]);
    let m_pillar = doc.material("Pillar", [0.85, 0.85, 0.80]);
    let m_log = doc.material("Log", [0.55, 0.36, 0.20]);

    for wall in WALLS {
        let (rotation, exact) = turn_to(wall.normal);
        // The quad's corners in the world, then in the node's frame.
        let (h, top) = (ROOM_HALF, WALL_HEIGHT);
        let corners = if wall.normal == Vec3::Y {
            [(-h, -h), (h, -h), (h, h), (-h, h)].map(|(x, z)| Vec3::new(x, 0.0, z))
        } else {
            let across = wall.normal.cross(Vec3::Y) * h;
            [-across, across, across + Vec3::Y * top, -across + Vec3::Y * top].map(|c| wall.origin + c)
        };
        let local = corners.map(|c| exact.transpose() * (c - wall.origin));
        let mut quad = MeshData::default();
        quad.polygon(&local, Vec3::Y);
        let material = if wall.normal == Vec3::Y { m_floor } else { m_wall };
        doc.nodes.push(NodeDef {
            name: wall.name.into(),
            translation: (wall.origin != Vec3::ZERO).then_some(wall.origin),
            rotation,
            extras: Some(r#"{"collider":"plane"}"#.into()),
            primitives: vec![(material, quad)],
            ..Default::default()
        });
    }
    for column in COLUMNS {
        let (rotation, _) = turn_to(column.axis);
        let mut mesh = MeshData::default();
        mesh.cylinder(Vec3::ZERO, column.radius, column.height, CYLINDER_SEGMENTS);
        let material = if column.axis == Vec3::Y { m_pillar } else { m_log };
        doc.nodes.push(NodeDef {
            name: column.name.into(),
            translation: (column.base != Vec3::ZERO).then_some(column.base),
            rotation,
            extras: Some(r#"{"collider":"cylinder"}"#.into()),
            primitives: vec![(material, mesh)],
            ..Default::default()
        });
    }
    doc.nodes.push(NodeDef {
        name: "Spawn".into(),
        translation: Some(SPAWN),
        extras: Some(r#"{"slidewalk":"spawn"}"#.into()),
        ..Default::default()
    });
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_take_y_to_each_axis_and_the_exact_matrix_agrees() {
        for axis in [Vec3::X, Vec3::NEG_X, Vec3::Z, Vec3::NEG_Z, Vec3::Y] {
            let (rotation, exact) = turn_to(axis);
            assert_eq!(exact * Vec3::Y, axis);
            let q = rotation.unwrap_or(Quat::IDENTITY);
            assert!(
                (Mat3::from_quat(q) - exact)
                    .to_cols_array()
                    .iter()
                    .all(|d| d.abs() < 1e-6)
            );
        }
    }

    #[test]
    fn wall_quads_face_into_the_room() {
        let doc = document();
        for (wall, node) in WALLS.iter().zip(&doc.nodes) {
            let (_, exact) = turn_to(wall.normal);
            let quad = &node.primitives[0].1;
            assert_eq!(quad.triangle_count(), 2);
            for (p, n) in quad.positions.iter().zip(&quad.normals) {
                assert_eq!(p.y, 0.0, "{}: flat in its node's y = 0", wall.name);
                assert_eq!(*n, Vec3::Y);
                let world = exact * *p + wall.origin;
                assert!(world.abs().max_element() <= ROOM_HALF && world.y >= 0.0 && world.y <= WALL_HEIGHT);
            }
        }
    }
}
