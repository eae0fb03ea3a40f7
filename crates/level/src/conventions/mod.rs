//! Level conventions: what a glTF node means to the game, read from its
//! `extras` (Blender: object custom properties) or, failing that, its name.
//!
//! | role | how to mark a node | parameters (extras, all optional) |
//! |---|---|---|
//! | spawn point | `"slidewalk": "spawn"` or a name starting `spawn` | — (the node's position is where the feet stand, its −Z axis the view direction) |
//! | door | `"slidewalk": "door"` or a name starting `door` | `"door": "hinge"` (default) or `"slide"`; `"angle_deg"` (hinge, default 100); `"axis": [x, y, z]` (hinge axis in the node's frame, through its origin, default `[0, 1, 0]`); `"slide": [x, y, z]` (slide offset in world metres, default 0.95 × the door's width along its local x); `"open_s"` (seconds to open, default 1); `"trigger_m"` (opens when the player is this close, metres, default 2.5) |
//! | lift | `"slidewalk": "lift"` or a name starting `lift` | `"travel": [x, y, z]` (world metres from the rest position to the far end, default `[0, 3, 0]`); `"speed"` (m/s, default 1.5); `"pause_s"` (wait at each end, seconds, default 2) |
//! | no collision | `"slidewalk": "nocollide"` or a name starting `nocollide` | — (drawn, never collided; applies to the node's children too) |
//! | any mesh node | — | `"friction"`: 0 (ice) to 1 (default), inherited by children |
//! | analytic collider (for balls) | `"collider": "plane"` or `"cylinder"` on a static node with a mesh | — (the shape comes from the node's world transform and its own mesh, see below) |
//! | collision proxy | `"proxy": "box"`, `"sphere"`, `"capsule"` or `"hull"` on a node with a mesh (static, door or lift) | — (the node's own mesh collides as that simpler shape, see below) |
//! | one-way platform | `"one_way": true` on a static, door or lift node (`false`: solid, the default) | — (its triangles and its children's stop a body only from the node's local +Y side, see below) |
//! | collision layers | `"layers": {"member": [..], "collides": [..]}` on a static, door, lift or sensor node | — each list of layer names (`"world"`, `"player"`, `"crowd"`, `"balls"`, [`crate::LAYER_NAMES`]) or numbers 0 to 31, absent = all 32; which bodies its triangles and its children's stop |
//! | sensor | `"sensor": "kill"`, `"checkpoint"` or any other name, on a static node with a mesh | `"layers"` (which bodies it reports, default all) — its own mesh is a volume that reports who is inside, not solid |
//! | climbable | `"climbable": true` on a static, door or lift node (`false`: not climbable, the default) | — (its faces and its children's can be climbed by the character, see below) |
//! | launch pad | `"launch": [x, y, z]` on a static node with a mesh | — (a world velocity in m/s, not zero, at most [`MAX_LAUNCH_SPEED`] long: a character standing on the node's own mesh is given it, see below) |
//! | water | `"water": true` on a static node with a mesh (`false`: not water, the default) | `"layers"` (which bodies it wets, default all) — its own mesh's bounding box, in the node's frame, is a volume of water, not solid (see below) |
//! | conveyor | `"conveyor": [x, y, z]` on a static node with a mesh | — (a surface velocity in m/s in the node's own frame, not zero, at most [`MAX_CONVEYOR_SPEED`] long: a character standing on the node's own mesh is carried at it, see below) |
//!
//! An analytic collider is the exact shape a sphere (a bouncing ball) meets
//! instead of the node's triangles; the player's ellipsoid still collides
//! with the triangles, which stay in the static collider (and are marked,
//! [`crate::Level::static_analytic`]). The shape is derived from the node's
//! world transform and its own mesh's bounding box in the node's frame
//! (children's meshes are not part of it):
//!
//! * `"plane"`: the infinite one-sided plane through the node's origin whose
//!   normal is the node's local +Y in the world (solid behind it). The mesh
//!   must be flat in the node's local y = 0 plane (a quad or a grid); it is
//!   what is drawn and what the player walks on, the balls meet the plane
//!   everywhere.
//! * `"cylinder"`: a solid cylinder, always capped, whose axis is the
//!   node's local +Y: radius half the mesh's local x extent, height its
//!   local y extent, bottom centre at the centre of the bottom of the box,
//!   all scaled by the node's world transform. The transform must scale its
//!   local x and z alike and not shear them (an elliptic cylinder is a load
//!   error naming the node).
//!
//! A collision proxy makes a finely tessellated prop collide as a simpler
//! shape fitted to its own mesh in the node's frame
//! ([`slidewalk_sweep::proxy`]): its bounding box, a sphere or a capsule (along the
//! node's local +Y) around it, or its convex hull. What is drawn is the
//! mesh; what the player, the crowd and the balls meet is the proxy. It
//! applies to the node's own mesh only (children keep theirs, or ask for
//! their own), to every GPU instance of it, and not together with
//! `"collider"`. A hull of a flat mesh is its box instead, with a notice.
//!
//! Only static geometry can have one: `"collider"` on a spawn, door, lift
//! or no-collide node, on a node inside a door, lift or no-collide subtree,
//! or on a node without a mesh, is an error.
//! Numbers are checked against ranges, and a value outside one is an error
//! naming the parameter, what was given and what is accepted: `speed` in
//! (0, 100] m/s, `pause_s` in [0, 3600] s, `open_s` in (0, 3600] s,
//! `trigger_m` in (0, 1000] m, `travel` and `slide` non-zero and within
//! ±10⁴ m on each axis (`travel` at least 1 mm long), `angle_deg` in
//! [−360, 360] and not 0, `axis` non-zero within ±10⁶, `friction` in [0, 1].
//!
//! A one-way node's triangles stop a body only from its front: each
//! triangle whose winding normal (counter-clockwise seen from the front;
//! flipped for a mirroring transform, as glTF draws it) points less than
//! 90° from the node's local +Y stops a body that starts wholly on its
//! front side, and nothing else does ([`slidewalk_sweep::PlacedCollider::one_way`]). A
//! box so marked is a platform the player jumps up through and lands on.
//! The direction is the +Y of the node that says `"one_way": true` as a
//! normal in the world (its world transform's inverse transpose applied to
//! +Y, normalised: under a non-uniform scale, the normal of the
//! transformed local y = 0 plane); its children take that direction, not
//! their own. A door or lift keeps it in the mover's frame, so it turns
//! with the mover.
//!
//! `"one_way"` and `"layers"` apply to the node's own mesh and to its
//! children's, each of which may give its own (`"one_way": false` or
//! `"layers": {}` returns a child to the default). A static mesh node so
//! marked is its own collider ([`crate::Level::parts`]), not part of the
//! merged static one. A door or lift takes them from its own node (or its
//! parents): the mover is one collider, so a node inside a door or lift
//! giving either is an error. A sensor's `"layers"` are its own: they say
//! which bodies it reports, and are neither inherited nor passed on.
//!
//! A sensor's own mesh is not solid: it is in no collider the player, the
//! crowd or the balls meet, but in [`crate::Level::sensors`], a volume the
//! game watches (`"kill"`: the player respawns; `"checkpoint"`: the player
//! respawns there from now on; any other name: an event, shown in the
//! HUD). Its children are ordinary geometry. A sensor on a node without a
//! mesh, an empty name, a sensor on a spawn, door, lift or no-collide node
//! or inside a door, lift or no-collide subtree, and a sensor together
//! with `"collider"`, `"proxy"` or `"one_way"` are errors, as are
//! `"one_way"` or `"layers"` on a spawn or no-collide node and
//! `"collider"` on a node that is one-way or has layers (its own or a
//! parent's: an analytic collider's triangles stay in the static collider).
//!
//! `"climbable"` applies to the node's own mesh and to its children's,
//! each of which may give its own (`"climbable": false` returns a child to
//! the default); a static mesh node so marked is its own collider
//! ([`crate::StaticPart::climbable`]), a door or lift takes it from its
//! own node or its parents ([`crate::Mover::climbable`]; a node inside a
//! door or lift giving it is an error). `"launch"` applies to the node's
//! own mesh only (not its children's), which becomes its own collider
//! ([`crate::StaticPart::launch`]); the game gives a character that stands
//! on it (grounded on any of its triangles, in practice its top) that
//! velocity. A `"launch"` that is not an array of three finite numbers, is
//! zero or is faster than [`MAX_LAUNCH_SPEED`], a `"launch"` on a door,
//! lift, spawn or no-collide node, inside a door, lift or no-collide
//! subtree or on a node without a mesh, a `"climbable"` that is not a
//! boolean or is on a spawn or no-collide node, either of them on a sensor,
//! and either of them with `"collider"` are errors naming the node. What
//! climbing and launching do is the character controller's business: the
//! level only says where.
//!
//! A `"water": true` node's own mesh is a water volume
//! ([`crate::Level::water`], [`crate::WaterVolume`]): not solid, kept in
//! the node's frame with its world pose, the water filling its bounding
//! box there (its top is the surface); its `"layers"` are its own, as a
//! sensor's. A `"conveyor"` node's own mesh is its own solid collider
//! ([`crate::StaticPart::conveyor`]) whose surface moves at that velocity,
//! given in the node's frame and kept turned by the node's world rotation
//! (every GPU instance of its mesh takes the node's). Either of them on a
//! door, lift, spawn or no-collide node, inside a door, lift or
//! no-collide subtree or on a node without a mesh, a `"water"` that is not
//! a boolean or goes with anything solid or another sensor, and a
//! `"conveyor"` that is not three finite numbers, is zero, is faster than
//! [`MAX_CONVEYOR_SPEED`], or goes with `"sensor"` or `"collider"`, are
//! errors naming the node.
//!
//! A name "starts with" a role word when the word is followed by nothing, a
//! digit, `_`, `-`, `.` or a space (`Door`, `door_1`, `Lift.001`), case-insensitive.
//! Any other node is static geometry: a glTF with no conventions at all loads
//! as a walkable static level.
//!
//! The types are in `roles`, a door's and a lift's parameters are read in
//! `movers`, the numbers they are made of checked in `numbers`;
//! `"one_way"`, `"layers"` and `"sensor"` are read in `filtering`,
//! `"climbable"` and `"launch"` in `moves`, `"water"` and `"conveyor"`
//! in `flows`.

