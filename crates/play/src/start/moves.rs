//! The moves' state (`CharacterState::moves`: the dash, mantle, climb,
//! crouch-slide or ledge hang under way, the wall last touched, the
//! counters, the water depth, a hard landing's lag) as JSON, so a recorded
//! start resumes a move exactly where it was.

use super::{get, object, read_bool, read_direction, read_f64, read_index, read_point, read_within, vec3};
use serde_json::{Map, Value, json};
use slidewalk_controller::WaterLevel;
use slidewalk_controller::moves::{Climb, Dash, Hang, Mantle, Move, MoveState, Slide, WallTouch};

/// Longest time a move's clock may say, seconds (the config's times are at
/// most 10 s).
const MOVE_TIME_LIMIT: f64 = 1e9;

fn time(o: &Map<String, Value>, key: &str) -> Result<f32, String> {
    Ok(read_within(o, key, 0.0, MOVE_TIME_LIMIT, " s")? as f32)
}

fn count(o: &Map<String, Value>, key: &str) -> Result<u32, String> {
    u32::try_from(read_index(get(o, key)?, key)?).map_err(|_| format!("\"{key}\" is too large"))
}

/// `key`'s value, or `None` when it is absent or null.
fn optional<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    o.get(key).filter(|v| !v.is_null())
}

/// The water depths by name, shallowest first.
const WATER_LEVELS: [(WaterLevel, &str); 4] = [
    (WaterLevel::Dry, "dry"),
    (WaterLevel::Feet, "feet"),
    (WaterLevel::Waist, "waist"),
    (WaterLevel::Eyes, "eyes"),
];

fn water_name(w: WaterLevel) -> &'static str {
    WATER_LEVELS.iter().find(|(l, _)| *l == w).map_or("dry", |(_, n)| n)
}

/// The water depth in `o` (absent in states saved before water: dry).
fn read_water(o: &Map<String, Value>) -> Result<WaterLevel, String> {
    let Some(v) = optional(o, "water") else {
        return Ok(WaterLevel::Dry);
    };
    let name = v.as_str().unwrap_or_default();
    WATER_LEVELS
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(l, _)| *l)
        .ok_or_else(|| format!("\"water\" must be \"dry\", \"feet\", \"waist\" or \"eyes\", got {v}"))
}

/// The move under way as JSON: `{"dash": ..}`, `{"mantle": ..}`,
/// `{"climb": ..}`, `{"slide": ..}` or `{"hang": ..}`.
fn move_to_json(m: &Move) -> Value {
    match m {
        Move::Dash(d) => json!({"dash": {"direction": vec3(d.direction), "speed": d.speed, "time_left": d.time_left}}),
        Move::Mantle(m) => json!({"mantle": {
            "from": vec3(m.from), "to": vec3(m.to), "clear": m.clear,
            "elapsed": m.elapsed, "duration": m.duration,
        }}),
        Move::Climb(c) => json!({"climb": {"normal": vec3(c.normal), "collider": c.collider, "triangle": c.triangle}}),
        Move::Slide(s) => json!({"slide": {"elapsed": s.elapsed}}),
        Move::Hang(h) => json!({"hang": {"normal": vec3(h.normal), "top": h.top, "armed": h.armed}}),
    }
}

fn move_from_json(v: &Value) -> Result<Move, String> {
    let o = object(v, "\"under_way\"")?;
    if let Some(d) = o.get("dash") {
        let d = object(d, "\"dash\"")?;
        return Ok(Move::Dash(Dash {
            direction: read_direction(d, "direction")?,
            speed: read_within(d, "speed", 0.0, 1e4, " m/s")? as f32,
            time_left: time(d, "time_left")?,
        }));
    }
    if let Some(m) = o.get("mantle") {
        let m = object(m, "\"mantle\"")?;
        let duration = time(m, "duration")?;
        if duration <= 0.0 {
            return Err("\"duration\" must be above 0 s".into());
        }
        return Ok(Move::Mantle(Mantle {
            from: read_point(m, "from")?,
            to: read_point(m, "to")?,
            clear: read_within(m, "clear", 0.0, 1e3, " m")? as f32,
            elapsed: time(m, "elapsed")?,
            duration,
        }));
    }
    if let Some(c) = o.get("climb") {
        let c = object(c, "\"climb\"")?;
        // The collider is absent in states saved before climbers were
        // carried: not known, not carried.
        let collider = optional(c, "collider").map(|v| read_index(v, "collider")).transpose()?;
        let triangle = match optional(c, "triangle") {
            None => 0,
            Some(v) => u32::try_from(read_index(v, "triangle")?)
                .map_err(|_| "\"triangle\" is beyond any level's triangles".to_string())?,
        };
        return Ok(Move::Climb(Climb {
            normal: read_direction(c, "normal")?,
            collider,
            triangle,
        }));
    }
    if let Some(s) = o.get("slide") {
        let s = object(s, "\"slide\"")?;
        return Ok(Move::Slide(Slide {
            elapsed: time(s, "elapsed")?,
        }));
    }
    if let Some(h) = o.get("hang") {
        let h = object(h, "\"hang\"")?;
        return Ok(Move::Hang(Hang {
            normal: read_direction(h, "normal")?,
            top: read_f64(h, "top")? as f32,
            armed: read_bool(h, "armed")?,
        }));
    }
    Err(
        "\"under_way\" must be one of {\"dash\": ..}, {\"mantle\": ..}, {\"climb\": ..}, {\"slide\": ..}, {\"hang\": ..} or null"
            .into(),
    )
}

