//! The script format: a scripted walk (or a recording of play) as JSON,
//! played back one fixed tick at a time.
//!
//! ```json
//! {"steps": [{"for_s": 1.5, "move": [0.0, 1.0], "yaw_deg": 90.0,
//!             "jump": false, "crouch": false, "sprint": false, "use": false,
//!             "throw": false}]}
//! ```
//!
//! `move` is [right, forward] in −1..1 relative to the heading; `yaw_deg`
//! is the absolute heading in degrees (0 looks along −z, positive turns
//! left); omitted fields keep their previous value (at the start: no move,
//! the spawn's heading, buttons up). Buttons are "held": a jump held for
//! several ticks jumps once; `throw` held charges a ball, which is thrown
//! when it is let go. Optional top-level fields say where the walk
//! was made: `"level"` (path), `"spawn"` ([x, y, z], the feet),
//! `"tick_hz"`, `"controller"` (the controller's settings, as in the
//! settings file) and `"start"` (the whole simulation state the first step
//! starts from, see [`Start`]; without it the walk starts at the spawn, at
//! rest).

use crate::options::{check_point, check_tick_hz, check_yaw_deg};
use crate::start::Start;
use crate::tuning::{config_from_json, config_to_json};
use controller::ControllerConfig;
use glam::{Vec2, Vec3};
use serde_json::{Map, Value, json};
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
    /// Buttons held; `None` keeps the previous.
    pub buttons: [Option<bool>; BUTTON_COUNT],
}

/// The buttons a script holds, in [`Step::buttons`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buttons {
    /// Jump.
    pub jump: bool,
    /// Crouch.
    pub crouch: bool,
    /// Sprint.
    pub sprint: bool,
    /// Use (open or close a door).
    pub use_key: bool,
    /// Throw a ball (held: charging; let go: thrown).
    pub throw: bool,
}

/// The longest a script may last, seconds (also the longest step).
pub const MAX_SECONDS: f64 = 1e6;

/// How many buttons a script holds.
pub const BUTTON_COUNT: usize = 5;
const BUTTONS: [&str; BUTTON_COUNT] = ["jump", "crouch", "sprint", "use", "throw"];

impl Buttons {
    fn get(&self, i: usize) -> bool {
        [self.jump, self.crouch, self.sprint, self.use_key, self.throw][i]
    }

