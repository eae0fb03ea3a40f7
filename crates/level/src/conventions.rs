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
//! Only static geometry can have one: `"collider"` on a spawn, door, lift
//! or no-collide node, on a node inside a door, lift or no-collide subtree,
//! or on a node without a mesh, is an error.
//! A name "starts with" a role word when the word is followed by nothing, a
//! digit, `_`, `-`, `.` or a space (`Door`, `door_1`, `Lift.001`), case-insensitive.
//! Any other node is static geometry: a glTF with no conventions at all loads
//! as a walkable static level.

use glam::Vec3;
use serde_json::Value;

/// What a node is, as far as the game is concerned.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Static geometry (the default).
    Static,
    /// A player spawn point.
    Spawn,
    /// A door; its mesh and its children's meshes move together.
    Door(DoorSpec),
    /// A lift platform; its mesh and its children's meshes move together.
    Lift(LiftSpec),
    /// Drawn but never collided.
    NoCollide,
}

/// How a door opens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DoorMotion {
    /// Rotates about `axis` (unit, the node's frame, through its origin) by `angle` radians.
    Hinge {
        /// Unit rotation axis in the door node's frame.
        axis: Vec3,
        /// Opening angle, radians (sign gives the direction).
        angle: f32,
    },
    /// Translates by `offset` (world metres). `None` until the door's width is known.
    Slide {
        /// World offset when fully open, metres; `None`: 0.95 × width along local x.
        offset: Option<Vec3>,
    },
}

/// A door's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoorSpec {
    /// The opening motion.
    pub motion: DoorMotion,
    /// Seconds from closed to open.
    pub open_seconds: f32,
    /// The door opens while the player is within this distance (metres) of it.
    pub trigger_radius: f32,
}

/// A lift's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiftSpec {
    /// From the rest position to the far end, world metres.
    pub travel: Vec3,
    /// Travel speed, m/s.
    pub speed: f32,
    /// Wait at each end, seconds.
    pub pause_seconds: f32,
}

/// The analytic collider a static mesh node asks for (`"collider"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyticKind {
    /// `"plane"`: the one-sided infinite plane of the node's local y = 0.
    Plane,
    /// `"cylinder"`: the capped cylinder along the node's local +Y fitting its mesh.
    Cylinder,
}

impl AnalyticKind {
    /// The extras word for it (`"plane"`, `"cylinder"`).
    pub fn word(self) -> &'static str {
        match self {
            Self::Plane => "plane",
            Self::Cylinder => "cylinder",
        }
    }
}

/// The conventions read off one node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeConventions {
    /// Its role.
    pub role: Role,
    /// Its `friction` extra, if any (0 ice … 1 normal).
    pub friction: Option<f32>,
    /// Its `collider` extra, if any (only on static nodes).
    pub collider: Option<AnalyticKind>,
}

