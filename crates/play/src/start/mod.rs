//! Where a script starts when it does not start at the spawn at rest: the
//! whole simulation state at the end of the tick before its first step —
//! the player's controller state, the buttons held, the lifts' clock, each
//! door's state, each lift's place on its schedule and the movers that
//! squeezed the player. Ticks saved from
//! the rewind buffer carry one, so they replay headless exactly.
//! Floats are written so they read back bit for bit.

use crate::buttons::Buttons;
use crate::options::{check_point, shown};
use glam::Vec3;
use serde_json::{Map, Value, json};
use slidewalk_controller::{CharacterState, GroundContact};
use slidewalk_level::DoorControl;

mod moves;

/// The simulation state a script starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The player's controller state.
    pub state: CharacterState,
    /// Buttons held in the tick before (so a held key is not a new press).
    pub held: Buttons,
    /// The lifts' clock: seconds since the level was opened.
    pub clock_s: f64,
    /// Each mover's door state, by the level's mover index (`None`: a lift).
    pub doors: Vec<Option<DoorControl>>,
    /// Each lift's place on its schedule, seconds, by the level's mover
    /// index (`None`: a door). A lift that squeezed the player turned back,
    /// so it may be off the clock. Missing (starts saved before lifts could
    /// turn back): every lift at `clock_s`.
    pub lifts: Vec<Option<f64>>,
    /// Movers that squeezed the player in the tick before.
    pub squeezed: Vec<usize>,
}

fn vec3(v: Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    obj.get(key).ok_or_else(|| format!("\"{key}\" is missing"))
}

fn read_f64(obj: &Map<String, Value>, key: &str) -> Result<f64, String> {
    match get(obj, key)?.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(format!("\"{key}\" must be a number")),
    }
}

fn read_bool(obj: &Map<String, Value>, key: &str) -> Result<bool, String> {
    get(obj, key)?
        .as_bool()
        .ok_or_else(|| format!("\"{key}\" must be true or false"))
}

fn read_index(v: &Value, key: &str) -> Result<usize, String> {
    v.as_u64()
        .map(|i| i as usize)
        .ok_or_else(|| format!("\"{key}\" must hold whole numbers"))
}

fn read_xyz(obj: &Map<String, Value>, key: &str) -> Result<[f64; 3], String> {
    let bad = || format!("\"{key}\" must be [x, y, z]");
    let items = get(obj, key)?.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
    let mut out = [0.0f64; 3];
    for (o, item) in out.iter_mut().zip(items) {
        *o = item.as_f64().filter(|x| x.is_finite()).ok_or_else(bad)?;
    }
    Ok(out)
}

/// Largest speed in a start state, m/s (the player's and the ground's).
const SPEED_LIMIT: f64 = 1e4;
/// Longest time in a start state (time in the air, the lifts' clock), seconds.
const TIME_LIMIT: f64 = 1e9;

/// A number within `lo..=hi` (`unit` after the limits in the message).
fn read_within(obj: &Map<String, Value>, key: &str, lo: f64, hi: f64, unit: &str) -> Result<f64, String> {
    let x = read_f64(obj, key)?;
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "\"{key}\" must be from {lo} to {}{unit}, got {}",
            shown(hi),
            shown(x)
        ))
    }
}

/// A position, metres, within ±[`crate::options::COORDINATE_LIMIT`] on every axis.
fn read_point(obj: &Map<String, Value>, key: &str) -> Result<Vec3, String> {
    check_point(read_xyz(obj, key)?).map_err(|e| format!("\"{key}\" {e}"))
}

/// A velocity, m/s, no faster than [`SPEED_LIMIT`].
fn read_velocity(obj: &Map<String, Value>, key: &str) -> Result<Vec3, String> {
    let [x, y, z] = read_xyz(obj, key)?;
    let speed = (x * x + y * y + z * z).sqrt();
    if speed <= SPEED_LIMIT {
        Ok(Vec3::new(x as f32, y as f32, z as f32))
    } else {
        Err(format!(
            "\"{key}\" must be at most {SPEED_LIMIT:e} m/s long, got {} m/s",
            shown(speed)
        ))
    }
}

