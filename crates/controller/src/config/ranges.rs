//! What each scalar field of [`ControllerConfig`] accepts
//! ([`FIELD_RANGES`]): the validation's limits, and a tuning panel's.

use super::{ControllerConfig, MAX_MOVE_SPEED, RADIUS_RANGE};

/// What [`ControllerConfig::validate`] accepts for one scalar field, on its
/// own (the step height must also stay below the smaller y radius). A tuning
/// panel takes its limits from here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldRange {
    /// The field's name.
    pub field: &'static str,
    /// Lower bound.
    pub min: f32,
    /// The lower bound itself is refused (values must be greater).
    pub min_exclusive: bool,
    /// Upper bound.
    pub max: f32,
    /// The upper bound itself is refused (values must be smaller).
    pub max_exclusive: bool,
    /// Whole numbers only.
    pub whole: bool,
    /// The range in words, as errors say it.
    pub allowed: &'static str,
}

impl FieldRange {
    /// `min ..= max`.
    const fn new(field: &'static str, min: f32, max: f32, allowed: &'static str) -> Self {
        Self {
            field,
            min,
            min_exclusive: false,
            max,
            max_exclusive: false,
            whole: false,
            allowed,
        }
    }

    /// Whether `value` is accepted (NaN is not).
    pub fn contains(&self, value: f32) -> bool {
        let above = if self.min_exclusive {
            value > self.min
        } else {
            value >= self.min
        };
        let below = if self.max_exclusive {
            value < self.max
        } else {
            value <= self.max
        };
        above && below && (!self.whole || value.fract() == 0.0)
    }

    /// The range of the field called `field`, if it is a scalar field.
    pub fn of(field: &str) -> Option<&'static FieldRange> {
        FIELD_RANGES.iter().find(|r| r.field == field)
    }
}

/// A speed or acceleration: above 0, at most 1000.
const fn speed(field: &'static str) -> FieldRange {
    FieldRange {
        min_exclusive: true,
        ..FieldRange::new(field, 0.0, MAX_MOVE_SPEED, "between 0 (exclusive) and 1000")
    }
}

/// A count: a whole number from 0 to 100.
const fn count(field: &'static str) -> FieldRange {
    FieldRange {
        whole: true,
        ..FieldRange::new(field, 0.0, 100.0, "a whole number between 0 and 100")
    }
}

/// Every scalar field's accepted range.
pub const FIELD_RANGES: [FieldRange; 38] = {
    const RATE: &str = "between 0 and 1000";
    const SECONDS: &str = "between 0 and 10 s";
    [
        speed("walk_speed"),
        speed("sprint_speed"),
        speed("crouch_speed"),
        speed("ground_acceleration"),
        FieldRange::new("ground_friction", 0.0, 1000.0, RATE),
        FieldRange::new("air_acceleration", 0.0, 1000.0, RATE),
        FieldRange::new("jump_height", 0.0, 100.0, "between 0 and 100 m"),
        FieldRange {
            min_exclusive: true,
            max_exclusive: true,
            ..FieldRange::new("walkable_slope_deg", 0.0, 90.0, "between 0° and 90° (exclusive)")
        },
        FieldRange {
            max_exclusive: true,
            ..FieldRange::new(
                "step_height",
                0.0,
                RADIUS_RANGE.1,
                "at least 0 and below the smaller y radius",
            )
        },
        FieldRange::new("snap_distance", 0.0, 10.0, "between 0 and 10 m"),
        FieldRange::new("skin", 1e-5, 0.05, "between 0.00001 and 0.05 of the radius"),
        FieldRange {
            whole: true,
            ..FieldRange::new("slide_iterations", 1.0, 32.0, "between 1 and 32")
        },
        FieldRange::new("coyote_time", 0.0, 10.0, SECONDS),
        FieldRange::new("jump_buffer", 0.0, 10.0, SECONDS),
        speed("max_fall_speed"),
        FieldRange::new("min_jump_height", 0.0, 100.0, "between 0 and 100 m"),
        count("air_jumps"),
        FieldRange::new("dash_distance", 0.0, 100.0, "between 0 and 100 m"),
        FieldRange {
            min_exclusive: true,
            ..FieldRange::new("dash_time", 0.0, 10.0, "between 0 (exclusive) and 10 s")
        },
        FieldRange::new("dash_cooldown", 0.0, 10.0, SECONDS),
        count("air_dashes"),
        FieldRange::new("wall_slide_speed", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("wall_jump_height", 0.0, 100.0, "between 0 and 100 m"),
        FieldRange::new("wall_jump_push", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("mantle_height", 0.0, 100.0, "between 0 and 100 m"),
        FieldRange {
            min_exclusive: true,
            ..FieldRange::new("mantle_time", 0.0, 10.0, "between 0 (exclusive) and 10 s")
        },
        FieldRange::new("climb_speed", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange {
            min_exclusive: true,
            ..FieldRange::new("mass", 0.0, 1e6, "between 0 (exclusive) and 1,000,000 kg")
        },
        FieldRange::new("max_push_force", 0.0, 1e9, "between 0 and 1e9 N"),
        FieldRange::new("air_speed_cap", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("stop_speed", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("swim_speed", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("water_drag", 0.0, 1000.0, RATE),
        FieldRange::new("slide_speed_boost", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("slide_friction", 0.0, 1000.0, RATE),
        FieldRange::new("slide_min_speed", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("hard_landing_speed", 0.0, MAX_MOVE_SPEED, RATE),
        FieldRange::new("hard_landing_time", 0.0, 10.0, SECONDS),
    ]
};

impl ControllerConfig {
    /// The scalar field called `field` (a name in [`FIELD_RANGES`]), as f32.
    pub(super) fn scalar(&self, field: &str) -> f32 {
        match field {
            "walk_speed" => self.walk_speed,
            "sprint_speed" => self.sprint_speed,
            "crouch_speed" => self.crouch_speed,
            "ground_acceleration" => self.ground_acceleration,
            "max_fall_speed" => self.max_fall_speed,
            "air_acceleration" => self.air_acceleration,
            "ground_friction" => self.ground_friction,
            "jump_height" => self.jump_height,
            "walkable_slope_deg" => self.walkable_slope_deg,
            "step_height" => self.step_height,
            "snap_distance" => self.snap_distance,
            "skin" => self.skin,
            "slide_iterations" => self.slide_iterations as f32,
            "coyote_time" => self.coyote_time,
            "jump_buffer" => self.jump_buffer,
            "min_jump_height" => self.min_jump_height,
            "air_jumps" => self.air_jumps as f32,
            "dash_distance" => self.dash_distance,
            "dash_time" => self.dash_time,
            "dash_cooldown" => self.dash_cooldown,
            "air_dashes" => self.air_dashes as f32,
            "wall_slide_speed" => self.wall_slide_speed,
            "wall_jump_height" => self.wall_jump_height,
            "wall_jump_push" => self.wall_jump_push,
            "mantle_height" => self.mantle_height,
            "mantle_time" => self.mantle_time,
            "climb_speed" => self.climb_speed,
            "mass" => self.mass,
            "max_push_force" => self.max_push_force,
            "air_speed_cap" => self.air_speed_cap,
            "stop_speed" => self.stop_speed,
            "swim_speed" => self.swim_speed,
            "water_drag" => self.water_drag,
            "slide_speed_boost" => self.slide_speed_boost,
            "slide_friction" => self.slide_friction,
            "slide_min_speed" => self.slide_min_speed,
            "hard_landing_speed" => self.hard_landing_speed,
            "hard_landing_time" => self.hard_landing_time,
            other => unreachable!("no scalar field {other:?}"),
        }
    }
}
