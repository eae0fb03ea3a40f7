//! The `level_json` target's draw of the moves' and the feel's extras:
//! `"climbable"`, `"launch"`, `"water"` and `"conveyor"` (valid and not)
//! on some nodes. Drawn after everything else, so an older input makes the
//! document it made before (a `bool` drawn from nothing is `false`).

use arbitrary::{Result, Unstructured};
use serde_json::{Value, json};

/// Adds the extras to some of `root`'s nodes; `value` draws any JSON value.
pub(super) fn add(
    u: &mut Unstructured<'_>,
    root: &mut Value,
    value: impl Fn(&mut Unstructured<'_>) -> Result<Value>,
) -> Result<()> {
    if !u.arbitrary::<bool>()? {
        return Ok(());
    }
    let vector = |u: &mut Unstructured<'_>| -> Result<Value> {
        Ok(match u.int_in_range(0u8..=5)? {
            0..=2 => json!([
                f32::from(u.int_in_range(-20i8..=20)?) * 0.5,
                f32::from(u.int_in_range(-20i8..=20)?) * 0.5,
                f32::from(u.int_in_range(-20i8..=20)?) * 0.5
            ]),
            3 => json!([0, 0, 0]),
            4 => json!([1e39, -0.0, 2.0e9]),
            _ => json!([1, 2]),
        })
    };
    for node in root["nodes"].as_array_mut().into_iter().flatten() {
        if !u.arbitrary::<bool>()? {
            continue;
        }
        let (key, v) = match u.int_in_range(0u8..=7)? {
            0 | 1 => ("water", json!(u.ratio(3u8, 4)?)),
            2 | 3 => ("conveyor", vector(u)?),
            4 => ("launch", vector(u)?),
            5 => ("climbable", json!(u.arbitrary::<bool>()?)),
            _ => (*u.choose(&["water", "conveyor", "launch", "climbable"])?, value(u)?),
        };
        if !node["extras"].is_object() {
            node["extras"] = json!({});
        }
        node["extras"][key] = v;
    }
    Ok(())
}
