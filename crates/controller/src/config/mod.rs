//! `ControllerConfig`: every tunable of the walking rules, with its unit and
//! what raising or lowering it does, and the validation that keeps NaN and
//! nonsense out of the simulation.

use glam::Vec3;
use std::fmt;

mod ranges;
pub use ranges::{FIELD_RANGES, FieldRange};

/// The tunables of a [`crate::Controller`]. Metres, seconds, m/s, m/s²;
/// angles in degrees. Make one with [`ControllerConfig::default`] and change
/// fields; [`crate::Controller::new`] and [`crate::Controller::set_config`]
/// refuse invalid values with a [`ConfigError`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ControllerConfig {
    /// Radii of the standing ellipsoid, metres: x and z across, y along "up"
    /// (0.4, 0.9, 0.4: a 1.8 m tall, 0.8 m wide player). When gravity points
    /// along another world axis, the y radius goes along that axis.
    pub standing_radii: Vec3,
    /// Radii while crouching, metres (0.4, 0.55, 0.4: 1.1 m tall, fits under
    /// the demo level's 1.3 m ceiling). The feet stay on the floor when
    /// switching.
    pub crouched_radii: Vec3,
    /// Top walking speed, m/s (4.5). Raise for a brisker walk.
    pub walk_speed: f32,
    /// Top speed with sprint held, m/s (7.5).
    pub sprint_speed: f32,
    /// Top speed while crouched, m/s (2.0).
    pub crouch_speed: f32,
    /// How fast walking speed is gained on ground of friction 1, m/s² (40:
    /// full walking speed in about 0.11 s). Lower it for a heavier start.
    pub ground_acceleration: f32,
    /// How fast the velocity across "up" follows the input in the air, m/s²
    /// (8; 0 = no air control). Raise for more steering mid-jump.
    pub air_acceleration: f32,
    /// Braking on ground of friction 1 with no input, m/s² (40: from walking
    /// speed to rest in 0.25 m, from sprint in 0.70 m). Both this and
    /// `ground_acceleration` are multiplied by the surface's friction (0 ice
    /// … 1 normal), so on ice momentum carries on and turning is slow.
    pub ground_friction: f32,
    /// Height of a jump's apex above the take-off, metres (1.0; 0 = no
    /// jumping). The take-off speed is `sqrt(2 · |gravity| · jump_height)`.
    pub jump_height: f32,
    /// Gravity, m/s² ((0, −9.81, 0)). Any direction: "up" is its opposite.
    /// Zero gravity keeps the last "up".
    pub gravity: Vec3,
    /// Steepest walkable slope, degrees from horizontal (45). Steeper
    /// surfaces act as walls when walked into and are slid down.
    pub walkable_slope_deg: f32,
    /// Tallest riser climbed without jumping, metres (0.35). Also how far
    /// below an edge of walkable ground the feet may hang and still stand
    /// on it. Must be below the crouched y radius.
    pub step_height: f32,
    /// How far down the ground is searched for after a walking move,
    /// metres (0.4). Keeps the player on the ground down stairs and over
    /// ramp crests; raise it with `step_height`, lower it to leave the
    /// ground sooner.
    pub snap_distance: f32,
    /// Gap kept between the ellipsoid and surfaces, as a fraction of the
    /// radius along each axis (0.001). Raise if contacts flicker, lower if
    /// the gap shows.
    pub skin: f32,
    /// Most sweeps per collide-and-slide pass (5). 4–8 handles creases and
    /// corners; fewer is faster but loses motion in tight corners.
    pub slide_iterations: u32,
    /// Seconds after leaving the ground in which a jump still works (0.12).
    pub coyote_time: f32,
    /// Seconds a jump pressed in the air is remembered and fires on landing (0.15).
    pub jump_buffer: f32,
    /// Top falling speed, m/s (50). Lower for floatier long falls.
    pub max_fall_speed: f32,

    // Moves beyond walking: each is off by default (0).
    /// Apex of a tapped jump, metres (0 = every jump reaches `jump_height`).
    /// Letting go of jump while rising cuts the rise so that a tap reaches
    /// exactly this height and a held jump `jump_height`. Above
    /// `jump_height` it counts as `jump_height`.
    pub min_jump_height: f32,
    /// Jumps in the air before landing again (0). Each rises `jump_height`
    /// above where it starts; the count comes back on landing and on a
    /// wall jump.
    pub air_jumps: u32,
    /// How far a dash moves the character, metres (0 = no dash): along the
    /// wish direction (the facing when there is none), across "up",
    /// gravity suspended, sliding along what it hits.
    pub dash_distance: f32,
    /// How long a dash takes, seconds (0.2). `dash_distance / dash_time`
    /// is the dash's speed, at most 1000 m/s.
    pub dash_time: f32,
    /// Seconds after a dash ends before the next can start (0.5).
    pub dash_cooldown: f32,
    /// Dashes allowed per airtime (0: dashes start from the ground only).
    pub air_dashes: u32,
    /// Top falling speed while sliding down a wall pushed into, m/s (0 =
    /// no wall slide). Raise to slide faster.
    pub wall_slide_speed: f32,
    /// Height of a wall jump's apex above where it starts, metres (0 = no
    /// wall jump): jump while touching a wall in the air, or within the
    /// coyote time after leaving it. The same wall cannot be jumped off
    /// twice without touching something else.
    pub wall_jump_height: f32,
    /// Speed a wall jump pushes away from the wall, m/s (0), along the
    /// wall's normal. Also the push away when letting go of a climb.
    pub wall_jump_push: f32,
    /// Highest ledge pulled up onto, metres above the feet (0 = no
    /// mantling; only ledges above the step height are mantled). In the
    /// air, measured from the feet or from where the last push-off (the
    /// ground, a jump in the air, a wall jump) was, whichever is lower: a
    /// jump does not stretch the reach.
    pub mantle_height: f32,
    /// Seconds a mantle takes (0.3).
    pub mantle_time: f32,
    /// Speed on a climbable face, m/s (0 = no climbing): forward (into the
    /// face) climbs up, back climbs down, sideways moves along it.
    pub climb_speed: f32,
    /// The character's mass, kg (80). The controller's own movement does
    /// not use it: a physics engine's bodies do (the `bevy_slidewalk_avian`
    /// and `bevy_slidewalk_rapier` crates). A dynamic body the character
    /// walks into is pushed as by a body of this mass, one it stands on is
    /// pressed by this mass under gravity, and a body that hits it knocks
    /// it back less the heavier it is.
    pub mass: f32,
    /// The greatest force the character pushes a dynamic body with,
    /// newtons (500; Jolt's `mMaxStrength`). A body the push cannot move
    /// (a loaded container held by its friction) stops the character like
    /// a wall; a very large value (up to 1e9) pushes anything out of the
    /// way at the character's speed. 0: never pushes.
    pub max_push_force: f32,
    /// Whether a dynamic body's mass slows the character that pushes it
    /// (true). True: a push gives the body what the two would share moving
    /// on together (their reduced mass × the speed into it), so a light
    /// crate slides away at nearly walking speed and a heavy one creeps,
    /// holding the character back. False: a push brings the body up to the
    /// character's speed (its own mass × the speed into it), so only
    /// `max_push_force` holds the character back (Jolt's
    /// `CharacterVirtual`). Unused by the controller's own movement.
    pub pushed_mass_slows: bool,

    // How it feels to move (Quake's and Source's rules): each off by default.
    /// Quake's air control, m/s (0 = off: the air velocity steers towards
    /// the wish velocity at `air_acceleration`, never beyond it). Above 0,
    /// in the air the acceleration (`air_acceleration`, m/s²) adds speed
    /// along the wish direction only while the velocity's component along
    /// it is below this cap (Quake's `PM_AirAccelerate`; Quake's 30 units
    /// are 0.76 m/s): turning while strafing gains speed.
    pub air_speed_cap: f32,
    /// Quake's friction, m/s (0 = off: braking is `ground_friction` m/s²
    /// whatever the speed, and walking steers towards the wish velocity).
    /// Above 0, walking is Quake's `PM_Friction` then `PM_Accelerate`:
    /// the ground takes `max(speed, stop_speed) × ground_friction /
    /// stop_speed × dt` off the speed each tick (so `ground_friction` m/s²
    /// at or below this speed, proportionally more above it), then the
    /// wish direction adds speed up to the top speed at
    /// `ground_acceleration`.
    pub stop_speed: f32,
    /// Bunny hopping (false): with jump held, landing jumps again at once,
    /// before the ground's friction takes any speed.
    pub auto_hop: bool,
    /// Swimming speed, m/s (0 = no swimming: water is only reported).
    /// With the waist in water the character swims: along the wish
    /// direction pitched by the look ([`crate::Intent::pitch`]), up with
    /// jump held, down with crouch held, floating with its eyes above the
    /// surface when still. At the surface, jump facing a ledge within
    /// reach climbs out (Quake's water jump).
    pub swim_speed: f32,
    /// How fast the velocity in water follows what the swimmer asks for,
    /// 1/s (4: two thirds of the way in 0.27 s; a swim starting at rest
    /// lags the ideal by 1/water_drag = 0.25 s). Gravity does not act
    /// while swimming; this drag brings a dive's or fall's speed to the
    /// swimming speed.
    pub water_drag: f32,
    /// Speed added along the motion when a crouch-slide starts, m/s (2).
    pub slide_speed_boost: f32,
    /// Braking during a crouch-slide on ground of friction 1, m/s² (4).
    /// Slopes speed it up by gravity's part along them.
    pub slide_friction: f32,
    /// Slowest speed a crouch-slide starts or goes on at, m/s (0 = no
    /// slide). Crouch pressed while sprinting on the ground faster than
    /// this starts one, in the crouched shape; it ends when slower than
    /// this, or when crouch is let go with room to stand.
    pub slide_min_speed: f32,
    /// Catching ledges (false): falling past a ledge while moving towards
    /// it, or walking off one with crouch held, hangs from it: no gravity,
    /// sideways along it with the stick, pulled up (as a mantle) with jump
    /// or forward, let go with back or crouch.
    pub ledge_grab: bool,
    /// What a moving platform's (or conveyor's) velocity leaves with a
    /// character that jumps or walks off it (Godot's `platform_on_leave`).
    pub platform_momentum: PlatformMomentum,
    /// Landing faster than this is a hard landing, m/s (0 = none): jumps
    /// are stopped and walking slowed to half for `hard_landing_time`
    /// (Quake's `PMF_TIME_LAND`).
    pub hard_landing_speed: f32,
    /// How long a hard landing holds, seconds (0.4).
    pub hard_landing_time: f32,
}

