//! The extras that say who meets a node's triangles and how: `"one_way"`
//! (solid from the front only), `"layers"` (which bodies it stops) and
//! `"sensor"` (not solid at all: a volume that reports who is inside).

use super::roles::{AnalyticKind, Role, SensorKind};
use crate::layers::{LAYER_NAMES, layer_number};
use serde_json::Value;
use slidewalk_sweep::CollisionLayers;
use slidewalk_sweep::proxy::ProxyShape;

/// The `"one_way"` extra, if any (`true` or `false`).
pub(super) fn read_one_way(extras: &Value) -> Result<Option<bool>, String> {
    match extras.get("one_way") {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("\"one_way\" must be true or false, got {other}")),
    }
}

/// The `"sensor"` extra, if any (a non-empty string).
pub(super) fn read_sensor(extras: &Value) -> Result<Option<SensorKind>, String> {
    match extras.get("sensor") {
        None => Ok(None),
        Some(Value::String(word)) => SensorKind::from_word(word)
            .map(Some)
            .ok_or_else(|| format!("\"sensor\" needs a name (\"kill\", \"checkpoint\" or your own), got {word:?}")),
        Some(other) => Err(format!(
            "\"sensor\" must be a name (\"kill\", \"checkpoint\" or your own), got {other}"
        )),
    }
}

/// The `"layers"` extra, if any: `{"member": [..], "collides": [..]}`,
/// each list of layer names or numbers 0 to 31, absent = all 32 layers.
pub(super) fn read_layers(extras: &Value) -> Result<Option<CollisionLayers>, String> {
    let Some(v) = extras.get("layers") else { return Ok(None) };
    let Value::Object(map) = v else {
        return Err(format!(
            "\"layers\" must be an object like {{\"member\": [\"world\"], \"collides\": [\"crowd\", \"balls\"]}}, got {v}"
        ));
    };
    if let Some(key) = map.keys().find(|k| !matches!(k.as_str(), "member" | "collides")) {
        return Err(format!(
            "unknown key {key:?} in \"layers\" (expected \"member\" or \"collides\")"
        ));
    }
    let memberships = mask(map.get("member"), "member")?;
    let filters = mask(map.get("collides"), "collides")?;
    Ok(Some(CollisionLayers::new(memberships, filters)))
}

/// One list of `"layers"` as a bit mask (all bits when absent).
fn mask(list: Option<&Value>, key: &str) -> Result<u32, String> {
    let Some(list) = list else { return Ok(u32::MAX) };
    let items = list
        .as_array()
        .ok_or_else(|| format!("\"layers\" \"{key}\" must be a list of layer names or numbers 0 to 31, got {list}"))?;
    let mut bits = 0u32;
    for item in items {
        let number = match item {
            Value::String(name) => layer_number(name).ok_or_else(|| {
                format!(
                    "unknown layer {name:?} in \"layers\" \"{key}\" (expected {} or a number 0 to 31)",
                    LAYER_NAMES.map(|(n, _)| n).join(", ")
                )
            })?,
            Value::Number(n) => n
                .as_u64()
                .filter(|&n| n <= 31)
                .ok_or_else(|| format!("layer {n} in \"layers\" \"{key}\" is not a whole number from 0 to 31"))?
                as u32,
            other => {
                return Err(format!(
                    "layer {other} in \"layers\" \"{key}\" must be a layer name or a number 0 to 31"
                ));
            }
        };
        bits |= 1 << number;
    }
    Ok(bits)
}

