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
//! ([`sweep::proxy`]): its bounding box, a sphere or a capsule (along the
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
//! A name "starts with" a role word when the word is followed by nothing, a
//! digit, `_`, `-`, `.` or a space (`Door`, `door_1`, `Lift.001`), case-insensitive.
//! Any other node is static geometry: a glTF with no conventions at all loads
//! as a walkable static level.

use glam::Vec3;
use serde_json::Value;
use sweep::proxy::ProxyShape;

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
    /// Its `proxy` extra, if any: the shape its own mesh collides as.
    pub proxy: Option<ProxyShape>,
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
                Ok(f as f32)
            } else {
                Err(format!("friction must be between 0 and 1, got {}", shown(f)))
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
    let proxy = match extras.get("proxy") {
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
    };
    if let Some(shape) = proxy {
        if collider.is_some() {
            return Err(format!(
                "\"proxy\": {:?} and \"collider\" cannot go together: an analytic collider needs the node's own triangles",
                shape.word()
            ));
        }
        if matches!(role, Role::Spawn | Role::NoCollide) {
            return Err(format!(
                "\"proxy\": {:?} is for geometry that collides, not a {} node",
                shape.word(),
                role_word.as_deref().unwrap_or("static")
            ));
        }
    }
    Ok(NodeConventions {
        role,
        friction,
        collider,
        proxy,
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
            if !(angle != 0.0 && angle.abs() <= 360.0) {
                return Err(format!(
                    "angle_deg must be from -360 to 360 degrees and not 0, got {}",
                    shown(angle)
                ));
            }
            let axis = optional_vec3(extras, "axis", 1e6)?.unwrap_or(Vec3::Y);
            let axis = axis
                .try_normalize()
                .ok_or(format!("door axis must not be zero, got {axis}"))?;
            DoorMotion::Hinge {
                axis,
                angle: (angle as f32).to_radians(),
            }
        }
        Some(Ok("slide")) => {
            let offset = optional_vec3(extras, "slide", MAX_TRAVEL)?;
            if offset == Some(Vec3::ZERO) {
                return Err("slide must not be zero (the door would not move)".into());
            }
            DoorMotion::Slide { offset }
        }
        Some(Ok(other)) => return Err(format!("\"door\" must be \"hinge\" or \"slide\", got {other:?}")),
        Some(Err(e)) => return Err(e.to_owned()),
    };
    let open_seconds = positive(extras, "open_s", 1.0, MAX_SECONDS, "s")?;
    let trigger_radius = positive(extras, "trigger_m", 2.5, MAX_TRIGGER, "m")?;
    Ok(DoorSpec {
        motion,
        open_seconds,
        trigger_radius,
    })
}

fn lift_spec(extras: &Value) -> Result<LiftSpec, String> {
    let travel = optional_vec3(extras, "travel", MAX_TRAVEL)?.unwrap_or(Vec3::new(0.0, 3.0, 0.0));
    if travel == Vec3::ZERO {
        return Err("lift travel must not be zero".into());
    }
    // In f64: the length of [0, 1e-30, 0] is 0 in f32.
    let length = travel.as_dvec3().length();
    if length < MIN_TRAVEL as f64 {
        return Err(format!(
            "lift travel must be at least {MIN_TRAVEL} m long, got {} m",
            shown(length)
        ));
    }
    let speed = positive(extras, "speed", 1.5, MAX_SPEED, "m/s")?;
    let pause_seconds = optional_number(extras, "pause_s")?.unwrap_or(2.0);
    if !(0.0..=MAX_SECONDS as f64).contains(&pause_seconds) {
        return Err(format!(
            "pause_s must be from 0 to {MAX_SECONDS} s (not negative), got {}",
            shown(pause_seconds)
        ));
    }
    Ok(LiftSpec {
        travel,
        speed,
        pause_seconds: pause_seconds as f32,
    })
}