/// What a moving platform's velocity leaves with a character leaving it
/// (a jump, walking off, a launch): see
/// [`ControllerConfig::platform_momentum`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum PlatformMomentum {
    /// All of it (the default, and the behaviour before the choice existed).
    #[default]
    All,
    /// Its part across "up": a lift's rise is not kept, a train's run is.
    Horizontal,
    /// None: the character leaves with its own velocity only.
    None,
}

impl PlatformMomentum {
    /// The name used in settings files (`"all"`, `"horizontal"`, `"none"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Horizontal => "horizontal",
            Self::None => "none",
        }
    }

    /// The mode called `name` (as [`name`](Self::name) gives it).
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::All, Self::Horizontal, Self::None]
            .into_iter()
            .find(|m| m.name() == name)
    }

    /// What of a platform's velocity `v` is kept on leaving it, with "up".
    pub fn kept(self, v: Vec3, up: Vec3) -> Vec3 {
        match self {
            Self::All => v,
            Self::Horizontal => v - up * v.dot(up),
            Self::None => Vec3::ZERO,
        }
    }
}

impl Default for ControllerConfig {
    fn default() -> Self {
        Self {
            standing_radii: Vec3::new(0.4, 0.9, 0.4),
            crouched_radii: Vec3::new(0.4, 0.55, 0.4),
            walk_speed: 4.5,
            sprint_speed: 7.5,
            crouch_speed: 2.0,
            ground_acceleration: 40.0,
            air_acceleration: 8.0,
            ground_friction: 40.0,
            jump_height: 1.0,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            walkable_slope_deg: 45.0,
            step_height: 0.35,
            snap_distance: 0.4,
            skin: 1e-3,
            slide_iterations: 5,
            coyote_time: 0.12,
            jump_buffer: 0.15,
            max_fall_speed: 50.0,
            min_jump_height: 0.0,
            air_jumps: 0,
            dash_distance: 0.0,
            dash_time: 0.2,
            dash_cooldown: 0.5,
            air_dashes: 0,
            wall_slide_speed: 0.0,
            wall_jump_height: 0.0,
            wall_jump_push: 0.0,
            mantle_height: 0.0,
            mantle_time: 0.3,
            climb_speed: 0.0,
            mass: 80.0,
            max_push_force: 500.0,
            pushed_mass_slows: true,
            air_speed_cap: 0.0,
            stop_speed: 0.0,
            auto_hop: false,
            swim_speed: 0.0,
            water_drag: 4.0,
            slide_speed_boost: 2.0,
            slide_friction: 4.0,
            slide_min_speed: 0.0,
            ledge_grab: false,
            platform_momentum: PlatformMomentum::All,
            hard_landing_speed: 0.0,
            hard_landing_time: 0.4,
        }
    }
}

