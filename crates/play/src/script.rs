//! The script format: a scripted walk (or a recording of play) as JSON,
//! read and written here; played back one fixed tick at a time by
//! [`ScriptPlayer`](crate::ScriptPlayer), recorded by [`Recorder`](crate::Recorder).
//!
//! ```json
//! {"steps": [{"for_s": 1.5, "move": [0.0, 1.0], "yaw_deg": 90.0, "pitch_deg": 0.0,
//!             "jump": false, "crouch": false, "sprint": false, "use": false,
//!             "throw": false, "drop": false, "dash": false}]}
//! ```
//!
//! `move` is [right, forward] in −1..1 relative to the heading; `yaw_deg`
//! is the absolute heading in degrees (0 looks along −z, positive turns
//! left); `pitch_deg` the look above the horizon in degrees (−90..90,
//! negative looks down; only swimming reads it); omitted fields keep their previous value (at the start: no move,
//! the spawn's heading, looking level, buttons up). Buttons are "held": a jump held for
//! several ticks jumps once; `throw` held charges a ball, which is thrown
//! when it is let go; `drop` held drops once through the one-way platform
//! stood on (as jump does with `crouch` held there); `dash` held dashes once. Optional top-level fields say where the walk
//! was made: `"level"` (path), `"spawn"` ([x, y, z], the feet),
//! `"tick_hz"`, `"controller"` (the controller's settings, as in the
//! settings file) and `"start"` (the whole simulation state the first step
//! starts from, see [`Start`]; without it the walk starts at the spawn, at
//! rest).

use crate::buttons::{BUTTON_COUNT, BUTTONS};
use crate::options::{check_point, check_tick_hz, check_yaw_deg, shown};
use crate::start::Start;
use crate::tuning::{config_from_json, config_to_json};
use glam::{Vec2, Vec3};
use serde_json::{Map, Value, json};
use slidewalk_controller::ControllerConfig;
use std::fmt;

/// One step of a script: hold these inputs for `for_s` seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Step {
    /// Seconds, > 0.
    pub for_s: f64,
    /// [right, forward], each −1..1; `None` keeps the previous.
    pub movement: Option<Vec2>,
    /// Absolute heading, degrees; `None` keeps the previous.
    pub yaw_deg: Option<f64>,
    /// The look above the horizon, degrees (−90..90); `None` keeps the previous.
    pub pitch_deg: Option<f64>,
    /// Buttons held; `None` keeps the previous.
    pub buttons: [Option<bool>; BUTTON_COUNT],
}

/// The longest a script may last, seconds (also the longest step).
pub const MAX_SECONDS: f64 = 1e6;

/// A parsed script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The level it was made on, if recorded.
    pub level: Option<String>,
    /// Where the feet started, if recorded.
    pub spawn: Option<Vec3>,
    /// The tick rate it was recorded at, if recorded.
    pub tick_hz: Option<f32>,
    /// The controller settings it was made with (`None`: the defaults).
    pub controller: Option<ControllerConfig>,
    /// The state the first step starts from (`None`: the spawn, at rest).
    pub start: Option<Start>,
}

/// Why a script could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptError(pub String);

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad script: {}", self.0)
    }
}

impl std::error::Error for ScriptError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ScriptError> {
    Err(ScriptError(msg.into()))
}

fn number(v: &Value, what: &str) -> Result<f64, ScriptError> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => err(format!("{what} must be a number, got {v}")),
    }
}

fn vector<const N: usize>(v: &Value, what: &str) -> Result<[f64; N], ScriptError> {
    let Some(items) = v.as_array().filter(|a| a.len() == N) else {
        return err(format!("{what} must be a list of {N} numbers, got {v}"));
    };
    let mut out = [0.0; N];
    for (o, item) in out.iter_mut().zip(items) {
        *o = number(item, what)?;
    }
    Ok(out)
}

