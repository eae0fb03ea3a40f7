//! The whole controller configuration as JSON (the settings file's and a
//! script's `"controller"`): written exactly, read back with each value
//! checked like a panel edit. Numbers are [`TUNABLES`], `true`/`false`
//! the [`SWITCHES`], `"platform_momentum"` a name (`"all"`,
//! `"horizontal"`, `"none"`).

use super::panel::{TUNABLES, check_radii, tunable};
use super::switches::{PLATFORM_MOMENTUM_KEY, SWITCHES, platform_momentum, switch};
use glam::Vec3;
use serde_json::{Map, Value, json};
use slidewalk_controller::{ControllerConfig, MAX_GRAVITY};

fn vec3(v: Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn read_vec3(v: &Value) -> Option<Vec3> {
    let a = v.as_array().filter(|a| a.len() == 3)?;
    let xyz: Vec<f32> = a.iter().filter_map(|x| x.as_f64()).map(|x| x as f32).collect();
    (xyz.len() == 3).then(|| Vec3::new(xyz[0], xyz[1], xyz[2]))
}

/// The whole configuration as a JSON object (every field, exact).
pub fn config_to_json(c: &ControllerConfig) -> Value {
    let mut m = Map::new();
    m.insert("standing_radii".into(), vec3(c.standing_radii));
    m.insert("crouched_radii".into(), vec3(c.crouched_radii));
    m.insert("gravity".into(), vec3(c.gravity));
    for t in TUNABLES {
        let v = t.get(c);
        m.insert(t.key.into(), if t.whole { json!(v as u32) } else { json!(v) });
    }
    for s in SWITCHES {
        m.insert(s.key.into(), json!(s.get(c)));
    }
    m.insert(PLATFORM_MOMENTUM_KEY.into(), json!(c.platform_momentum.name()));
    Value::Object(m)
}

/// A configuration from JSON, each value checked like a panel edit:
/// missing keys keep the default, a bad value keeps the default and adds a
/// warning naming it. If the whole still does not validate, the defaults.
pub fn config_from_json(v: &Value) -> (ControllerConfig, Vec<String>) {
    let mut warnings = Vec::new();
    let defaults = ControllerConfig::default();
    let Some(obj) = v.as_object() else {
        return (
            defaults,
            vec![format!("controller settings must be an object, got {v}")],
        );
    };
    let mut c = defaults;
    // Radii and gravity as given, checked with the rest at the end: the
    // order of keys must not matter.
    for (key, value) in obj {
        let vector = || read_vec3(value).ok_or_else(|| format!("{key} must be [x, y, z], got {value}"));
        let result = match key.as_str() {
            "standing_radii" => vector().and_then(|r| check_radii(key, r)).map(|r| c.standing_radii = r),
            "crouched_radii" => vector().and_then(|r| check_radii(key, r)).map(|r| c.crouched_radii = r),
            "gravity" => vector().and_then(|g| {
                if g.is_finite() && g.length() <= MAX_GRAVITY {
                    c.gravity = g;
                    Ok(())
                } else {
                    Err(format!("gravity must be at most {MAX_GRAVITY} m/s², got {value}"))
                }
            }),
            PLATFORM_MOMENTUM_KEY => value
                .as_str()
                .ok_or_else(|| format!("{key} must be a name (\"all\", \"horizontal\" or \"none\"), got {value}"))
                .and_then(platform_momentum)
                .map(|m| c.platform_momentum = m),
            other => match (tunable(other), switch(other)) {
                (Some(t), _) => value
                    .as_f64()
                    .ok_or_else(|| format!("{} must be a number, got {value}", t.key))
                    .and_then(|x| t.check(x).map_err(|e| format!("{}: {e}", t.key)))
                    .map(|x| (t.set)(&mut c, x)),
                (None, Some(s)) => value
                    .as_bool()
                    .ok_or_else(|| format!("{} must be true or false, got {value}", s.key))
                    .map(|on| (s.set)(&mut c, on)),
                (None, None) => Err(format!("unknown setting {other:?}")),
            },
        };
        if let Err(e) = result {
            warnings.push(e);
        }
    }
    if let Err(e) = c.validate() {
        warnings.push(format!("{e}; using the default controller settings"));
        c = defaults;
    }
    (c, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::panel::{set_gravity, set_radii, set_value};
    use slidewalk_controller::PlatformMomentum;

    #[test]
    fn the_json_form_round_trips_and_bad_values_fall_back_with_warnings() {
        let mut c = set_radii(&ControllerConfig::default(), Vec3::new(0.3, 0.8, 0.35)).unwrap();
        c = set_gravity(&c, Vec3::new(0.3, -1.0, 0.2), 7.0).unwrap();
        c = set_value(&c, "slide_iterations", 7.0).unwrap();
        c = set_value(&c, "walk_speed", 3.3).unwrap();
        // The feel's numbers, the switches and the platform momentum too.
        c = set_value(&c, "air_speed_cap", 0.76).unwrap();
        c = set_value(&c, "hard_landing_time", 0.35).unwrap();
        c = set_value(&c, "max_push_force", 1234.5).unwrap();
        c.auto_hop = true;
        c.ledge_grab = true;
        c.pushed_mass_slows = false;
        c.platform_momentum = PlatformMomentum::Horizontal;
        let text = config_to_json(&c).to_string();
        let (back, warnings) = config_from_json(&serde_json::from_str(&text).unwrap());
        assert_eq!(back, c);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (back, warnings) = config_from_json(&json!({
            "walk_speed": "fast", "jump_height": -1, "gravity": [0, 1e9, 0],
            "sprint_speed": 9.0, "colour": 3
        }));
        assert_eq!(back.sprint_speed, 9.0);
        assert_eq!(back.walk_speed, 4.5);
        assert_eq!(back.jump_height, 1.0);
        assert_eq!(back.gravity, ControllerConfig::default().gravity);
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        let text = config_to_json(&c);
        assert_eq!(text["platform_momentum"], json!("horizontal"));
        assert_eq!(text["auto_hop"], json!(true));
        assert_eq!(text["pushed_mass_slows"], json!(false));
        // A bad switch or mode: the default for it and a warning naming the key.
        let (back, warnings) = config_from_json(&json!({
            "auto_hop": "yes", "ledge_grab": true, "platform_momentum": "sideways", "pushed_mass_slows": 0
        }));
        assert!(back.ledge_grab && !back.auto_hop && back.pushed_mass_slows);
        assert_eq!(back.platform_momentum, PlatformMomentum::All);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        for key in ["auto_hop", "platform_momentum", "pushed_mass_slows"] {
            assert!(warnings.iter().any(|w| w.starts_with(key)), "{key}: {warnings:?}");
        }
        let (back, warnings) = config_from_json(&json!({"platform_momentum": 1, "air_speed_cap": -1}));
        assert_eq!(back, ControllerConfig::default());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with("platform_momentum must be a name"))
        );
        assert!(warnings.iter().any(|w| w.starts_with("air_speed_cap")), "{warnings:?}");
        let (back, _) = config_from_json(&json!({"platform_momentum": "none"}));
        assert_eq!(back.platform_momentum, PlatformMomentum::None);
        // Values that pass one by one but not together: the defaults.
        let (back, warnings) = config_from_json(&json!({"step_height": 1.0}));
        assert_eq!(back, ControllerConfig::default());
        assert!(warnings[0].contains("default"), "{warnings:?}");
    }
}