/// Why a configuration (or a tick length) was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConfigError {
    /// A value was NaN or infinite.
    NotFinite {
        /// The field's name.
        field: &'static str,
    },
    /// A value was outside the range that makes sense.
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// The value given.
        value: f32,
        /// The allowed range, in words.
        allowed: &'static str,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite { field } => write!(f, "{field} must be a finite number"),
            Self::OutOfRange { field, value, allowed } => write!(f, "{field} is {value}, but must be {allowed}"),
        }
    }
}

impl std::error::Error for ConfigError {}

fn finite(field: &'static str, v: f32) -> Result<f32, ConfigError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(ConfigError::NotFinite { field })
    }
}

fn range(field: &'static str, v: f32, ok: bool, allowed: &'static str) -> Result<(), ConfigError> {
    finite(field, v)?;
    if ok {
        Ok(())
    } else {
        Err(ConfigError::OutOfRange {
            field,
            value: v,
            allowed,
        })
    }
}

fn radii(field: &'static str, r: Vec3) -> Result<(), ConfigError> {
    if !r.is_finite() {
        return Err(ConfigError::NotFinite { field });
    }
    let v = r.min_element();
    range(field, v, v >= RADIUS_RANGE.0, "at least 0.01 m on every axis")?;
    let v = r.max_element();
    range(field, v, v <= RADIUS_RANGE.1, "at most 100 m on every axis")
}