/// The moves' state as JSON.
pub(super) fn moves_to_json(m: &MoveState) -> Value {
    json!({
        "under_way": m.under_way.as_ref().map(move_to_json),
        "jump_cut": m.jump_cut,
        "air_jumps_used": m.air_jumps_used,
        "air_dashes_used": m.air_dashes_used,
        "dash_cooldown": m.dash_cooldown,
        "wall": m.wall.map(|w| json!({"normal": vec3(w.normal), "since": w.since, "sliding": w.sliding})),
        "wall_jumped_off": m.wall_jumped_off.map(vec3),
        "push_off_height": m.push_off_height,
        "water": water_name(m.water),
        "landing_lag": m.landing_lag,
    })
}

/// The moves' state from JSON; `feet_height` (metres along "up") is the
/// last push-off when the object is absent (a state saved before the moves).
pub(super) fn moves_from_json(v: Option<&Value>, feet_height: f32) -> Result<MoveState, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(MoveState::new(feet_height));
    };
    let o = object(v, "\"moves\"")?;
    let wall = match optional(o, "wall") {
        None => None,
        Some(w) => {
            let w = object(w, "\"wall\"")?;
            Some(WallTouch {
                normal: read_direction(w, "normal")?,
                since: time(w, "since")?,
                sliding: read_bool(w, "sliding")?,
            })
        }
    };
    let wall_jumped_off = match optional(o, "wall_jumped_off") {
        None => None,
        Some(_) => Some(read_direction(o, "wall_jumped_off")?),
    };
    Ok(MoveState {
        under_way: optional(o, "under_way").map(move_from_json).transpose()?,
        jump_cut: match optional(o, "jump_cut") {
            None => None,
            Some(_) => Some(read_within(o, "jump_cut", 0.0, 1e9, " m²/s²")? as f32),
        },
        air_jumps_used: count(o, "air_jumps_used")?,
        air_dashes_used: count(o, "air_dashes_used")?,
        dash_cooldown: time(o, "dash_cooldown")?,
        wall,
        wall_jumped_off,
        push_off_height: read_f64(o, "push_off_height")? as f32,
        // Both absent in states saved before water and hard landings.
        water: read_water(o)?,
        landing_lag: match optional(o, "landing_lag") {
            None => 0.0,
            Some(_) => time(o, "landing_lag")?,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn every_move_under_way_round_trips_and_an_absent_object_is_none() {
        let base = MoveState {
            under_way: None,
            jump_cut: Some(11.5),
            air_jumps_used: 1,
            air_dashes_used: 2,
            dash_cooldown: 0.25,
            wall: Some(WallTouch {
                normal: Vec3::X,
                since: 0.1,
                sliding: true,
            }),
            wall_jumped_off: Some(Vec3::NEG_X),
            push_off_height: 1.25,
            water: WaterLevel::Waist,
            landing_lag: 0.3,
        };
        let under_way = [
            Move::Dash(Dash {
                direction: Vec3::NEG_Z,
                speed: 20.0,
                time_left: 0.05,
            }),
            Move::Mantle(Mantle {
                from: Vec3::ZERO,
                to: Vec3::new(0.0, 0.95, -0.7),
                clear: 0.022,
                elapsed: 0.1,
                duration: 0.35,
            }),
            Move::Climb(Climb {
                normal: Vec3::Z,
                collider: Some(2),
                triangle: 7,
            }),
            Move::Climb(Climb {
                normal: Vec3::X,
                collider: None,
                triangle: 0,
            }),
            Move::Slide(Slide { elapsed: 0.4 }),
            Move::Hang(Hang {
                normal: Vec3::NEG_X,
                top: 2.5,
                armed: true,
            }),
        ];
        for m in under_way.map(|u| MoveState {
            under_way: Some(u),
            ..base
        }) {
            let text = moves_to_json(&m).to_string();
            let back = moves_from_json(Some(&serde_json::from_str(&text).unwrap()), 0.0).unwrap();
            assert_eq!(back, m);
        }
        let m = base;
        let text = moves_to_json(&m).to_string();
        let back = moves_from_json(Some(&serde_json::from_str(&text).unwrap()), 0.0).unwrap();
        assert_eq!(back, m);
        assert_eq!(moves_from_json(None, 2.0).unwrap(), MoveState::new(2.0));
        // A bad value names itself.
        let bad = json!({"air_jumps_used": -1, "air_dashes_used": 0, "dash_cooldown": 0, "push_off_height": 0});
        let e = moves_from_json(Some(&bad), 0.0).unwrap_err();
        assert!(e.contains("air_jumps_used"), "{e}");
        // Saved before water and hard landings: dry, no lag.
        let old = json!({"air_jumps_used": 0, "air_dashes_used": 0, "dash_cooldown": 0, "push_off_height": 0});
        let back = moves_from_json(Some(&old), 0.0).unwrap();
        assert_eq!((back.water, back.landing_lag), (WaterLevel::Dry, 0.0));
        let wet = json!({"air_jumps_used": 0, "air_dashes_used": 0, "dash_cooldown": 0, "push_off_height": 0,
            "water": "knees"});
        assert!(moves_from_json(Some(&wet), 0.0).unwrap_err().contains("\"water\""));
    }
}
