//! The extras that give a surface a move of the character's: `"climbable"`
//! (its faces can be climbed) and `"launch"` (its top is a launch pad that
//! gives a character standing on it a velocity), and the rules they keep
//! on one node.

use super::numbers::shown;
use super::roles::{AnalyticKind, Role, SensorKind};
use glam::{DVec3, Vec3};
use serde_json::Value;

/// Fastest `"launch"` velocity accepted, m/s: the character controller's
/// speed limit (every speed in `slidewalk_controller`'s `FIELD_RANGES`,
/// `max_fall_speed` among them, is at most 1000 m/s), so a pad never gives
/// a character a speed its configuration could not have.
pub const MAX_LAUNCH_SPEED: f32 = 1000.0;

/// The `"climbable"` extra, if any (`true` or `false`).
pub(super) fn read_climbable(extras: &Value) -> Result<Option<bool>, String> {
    match extras.get("climbable") {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("\"climbable\" must be true or false, got {other}")),
    }
}

/// The `"launch"` extra, if any: `[x, y, z]`, a world velocity in m/s, not
/// zero and at most [`MAX_LAUNCH_SPEED`] long.
pub(super) fn read_launch(extras: &Value) -> Result<Option<Vec3>, String> {
    let Some(v) = extras.get("launch") else { return Ok(None) };
    let items = v
        .as_array()
        .filter(|a| a.len() == 3)
        .and_then(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
        .filter(|xs| xs.iter().all(|x| x.is_finite()))
        .ok_or_else(|| {
            format!("\"launch\" must be an array of three numbers [x, y, z] (a velocity in m/s), got {v}")
        })?;
    let velocity = DVec3::new(items[0], items[1], items[2]);
    // Not `length()`: 1e300 squared overflows.
    let speed = items[0].hypot(items[1]).hypot(items[2]);
    if speed > MAX_LAUNCH_SPEED as f64 {
        return Err(format!(
            "\"launch\" is {} m/s, faster than {MAX_LAUNCH_SPEED} m/s (the character controller's speed limit)",
            shown(speed)
        ));
    }
    let velocity = velocity.as_vec3();
    if velocity.length() == 0.0 {
        return Err(format!(
            "\"launch\" must not be zero: a pad gives a character the velocity, got {v}"
        ));
    }
    Ok(Some(velocity))
}

/// The rules `"climbable"` and `"launch"` keep on one node: only geometry
/// that collides can be climbed, a launch pad is static (and not a
/// sensor), and neither goes with an analytic collider (whose triangles
/// stay in the static collider).
pub(super) fn check_moves(
    role: &Role,
    role_word: &str,
    collider: Option<AnalyticKind>,
    sensor: Option<&SensorKind>,
    climbable: Option<bool>,
    launch: Option<Vec3>,
) -> Result<(), String> {
    if climbable.is_some() && matches!(role, Role::Spawn | Role::NoCollide) {
        return Err(format!(
            "\"climbable\" is for geometry that collides, not a {role_word} node"
        ));
    }
    if launch.is_some() && *role != Role::Static {
        return Err(format!(
            "\"launch\" is for a static node with a mesh, not a {role_word} node (a launch pad does not move)"
        ));
    }
    if let Some(kind) = sensor {
        for (given, key) in [(climbable.is_some(), "climbable"), (launch.is_some(), "launch")] {
            if given {
                return Err(format!(
                    "\"sensor\": {:?} and \"{key}\" cannot go together: a sensor is not solid",
                    kind.word()
                ));
            }
        }
    }
    if let (Some(kind), true) = (collider, climbable == Some(true) || launch.is_some()) {
        return Err(format!(
            "\"collider\": {:?} cannot go with \"climbable\" or \"launch\": an analytic collider's triangles stay in the level's static collider",
            kind.word()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn climbable_is_a_boolean() {
        assert_eq!(read_climbable(&json!({"climbable": true})), Ok(Some(true)));
        assert_eq!(read_climbable(&json!({"climbable": false})), Ok(Some(false)));
        assert_eq!(read_climbable(&json!({})), Ok(None));
        for bad in [json!(1), json!("yes"), json!(null), json!([true])] {
            let e = read_climbable(&json!({ "climbable": bad })).unwrap_err();
            assert!(e.contains("\"climbable\" must be true or false"), "{e}");
        }
    }

    #[test]
    fn launch_is_a_finite_velocity_within_the_speed_limit() {
        let launch = |v: Value| read_launch(&json!({ "launch": v }));
        assert_eq!(launch(json!([0.0, 12.0, 0.0])), Ok(Some(Vec3::new(0.0, 12.0, 0.0))));
        assert_eq!(launch(json!([3, -4, 0])), Ok(Some(Vec3::new(3.0, -4.0, 0.0))));
        // The limit itself is accepted.
        assert_eq!(launch(json!([0, 0, 1000])), Ok(Some(Vec3::new(0.0, 0.0, 1000.0))));
        assert_eq!(read_launch(&json!({})), Ok(None));
        for (bad, says) in [
            (json!([0, 12]), "must be an array of three numbers"),
            (json!([0, 12, 0, 0]), "must be an array of three numbers"),
            (json!(12), "must be an array of three numbers"),
            (json!(["up", 0, 0]), "must be an array of three numbers"),
            (json!([0, null, 0]), "must be an array of three numbers"),
            (json!([0, 1000.5, 0]), "is 1000.5 m/s, faster than 1000 m/s"),
            (json!([800, 800, 0]), "faster than 1000 m/s"),
            (json!([0, 1e300, 0]), "is 1e300 m/s"),
            (json!([0, 0, 0]), "must not be zero"),
            (json!([0, 1e-300, 0]), "must not be zero"),
        ] {
            let e = launch(bad.clone()).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
