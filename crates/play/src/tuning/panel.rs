//! The tuning panel's side: every tunable with its unit, slider range and
//! a one-line explanation, the gravity presets, and the checked changes
//! (one value, the radii, the gravity) that refuse what the controller
//! would not accept, with a message.

use super::tunable::Tunable;
use glam::Vec3;
use slidewalk_controller::{ControllerConfig, MAX_GRAVITY, RADIUS_RANGE};

/// `r` if every radius is within [`RADIUS_RANGE`].
pub(super) fn check_radii(what: &str, r: Vec3) -> Result<Vec3, String> {
    let (lo, hi) = RADIUS_RANGE;
    if r.is_finite() && r.min_element() >= lo && r.max_element() <= hi {
        Ok(r)
    } else {
        Err(format!(
            "{what} must be between {lo} and {hi} m, got ({}, {}, {})",
            r.x, r.y, r.z
        ))
    }
}

/// Every scalar tunable, in the panel's order: the walking rules', then
/// the moves' (variable jump, air jumps, dash, wall slide and jump,
/// mantle, climb), then the feel's (air strafing, stop speed, swimming,
/// crouch-slide, hard landings) and the mass and push force.
pub const TUNABLES: &[Tunable] =
    &joined::<27, 11, 38>(joined::<15, 12, 27>(WALKING, super::moves::MOVES), super::feel::FEEL);

/// `a` then `b`.
const fn joined<const A: usize, const B: usize, const N: usize>(a: [Tunable; A], b: [Tunable; B]) -> [Tunable; N] {
    assert!(A + B == N && A > 0);
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < A { a[i] } else { b[i - A] };
        i += 1;
    }
    out
}

/// The walking rules' tunables.
const WALKING: [Tunable; 15] = [
    tunable!(
        walk_speed,
        "walk speed",
        "m/s",
        0.1,
        30.0,
        "Top speed walking. Higher is brisker."
    ),
    tunable!(
        sprint_speed,
        "sprint speed",
        "m/s",
        0.1,
        50.0,
        "Top speed with Shift held."
    ),
    tunable!(crouch_speed, "crouch speed", "m/s", 0.1, 30.0, "Top speed crouched."),
    tunable!(
        ground_acceleration,
        "acceleration",
        "m/s²",
        0.5,
        500.0,
        "How fast walking speed is gained on normal ground. Lower feels heavier."
    ),
    tunable!(
        ground_friction,
        "friction (braking)",
        "m/s²",
        0.0,
        500.0,
        "How fast the player stops with no input on normal ground (scaled by the surface: ice is 0)."
    ),
    tunable!(
        air_acceleration,
        "air control",
        "m/s²",
        0.0,
        200.0,
        "How fast the input steers in the air; 0 = none."
    ),
    tunable!(
        jump_height,
        "jump height",
        "m",
        0.0,
        10.0,
        "Height of a jump's apex above the take-off."
    ),
    tunable!(
        walkable_slope_deg,
        "walkable slope",
        "°",
        1.0,
        89.0,
        "Steepest slope walked on; steeper surfaces are walls and are slid down."
    ),
    tunable!(
        step_height,
        "step height",
        "m",
        0.0,
        1.5,
        "Tallest riser climbed without jumping; must stay below the crouched y radius."
    ),
    tunable!(
        snap_distance,
        "snap distance",
        "m",
        0.0,
        2.0,
        "How far below the ground is searched after a step: keeps the feet down stairs and over crests."
    ),
    tunable!(
        skin,
        "skin",
        "× radius",
        1e-5,
        0.05,
        "Gap kept from surfaces, as a fraction of the radius. Raise if contacts flicker."
    ),
    Tunable {
        key: "slide_iterations",
        label: "slide iterations",
        unit: "sweeps",
        slider_min: 1.0,
        slider_max: 16.0,
        whole: true,
        help: "Most sweeps per collide-and-slide pass; 4–8 handles creases and corners.",
        get: |c| c.slide_iterations as f32,
        set: |c, v| c.slide_iterations = v as u32,
    },
    tunable!(
        coyote_time,
        "coyote time",
        "s",
        0.0,
        1.0,
        "After leaving a ledge, a jump still works for this long."
    ),
    tunable!(
        jump_buffer,
        "jump buffer",
        "s",
        0.0,
        1.0,
        "A jump pressed this long before landing fires on landing."
    ),
    tunable!(
        max_fall_speed,
        "max fall speed",
        "m/s",
        1.0,
        200.0,
        "Top falling speed."
    ),
];