mod filtering;
mod flows;
mod movers;
mod moves;
mod numbers;
mod roles;

pub use flows::MAX_CONVEYOR_SPEED;
pub use moves::MAX_LAUNCH_SPEED;
pub use roles::{AnalyticKind, DoorMotion, DoorSpec, LiftSpec, NodeConventions, Role, SensorKind};

use filtering::{check_filtering, read_layers, read_one_way, read_sensor};
use flows::{Others, check_flows, read_conveyor, read_water};
use movers::{door_spec, lift_spec};
use moves::{check_moves, read_climbable, read_launch};
use numbers::{number, shown};
use serde_json::Value;
use slidewalk_sweep::proxy::ProxyShape;

/// Reads a node's role and parameters from its extras JSON (if any) and its
/// name. Returns a message naming the bad parameter when one is invalid.
pub fn read_node(name: Option<&str>, extras: Option<&str>) -> Result<NodeConventions, String> {
    let extras: Value = match extras {
        Some(text) => serde_json::from_str(text).map_err(|e| format!("extras are not valid JSON: {e}"))?,
        None => Value::Null,
    };
    let (role, role_word) = read_role(name, &extras)?;
    let role_word = role_word.as_deref().unwrap_or("static");
    let friction = read_friction(&extras)?;
    let collider = read_collider(&extras)?;
    if let (Some(kind), false) = (collider, role == Role::Static) {
        return Err(format!(
            "\"collider\": {:?} is for static geometry, not a {role_word} node",
            kind.word(),
        ));
    }
    let proxy = read_proxy(&extras)?;
    if let Some(shape) = proxy {
        if collider.is_some() {
            return Err(format!(
                "\"proxy\": {:?} and \"collider\" cannot go together: an analytic collider needs the node's own triangles",
                shape.word()
            ));
        }
        if matches!(role, Role::Spawn | Role::NoCollide) {
            return Err(format!(
                "\"proxy\": {:?} is for geometry that collides, not a {role_word} node",
                shape.word(),
            ));
        }
    }
    let one_way = read_one_way(&extras)?;
    let layers = read_layers(&extras)?;
    let sensor = read_sensor(&extras)?;
    check_filtering(
        &role,
        role_word,
        collider,
        proxy,
        one_way,
        layers.is_some(),
        sensor.as_ref(),
    )?;
    let climbable = read_climbable(&extras)?;
    let launch = read_launch(&extras)?;
    check_moves(&role, role_word, collider, sensor.as_ref(), climbable, launch)?;
    let water = read_water(&extras)?;
    let conveyor = read_conveyor(&extras)?;
    let others = Others {
        collider,
        proxy,
        one_way,
        sensor: sensor.as_ref(),
        climbable,
        launch,
    };
    check_flows(&role, role_word, water, conveyor, &others)?;
    Ok(NodeConventions {
        role,
        friction,
        collider,
        proxy,
        one_way,
        layers,
        sensor,
        climbable,
        launch,
        water,
        conveyor,
    })
}

