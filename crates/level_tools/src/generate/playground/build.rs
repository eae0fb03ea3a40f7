//! The playground as a glTF document: each feature a named node with its
//! own material, built from the layout.

use super::feel;
use super::filtering;
use super::layout::*;
use super::materials::Materials;
use super::moves;
use super::nodes::{node, one};
use super::shapes::Rect;
use crate::generate::glb::{Document, NodeDef};
use crate::generate::mesh::MeshData;
use glam::Vec3;

/// The playground as a glTF document.
pub fn document() -> Document {
    let mut doc = Document {
        scene_name: "Playground".into(),
        ..Default::default()
    };
    let materials = Materials::add(&mut doc);
    ground_and_start(&mut doc, &materials);
    near_row(&mut doc, &materials);
    ramps(&mut doc, &materials);
    obstacles(&mut doc, &materials);
    rooms_and_door(&mut doc, &materials);
    ball_room(&mut doc, &materials);
    upper_floor_and_lift(&mut doc, &materials);
    filtering::one_way_layers_and_sensors(&mut doc, &materials);
    moves::course(&mut doc, &materials);
    feel::course(&mut doc, &materials);
    doc
}

/// The ground slab (with holes the floor patches fill), its boundary walls,
/// the spawn node and the start pad.
fn ground_and_start(doc: &mut Document, materials: &Materials) {
    let holes = [START_PAD, FINE_GRID, BUMPY_PATCH, ICE_PATCH];
    doc.nodes.push(node(
        "Ground",
        vec![(materials.ground, one(&|m| ground_slab(m, GROUND, GROUND_DEPTH, &holes)))],
    ));
    doc.nodes.push(node(
        "BoundaryWalls",
        vec![(
            materials.boundary,
            one(&|m| {
                let (g, t, h) = (GROUND, BOUNDARY_THICKNESS, BOUNDARY_HEIGHT);
                m.cuboid(Vec3::new(g.min.x, 0.0, g.min.y), Vec3::new(g.max.x, h, g.min.y + t));
                m.cuboid(Vec3::new(g.min.x, 0.0, g.max.y - t), Vec3::new(g.max.x, h, g.max.y));
                m.cuboid(
                    Vec3::new(g.min.x, 0.0, g.min.y + t),
                    Vec3::new(g.min.x + t, h, g.max.y - t),
                );
                m.cuboid(
                    Vec3::new(g.max.x - t, 0.0, g.min.y + t),
                    Vec3::new(g.max.x, h, g.max.y - t),
                );
            }),
        )],
    ));
    doc.nodes.push(NodeDef {
        name: "Spawn".into(),
        translation: Some(SPAWN),
        extras: Some(r#"{"slidewalk":"spawn"}"#.into()),
        ..Default::default()
    });
    doc.nodes.push(node(
        "StartPad",
        vec![(materials.start, one(&|m| flat_patch(m, START_PAD, 1)))],
    ));
}

/// The near row: the two flights of stairs, the 0.7 m ledge and the floor
/// patches (fine grid, bumps, ice).
fn near_row(doc: &mut Document, materials: &Materials) {
    for flight in [STAIRS_015, STAIRS_030] {
        let mesh = one(&|m| {
            m.stairs(
                flight.base,
                flight.dir,
                flight.width,
                flight.rise,
                flight.run,
                flight.steps,
                flight.landing,
            )
        });
        doc.nodes.push(node(flight.name, vec![(materials.stairs, mesh)]));
    }
    doc.nodes.push(node(
        "Ledge_070",
        vec![(materials.ledge, one(&|m| m.cuboid(LEDGE_070.0, LEDGE_070.1)))],
    ));
    doc.nodes.push(node(
        "FineGrid",
        vec![(materials.fine, one(&|m| flat_patch(m, FINE_GRID, FINE_GRID_CELLS)))],
    ));
    doc.nodes.push(node(
        "BumpyPatch",
        vec![(
            materials.bumpy,
            one(&|m| {
                let r = BUMPY_PATCH;
                m.heightfield((r.min.x, r.min.y), (r.max.x, r.max.y), BUMPY_CELLS, bump_height);
            }),
        )],
    ));
    doc.nodes.push(NodeDef {
        extras: Some(format!(r#"{{"friction":{ICE_FRICTION}}}"#)),
        ..node("IcePatch", vec![(materials.ice, one(&|m| flat_patch(m, ICE_PATCH, 1)))])
    });
}

/// The middle row: the ramps and the platforms at their tops.
fn ramps(doc: &mut Document, materials: &Materials) {
    for ramp in RAMPS {
        let material = if ramp.walkable { materials.ramp } else { materials.steep };
        let wedge = one(&|m| m.wedge(ramp.platform_foot, ramp.dir, ramp.width, ramp.height, ramp.run()));
        doc.nodes.push(node(ramp.name, vec![(material, wedge)]));
        let platform = one(&|m| {
            let far = ramp.platform_foot + ramp.dir * ramp.platform_depth;
            let side = Vec3::Y.cross(ramp.dir) * (ramp.width / 2.0);
            let (a, b) = (ramp.platform_foot - side, far + side + Vec3::Y * ramp.height);
            m.cuboid(a.min(b), a.max(b));
        });
        doc.nodes
            .push(node(ramp.platform_name, vec![(materials.platform, platform)]));
    }
}

/// The middle row, right: pillars, the thin wall, the narrow corridor and
/// the low passage.
fn obstacles(doc: &mut Document, materials: &Materials) {
    let pillars = one(&|m| {
        for p in PILLARS {
            m.cylinder(p, PILLAR_RADIUS, PILLAR_HEIGHT, PILLAR_SEGMENTS);
        }
    });
    doc.nodes.push(node("Pillars", vec![(materials.pillar, pillars)]));
    doc.nodes.push(node(
        "ThinWall",
        vec![(materials.thin, one(&|m| m.cuboid(THIN_WALL.0, THIN_WALL.1)))],
    ));
    let corridor = one(&|m| {
        let (r, t, h) = (NARROW_CORRIDOR, PASSAGE_WALL, CORRIDOR_HEIGHT);
        m.cuboid(Vec3::new(r.min.x - t, 0.0, r.min.y), Vec3::new(r.min.x, h, r.max.y));
        m.cuboid(Vec3::new(r.max.x, 0.0, r.min.y), Vec3::new(r.max.x + t, h, r.max.y));
    });
    doc.nodes
        .push(node("NarrowCorridor", vec![(materials.corridor, corridor)]));
    let low = one(&|m| {
        let (r, t, h) = (LOW_CEILING, PASSAGE_WALL, LOW_CEILING_HEIGHT);
        m.cuboid(Vec3::new(r.min.x - t, 0.0, r.min.y), Vec3::new(r.min.x, h, r.max.y));
        m.cuboid(Vec3::new(r.max.x, 0.0, r.min.y), Vec3::new(r.max.x + t, h, r.max.y));
        m.cuboid(
            Vec3::new(r.min.x - t, h, r.min.y),
            Vec3::new(r.max.x + t, h + t, r.max.y),
        );
    });
    doc.nodes.push(node("LowCeiling", vec![(materials.low, low)]));
}

/// The back row: the two rooms and the hinged door between them.
fn rooms_and_door(doc: &mut Document, materials: &Materials) {
    let rooms = one(&|m| {
        let (r, t, h) = (ROOMS, ROOM_WALL, ROOM_WALL_HEIGHT);
        let (e, (dw, dh)) = (ROOM_ENTRANCE_HALF_WIDTH, DOORWAY);
        let b = |x0: f32, y0: f32, z0: f32, x1: f32, y1: f32, z1: f32| (Vec3::new(x0, y0, z0), Vec3::new(x1, y1, z1));
        let walls = [
            b(r.min.x - t, 0.0, r.min.y - t, r.min.x, h, r.max.y + t), // −x
            b(r.max.x, 0.0, r.min.y - t, r.max.x + t, h, r.max.y + t), // +x
            b(r.min.x, 0.0, r.min.y - t, r.max.x, h, r.min.y),         // back (−z)
            b(r.min.x, 0.0, r.max.y, -e, h, r.max.y + t),              // front, left of the entrance
            b(e, 0.0, r.max.y, r.max.x, h, r.max.y + t),               // front, right of the entrance
            b(r.min.x, 0.0, DIVIDER_Z - t / 2.0, -dw / 2.0, h, DIVIDER_Z + t / 2.0), // divider, left
            b(dw / 2.0, 0.0, DIVIDER_Z - t / 2.0, r.max.x, h, DIVIDER_Z + t / 2.0), // divider, right
            b(-dw / 2.0, dh, DIVIDER_Z - t / 2.0, dw / 2.0, h, DIVIDER_Z + t / 2.0), // lintel
        ];
        for (lo, hi) in walls {
            m.cuboid(lo, hi);
        }
    });
    doc.nodes.push(node("Rooms", vec![(materials.room, rooms)]));
    let leaf = one(&|m| {
        let s = DOOR_SIZE;
        m.cuboid(Vec3::new(0.0, 0.01, -s.z / 2.0), Vec3::new(s.x, 0.01 + s.y, s.z / 2.0));
    });
    doc.nodes.push(NodeDef {
        name: "Door".into(),
        translation: Some(DOOR_HINGE),
        extras: Some(format!(
            r#"{{"slidewalk":"door","door":"hinge","axis":[0,1,0],"angle_deg":{DOOR_ANGLE_DEG},"open_s":{DOOR_OPEN_S},"trigger_m":{DOOR_TRIGGER_M}}}"#
        )),
        primitives: vec![(materials.door, leaf)],
        ..Default::default()
    });
}

/// The back row, right: the ball room (the crowd barrier across its
/// entrance and the grate in its window are added with the other layered
/// nodes, in `filtering`).
fn ball_room(doc: &mut Document, materials: &Materials) {
    let ball_walls = one(&|m| {
        let (r, t, h) = (BALL_ROOM, BALL_ROOM_WALL_THICKNESS, BALL_ROOM_WALL);
        let (g0, g1) = BALL_ROOM_ENTRANCE;
        let (w0, w1) = GRATE_OPENING;
        m.cuboid(
            Vec3::new(r.min.x - t, 0.0, r.min.y - t),
            Vec3::new(r.min.x, h, r.max.y + t),
        );
        // The +x wall, on either side of the grate's window.
        m.cuboid(Vec3::new(r.max.x, 0.0, r.min.y - t), Vec3::new(r.max.x + t, h, w0));
        m.cuboid(Vec3::new(r.max.x, 0.0, w1), Vec3::new(r.max.x + t, h, r.max.y + t));
        m.cuboid(Vec3::new(r.min.x, 0.0, r.min.y - t), Vec3::new(r.max.x, h, r.min.y));
        m.cuboid(Vec3::new(r.min.x, 0.0, r.max.y), Vec3::new(g0, h, r.max.y + t));
        m.cuboid(Vec3::new(g1, 0.0, r.max.y), Vec3::new(r.max.x, h, r.max.y + t));
    });
    let ball_pillars = one(&|m| {
        for p in BALL_ROOM_PILLARS {
            m.cylinder(p, 0.4, BALL_ROOM_WALL, PILLAR_SEGMENTS);
        }
    });
    doc.nodes.push(node(
        "BallRoom",
        vec![(materials.ball, ball_walls), (materials.pillar, ball_pillars)],
    ));
}

/// The back row, left: the upper floor, its beacon, and the lift up to it.
fn upper_floor_and_lift(doc: &mut Document, materials: &Materials) {
    let upper = one(&|m| {
        let (r, y) = (UPPER_FLOOR, UPPER_FLOOR_HEIGHT);
        let (t, rail) = (0.2, y + 1.0);
        m.cuboid(Vec3::new(r.min.x, 0.0, r.min.y), Vec3::new(r.max.x, y, r.max.y));
        m.cuboid(Vec3::new(r.min.x, y, r.min.y), Vec3::new(r.max.x, rail, r.min.y + t));
        m.cuboid(
            Vec3::new(r.min.x, y, r.min.y + t),
            Vec3::new(r.min.x + t, rail, r.max.y),
        );
        m.cuboid(
            Vec3::new(r.min.x + t, y, r.max.y - t),
            Vec3::new(r.max.x, rail, r.max.y),
        );
        let (gap0, gap1) = (
            LIFT_REST.z - LIFT_SIZE.z / 2.0 - 0.2,
            LIFT_REST.z + LIFT_SIZE.z / 2.0 + 0.2,
        );
        m.cuboid(Vec3::new(r.max.x - t, y, r.min.y + t), Vec3::new(r.max.x, rail, gap0));
        m.cuboid(Vec3::new(r.max.x - t, y, gap1), Vec3::new(r.max.x, rail, r.max.y - t));
    });
    doc.nodes.push(node("UpperFloor", vec![(materials.upper, upper)]));
    doc.nodes.push(node(
        "Beacon",
        vec![(materials.beacon, one(&|m| m.cylinder(BEACON, 0.5, 1.2, 24)))],
    ));
    let platform = one(&|m| {
        let h = LIFT_SIZE * Vec3::new(0.5, 1.0, 0.5);
        m.cuboid(Vec3::new(-h.x, 0.0, -h.z), h);
    });
    doc.nodes.push(NodeDef {
        name: "Lift".into(),
        translation: Some(LIFT_REST),
        extras: Some(format!(
            r#"{{"slidewalk":"lift","travel":[{},{},{}],"speed":{LIFT_SPEED},"pause_s":{LIFT_PAUSE_S}}}"#,
            LIFT_TRAVEL.x, LIFT_TRAVEL.y, LIFT_TRAVEL.z
        )),
        primitives: vec![(materials.lift, platform)],
        ..Default::default()
    });
}

/// A flat floor patch at y = 0 over `r`, `cells × cells` squares.
fn flat_patch(m: &mut MeshData, r: Rect, cells: u32) {
    m.grid((r.min.x, r.min.y), (r.max.x, r.max.y), 0.0, cells);
}

/// The ground slab over `outer`, `depth` thick, top at y = 0, with
/// rectangular holes in its top (to be filled by floor patches). The top is
/// split into rectangles along the holes' x edges.
fn ground_slab(m: &mut MeshData, outer: Rect, depth: f32, holes: &[Rect]) {
    let mut xs = vec![outer.min.x, outer.max.x];
    xs.extend(holes.iter().flat_map(|h| [h.min.x, h.max.x]));
    xs.sort_by(f32::total_cmp);
    xs.dedup();
    let quad = |m: &mut MeshData, x0: f32, z0: f32, x1: f32, z1: f32| {
        let p = |x, z| Vec3::new(x, 0.0, z);
        m.polygon(&[p(x0, z0), p(x1, z0), p(x1, z1), p(x0, z1)], Vec3::Y);
    };
    for w in xs.windows(2) {
        let (x0, x1) = (w[0], w[1]);
        let mut cuts: Vec<(f32, f32)> = holes
            .iter()
            .filter(|h| h.min.x <= x0 && h.max.x >= x1)
            .map(|h| (h.min.y, h.max.y))
            .collect();
        cuts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut z = outer.min.y;
        for (z0, z1) in cuts {
            if z0 > z {
                quad(m, x0, z, x1, z0);
            }
            z = z.max(z1);
        }
        if outer.max.y > z {
            quad(m, x0, z, x1, outer.max.y);
        }
    }
    m.box_faces(
        Vec3::new(outer.min.x, -depth, outer.min.y),
        Vec3::new(outer.max.x, 0.0, outer.max.y),
        false,
    );
}