/// Smallest speed, opening time or trigger distance accepted (m/s, s, m):
/// a lift's cycle (travel / speed) must stay finite in f32. Found by
/// fuzzing (crates/fuzz): `"speed": 1e-50` was greater than zero in f64,
/// 0 in f32, and the lift's cycle was infinite.
const MIN_POSITIVE: f64 = 1e-6;

/// Longest door opening time and lift pause accepted, seconds.
const MAX_SECONDS: f32 = 3600.0;
/// Farthest door trigger distance accepted, metres.
const MAX_TRIGGER: f32 = 1000.0;
/// Largest lift travel or door slide accepted, metres on each axis.
const MAX_TRAVEL: f32 = 1e4;
/// Shortest lift travel accepted, metres.
const MIN_TRAVEL: f32 = 1e-3;
/// Fastest lift accepted, m/s.
const MAX_SPEED: f32 = 100.0;

/// `x` as a message shows it: 1e30, not thirty-one digits.
fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-6..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A number, in `f64` so that a value too large for `f32` is reported as
/// written (JSON numbers are finite).
fn number(v: &Value, key: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|f| f.is_finite())
        .ok_or(format!("{key} must be a number, got {v}"))
}

fn optional_number(extras: &Value, key: &str) -> Result<Option<f64>, String> {
    extras.get(key).map(|v| number(v, key)).transpose()
}

/// An optional number above 0 and at most `max` (`unit` for the message).
fn positive(extras: &Value, key: &str, default: f32, max: f32, unit: &str) -> Result<f32, String> {
    match optional_number(extras, key)? {
        None => Ok(default),
        Some(v) if v >= MIN_POSITIVE && v <= max as f64 => Ok(v as f32),
        Some(v) if v > 0.0 && v < MIN_POSITIVE => Err(format!(
            "{key} must be at least {MIN_POSITIVE} {unit}, got {}",
            shown(v)
        )),
        Some(v) => Err(format!(
            "{key} must be greater than zero and at most {max} {unit}, got {}",
            shown(v)
        )),
    }
}