impl Script {
    /// Parses a script from JSON text.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        let root: Value = serde_json::from_str(text).map_err(|e| ScriptError(format!("not JSON: {e}")))?;
        let Some(root) = root.as_object() else {
            return err("the top level must be an object with \"steps\"");
        };
        const FIELDS: [&str; 6] = ["steps", "level", "spawn", "tick_hz", "controller", "start"];
        for key in root.keys() {
            if !FIELDS.contains(&key.as_str()) {
                return err(format!("unknown field {key:?} (expected one of {})", FIELDS.join(", ")));
            }
        }
        let Some(steps) = root.get("steps").and_then(Value::as_array) else {
            return err("\"steps\" must be a list of steps");
        };
        let mut script = Script {
            steps: Vec::with_capacity(steps.len()),
            level: match root.get("level") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(v) => return err(format!("\"level\" must be a path, got {v}")),
            },
            spawn: root
                .get("spawn")
                .map(|v| {
                    let [x, y, z] = vector::<3>(v, "\"spawn\"")?;
                    check_point([x, y, z]).map_err(|e| ScriptError(format!("\"spawn\" {e}")))
                })
                .transpose()?,
            tick_hz: root
                .get("tick_hz")
                .map(|v| check_tick_hz(number(v, "\"tick_hz\"")?).map_err(|e| ScriptError(format!("\"tick_hz\" {e}"))))
                .transpose()?,
            controller: match root.get("controller") {
                None => None,
                Some(v) => {
                    let (config, warnings) = config_from_json(v);
                    if !warnings.is_empty() {
                        return err(format!("\"controller\": {}", warnings.join("; ")));
                    }
                    Some(config)
                }
            },
            start: root
                .get("start")
                .map(|v| Start::from_json(v).map_err(|e| ScriptError(format!("\"start\": {e}"))))
                .transpose()?,
        };
        for (i, step) in steps.iter().enumerate() {
            script
                .steps
                .push(parse_step(step).map_err(|e| ScriptError(format!("step {i}: {}", e.0)))?);
        }
        if script.seconds() > MAX_SECONDS {
            return err(format!(
                "the steps last {} s in all; a script lasts at most {MAX_SECONDS:e} s",
                shown(script.seconds())
            ));
        }
        Ok(script)
    }

    /// Total length, seconds.
    pub fn seconds(&self) -> f64 {
        self.steps.iter().map(|s| s.for_s).sum()
    }

    /// The script as JSON text.
    pub fn to_json(&self) -> String {
        let steps: Vec<Value> = self
            .steps
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("for_s".into(), json!(s.for_s));
                if let Some(v) = s.movement {
                    m.insert("move".into(), json!([v.x, v.y]));
                }
                if let Some(y) = s.yaw_deg {
                    m.insert("yaw_deg".into(), json!(y));
                }
                if let Some(p) = s.pitch_deg {
                    m.insert("pitch_deg".into(), json!(p));
                }
                for (name, b) in BUTTONS.iter().zip(s.buttons) {
                    if let Some(b) = b {
                        m.insert((*name).into(), json!(b));
                    }
                }
                Value::Object(m)
            })
            .collect();
        let mut root = Map::new();
        if let Some(level) = &self.level {
            root.insert("level".into(), json!(level));
        }
        if let Some(s) = self.spawn {
            root.insert("spawn".into(), json!([s.x, s.y, s.z]));
        }
        if let Some(hz) = self.tick_hz {
            root.insert("tick_hz".into(), json!(hz));
        }
        if let Some(c) = &self.controller {
            root.insert("controller".into(), config_to_json(c));
        }
        if let Some(start) = &self.start {
            root.insert("start".into(), start.to_json());
        }
        root.insert("steps".into(), Value::Array(steps));
        serde_json::to_string_pretty(&Value::Object(root)).expect("JSON of plain values")
    }
}

