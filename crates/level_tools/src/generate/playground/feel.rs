//! The playground's feel course, after the moves course: the surf ramp
//! with its stairs and landing, the strafe-jump run with its stairs, the
//! pool with its water and stairs, the slide under the low bar, the ledge
//! to hang from and the two walkways (see `feel_layout`, `FEEL_*`).

use super::feel_layout::*;
use super::materials::Materials;
use super::nodes::{node, one};
use super::shapes::{Flight, Ramp};
use crate::generate::glb::{Document, NodeDef};
use crate::generate::mesh::MeshData;
use glam::Vec3;

/// Adds them to `doc`, in the order of the layout.
pub(super) fn course(doc: &mut Document, materials: &Materials) {
    let m = materials;
    doc.nodes.push(stairs(FEEL_SURF_STAIRS, m.feel));
    doc.nodes
        .push(node(FEEL_SURF_RAMP.name, vec![(m.surf, wedge(FEEL_SURF_RAMP))]));
    doc.nodes.push(cuboid("feel_surf_landing", FEEL_SURF_LANDING, m.feel));
    doc.nodes.push(stairs(FEEL_STRAFE_STAIRS, m.feel));
    doc.nodes.push(cuboid("feel_strafe_from", FEEL_STRAFE_FROM, m.feel));
    // The gap itself: a node without a mesh at its centre on the floor.
    doc.nodes.push(NodeDef {
        translation: Some(feel_strafe_gap_centre()),
        ..node("feel_strafe_gap", Vec::new())
    });
    doc.nodes.push(cuboid("feel_strafe_to", FEEL_STRAFE_TO, m.feel));
    doc.nodes.push(stairs(FEEL_POOL_STAIRS, m.feel));
    doc.nodes.push(node("feel_pool", vec![(m.feel, one(&pool_walls))]));
    doc.nodes.push(NodeDef {
        extras: Some(r#"{"water":true}"#.into()),
        ..node(
            "feel_pool_water",
            vec![(m.water, one(&|mesh| mesh.cuboid(FEEL_POOL_WATER.0, FEEL_POOL_WATER.1)))],
        )
    });
    let up = FEEL_SLIDE_UP;
    doc.nodes.push(node(up.name, vec![(m.feel, wedge(up))]));
    let top = one(&|mesh| {
        let far = up.platform_foot + up.dir * up.platform_depth;
        let side = Vec3::Y.cross(up.dir) * (up.width / 2.0);
        let (a, b) = (up.platform_foot - side, far + side + Vec3::Y * up.height);
        mesh.cuboid(a.min(b), a.max(b));
    });
    doc.nodes.push(node(up.platform_name, vec![(m.feel, top)]));
    doc.nodes
        .push(node(FEEL_SLIDE_SLOPE.name, vec![(m.feel, wedge(FEEL_SLIDE_SLOPE))]));
    doc.nodes.push(node("feel_slide_bar", vec![(m.bar, one(&slide_bar))]));
    doc.nodes.push(cuboid("feel_hang_wall", FEEL_HANG_WALL, m.feel));
    for (name, lo, hi, v) in FEEL_WALKWAYS {
        let (belt, arrows) = walkway(lo, hi, v.x.signum());
        doc.nodes.push(NodeDef {
            extras: Some(format!(r#"{{"conveyor":[{:?},{:?},{:?}]}}"#, v.x, v.y, v.z)),
            ..node(name, vec![(m.walkway, belt), (m.arrows, arrows)])
        });
    }
}

/// A node `name` that is the box `lo … hi` in `material`.
fn cuboid(name: &str, (lo, hi): (Vec3, Vec3), material: usize) -> NodeDef {
    node(name, vec![(material, one(&|m| m.cuboid(lo, hi)))])
}

/// A node that is the flight of stairs.
fn stairs(f: Flight, material: usize) -> NodeDef {
    let mesh = one(&|m| m.stairs(f.base, f.dir, f.width, f.rise, f.run, f.steps, f.landing));
    node(f.name, vec![(material, mesh)])
}

/// The ramp's wedge (without its platform).
fn wedge(r: Ramp) -> MeshData {
    one(&|m| m.wedge(r.platform_foot, r.dir, r.width, r.height, r.run()))
}

/// The pool's four walls around [`FEEL_POOL`], standing on the floor.
fn pool_walls(m: &mut MeshData) {
    let ((lo, hi), (t, far)) = (FEEL_POOL, FEEL_POOL_WALLS);
    let v = Vec3::new;
    m.cuboid(v(lo.x - t, 0.0, lo.z - far), v(lo.x, hi.y, hi.z + t));
    m.cuboid(v(hi.x, 0.0, lo.z - far), v(hi.x + t, hi.y, hi.z + t));
    m.cuboid(v(lo.x, 0.0, lo.z - far), v(hi.x, hi.y, lo.z));
    m.cuboid(v(lo.x, 0.0, hi.z), v(hi.x, hi.y, hi.z + t));
}

/// A walkway along x over `lo … hi`, one closed box: its sides, bottom and
/// every other band of its top (the first mesh), and the bands between
/// them (the second): chevrons pointing along x's `sign`, 1 m apart.
fn walkway(lo: Vec3, hi: Vec3, sign: f32) -> (MeshData, MeshData) {
    let (mut belt, mut arrows) = (MeshData::default(), MeshData::default());
    belt.box_faces(lo, hi, false);
    let (pitch, sweep) = (1.0, 0.5);
    let mid = (lo.z + hi.z) / 2.0;
    // Each line across the top: its x at the sides and in the middle.
    let mut lines = vec![(lo.x, lo.x)];
    let mut apex = lo.x + pitch / 2.0 + sweep;
    while apex + sweep < hi.x - pitch / 4.0 {
        let side = apex - sign * sweep;
        lines.push((side, apex));
        apex += pitch;
    }
    lines.push((hi.x, hi.x));
    let at = |x: f32, z: f32| Vec3::new(x, hi.y, z);
    for (k, w) in lines.windows(2).enumerate() {
        let ((s0, m0), (s1, m1)) = (w[0], w[1]);
        let mesh = if k % 2 == 0 { &mut belt } else { &mut arrows };
        for z in [lo.z, hi.z] {
            mesh.polygon(&[at(s0, z), at(m0, mid), at(m1, mid), at(s1, z)], Vec3::Y);
        }
    }
    (belt, arrows)
}

/// The low bar across the slide's slope on two posts beside it.
fn slide_bar(m: &mut MeshData) {
    let s = FEEL_SLIDE_SLOPE;
    let (z0, z1) = FEEL_SLIDE_BAR_Z;
    let under = s.surface_at(((z0 + z1) / 2.0 - s.base().z) * s.dir.z).y + FEEL_SLIDE_BAR_CLEAR;
    let (x0, x1) = (s.platform_foot.x - s.width / 2.0, s.platform_foot.x + s.width / 2.0);
    let (post, gap, bar) = (0.2, 0.1, 0.2);
    let top = under + bar;
    let v = Vec3::new;
    m.cuboid(v(x0 - gap - post, 0.0, z0), v(x0 - gap, top, z1));
    m.cuboid(v(x1 + gap, 0.0, z0), v(x1 + gap + post, top, z1));
    m.cuboid(v(x0 - gap, under, z0), v(x1 + gap, top, z1));
}