    fn set(&mut self, i: usize, v: bool) {
        *[
            &mut self.jump,
            &mut self.crouch,
            &mut self.sprint,
            &mut self.use_key,
            &mut self.throw,
        ][i] = v;
    }
}

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
                crate::options::shown(script.seconds())
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
            name => match BUTTONS.iter().position(|b| *b == name) {
                Some(i) => {
                    let Some(b) = value.as_bool() else {
                        return err(format!("{name} must be true or false, got {value}"));
                    };
                    step.buttons[i] = Some(b);
                }
                None => {
                    return err(format!(
                        "unknown field {name:?} (expected for_s, move, yaw_deg, jump, crouch, sprint, use, throw)"
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

/// What the script asks for in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickInput {
    /// [right, forward], each −1..1.
    pub movement: Vec2,
    /// Heading, radians.
    pub yaw: f32,
    /// Buttons held this tick.
    pub held: Buttons,
    /// Buttons pressed this tick (held now, not held the tick before).
    pub pressed: Buttons,
}

/// Plays a script back one tick at a time.
#[derive(Clone, Debug)]
pub struct ScriptPlayer {
    /// Step boundaries: tick index at which each step ends.
    ends: Vec<u64>,
    steps: Vec<Step>,
    /// The step being played (the first whose end is after `tick`).
    index: usize,
    tick: u64,
    current: TickInput,
}

impl ScriptPlayer {
    /// Plays `script` at ticks of `dt` seconds, starting with the heading
    /// `start_yaw` radians, no move and every button up (or as held in the
    /// script's start). A step lasts the ticks whose start falls within it
    /// (its length rounded to ticks).
    pub fn new(script: &Script, dt: f32, start_yaw: f32) -> Self {
        let mut t = 0.0f64;
        let ends = script
            .steps
            .iter()
            .map(|s| {
                t += s.for_s;
                (t / dt as f64).round() as u64
            })
            .collect();
        Self {
            ends,
            steps: script.steps.clone(),
            index: 0,
            tick: 0,
            current: TickInput {
                yaw: start_yaw,
                held: script.start.as_ref().map(|s| s.held).unwrap_or_default(),
                ..TickInput::default()
            },
        }
    }

    /// Ticks in the whole script.
    pub fn total_ticks(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }
}

impl Iterator for ScriptPlayer {
    type Item = TickInput;

    fn next(&mut self) -> Option<TickInput> {
        // The ends only grow: the step moves forward, never back (a search
        // from the first step each tick made an hour's recording, a step a
        // tick, take 25 s instead of 5 to replay).
        while self.ends.get(self.index).is_some_and(|&end| self.tick >= end) {
            self.index += 1;
        }
        let step = self.steps.get(self.index)?;
        let before = self.current.held;
        let mut now = self.current;
        if let Some(m) = step.movement {
            now.movement = m;
        }
        if let Some(y) = step.yaw_deg {
            // In f64: a heading written by `Recorder::exact` reads back bit for bit.
            now.yaw = y.to_radians() as f32;
        }
        for (i, b) in step.buttons.iter().enumerate() {
            if let Some(b) = b {
                now.held.set(i, *b);
            }
        }
        for i in 0..4 {
            now.pressed.set(i, now.held.get(i) && !before.get(i));
        }
        self.current = now;
        self.tick += 1;
        Some(now)
    }
}

/// Records play, tick by tick, as a script (runs of identical input
/// merged into one step).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    script: Script,
    last: Option<(Vec2, f64, Buttons)>,
    dt: f64,
    exact: bool,
}

impl Recorder {
    /// A recorder for ticks of `dt` seconds, made on `level` from `spawn` (the feet).
    pub fn new(dt: f32, level: Option<String>, spawn: Option<Vec3>) -> Self {
        Self {
            script: Script {
                steps: Vec::new(),
                level,
                spawn,
                // 1/dt to a thousandth: 60 Hz is written as 60, not 60.000002.
                tick_hz: Some(((1.0 / dt as f64) * 1000.0).round() as f32 / 1000.0),
                controller: None,
                start: None,
            },
            last: None,
            dt: dt as f64,
            exact: false,
        }
    }

    /// A recorder that keeps headings exactly (for a replay that must end
    /// where the original did) instead of to a thousandth of a degree.
    pub fn exact(self) -> Self {
        Self { exact: true, ..self }
    }

    /// Adds one tick: [right, forward], heading (radians), buttons held.
    pub fn record(&mut self, movement: Vec2, yaw: f32, held: Buttons) {
        // Headings to a thousandth of a degree: steady looks merge.
        let yaw_deg = (yaw as f64).to_degrees();
        let yaw_deg = if self.exact {
            yaw_deg
        } else {
            (yaw_deg * 1000.0).round() / 1000.0
        };
        let now = (movement, yaw_deg, held);
        if self.last == Some(now)
            && let Some(step) = self.script.steps.last_mut()
        {
            step.for_s += self.dt;
            return;
        }
        self.last = Some(now);
        self.script.steps.push(Step {
            for_s: self.dt,
            movement: Some(movement),
            yaw_deg: Some(yaw_deg),
            buttons: [
                Some(held.jump),
                Some(held.crouch),
                Some(held.sprint),
                Some(held.use_key),
                Some(held.throw),
            ],
        });
    }

    /// The script recorded so far.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// The script recorded, to keep.
    pub fn into_script(self) -> Script {
        self.script
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_plays_with_held_values_and_single_jumps() {
        let s = Script::parse(
            r#"{"steps": [
                {"for_s": 0.5, "move": [0, 1], "jump": true},
                {"for_s": 0.5, "yaw_deg": 90},
                {"for_s": 0.1, "jump": false},
                {"for_s": 0.1, "jump": true}
            ]}"#,
        )
        .unwrap();
        let ticks: Vec<TickInput> = ScriptPlayer::new(&s, 0.1, 0.25).collect();
        assert_eq!(ticks.len(), 12);
        assert_eq!(ticks[0].yaw, 0.25);
        assert!(ticks[0].pressed.jump && ticks[0].held.jump);
        // Held through the second step: no second press; movement kept.
        assert!(ticks[1..10].iter().all(|t| !t.pressed.jump));
        assert_eq!(ticks[7].movement, Vec2::new(0.0, 1.0));
        assert!((ticks[7].yaw - 90f32.to_radians()).abs() < 1e-6);
        assert!(ticks[11].pressed.jump);
    }

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
        ] {
            let e = Script::parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn steps_shorter_than_a_tick_are_skipped_and_the_rest_play_in_order() {
        let s = Script::parse(
            r#"{"steps": [
                {"for_s": 0.3, "move": [0, 1]},
                {"for_s": 0.001, "move": [1, 0]},
                {"for_s": 0.2, "move": [-1, 0]},
                {"for_s": 1e-9, "jump": true},
                {"for_s": 0.1, "move": [0, -1]}
            ]}"#,
        )
        .unwrap();
        let moves: Vec<Vec2> = ScriptPlayer::new(&s, 0.1, 0.0).map(|t| t.movement).collect();
        let (f, l, b) = (Vec2::new(0.0, 1.0), Vec2::new(-1.0, 0.0), Vec2::new(0.0, -1.0));
        assert_eq!(moves, vec![f, f, f, l, l, b]);
    }

    #[test]
    fn a_recording_plays_back_the_same_inputs() {
        let mut rec = Recorder::new(1.0 / 60.0, Some("levels/x.glb".into()), Some(Vec3::new(1.0, 0.0, 2.0)));
        let mut inputs = Vec::new();
        for k in 0..200 {
            let held = Buttons {
                jump: (50..55).contains(&k),
                sprint: k > 100,
                ..Buttons::default()
            };
            let movement = if k < 150 {
                Vec2::new(0.0, 1.0)
            } else {
                Vec2::new(-0.5, 0.5)
            };
            let yaw = if k < 120 { 0.0 } else { 0.5 };
            rec.record(movement, yaw, held);
            inputs.push((movement, yaw, held));
        }
        let text = rec.script().to_json();
        let script = Script::parse(&text).unwrap();
        assert_eq!(script.spawn, Some(Vec3::new(1.0, 0.0, 2.0)));
        assert!(script.steps.len() < 10, "{} steps", script.steps.len());
        let played: Vec<TickInput> = ScriptPlayer::new(&script, 1.0 / 60.0, 0.0).collect();
        assert_eq!(played.len(), 200);
        for (p, (m, y, h)) in played.iter().zip(&inputs) {
            assert_eq!((p.movement, p.held), (*m, *h));
            assert!((p.yaw - y).abs() < 1e-4);
        }
    }
}
