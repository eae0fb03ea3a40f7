//! The moves' tunables (variable jump, air jumps, dash, wall slide and
//! jump, mantle, climb): part of [`super::TUNABLES`], after the walking
//! rules'. Each is off at 0 in `ControllerConfig::default()`; the game's
//! default settings turn them on ([`crate::Settings::default`]).

use super::tunable::Tunable;

/// A tunable of a whole-number (u32) field of the config.
macro_rules! count {
    ($key:ident, $label:expr, $max:expr, $help:expr) => {
        Tunable {
            key: stringify!($key),
            label: $label,
            unit: "",
            slider_min: 0.0,
            slider_max: $max,
            whole: true,
            help: $help,
            get: |c| c.$key as f32,
            set: |c, v| c.$key = v as u32,
        }
    };
}

/// The moves' tunables, in the panel's order.
pub(super) const MOVES: [Tunable; 12] = [
    tunable!(
        min_jump_height,
        "tap jump height",
        "m",
        0.0,
        10.0,
        "Apex of a tapped jump: letting go of jump while rising cuts it. 0 = every jump is full height."
    ),
    count!(air_jumps, "air jumps", 5.0, "Jumps in the air before landing again."),
    tunable!(
        dash_distance,
        "dash distance",
        "m",
        0.0,
        20.0,
        "How far a dash goes (along the walk direction, or the view). 0 = no dash."
    ),
    tunable!(dash_time, "dash time", "s", 0.02, 1.0, "How long a dash takes."),
    tunable!(
        dash_cooldown,
        "dash cooldown",
        "s",
        0.0,
        3.0,
        "Wait after a dash before the next."
    ),
    count!(
        air_dashes,
        "air dashes",
        5.0,
        "Dashes allowed in the air until the next landing."
    ),
    tunable!(
        wall_slide_speed,
        "wall slide speed",
        "m/s",
        0.0,
        20.0,
        "Top fall speed while pushing into a wall in the air. 0 = no wall slide."
    ),
    tunable!(
        wall_jump_height,
        "wall jump height",
        "m",
        0.0,
        5.0,
        "Rise of a jump off a wall touched in the air. 0 = no wall jump."
    ),
    tunable!(
        wall_jump_push,
        "wall jump push",
        "m/s",
        0.0,
        20.0,
        "Speed away from the wall a wall jump (or letting go of a climb) gives."
    ),
    tunable!(
        mantle_height,
        "mantle height",
        "m",
        0.0,
        3.0,
        "Highest ledge pulled up onto, above the feet. 0 = no mantling."
    ),
    tunable!(
        mantle_time,
        "mantle time",
        "s",
        0.05,
        2.0,
        "How long a pull up onto a ledge takes."
    ),
    tunable!(
        climb_speed,
        "climb speed",
        "m/s",
        0.0,
        10.0,
        "Speed on climbable faces (ladders, vines). 0 = no climbing."
    ),
];