/// A unit direction (to within 0.1%).
fn read_direction(obj: &Map<String, Value>, key: &str) -> Result<Vec3, String> {
    let [x, y, z] = read_xyz(obj, key)?;
    let length = (x * x + y * y + z * z).sqrt();
    if (length - 1.0).abs() <= 1e-3 {
        Ok(Vec3::new(x as f32, y as f32, z as f32))
    } else {
        Err(format!(
            "\"{key}\" must be a unit vector, got one {} long",
            shown(length)
        ))
    }
}

/// Ellipsoid radii, metres, each within the controller's limits (0.01 to 100 m).
fn read_radii(obj: &Map<String, Value>, key: &str) -> Result<Vec3, String> {
    let r = read_xyz(obj, key)?;
    if r.iter().all(|x| (0.01..=100.0).contains(x)) {
        Ok(Vec3::new(r[0] as f32, r[1] as f32, r[2] as f32))
    } else {
        Err(format!(
            "\"{key}\" must be [x, y, z] radii from 0.01 to 100 m, got [{}]",
            r.map(shown).join(", ")
        ))
    }
}

fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object().ok_or_else(|| format!("{what} must be an object"))
}

fn ground_to_json(g: &GroundContact) -> Value {
    json!({
        "point": vec3(g.point), "normal": vec3(g.normal), "contact_normal": vec3(g.contact_normal),
        "collider": g.collider, "triangle": g.triangle, "friction": g.friction,
        "velocity": vec3(g.velocity), "on_edge": g.on_edge,
    })
}

fn ground_from_json(v: &Value) -> Result<GroundContact, String> {
    let o = object(v, "\"ground\"")?;
    Ok(GroundContact {
        point: read_point(o, "point")?,
        normal: read_direction(o, "normal")?,
        contact_normal: read_direction(o, "contact_normal")?,
        collider: read_index(get(o, "collider")?, "collider")?,
        triangle: u32::try_from(read_index(get(o, "triangle")?, "triangle")?)
            .map_err(|_| "\"triangle\" is beyond any level's triangles".to_string())?,
        friction: read_within(o, "friction", 0.0, 1.0, "")? as f32,
        velocity: read_velocity(o, "velocity")?,
        on_edge: read_bool(o, "on_edge")?,
    })
}

/// A controller state as JSON.
pub fn state_to_json(s: &CharacterState) -> Value {
    json!({
        "position": vec3(s.position), "velocity": vec3(s.velocity), "up": vec3(s.up),
        "crouched": s.crouched, "radii": vec3(s.radii),
        "ground": s.ground.as_ref().map(ground_to_json),
        "placed": s.placed,
        "air_time": s.air_time, "coyote_jump": s.coyote_jump, "jump_buffer": s.jump_buffer,
        "drop_through": s.drop_through,
        "moves": moves::moves_to_json(&s.moves),
    })
}

/// A controller state from JSON.
pub fn state_from_json(v: &Value) -> Result<CharacterState, String> {
    let o = object(v, "\"state\"")?;
    let state = CharacterState {
        position: read_point(o, "position")?,
        velocity: read_velocity(o, "velocity")?,
        up: read_direction(o, "up")?,
        crouched: read_bool(o, "crouched")?,
        radii: read_radii(o, "radii")?,
        ground: match get(o, "ground")? {
            Value::Null => None,
            g => Some(ground_from_json(g)?),
        },
        // Absent in states saved before placed states were marked: a
        // state saved after a tick, its ground known.
        placed: match o.get("placed") {
            None | Some(Value::Null) => false,
            Some(_) => read_bool(o, "placed")?,
        },
        air_time: read_within(o, "air_time", 0.0, TIME_LIMIT, " s")? as f32,
        coyote_jump: read_bool(o, "coyote_jump")?,
        // The controller's jump buffer is at most 10 s.
        jump_buffer: read_within(o, "jump_buffer", 0.0, 10.0, " s")? as f32,
        // Absent in states saved before drops through one-way platforms.
        drop_through: match o.get("drop_through") {
            None | Some(Value::Null) => None,
            Some(_) => Some(read_within(o, "drop_through", -1e6, 1e6, " m")? as f32),
        },
        // Absent in states saved before the moves: none under way.
        moves: slidewalk_controller::MoveState::new(0.0),
    };
    let feet = state.feet().dot(state.up);
    Ok(CharacterState {
        moves: moves::moves_from_json(o.get("moves"), feet)?,
        ..state
    })
}