/// The node's role (with its parameters) and the word that named it, from
/// `"slidewalk"` in its extras or else its name.
fn read_role(name: Option<&str>, extras: &Value) -> Result<(Role, Option<String>), String> {
    let role_word = match extras.get("slidewalk") {
        Some(Value::String(s)) => Some(s.to_ascii_lowercase()),
        Some(other) => return Err(format!("\"slidewalk\" must be a string, got {other}")),
        None => name.and_then(role_from_name).map(str::to_owned),
    };
    let role = match role_word.as_deref() {
        None | Some("static") => Role::Static,
        Some("spawn") => Role::Spawn,
        Some("nocollide") => Role::NoCollide,
        Some("door") => Role::Door(door_spec(extras)?),
        Some("lift") => Role::Lift(lift_spec(extras)?),
        Some(other) => {
            return Err(format!(
                "unknown \"slidewalk\" role {other:?} (expected spawn, door, lift, nocollide or static)"
            ));
        }
    };
    Ok((role, role_word))
}

/// The `"friction"` extra, if any (0 to 1).
fn read_friction(extras: &Value) -> Result<Option<f32>, String> {
    Ok(match extras.get("friction") {
        None => None,
        Some(v) => Some(number(v, "friction").and_then(|f| {
            if (0.0..=1.0).contains(&f) {
                Ok(f as f32)
            } else {
                Err(format!("friction must be between 0 and 1, got {}", shown(f)))
            }
        })?),
    })
}