/// Radii [`ControllerConfig::validate`] accepts, metres on every axis (inclusive).
pub const RADIUS_RANGE: (f32, f32) = (0.01, 100.0);

/// Fastest speed a configuration sets in motion (a walk, a fall, a dash),
/// m/s: every speed field's upper bound.
pub const MAX_MOVE_SPEED: f32 = 1000.0;

/// Longest gravity [`ControllerConfig::validate`] accepts, m/s².
pub const MAX_GRAVITY: f32 = 1000.0;

impl ControllerConfig {
    /// Checks every field; the first problem found is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        radii("standing_radii", self.standing_radii)?;
        radii("crouched_radii", self.crouched_radii)?;
        for r in &FIELD_RANGES {
            let v = self.scalar(r.field);
            range(r.field, v, r.contains(v), r.allowed)?;
        }
        if !self.gravity.is_finite() {
            return Err(ConfigError::NotFinite { field: "gravity" });
        }
        let g = self.gravity.length();
        range("gravity", g, g <= MAX_GRAVITY, "at most 1000 m/s² long")?;
        let low = self.crouched_radii.y.min(self.standing_radii.y);
        range(
            "step_height",
            self.step_height,
            self.step_height < low,
            "at least 0 and below the smaller y radius",
        )?;
        let dash_speed = self.dash_distance / self.dash_time;
        range(
            "dash_distance",
            self.dash_distance,
            dash_speed <= MAX_MOVE_SPEED,
            "at most 1000 m/s × dash_time (a dash's speed)",
        )?;
        Ok(())
    }

    /// Top speed for the given stance, m/s.
    pub fn top_speed(&self, crouched: bool, sprint: bool) -> f32 {
        if crouched {
            self.crouch_speed
        } else if sprint {
            self.sprint_speed
        } else {
            self.walk_speed
        }
    }

    /// This configuration with every move beyond walking on, at values that
    /// suit its 1.8 m person (the demo game's): a tap jumps 0.4 m, one air
    /// jump, a 4 m dash over 0.2 s (0.5 s cooldown, one in the air), a wall
    /// slide at 2 m/s, wall jumps 1 m up and 5 m/s away, mantles up to
    /// 1.5 m over 0.35 s, climbing at 2.5 m/s.
    pub fn with_every_move(self) -> Self {
        Self {
            min_jump_height: 0.4,
            air_jumps: 1,
            dash_distance: 4.0,
            dash_time: 0.2,
            dash_cooldown: 0.5,
            air_dashes: 1,
            wall_slide_speed: 2.0,
            wall_jump_height: 1.0,
            wall_jump_push: 5.0,
            mantle_height: 1.5,
            mantle_time: 0.35,
            climb_speed: 2.5,
            ..self
        }
    }

    /// Take-off speed of a jump, m/s.
    pub fn jump_speed(&self) -> f32 {
        self.speed_to_rise(self.jump_height)
    }

    /// Speed along "up" that rises `height` metres against gravity, m/s.
    pub fn speed_to_rise(&self, height: f32) -> f32 {
        (2.0 * self.gravity.length() * height.max(0.0)).sqrt()
    }
}

