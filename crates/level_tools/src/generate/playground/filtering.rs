//! The playground's nodes with the filtering extras, after all the others:
//! the stack of one-way platforms, the crowd barrier and the grate (layers),
//! and the sensors (the kill zone, the checkpoint and the ball room's).

use super::layout::*;
use super::materials::Materials;
use super::nodes::{node, one};
use crate::generate::glb::{Document, NodeDef};
use glam::Vec3;

/// Adds them to `doc`, in the order of the layout.
pub(super) fn one_way_layers_and_sensors(doc: &mut Document, materials: &Materials) {
    for (name, min, max) in ONE_WAY_STACK {
        doc.nodes.push(NodeDef {
            extras: Some(r#"{"one_way":true}"#.into()),
            ..node(name, vec![(materials.one_way, one(&|m| m.cuboid(min, max)))])
        });
    }
    doc.nodes.push(NodeDef {
        extras: Some(r#"{"layers":{"collides":["crowd","balls"]}}"#.into()),
        ..node(
            "crowd_barrier",
            vec![(materials.barrier, one(&|m| m.cuboid(CROWD_BARRIER.0, CROWD_BARRIER.1)))],
        )
    });
    let grate = one(&|m| {
        let (lo, hi) = GRATE;
        let rail = hi.y - 0.1;
        m.cuboid(Vec3::new(lo.x, rail, lo.z), hi);
        let bars = ((hi.z - lo.z) / GRATE_PITCH).round() as u32;
        for k in 1..bars {
            let z = lo.z + k as f32 * GRATE_PITCH;
            m.cuboid(
                Vec3::new(lo.x, 0.0, z - GRATE_BAR / 2.0),
                Vec3::new(hi.x, rail, z + GRATE_BAR / 2.0),
            );
        }
    });
    doc.nodes.push(NodeDef {
        extras: Some(r#"{"layers":{"collides":["player","crowd"]}}"#.into()),
        ..node("grate", vec![(materials.grate, grate)])
    });
    let sensors = [
        ("KillZone", "kill", materials.kill, KILL_ZONE),
        ("Checkpoint", "checkpoint", materials.checkpoint, CHECKPOINT),
        ("BallRoomSensor", BALL_ROOM_SENSOR, materials.area, BALL_ROOM_AREA),
    ];
    for (name, sensor, material, (min, max)) in sensors {
        doc.nodes.push(NodeDef {
            extras: Some(serde_json::json!({ "sensor": sensor }).to_string()),
            ..node(name, vec![(material, one(&|m| m.cuboid(min, max)))])
        });
    }
}
