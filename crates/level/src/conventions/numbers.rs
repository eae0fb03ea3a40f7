//! Numbers from a node's extras: finite, within a range, and reported as
//! written when they are not.

use glam::Vec3;
use serde_json::Value;

/// Smallest speed, opening time or trigger distance accepted (m/s, s, m):
/// a lift's cycle (travel / speed) must stay finite in f32. Found by
/// fuzzing (crates/fuzz): `"speed": 1e-50` was greater than zero in f64,
/// 0 in f32, and the lift's cycle was infinite.
const MIN_POSITIVE: f64 = 1e-6;

/// `x` as a message shows it: 1e30, not thirty-one digits.
pub(super) fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-6..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A number, in `f64` so that a value too large for `f32` is reported as
/// written (JSON numbers are finite).
pub(super) fn number(v: &Value, key: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|f| f.is_finite())
        .ok_or(format!("{key} must be a number, got {v}"))
}

pub(super) fn optional_number(extras: &Value, key: &str) -> Result<Option<f64>, String> {
    extras.get(key).map(|v| number(v, key)).transpose()
}

/// An optional number above 0 and at most `max` (`unit` for the message).
pub(super) fn positive(extras: &Value, key: &str, default: f32, max: f32, unit: &str) -> Result<f32, String> {
    match optional_number(extras, key)? {
        None => Ok(default),
        Some(v) if v >= MIN_POSITIVE && v <= max as f64 => Ok(v as f32),
        Some(v) if v > 0.0 && v < MIN_POSITIVE => Err(format!(
            "{key} must be at least {MIN_POSITIVE} {unit}, got {}",
            shown(v)
        )),
        Some(v) => Err(format!(
            "{key} must be greater than zero and at most {max} {unit}, got {}",
            shown(v)
        )),
    }
}

/// An optional `[x, y, z]`, each within ±`limit`.
pub(super) fn optional_vec3(extras: &Value, key: &str, limit: f32) -> Result<Option<Vec3>, String> {
    let Some(v) = extras.get(key) else { return Ok(None) };
    let bad = || format!("{key} must be an array of three numbers, each from -{limit:e} to {limit:e}, got {v}");
    let items = v.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
    let mut out = [0.0f32; 3];
    for (o, item) in out.iter_mut().zip(items) {
        let x = number(item, key).map_err(|_| bad())?;
        if x.abs() > limit as f64 {
            return Err(bad());
        }
        *o = x as f32;
    }
    Ok(Some(Vec3::from_array(out)))
}