/// Checks a tick length, seconds: finite, greater than 0, at most 1 s.
pub fn validate_dt(dt: f32) -> Result<(), ConfigError> {
    range("dt", dt, dt > 0.0 && dt <= 1.0, "greater than 0 and at most 1 s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        ControllerConfig::default().validate().unwrap();
        ControllerConfig::default().with_every_move().validate().unwrap();
    }

    #[test]
    fn refuses_nonsense_with_the_field_name() {
        let base = ControllerConfig::default();
        let cases: Vec<(ControllerConfig, &str)> = vec![
            (
                ControllerConfig {
                    walk_speed: f32::NAN,
                    ..base
                },
                "walk_speed",
            ),
            (
                ControllerConfig {
                    walk_speed: -1.0,
                    ..base
                },
                "walk_speed",
            ),
            (
                ControllerConfig {
                    sprint_speed: 0.0,
                    ..base
                },
                "sprint_speed",
            ),
            (
                ControllerConfig {
                    standing_radii: Vec3::new(0.4, 0.0, 0.4),
                    ..base
                },
                "standing_radii",
            ),
            (
                ControllerConfig {
                    crouched_radii: Vec3::splat(f32::INFINITY),
                    ..base
                },
                "crouched_radii",
            ),
            (
                ControllerConfig {
                    gravity: Vec3::new(0.0, f32::NAN, 0.0),
                    ..base
                },
                "gravity",
            ),
            (
                ControllerConfig {
                    walkable_slope_deg: 90.0,
                    ..base
                },
                "walkable_slope_deg",
            ),
            (
                ControllerConfig {
                    walkable_slope_deg: 0.0,
                    ..base
                },
                "walkable_slope_deg",
            ),
            (
                ControllerConfig {
                    step_height: 0.6,
                    ..base
                },
                "step_height",
            ),
            (
                ControllerConfig {
                    step_height: -0.1,
                    ..base
                },
                "step_height",
            ),
            (ControllerConfig { skin: 0.0, ..base }, "skin"),
            (
                ControllerConfig {
                    slide_iterations: 0,
                    ..base
                },
                "slide_iterations",
            ),
            (
                ControllerConfig {
                    coyote_time: f32::INFINITY,
                    ..base
                },
                "coyote_time",
            ),
            (
                ControllerConfig {
                    jump_height: -1.0,
                    ..base
                },
                "jump_height",
            ),
            (
                ControllerConfig {
                    ground_friction: -5.0,
                    ..base
                },
                "ground_friction",
            ),
        ];
        for (config, field) in cases {
            let e = config.validate().unwrap_err();
            assert!(e.to_string().starts_with(field), "{field}: {e}");
        }
        assert!(validate_dt(0.0).is_err());
        assert!(validate_dt(-1.0 / 60.0).is_err());
        assert!(validate_dt(f32::NAN).is_err());
        assert!(validate_dt(1.0 / 300.0).is_ok());
        // Zero gravity and no jumping are fine.
        ControllerConfig {
            gravity: Vec3::ZERO,
            jump_height: 0.0,
            ..base
        }
        .validate()
        .unwrap();
    }
}