/// The radius sliders' range, metres (typed values may go further, within
/// [`RADIUS_RANGE`]).
pub const RADIUS_SLIDER: (f32, f32) = (0.05, 3.0);

/// Gravity presets: name and vector, m/s².
pub const GRAVITY_PRESETS: [(&str, Vec3); 4] = [
    ("Earth", Vec3::new(0.0, -9.81, 0.0)),
    ("Moon", Vec3::new(0.0, -1.62, 0.0)),
    ("zero-g", Vec3::ZERO),
    ("sideways", Vec3::new(-9.81, 0.0, 0.0)),
];

/// The tunable called `key`.
pub fn tunable(key: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.key == key)
}

fn checked(config: ControllerConfig) -> Result<ControllerConfig, String> {
    config.validate().map(|_| config).map_err(|e| e.to_string())
}

/// `config` with the tunable `key` set to `value`, or why not.
pub fn set_value(config: &ControllerConfig, key: &str, value: f64) -> Result<ControllerConfig, String> {
    let t = tunable(key).ok_or_else(|| format!("there is no setting called {key:?}"))?;
    let mut c = *config;
    (t.set)(&mut c, t.check(value)?);
    checked(c)
}

/// `config` with new standing radii, metres (x, y, z); the crouched radii
/// keep their x and z equal to the standing ones and their height ratio.
pub fn set_radii(config: &ControllerConfig, standing: Vec3) -> Result<ControllerConfig, String> {
    check_radii("radii", standing)?;
    let ratio = config.crouched_radii.y / config.standing_radii.y;
    let mut c = *config;
    c.standing_radii = standing;
    c.crouched_radii = Vec3::new(standing.x, standing.y * ratio, standing.z);
    checked(c).map_err(|e| {
        if e.starts_with("step_height") {
            format!(
                "{e}: lower the step height first (the crouched y radius would be {:.2} m)",
                c.crouched_radii.y
            )
        } else {
            e
        }
    })
}