/// Reads a node's role and parameters from its extras JSON (if any) and its
/// name. Returns a message naming the bad parameter when one is invalid.
pub fn read_node(name: Option<&str>, extras: Option<&str>) -> Result<NodeConventions, String> {
    let extras: Value = match extras {
        Some(text) => serde_json::from_str(text).map_err(|e| format!("extras are not valid JSON: {e}"))?,
        None => Value::Null,
    };
    let role_word = match extras.get("slidewalk") {
        Some(Value::String(s)) => Some(s.to_ascii_lowercase()),
        Some(other) => return Err(format!("\"slidewalk\" must be a string, got {other}")),
        None => name.and_then(role_from_name).map(str::to_owned),
    };
    let role = match role_word.as_deref() {
        None | Some("static") => Role::Static,
        Some("spawn") => Role::Spawn,
        Some("nocollide") => Role::NoCollide,
        Some("door") => Role::Door(door_spec(&extras)?),
        Some("lift") => Role::Lift(lift_spec(&extras)?),
        Some(other) => {
            return Err(format!(
                "unknown \"slidewalk\" role {other:?} (expected spawn, door, lift, nocollide or static)"
            ));
        }
    };
    let friction = match extras.get("friction") {
        None => None,
        Some(v) => Some(number(v, "friction").and_then(|f| {
            if (0.0..=1.0).contains(&f) {
                Ok(f)
            } else {
                Err(format!("friction must be between 0 and 1, got {f}"))
            }
        })?),
    };
    let collider = match extras.get("collider") {
        None => None,
        Some(Value::String(word)) => match word.to_ascii_lowercase().as_str() {
            "plane" => Some(AnalyticKind::Plane),
            "cylinder" => Some(AnalyticKind::Cylinder),
            _ => return Err(format!("unknown \"collider\" {word:?} (expected plane or cylinder)")),
        },
        Some(other) => return Err(format!("\"collider\" must be \"plane\" or \"cylinder\", got {other}")),
    };
    if let (Some(kind), false) = (collider, role == Role::Static) {
        return Err(format!(
            "\"collider\": {:?} is for static geometry, not a {} node",
            kind.word(),
            role_word.as_deref().unwrap_or("static")
        ));
    }
    Ok(NodeConventions {
        role,
        friction,
        collider,
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

fn door_spec(extras: &Value) -> Result<DoorSpec, String> {
    let motion = match extras
        .get("door")
        .map(|v| v.as_str().ok_or("\"door\" must be \"hinge\" or \"slide\""))
    {
        None | Some(Ok("hinge")) => {
            let angle = optional_number(extras, "angle_deg")?.unwrap_or(100.0);
            let axis = optional_vec3(extras, "axis")?.unwrap_or(Vec3::Y);
            let axis = axis
                .try_normalize()
                .ok_or(format!("door axis must not be zero, got {axis}"))?;
            DoorMotion::Hinge {
                axis,
                angle: angle.to_radians(),
            }
        }
        Some(Ok("slide")) => DoorMotion::Slide {
            offset: optional_vec3(extras, "slide")?,
        },
        Some(Ok(other)) => return Err(format!("\"door\" must be \"hinge\" or \"slide\", got {other:?}")),
        Some(Err(e)) => return Err(e.to_owned()),
    };
    let open_seconds = positive(extras, "open_s", 1.0)?;
    let trigger_radius = positive(extras, "trigger_m", 2.5)?;
    Ok(DoorSpec {
        motion,
        open_seconds,
        trigger_radius,
    })
}

fn lift_spec(extras: &Value) -> Result<LiftSpec, String> {
    let travel = optional_vec3(extras, "travel")?.unwrap_or(Vec3::new(0.0, 3.0, 0.0));
    if travel == Vec3::ZERO {
        return Err("lift travel must not be zero".into());
    }
    let speed = positive(extras, "speed", 1.5)?;
    let pause_seconds = optional_number(extras, "pause_s")?.unwrap_or(2.0);
    if pause_seconds < 0.0 {
        return Err(format!("pause_s must not be negative, got {pause_seconds}"));
    }
    Ok(LiftSpec {
        travel,
        speed,
        pause_seconds,
    })
}

fn number(v: &Value, key: &str) -> Result<f32, String> {
    v.as_f64()
        .map(|f| f as f32)
        .filter(|f| f.is_finite())
        .ok_or(format!("{key} must be a number, got {v}"))
}

fn optional_number(extras: &Value, key: &str) -> Result<Option<f32>, String> {
    extras.get(key).map(|v| number(v, key)).transpose()
}

fn positive(extras: &Value, key: &str, default: f32) -> Result<f32, String> {
    match optional_number(extras, key)? {
        None => Ok(default),
        Some(v) if v > 0.0 => Ok(v),
        Some(v) => Err(format!("{key} must be greater than zero, got {v}")),
    }
}

fn optional_vec3(extras: &Value, key: &str) -> Result<Option<Vec3>, String> {
    let Some(v) = extras.get(key) else { return Ok(None) };
    let bad = || format!("{key} must be an array of three numbers, got {v}");
    let items = v.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
    let mut out = [0.0f32; 3];
    for (o, item) in out.iter_mut().zip(items) {
        *o = number(item, key).map_err(|_| bad())?;
    }
    Ok(Some(Vec3::from_array(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_from_names() {
        let role = |n: &str| read_node(Some(n), None).unwrap().role;
        assert_eq!(role("Spawn"), Role::Spawn);
        assert_eq!(role("spawn_2"), Role::Spawn);
        assert_eq!(role("Spawner"), Role::Static);
        assert!(matches!(role("Door.001"), Role::Door(_)));
        assert!(matches!(role("lift"), Role::Lift(_)));
        assert_eq!(role("nocollide-grass"), Role::NoCollide);
        assert_eq!(role("Doorway"), Role::Static);
        assert_eq!(role("Cube"), Role::Static);
    }

    #[test]
    fn extras_win_over_names_and_carry_parameters() {
        let c = read_node(
            Some("Cube"),
            Some(r#"{"slidewalk":"lift","travel":[0,4.5,0],"speed":2,"pause_s":1}"#),
        )
        .unwrap();
        assert_eq!(
            c.role,
            Role::Lift(LiftSpec {
                travel: Vec3::new(0.0, 4.5, 0.0),
                speed: 2.0,
                pause_seconds: 1.0
            })
        );
        let c = read_node(Some("door"), Some(r#"{"slidewalk":"static","friction":0.1}"#)).unwrap();
        assert_eq!(
            c,
            NodeConventions {
                role: Role::Static,
                friction: Some(0.1),
                collider: None,
            }
        );
        let c = read_node(
            None,
            Some(r#"{"slidewalk":"door","door":"slide","slide":[1.2,0,0],"open_s":0.5}"#),
        )
        .unwrap();
        let Role::Door(d) = c.role else { panic!() };
        assert_eq!(
            d.motion,
            DoorMotion::Slide {
                offset: Some(Vec3::new(1.2, 0.0, 0.0))
            }
        );
        assert_eq!(d.open_seconds, 0.5);
        let c = read_node(Some("Door"), None).unwrap();
        let Role::Door(d) = c.role else { panic!() };
        assert!(matches!(d.motion, DoorMotion::Hinge { axis: Vec3::Y, .. }));
    }

    #[test]
    fn bad_parameters_say_what_is_wrong() {
        let err = |extras: &str| read_node(None, Some(extras)).unwrap_err();
        assert!(err(r#"{"slidewalk":"lift","speed":-1}"#).contains("speed must be greater than zero"));
        assert!(err(r#"{"slidewalk":"lift","travel":[0,1]}"#).contains("travel must be an array of three numbers"));
        assert!(err(r#"{"slidewalk":"elevator"}"#).contains("unknown \"slidewalk\" role"));
        assert!(err(r#"{"friction":3}"#).contains("friction must be between 0 and 1"));
        assert!(err(r#"{"slidewalk":"door","door":"swing"}"#).contains("\"door\" must be"));
        assert!(err("{not json").contains("not valid JSON"));
    }

    #[test]
    fn analytic_colliders_on_static_nodes() {
        let collider = |name: Option<&str>, extras: &str| read_node(name, Some(extras)).map(|c| c.collider);
        assert_eq!(collider(None, r#"{"collider":"plane"}"#), Ok(Some(AnalyticKind::Plane)));
        assert_eq!(
            collider(None, r#"{"collider":"Cylinder"}"#),
            Ok(Some(AnalyticKind::Cylinder))
        );
        assert_eq!(
            collider(
                Some("Pillar"),
                r#"{"slidewalk":"static","collider":"cylinder","friction":0.5}"#
            ),
            Ok(Some(AnalyticKind::Cylinder))
        );
        assert_eq!(collider(None, r#"{"friction":0.5}"#), Ok(None));
        let err = |name: Option<&str>, extras: &str| collider(name, extras).unwrap_err();
        assert_eq!(
            err(None, r#"{"collider":"sphere"}"#),
            "unknown \"collider\" \"sphere\" (expected plane or cylinder)"
        );
        assert!(err(None, r#"{"collider":1}"#).contains("\"collider\" must be \"plane\" or \"cylinder\", got 1"));
        assert_eq!(
            err(None, r#"{"slidewalk":"lift","collider":"plane"}"#),
            "\"collider\": \"plane\" is for static geometry, not a lift node"
        );
        assert!(err(Some("Door_1"), r#"{"collider":"cylinder"}"#).contains("not a door node"));
        assert!(err(Some("nocollide"), r#"{"collider":"plane"}"#).contains("not a nocollide node"));
    }
}