/// The `"collider"` extra, if any (`"plane"` or `"cylinder"`).
fn read_collider(extras: &Value) -> Result<Option<AnalyticKind>, String> {
    Ok(match extras.get("collider") {
        None => None,
        Some(Value::String(word)) => match word.to_ascii_lowercase().as_str() {
            "plane" => Some(AnalyticKind::Plane),
            "cylinder" => Some(AnalyticKind::Cylinder),
            _ => return Err(format!("unknown \"collider\" {word:?} (expected plane or cylinder)")),
        },
        Some(other) => return Err(format!("\"collider\" must be \"plane\" or \"cylinder\", got {other}")),
    })
}

/// The `"proxy"` extra, if any (`"box"`, `"sphere"`, `"capsule"` or `"hull"`).
fn read_proxy(extras: &Value) -> Result<Option<ProxyShape>, String> {
    Ok(match extras.get("proxy") {
        None => None,
        Some(Value::String(word)) => Some(
            ProxyShape::from_word(word)
                .ok_or_else(|| format!("unknown \"proxy\" {word:?} (expected box, sphere, capsule or hull)"))?,
        ),
        Some(other) => {
            return Err(format!(
                "\"proxy\" must be \"box\", \"sphere\", \"capsule\" or \"hull\", got {other}"
            ));
        }
    })
}

/// The role word a node name starts with, if any.
fn role_from_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    ["spawn", "door", "lift", "nocollide"].into_iter().find(|word| {
        lower.strip_prefix(word).is_some_and(|rest| {
            rest.chars()
                .next()
                .is_none_or(|c| c.is_ascii_digit() || matches!(c, '_' | '-' | '.' | ' '))
        })
    })
}

#[cfg(test)]
mod tests;
