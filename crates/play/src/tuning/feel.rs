//! How moving feels (Quake's and Source's rules: air strafing, friction
//! with a stop speed, swimming, the crouch-slide, hard landings) and what
//! the character weighs against a physics engine's bodies: part of
//! [`super::TUNABLES`], after the moves'. Each feel rule is off at 0 in
//! `ControllerConfig::default()`; the game's default settings turn on what
//! suits the demo ([`crate::Settings::default`]).

use super::tunable::Tunable;

/// The feel's and the bodies' tunables, in the panel's order.
pub(super) const FEEL: [Tunable; 11] = [
    tunable!(
        air_speed_cap,
        "air speed cap",
        "m/s",
        0.0,
        5.0,
        "Quake's air strafing: in the air, speed is added along the wish direction only below this. 0 = plain air control."
    ),
    tunable!(
        stop_speed,
        "stop speed",
        "m/s",
        0.0,
        10.0,
        "Quake's friction: below this speed braking is the friction, above it proportionally more. 0 = plain braking."
    ),
    tunable!(
        swim_speed,
        "swim speed",
        "m/s",
        0.0,
        20.0,
        "Swimming speed with the waist in water (where the view points). 0 = no swimming."
    ),
    tunable!(
        water_drag,
        "water drag",
        "1/s",
        0.0,
        20.0,
        "How fast the velocity in water follows the swimmer's wish; slows dives and falls into water."
    ),
    tunable!(
        slide_speed_boost,
        "slide boost",
        "m/s",
        0.0,
        10.0,
        "Speed added along the motion when a crouch-slide starts."
    ),
    tunable!(
        slide_friction,
        "slide friction",
        "m/s²",
        0.0,
        50.0,
        "Braking during a crouch-slide on normal ground; slopes down speed it up."
    ),
    tunable!(
        slide_min_speed,
        "slide min speed",
        "m/s",
        0.0,
        20.0,
        "Crouch while sprinting faster than this slides; the slide ends below it. 0 = no slide."
    ),
    tunable!(
        hard_landing_speed,
        "hard landing speed",
        "m/s",
        0.0,
        50.0,
        "Landing faster than this stops jumps and halves walking for a moment. 0 = no hard landings."
    ),
    tunable!(
        hard_landing_time,
        "hard landing time",
        "s",
        0.0,
        2.0,
        "How long a hard landing holds."
    ),
    tunable!(
        mass,
        "mass",
        "kg",
        1.0,
        500.0,
        "The character's mass against a physics engine's bodies (pushing, standing on, being hit)."
    ),
    tunable!(
        max_push_force,
        "max push force",
        "N",
        0.0,
        5000.0,
        "Strongest push on a physics body; what it cannot move stops the character like a wall. 0 = no pushing."
    ),
];