/// `config` with gravity along `direction` (any length, not zero unless
/// `magnitude` is 0) of `magnitude` m/s².
pub fn set_gravity(config: &ControllerConfig, direction: Vec3, magnitude: f32) -> Result<ControllerConfig, String> {
    if !magnitude.is_finite() || !(0.0..=MAX_GRAVITY).contains(&magnitude) {
        return Err(format!(
            "gravity must be between 0 and {MAX_GRAVITY} m/s², got {magnitude}"
        ));
    }
    let mut c = *config;
    c.gravity = if magnitude == 0.0 {
        Vec3::ZERO
    } else {
        match direction.try_normalize() {
            Some(d) if direction.is_finite() => d * magnitude,
            _ => return Err("gravity needs a direction (x, y, z not all zero)".into()),
        }
    };
    checked(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_reads_and_writes_its_own_field_within_limits() {
        let base = ControllerConfig::default();
        for t in TUNABLES {
            let d = t.get(&base);
            assert!(
                d >= t.slider_min && d <= t.slider_max,
                "{}: default {d} outside its slider",
                t.key
            );
            let v = if t.whole {
                t.slider_max as f64
            } else {
                (t.slider_min as f64 + d as f64) / 2.0
            };
            // The step height must stay below the crouched y radius.
            let v = if t.key == "step_height" { 0.2 } else { v };
            let c = set_value(&base, t.key, v).unwrap_or_else(|e| panic!("{}: {e}", t.key));
            assert_eq!(t.get(&c), v as f32, "{}", t.key);
            // Only that field changed.
            let back = set_value(&c, t.key, d as f64).unwrap();
            assert_eq!(back, base, "{}", t.key);
        }
    }

    #[test]
    fn every_scalar_field_of_the_config_is_a_tunable() {
        for r in &slidewalk_controller::FIELD_RANGES {
            assert!(tunable(r.field).is_some(), "{} has no tunable", r.field);
        }
        assert_eq!(TUNABLES.len(), slidewalk_controller::FIELD_RANGES.len());
    }

    #[test]
    fn nan_zero_negative_and_absurd_values_are_refused_with_a_message() {
        let base = ControllerConfig::default();
        for (key, value, says) in [
            ("walk_speed", f64::NAN, "must be a number"),
            ("walk_speed", 0.0, "between 0 (exclusive) and 1000"),
            ("walk_speed", -3.0, "between"),
            ("walk_speed", 1e9, "between"),
            ("jump_height", f64::INFINITY, "must be a number"),
            ("slide_iterations", 2.5, "whole number"),
            ("slide_iterations", 0.0, "between 1 and 32"),
            ("slide_iterations", 33.0, "between 1 and 32"),
            ("step_height", 0.6, "step_height"),
            ("wlak_speed", 1.0, "no setting"),
        ] {
            let e = set_value(&base, key, value).unwrap_err();
            assert!(e.contains(says), "{key} = {value}: {e}");
        }
        for r in [
            Vec3::new(0.0, 0.9, 0.4),
            Vec3::new(0.4, -0.9, 0.4),
            Vec3::new(0.4, f32::NAN, 0.4),
            Vec3::splat(150.0),
        ] {
            assert!(set_radii(&base, r).unwrap_err().contains("radii must be"), "{r}");
        }
        // Short enough that the crouched radius falls under the step height.
        assert!(
            set_radii(&base, Vec3::new(0.4, 0.4, 0.4))
                .unwrap_err()
                .contains("step height")
        );
        assert!(set_gravity(&base, Vec3::ZERO, 9.81).unwrap_err().contains("direction"));
        assert!(set_gravity(&base, Vec3::NEG_Y, f32::NAN).is_err());
        assert!(set_gravity(&base, Vec3::NEG_Y, 1e5).is_err());
        assert!(set_gravity(&base, Vec3::splat(f32::NAN), 9.81).is_err());
    }

    #[test]
    fn the_panel_accepts_what_the_controller_validates_and_its_sliders_lie_within() {
        let base = ControllerConfig::default();
        for t in TUNABLES {
            let r = t.accepted();
            assert_eq!(r.whole, t.whole, "{}", t.key);
            assert!(
                r.contains(t.slider_min) && r.contains(t.slider_max),
                "{}: slider {}..{} outside what the controller accepts ({})",
                t.key,
                t.slider_min,
                t.slider_max,
                r.allowed
            );
            // At and around both bounds, the panel says yes exactly when the
            // controller does.
            let probes = [r.min, r.max, t.slider_min, t.slider_max].into_iter().flat_map(|b| {
                let nudge = b.abs().max(1.0) * 1e-3;
                [b - nudge, b, b + nudge, b.next_down(), b.next_up()]
            });
            for v in probes {
                let mut c = base;
                (t.set)(&mut c, v);
                // The step height also has to stay below the crouched radius:
                // judge it with radii it fits under.
                if t.key == "step_height" {
                    c.standing_radii = Vec3::splat(100.0);
                    c.crouched_radii = Vec3::splat(100.0);
                }
                let controller_says = c.validate().is_ok() && (t.get)(&c) == v;
                assert_eq!(
                    t.check(v as f64).is_ok(),
                    controller_says,
                    "{} = {v}: the panel and the controller disagree",
                    t.key
                );
            }
        }
        // Radii and gravity: the controller's own limits.
        for r in [RADIUS_SLIDER.0, RADIUS_SLIDER.1, RADIUS_RANGE.0, RADIUS_RANGE.1] {
            assert!(check_radii("radii", Vec3::splat(r)).is_ok(), "{r}");
        }
        assert!(check_radii("radii", Vec3::splat(RADIUS_RANGE.1.next_up())).is_err());
        assert!(set_gravity(&base, Vec3::NEG_Y, MAX_GRAVITY).is_ok());
        assert!(set_gravity(&base, Vec3::NEG_Y, MAX_GRAVITY.next_up()).is_err());
    }

    #[test]
    fn radii_keep_the_crouch_ratio_and_gravity_is_direction_times_magnitude() {
        let base = ControllerConfig::default();
        let c = set_radii(&base, Vec3::new(0.5, 1.0, 0.5)).unwrap();
        assert_eq!(c.crouched_radii, Vec3::new(0.5, 1.0 * 0.55 / 0.9, 0.5));
        let c = set_gravity(&base, Vec3::new(-2.0, 0.0, 0.0), 5.0).unwrap();
        assert_eq!(c.gravity, Vec3::new(-5.0, 0.0, 0.0));
        assert_eq!(set_gravity(&base, Vec3::ZERO, 0.0).unwrap().gravity, Vec3::ZERO);
        for (name, g) in GRAVITY_PRESETS {
            assert!(set_gravity(&base, g, g.length()).is_ok(), "{name}");
        }
    }
}
