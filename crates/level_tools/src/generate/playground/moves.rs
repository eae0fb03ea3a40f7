//! The playground's moves course, after all the other nodes: a chimney to
//! climb with the platform behind it, three ledges, a climbable wall, the
//! dash gap, a platform for an air jump, and a launch pad with the
//! platform it throws up to (see `layout`, `MOVES_*`).

use super::layout::*;
use super::materials::Materials;
use super::nodes::{node, one};
use crate::generate::glb::{Document, NodeDef};
use glam::Vec3;

/// Adds them to `doc`, in the order of the layout.
pub(super) fn course(doc: &mut Document, materials: &Materials) {
    let shaft = one(&|m| {
        let ((lo, hi), t) = (MOVES_SHAFT, MOVES_SHAFT_WALL);
        let back = MOVES_SHAFT_TOP.1.y;
        m.cuboid(Vec3::new(lo.x - t, 0.0, lo.z), Vec3::new(lo.x, hi.y, hi.z));
        m.cuboid(Vec3::new(hi.x, 0.0, lo.z), Vec3::new(hi.x + t, hi.y, hi.z));
        m.cuboid(Vec3::new(lo.x - t, 0.0, lo.z - t), Vec3::new(hi.x + t, back, lo.z));
    });
    doc.nodes.push(node("moves_shaft", vec![(materials.moves, shaft)]));
    let boxes = [("moves_shaft_top", MOVES_SHAFT_TOP)]
        .into_iter()
        .chain(MOVES_LEDGES.map(|(name, lo, hi)| (name, (lo, hi))));
    for (name, (lo, hi)) in boxes {
        doc.nodes
            .push(node(name, vec![(materials.moves, one(&|m| m.cuboid(lo, hi)))]));
    }
    doc.nodes.push(NodeDef {
        extras: Some(r#"{"climbable":true}"#.into()),
        ..node(
            "moves_ladder",
            vec![(materials.climbable, one(&|m| m.cuboid(MOVES_LADDER.0, MOVES_LADDER.1)))],
        )
    });
    let ramp = MOVES_DASH_FROM;
    let wedge = one(&|m| m.wedge(ramp.platform_foot, ramp.dir, ramp.width, ramp.height, ramp.run()));
    doc.nodes.push(node(ramp.name, vec![(materials.moves, wedge)]));
    let from = one(&|m| {
        let far = ramp.platform_foot + ramp.dir * ramp.platform_depth;
        let side = Vec3::Y.cross(ramp.dir) * (ramp.width / 2.0);
        let (a, b) = (ramp.platform_foot - side, far + side + Vec3::Y * ramp.height);
        m.cuboid(a.min(b), a.max(b));
    });
    doc.nodes.push(node(ramp.platform_name, vec![(materials.moves, from)]));
    // The gap itself: a node without a mesh at its centre on the floor.
    doc.nodes.push(NodeDef {
        translation: Some(moves_dash_gap_centre()),
        ..node("moves_dash_gap", Vec::new())
    });
    for (name, (lo, hi)) in [("moves_dash_to", MOVES_DASH_TO), ("moves_air_jump", MOVES_AIR_JUMP)] {
        doc.nodes
            .push(node(name, vec![(materials.moves, one(&|m| m.cuboid(lo, hi)))]));
    }
    let v = MOVES_LAUNCH_VELOCITY;
    doc.nodes.push(NodeDef {
        extras: Some(format!(r#"{{"launch":[{:?},{:?},{:?}]}}"#, v.x, v.y, v.z)),
        ..node(
            "moves_launch_pad",
            vec![(
                materials.launch,
                one(&|m| m.cuboid(MOVES_LAUNCH_PAD.0, MOVES_LAUNCH_PAD.1)),
            )],
        )
    });
    doc.nodes.push(node(
        "moves_launch_top",
        vec![(
            materials.moves,
            one(&|m| m.cuboid(MOVES_LAUNCH_TOP.0, MOVES_LAUNCH_TOP.1)),
        )],
    ));
}