/// The rules `"one_way"`, `"layers"` and `"sensor"` keep on one node: a
/// sensor is static and not solid, spawn and no-collide nodes do not
/// collide, an analytic collider stays in the static collider.
pub(super) fn check_filtering(
    role: &Role,
    role_word: &str,
    collider: Option<AnalyticKind>,
    proxy: Option<ProxyShape>,
    one_way: Option<bool>,
    layers: bool,
    sensor: Option<&SensorKind>,
) -> Result<(), String> {
    if let Some(kind) = sensor {
        if *role != Role::Static {
            return Err(format!(
                "\"sensor\": {:?} is for a static node with a mesh, not a {role_word} node",
                kind.word()
            ));
        }
        for (given, key) in [
            (collider.is_some(), "collider"),
            (proxy.is_some(), "proxy"),
            (one_way.is_some(), "one_way"),
        ] {
            if given {
                return Err(format!(
                    "\"sensor\": {:?} and \"{key}\" cannot go together: a sensor is not solid",
                    kind.word()
                ));
            }
        }
    }
    if (one_way.is_some() || layers) && matches!(role, Role::Spawn | Role::NoCollide) {
        let key = if one_way.is_some() { "one_way" } else { "layers" };
        return Err(format!(
            "\"{key}\" is for geometry that collides, not a {role_word} node"
        ));
    }
    if let (Some(kind), true) = (collider, one_way == Some(true) || layers) {
        return Err(format!(
            "\"collider\": {:?} cannot go with \"one_way\" or \"layers\": an analytic collider's triangles stay in the level's static collider",
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
    fn layers_by_name_and_number() {
        let layers = |v: Value| read_layers(&json!({ "layers": v }));
        assert_eq!(
            layers(json!({"member": ["world"], "collides": ["crowd", "Balls"]})),
            Ok(Some(CollisionLayers::new(0b1, 0b1100)))
        );
        assert_eq!(
            layers(json!({"collides": [1, 31]})),
            Ok(Some(CollisionLayers::new(u32::MAX, 0b10 | 1 << 31)))
        );
        assert_eq!(layers(json!({})), Ok(Some(CollisionLayers::ALL)));
        assert_eq!(
            layers(json!({"member": []})),
            Ok(Some(CollisionLayers::new(0, u32::MAX)))
        );
        assert_eq!(read_layers(&json!({})), Ok(None));
        let err = |v: Value| layers(v).unwrap_err();
        assert!(err(json!({"collides": ["ghosts"]})).contains("unknown layer \"ghosts\" in \"layers\" \"collides\""));
        assert!(err(json!({"member": [32]})).contains("layer 32 in \"layers\" \"member\" is not a whole number"));
        assert!(err(json!({"member": [-1]})).contains("layer -1 "));
        assert!(err(json!({"member": [1.5]})).contains("layer 1.5 "));
        assert!(err(json!({"member": [true]})).contains("must be a layer name or a number"));
        assert!(err(json!({"member": "world"})).contains("must be a list of layer names"));
        assert!(err(json!({"members": ["world"]})).contains("unknown key \"members\""));
        assert!(err(json!(["world"])).contains("\"layers\" must be an object"));
    }

    #[test]
    fn one_way_is_a_boolean_and_a_sensor_a_name() {
        assert_eq!(read_one_way(&json!({"one_way": true})), Ok(Some(true)));
        assert_eq!(read_one_way(&json!({"one_way": false})), Ok(Some(false)));
        assert!(
            read_one_way(&json!({"one_way": 1}))
                .unwrap_err()
                .contains("true or false, got 1")
        );
        assert!(read_one_way(&json!({"one_way": "yes"})).is_err());
        assert_eq!(read_sensor(&json!({"sensor": "Kill"})), Ok(Some(SensorKind::Kill)));
        assert_eq!(
            read_sensor(&json!({"sensor": "checkpoint"})),
            Ok(Some(SensorKind::Checkpoint))
        );
        assert_eq!(
            read_sensor(&json!({"sensor": "Bell tower"})),
            Ok(Some(SensorKind::Named("Bell tower".into())))
        );
        assert!(
            read_sensor(&json!({"sensor": ""}))
                .unwrap_err()
                .contains("needs a name")
        );
        assert!(
            read_sensor(&json!({"sensor": "  "}))
                .unwrap_err()
                .contains("needs a name")
        );
        assert!(
            read_sensor(&json!({"sensor": 3}))
                .unwrap_err()
                .contains("must be a name")
        );
        for kind in [
            SensorKind::Kill,
            SensorKind::Checkpoint,
            SensorKind::Named("bell".into()),
        ] {
            assert_eq!(SensorKind::from_word(kind.word()), Some(kind));
        }
    }
}
