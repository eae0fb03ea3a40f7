//! A door's and a lift's parameters read from a node's extras, each
//! checked against its range (defaults for those not given).

use super::numbers::{optional_number, optional_vec3, positive, shown};
use super::roles::{DoorMotion, DoorSpec, LiftSpec};
use glam::Vec3;
use serde_json::Value;

/// A door's parameters (`"door"`, `"angle_deg"`, `"axis"`, `"slide"`, `"open_s"`, `"trigger_m"`).
pub(super) fn door_spec(extras: &Value) -> Result<DoorSpec, String> {
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

/// A lift's parameters (`"travel"`, `"speed"`, `"pause_s"`).
pub(super) fn lift_spec(extras: &Value) -> Result<LiftSpec, String> {
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