/// An optional `[x, y, z]`, each within ±`limit`.
fn optional_vec3(extras: &Value, key: &str, limit: f32) -> Result<Option<Vec3>, String> {
    let Some(v) = extras.get(key) else { return Ok(None) };
    let bad = || format!("{key} must be an array of three numbers, each from -{limit:e} to {limit:e}, got {v}");
    let items = v.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
    let mut out = [0.0f32; 3];
    for (o, item) in out.iter_mut().zip(items) {
        let x = number(item, key).map_err(|_| bad())?;
        if x.abs() > limit as f64 {
            return Err(bad());
        }
        *o = x as f32;
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
                proxy: None,
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
    fn enormous_tiny_and_pointless_parameters_are_refused() {
        // Each of these loaded before: a lift or door that teleports, never
        // moves, or moves kilometres away; a 1e300 that read as "must be a
        // number"; an axis too long for f32 reported as zero.
        let err = |extras: &str| read_node(Some("Thing"), Some(extras)).unwrap_err();
        for (extras, says) in [
            (
                r#"{"slidewalk":"lift","speed":1e30}"#,
                "speed must be greater than zero and at most 100 m/s, got 1e30",
            ),
            (r#"{"slidewalk":"lift","speed":1e300}"#, "at most 100 m/s, got 1e300"),
            (r#"{"slidewalk":"lift","speed":0}"#, "speed must be greater than zero"),
            (
                r#"{"slidewalk":"lift","speed":1e-50}"#,
                "speed must be at least 0.000001 m/s, got ",
            ),
            (
                r#"{"slidewalk":"door","open_s":1e-40}"#,
                "open_s must be at least 0.000001 s",
            ),
            (
                r#"{"slidewalk":"lift","travel":[0,1e30,0]}"#,
                "travel must be an array of three numbers, each from -1e4 to 1e4",
            ),
            (
                r#"{"slidewalk":"lift","travel":[0,1e-30,0]}"#,
                "lift travel must be at least 0.001 m long, got 1.0000000031710769e-30 m",
            ),
            (r#"{"slidewalk":"lift","travel":{"y":3}}"#, "travel must be an array"),
            (
                r#"{"slidewalk":"lift","pause_s":1e30}"#,
                "pause_s must be from 0 to 3600 s",
            ),
            (
                r#"{"slidewalk":"lift","pause_s":-1}"#,
                "pause_s must be from 0 to 3600 s (not negative), got -1",
            ),
            (
                r#"{"slidewalk":"lift","pause_s":"2"}"#,
                "pause_s must be a number, got \"2\"",
            ),
            (
                r#"{"slidewalk":"door","angle_deg":1e30}"#,
                "angle_deg must be from -360 to 360 degrees and not 0, got 1e30",
            ),
            (r#"{"slidewalk":"door","angle_deg":0}"#, "and not 0"),
            (
                r#"{"slidewalk":"door","axis":[1e30,1e30,1e30]}"#,
                "axis must be an array of three numbers, each from -1e6 to 1e6",
            ),
            (r#"{"slidewalk":"door","axis":[0,0,0]}"#, "door axis must not be zero"),
            (
                r#"{"slidewalk":"door","open_s":1e30}"#,
                "open_s must be greater than zero and at most 3600 s",
            ),
            (r#"{"slidewalk":"door","open_s":0}"#, "open_s must be greater than zero"),
            (
                r#"{"slidewalk":"door","trigger_m":1e30}"#,
                "trigger_m must be greater than zero and at most 1000 m",
            ),
            (
                r#"{"slidewalk":"door","door":"slide","slide":[1e30,0,0]}"#,
                "slide must be an array of three numbers, each from -1e4 to 1e4",
            ),
            (
                r#"{"slidewalk":"door","door":"slide","slide":[0,0,0]}"#,
                "slide must not be zero",
            ),
            (r#"{"friction":1e300}"#, "friction must be between 0 and 1, got 1e300"),
            (r#"{"friction":"ice"}"#, "friction must be a number, got \"ice\""),
        ] {
            let e = err(extras);
            assert!(e.contains(says), "{extras}: {e}");
        }
        // The limits themselves are accepted.
        let c = read_node(
            None,
            Some(r#"{"slidewalk":"lift","speed":100,"pause_s":0,"travel":[0,0.001,0]}"#),
        );
        assert!(c.is_ok(), "{c:?}");
        let c = read_node(
            None,
            Some(r#"{"slidewalk":"door","angle_deg":-360,"open_s":3600,"trigger_m":1000}"#),
        );
        assert!(c.is_ok(), "{c:?}");
    }

    #[test]
    fn proxies_on_nodes_that_collide() {
        let proxy = |name: Option<&str>, extras: &str| read_node(name, Some(extras)).map(|c| c.proxy);
        assert_eq!(proxy(None, r#"{"proxy":"hull"}"#), Ok(Some(ProxyShape::Hull)));
        assert_eq!(proxy(Some("Door"), r#"{"proxy":"Box"}"#), Ok(Some(ProxyShape::Box)));
        assert_eq!(
            proxy(None, r#"{"slidewalk":"lift","proxy":"capsule"}"#),
            Ok(Some(ProxyShape::Capsule))
        );
        assert_eq!(proxy(None, r#"{"friction":0.5}"#), Ok(None));
        let err = |name: Option<&str>, extras: &str| proxy(name, extras).unwrap_err();
        assert_eq!(
            err(None, r#"{"proxy":"cone"}"#),
            "unknown \"proxy\" \"cone\" (expected box, sphere, capsule or hull)"
        );
        assert!(err(None, r#"{"proxy":true}"#).contains("\"proxy\" must be"));
        assert!(err(None, r#"{"proxy":"sphere","collider":"cylinder"}"#).contains("cannot go together"));
        assert!(err(Some("nocollide"), r#"{"proxy":"box"}"#).contains("not a nocollide node"));
        assert!(err(Some("Spawn"), r#"{"proxy":"box"}"#).contains("not a spawn node"));
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
