//! The extras that move a character by where it is: `"water"` (its mesh
//! is a volume of water the character wades and swims in, not solid) and
//! `"conveyor"` (its surface carries what stands on it), and the rules
//! they keep on one node.

use super::numbers::shown;
use super::roles::{AnalyticKind, Role, SensorKind};
use glam::{DVec3, Vec3};
use serde_json::Value;
use slidewalk_sweep::proxy::ProxyShape;

/// Fastest `"conveyor"` surface velocity accepted, m/s: a lift's top
/// speed (`"speed"` of a lift is at most 100 m/s), the fastest any
/// surface of a level moves.
pub const MAX_CONVEYOR_SPEED: f32 = 100.0;

/// The `"water"` extra, if any (`true` or `false`).
pub(super) fn read_water(extras: &Value) -> Result<Option<bool>, String> {
    match extras.get("water") {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("\"water\" must be true or false, got {other}")),
    }
}

/// The `"conveyor"` extra, if any: `[x, y, z]`, a surface velocity in m/s
/// in the node's own frame, not zero and at most [`MAX_CONVEYOR_SPEED`] long.
pub(super) fn read_conveyor(extras: &Value) -> Result<Option<Vec3>, String> {
    let Some(v) = extras.get("conveyor") else {
        return Ok(None);
    };
    let items = v
        .as_array()
        .filter(|a| a.len() == 3)
        .and_then(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
        .filter(|xs| xs.iter().all(|x| x.is_finite()))
        .ok_or_else(|| {
            format!(
                "\"conveyor\" must be an array of three numbers [x, y, z] (a velocity in m/s in the node's frame), got {v}"
            )
        })?;
    // Not `length()`: 1e300 squared overflows.
    let speed = items[0].hypot(items[1]).hypot(items[2]);
    if speed > MAX_CONVEYOR_SPEED as f64 {
        return Err(format!(
            "\"conveyor\" is {} m/s, faster than {MAX_CONVEYOR_SPEED} m/s",
            shown(speed)
        ));
    }
    let velocity = DVec3::new(items[0], items[1], items[2]).as_vec3();
    if velocity.length() == 0.0 {
        return Err(format!(
            "\"conveyor\" must not be zero: its surface carries a character at that velocity, got {v}"
        ));
    }
    Ok(Some(velocity))
}

/// What else a node says, for [`check_flows`].
pub(super) struct Others<'a> {
    pub collider: Option<AnalyticKind>,
    pub proxy: Option<ProxyShape>,
    pub one_way: Option<bool>,
    pub sensor: Option<&'a SensorKind>,
    pub climbable: Option<bool>,
    pub launch: Option<Vec3>,
}

/// The rules `"water"` and `"conveyor"` keep on one node: both are for
/// static nodes; water is not solid (so nothing that needs triangles to
/// meet goes with it, nor another sensor), and a conveyor is solid (not a
/// sensor) and keeps its own triangles (not an analytic collider).
pub(super) fn check_flows(
    role: &Role,
    role_word: &str,
    water: Option<bool>,
    conveyor: Option<Vec3>,
    others: &Others,
) -> Result<(), String> {
    if water == Some(true) {
        if *role != Role::Static {
            return Err(format!(
                "\"water\" is for a static node with a mesh, not a {role_word} node"
            ));
        }
        for (given, key) in [
            (others.sensor.is_some(), "sensor"),
            (others.collider.is_some(), "collider"),
            (others.proxy.is_some(), "proxy"),
            (others.one_way.is_some(), "one_way"),
            (others.climbable.is_some(), "climbable"),
            (others.launch.is_some(), "launch"),
            (conveyor.is_some(), "conveyor"),
        ] {
            if given {
                return Err(format!(
                    "\"water\" and \"{key}\" cannot go together: a water volume is not solid"
                ));
            }
        }
    }
    if conveyor.is_some() {
        if *role != Role::Static {
            return Err(format!(
                "\"conveyor\" is for a static node with a mesh, not a {role_word} node (a conveyor's surface moves, not the node)"
            ));
        }
        if let Some(kind) = others.sensor {
            return Err(format!(
                "\"sensor\": {:?} and \"conveyor\" cannot go together: a sensor is not solid",
                kind.word()
            ));
        }
        if let Some(kind) = others.collider {
            return Err(format!(
                "\"collider\": {:?} cannot go with \"conveyor\": an analytic collider's triangles stay in the level's static collider",
                kind.word()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn water_is_a_boolean() {
        assert_eq!(read_water(&json!({"water": true})), Ok(Some(true)));
        assert_eq!(read_water(&json!({"water": false})), Ok(Some(false)));
        assert_eq!(read_water(&json!({})), Ok(None));
        for bad in [json!(1), json!("yes"), json!(null), json!([true])] {
            let e = read_water(&json!({ "water": bad })).unwrap_err();
            assert!(e.contains("\"water\" must be true or false"), "{e}");
        }
    }

    #[test]
    fn conveyor_is_a_finite_velocity_within_the_speed_limit() {
        let conveyor = |v: Value| read_conveyor(&json!({ "conveyor": v }));
        assert_eq!(conveyor(json!([2.0, 0.0, 0.0])), Ok(Some(Vec3::new(2.0, 0.0, 0.0))));
        assert_eq!(conveyor(json!([0, 0, -1.5])), Ok(Some(Vec3::new(0.0, 0.0, -1.5))));
        // The limit itself is accepted.
        assert_eq!(conveyor(json!([0, 0, 100])), Ok(Some(Vec3::new(0.0, 0.0, 100.0))));
        assert_eq!(read_conveyor(&json!({})), Ok(None));
        for (bad, says) in [
            (json!([2, 0]), "must be an array of three numbers"),
            (json!([2, 0, 0, 0]), "must be an array of three numbers"),
            (json!(2), "must be an array of three numbers"),
            (json!(["east", 0, 0]), "must be an array of three numbers"),
            (json!([0, null, 0]), "must be an array of three numbers"),
            (json!([100.5, 0, 0]), "is 100.5 m/s, faster than 100 m/s"),
            (json!([80, 80, 0]), "faster than 100 m/s"),
            (json!([1e300, 0, 0]), "is 1e300 m/s"),
            (json!([0, 0, 0]), "must not be zero"),
            (json!([1e-300, 0, 0]), "must not be zero"),
        ] {
            let e = conveyor(bad.clone()).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