impl Start {
    /// As JSON.
    pub fn to_json(&self) -> Value {
        let h = &self.held;
        let doors: Vec<Value> = self
            .doors
            .iter()
            .map(|d| match d {
                None => Value::Null,
                Some(d) => json!({"openness": d.openness, "manual": d.manual, "moving": d.moving}),
            })
            .collect();
        json!({
            "state": state_to_json(&self.state),
            "held": {"jump": h.jump, "crouch": h.crouch, "sprint": h.sprint, "use": h.use_key, "throw": h.throw, "drop": h.drop, "dash": h.dash},
            "clock_s": self.clock_s,
            "doors": doors,
            "lifts": self.lifts,
            "squeezed": self.squeezed,
        })
    }

    /// From JSON.
    pub fn from_json(v: &Value) -> Result<Start, String> {
        let o = object(v, "\"start\"")?;
        let held = object(get(o, "held")?, "\"held\"")?;
        let doors = get(o, "doors")?
            .as_array()
            .ok_or("\"doors\" must be a list")?
            .iter()
            .enumerate()
            .map(|(i, d)| match d {
                Value::Null => Ok(None),
                d => {
                    let d = object(d, "a door")?;
                    let manual = match get(d, "manual")? {
                        Value::Null => None,
                        m => Some(m.as_bool().ok_or("a door's \"manual\" must be true, false or null")?),
                    };
                    let within = |key, lo, hi| read_within(d, key, lo, hi, "").map_err(|e| format!("door {i}: {e}"));
                    Ok(Some(DoorControl {
                        openness: within("openness", 0.0, 1.0)? as f32,
                        manual,
                        moving: within("moving", -1.0, 1.0)? as f32,
                    }))
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        // Optional: starts saved before lifts could turn back.
        let lifts = match o.get("lifts") {
            None => Vec::new(),
            Some(v) => v
                .as_array()
                .ok_or("\"lifts\" must be a list")?
                .iter()
                .enumerate()
                .map(|(i, t)| match t {
                    Value::Null => Ok(None),
                    t => match t.as_f64() {
                        Some(s) if (-TIME_LIMIT..=TIME_LIMIT).contains(&s) => Ok(Some(s)),
                        _ => Err(format!(
                            "lift {i}: its place on its schedule must be seconds from -1e9 to 1e9, got {t}"
                        )),
                    },
                })
                .collect::<Result<Vec<_>, String>>()?,
        };
        let squeezed = get(o, "squeezed")?
            .as_array()
            .ok_or("\"squeezed\" must be a list")?
            .iter()
            .map(|i| read_index(i, "squeezed"))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Start {
            state: state_from_json(get(o, "state")?)?,
            held: Buttons {
                jump: read_bool(held, "jump")?,
                crouch: read_bool(held, "crouch")?,
                sprint: read_bool(held, "sprint")?,
                use_key: read_bool(held, "use")?,
                // Optional: starts saved before balls could be thrown.
                throw: match held.get("throw") {
                    None => false,
                    Some(_) => read_bool(held, "throw")?,
                },
                // Optional: starts saved before one-way platforms.
                drop: match held.get("drop") {
                    None => false,
                    Some(_) => read_bool(held, "drop")?,
                },
                // Optional: starts saved before the dash.
                dash: match held.get("dash") {
                    None => false,
                    Some(_) => read_bool(held, "dash")?,
                },
            },
            clock_s: read_within(o, "clock_s", 0.0, TIME_LIMIT, " s")?,
            doors,
            lifts,
            squeezed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_reads_back_bit_for_bit() {
        let config = slidewalk_controller::ControllerConfig::default();
        let mut state = CharacterState::standing_at(Vec3::new(0.1, 0.2, 0.3), &config);
        state.velocity = Vec3::new(1.0 / 3.0, -0.7, std::f32::consts::PI);
        state.ground = Some(GroundContact {
            point: Vec3::new(0.123_456_79, 0.0, -1.0e-7),
            normal: Vec3::Y,
            contact_normal: Vec3::new(0.6, 0.8, 0.0),
            collider: 3,
            triangle: 77,
            friction: 0.05,
            velocity: Vec3::new(0.0, 1.5, 0.0),
            on_edge: true,
        });
        state.air_time = 0.1;
        state.jump_buffer = 0.033_333_335;
        let start = Start {
            state,
            held: Buttons {
                sprint: true,
                ..Buttons::default()
            },
            clock_s: 12.345_678_901_234,
            doors: vec![
                None,
                Some(DoorControl {
                    openness: 0.3,
                    manual: Some(false),
                    moving: -1.0,
                }),
            ],
            lifts: vec![Some(7.123_456_789_012_3), None],
            squeezed: vec![1],
        };
        let text = start.to_json().to_string();
        let back = Start::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, start);
        let broken = text.replace("\"clock_s\"", "\"clock\"");
        let e = Start::from_json(&serde_json::from_str(&broken).unwrap()).unwrap_err();
        assert!(e.contains("clock_s"), "{e}");
        // Saved before lifts could turn back: no "lifts", every lift on the clock.
        let mut old: Value = serde_json::from_str(&text).unwrap();
        old.as_object_mut().unwrap().remove("lifts");
        assert!(Start::from_json(&old).unwrap().lifts.is_empty());
        let bad = text.replace("7.1234567890123", "1e300");
        let e = Start::from_json(&serde_json::from_str(&bad).unwrap()).unwrap_err();
        assert!(e.contains("lift 0"), "{e}");
    }

    #[test]
    fn a_start_out_of_range_is_refused_with_the_field_named() {
        let config = slidewalk_controller::ControllerConfig::default();
        let start = Start {
            state: CharacterState::standing_at(Vec3::new(0.0, 0.0, 28.0), &config),
            held: Buttons::default(),
            clock_s: 0.0,
            doors: vec![Some(DoorControl::closed())],
            lifts: vec![],
            squeezed: vec![],
        };
        let good = start.to_json();
        assert_eq!(Start::from_json(&good).unwrap(), start);
        // Each of these reached the controller before: a position or a
        // buffer that became infinite in f32, zero or negative radii, a
        // zero "up", a 1e30 m/s velocity.
        for (path, value, says) in [
            (
                "/state/position",
                json!([0, 1e300, 0]),
                "\"position\" must be [x, y, z] in metres",
            ),
            (
                "/state/position",
                json!([1e30, 0, 0]),
                "between -1e6 and 1e6, got [1e30, 0, 0]",
            ),
            (
                "/state/velocity",
                json!([1e30, 0, 0]),
                "\"velocity\" must be at most 1e4 m/s",
            ),
            ("/state/up", json!([0, 0, 0]), "\"up\" must be a unit vector"),
            ("/state/up", json!([0, 100, 0]), "unit vector"),
            (
                "/state/radii",
                json!([0, 0, 0]),
                "\"radii\" must be [x, y, z] radii from 0.01 to 100 m",
            ),
            ("/state/radii", json!([-1, 0.9, 0.4]), "radii from 0.01"),
            ("/state/radii", json!([1e30, 1, 1]), "radii from 0.01"),
            (
                "/state/jump_buffer",
                json!(1e300),
                "\"jump_buffer\" must be from 0 to 10 s, got 1e300",
            ),
            ("/state/air_time", json!(-1), "\"air_time\" must be from 0"),
            (
                "/clock_s",
                json!(-1e300),
                "\"clock_s\" must be from 0 to 1e9 s, got -1e300",
            ),
            (
                "/doors/0/openness",
                json!(1e30),
                "door 0: \"openness\" must be from 0 to 1, got 1e30",
            ),
            ("/doors/0/moving", json!(5), "\"moving\" must be from -1 to 1"),
            ("/state/crouched", json!("no"), "true or false"),
            ("/squeezed", json!({"a": 1}), "must be a list"),
        ] {
            let mut bad = good.clone();
            *bad.pointer_mut(path).unwrap() = value.clone();
            let e = Start::from_json(&bad).unwrap_err();
            assert!(e.contains(says), "{path} = {value}: {e}");
        }
    }
}
