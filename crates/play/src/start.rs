//! Where a script starts when it does not start at the spawn at rest: the
//! whole simulation state at the end of the tick before its first step —
//! the player's controller state, the buttons held, the lifts' clock, each
//! door's state and the doors that squeezed the player. Ticks saved from
//! the rewind buffer carry one, so they replay headless exactly.
//! Floats are written so they read back bit for bit.

use crate::doors::DoorControl;
use crate::script::Buttons;
use controller::{CharacterState, GroundContact};
use glam::Vec3;
use serde_json::{Map, Value, json};

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

fn read_f32(obj: &Map<String, Value>, key: &str) -> Result<f32, String> {
    read_f64(obj, key).map(|x| x as f32)
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

fn read_vec3(obj: &Map<String, Value>, key: &str) -> Result<Vec3, String> {
    let bad = || format!("\"{key}\" must be [x, y, z]");
    let items = get(obj, key)?.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
    let mut out = [0.0f32; 3];
    for (o, item) in out.iter_mut().zip(items) {
        *o = item.as_f64().filter(|x| x.is_finite()).ok_or_else(bad)? as f32;
    }
    Ok(Vec3::from(out))
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
        point: read_vec3(o, "point")?,
        normal: read_vec3(o, "normal")?,
        contact_normal: read_vec3(o, "contact_normal")?,
        collider: read_index(get(o, "collider")?, "collider")?,
        triangle: read_index(get(o, "triangle")?, "triangle")? as u32,
        friction: read_f32(o, "friction")?,
        velocity: read_vec3(o, "velocity")?,
        on_edge: read_bool(o, "on_edge")?,
    })
}

/// A controller state as JSON.
pub fn state_to_json(s: &CharacterState) -> Value {
    json!({
        "position": vec3(s.position), "velocity": vec3(s.velocity), "up": vec3(s.up),
        "crouched": s.crouched, "radii": vec3(s.radii),
        "ground": s.ground.as_ref().map(ground_to_json),
        "air_time": s.air_time, "coyote_jump": s.coyote_jump, "jump_buffer": s.jump_buffer,
    })
}

/// A controller state from JSON.
pub fn state_from_json(v: &Value) -> Result<CharacterState, String> {
    let o = object(v, "\"state\"")?;
    Ok(CharacterState {
        position: read_vec3(o, "position")?,
        velocity: read_vec3(o, "velocity")?,
        up: read_vec3(o, "up")?,
        crouched: read_bool(o, "crouched")?,
        radii: read_vec3(o, "radii")?,
        ground: match get(o, "ground")? {
            Value::Null => None,
            g => Some(ground_from_json(g)?),
        },
        air_time: read_f32(o, "air_time")?,
        coyote_jump: read_bool(o, "coyote_jump")?,
        jump_buffer: read_f32(o, "jump_buffer")?,
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
            "held": {"jump": h.jump, "crouch": h.crouch, "sprint": h.sprint, "use": h.use_key, "throw": h.throw},
            "clock_s": self.clock_s,
            "doors": doors,
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
            .map(|d| match d {
                Value::Null => Ok(None),
                d => {
                    let d = object(d, "a door")?;
                    let manual = match get(d, "manual")? {
                        Value::Null => None,
                        m => Some(m.as_bool().ok_or("a door's \"manual\" must be true, false or null")?),
                    };
                    Ok(Some(DoorControl {
                        openness: read_f32(d, "openness")?,
                        manual,
                        moving: read_f32(d, "moving")?,
                    }))
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
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
            },
            clock_s: read_f64(o, "clock_s")?,
            doors,
            squeezed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_reads_back_bit_for_bit() {
        let config = controller::ControllerConfig::default();
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
            squeezed: vec![1],
        };
        let text = start.to_json().to_string();
        let back = Start::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, start);
        let broken = text.replace("\"clock_s\"", "\"clock\"");
        let e = Start::from_json(&serde_json::from_str(&broken).unwrap()).unwrap_err();
        assert!(e.contains("clock_s"), "{e}");
    }
}