fn parse_step(v: &Value) -> Result<Step, ScriptError> {
    let Some(obj) = v.as_object() else {
        return err(format!("must be an object, got {v}"));
    };
    let mut step = Step::default();
    for (key, value) in obj {
        match key.as_str() {
            "for_s" => {
                let s = number(value, "for_s")?;
                if !(s > 0.0 && s <= MAX_SECONDS) {
                    return err(format!(
                        "for_s must be greater than 0 and at most {MAX_SECONDS:e} seconds, got {s}"
                    ));
                }
                step.for_s = s;
            }
            "move" => {
                let [r, f] = vector::<2>(value, "move")?;
                if r.abs() > 1.0 || f.abs() > 1.0 {
                    return err(format!("move must be [right, forward] each in -1..1, got {value}"));
                }
                step.movement = Some(Vec2::new(r as f32, f as f32));
            }
            "yaw_deg" => {
                let yaw = check_yaw_deg(number(value, "yaw_deg")?).map_err(|e| ScriptError(format!("yaw_deg {e}")))?;
                step.yaw_deg = Some(yaw);
            }
            "pitch_deg" => {
                let pitch = number(value, "pitch_deg")?;
                if pitch.abs() > 90.0 {
                    return err(format!("pitch_deg must be degrees between -90 and 90, got {value}"));
                }
                step.pitch_deg = Some(pitch);
            }
            name => match BUTTONS.iter().position(|b| *b == name) {
                Some(i) => {
                    let Some(b) = value.as_bool() else {
                        return err(format!("{name} must be true or false, got {value}"));
                    };
                    step.buttons[i] = Some(b);
                }
                None => {
                    return err(format!(
                        "unknown field {name:?} (expected for_s, move, yaw_deg, pitch_deg, {})",
                        BUTTONS.join(", ")
                    ));
                }
            },
        }
    }
    if step.for_s == 0.0 {
        return err("for_s is missing");
    }
    Ok(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_scripts_say_what_is_wrong() {
        for (text, says) in [
            ("not json", "not JSON"),
            ("[]", "top level"),
            (r#"{"steps": 3}"#, "list of steps"),
            (r#"{"steps": [{"move": [0, 1]}]}"#, "for_s is missing"),
            (r#"{"steps": [{"for_s": -1}]}"#, "greater than 0"),
            (r#"{"steps": [{"for_s": 1, "move": [0, 2]}]}"#, "-1..1"),
            (r#"{"steps": [{"for_s": 1, "move": [0]}]}"#, "list of 2"),
            (r#"{"steps": [{"for_s": 1, "jump": "yes"}]}"#, "true or false"),
            (r#"{"steps": [{"for_s": 1, "jmup": true}]}"#, "unknown field \"jmup\""),
            (r#"{"steps": [], "spawn": [1, 2]}"#, "list of 3"),
            (
                r#"{"steps": [], "spawn": [1e30, 0, 0]}"#,
                "\"spawn\" must be [x, y, z] in metres, each between -1e6 and 1e6",
            ),
            (
                r#"{"steps": [], "spawn": [0, 1e300, 0]}"#,
                "between -1e6 and 1e6, got [0, 1e300, 0]",
            ),
            (
                r#"{"steps": [], "tick_hz": 0}"#,
                "\"tick_hz\" must be between 1 and 1000 ticks per second, got 0",
            ),
            (r#"{"steps": [], "tick_hz": -60}"#, "between 1 and 1000"),
            (r#"{"steps": [], "tick_hz": 1e30}"#, "between 1 and 1000"),
            (r#"{"steps": [], "tick_hz": 1e-30}"#, "between 1 and 1000"),
            (r#"{"steps": [], "tick_hz": "60"}"#, "must be a number"),
            (
                r#"{"steps": [{"for_s": 1, "yaw_deg": 1e300}]}"#,
                "yaw_deg must be degrees between -1e6 and 1e6",
            ),
            (r#"{"steps": [{"for_s": 1, "move": [1e300, 0]}]}"#, "-1..1"),
            (
                r#"{"steps": [{"for_s": 1e6}, {"for_s": 1e6}]}"#,
                "the steps last 2000000 s in all; a script lasts at most 1e6 s",
            ),
            ("", "not JSON"),
            (r#"{"steps": {"for_s": 1}}"#, "list of steps"),
            (r#"{"steps": [], "colour": 1}"#, "unknown field \"colour\""),
            (r#"{"steps": [{"for_s": 1, "dahs": true}]}"#, "throw, drop, dash)"),
            (r#"{"steps": [{"for_s": 1, "dash": 1}]}"#, "dash must be true or false"),
            (
                r#"{"steps": [{"for_s": 1, "pitch_deg": -91}]}"#,
                "pitch_deg must be degrees between -90 and 90",
            ),
            (
                r#"{"steps": [{"for_s": 1, "pitch_deg": "down"}]}"#,
                "pitch_deg must be a number",
            ),
        ] {
            let e = Script::parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn a_dash_held_in_a_step_is_one_press_and_is_written_back() {
        let s = Script::parse(r#"{"steps": [{"for_s": 0.3, "dash": true}, {"for_s": 0.1, "dash": false}]}"#).unwrap();
        let ticks: Vec<_> = crate::ScriptPlayer::new(&s, 0.1, 0.0).collect();
        assert_eq!(ticks.len(), 4);
        assert!(ticks[0].held.dash && ticks[0].pressed.dash);
        assert!(ticks[1].held.dash && !ticks[1].pressed.dash);
        assert!(!ticks[3].held.dash);
        // Only the dash: the other buttons stay up.
        assert_eq!(
            ticks[0].held,
            crate::Buttons {
                dash: true,
                ..Default::default()
            }
        );
        assert_eq!(Script::parse(&s.to_json()).unwrap(), s);
    }

    #[test]
    fn a_pitch_is_kept_until_changed_and_is_written_back() {
        let s =
            Script::parse(r#"{"steps": [{"for_s": 0.1}, {"for_s": 0.2, "pitch_deg": -45}, {"for_s": 0.1}]}"#).unwrap();
        let pitches: Vec<f32> = crate::ScriptPlayer::new(&s, 0.1, 0.0).map(|t| t.pitch).collect();
        let down = -std::f32::consts::FRAC_PI_4;
        assert_eq!(pitches, vec![0.0, down, down, down]);
        assert_eq!(Script::parse(&s.to_json()).unwrap(), s);
    }
}
