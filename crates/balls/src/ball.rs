//! A ball and the rules every ball follows (restitution, friction, rest).

use glam::Vec3;

/// One ball: a sphere with a mass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Centre, metres.
    pub position: Vec3,
    /// Velocity, m/s.
    pub velocity: Vec3,
    /// Radius, metres.
    pub radius: f32,
    /// Mass, kilograms.
    pub mass: f32,
    /// Sleeping: no gravity, no motion, until hit or woken.
    pub asleep: bool,
    /// Seconds it has been slow and supported (see [`BallConfig::sleep_after`]).
    pub slow_for: f32,
}

impl Ball {
    /// A ball at `position` thrown at `velocity`, with a mass of a solid
    /// rubber ball of that radius (1100 kg/m³).
    pub fn new(position: Vec3, velocity: Vec3, radius: f32) -> Self {
        Self {
            position,
            velocity,
            radius,
            mass: 1100.0 * 4.0 / 3.0 * std::f32::consts::PI * radius.powi(3),
            asleep: false,
            slow_for: 0.0,
        }
    }

    /// Kinetic energy, joules.
    pub fn kinetic_energy(&self) -> f32 {
        0.5 * self.mass * self.velocity.length_squared()
    }
}

/// What every ball obeys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallConfig {
    /// Gravity, m/s².
    pub gravity: Vec3,
    /// Coefficient of restitution, 0 (no bounce) … 1 (elastic), for every impact.
    pub restitution: f32,
    /// Coulomb friction coefficient against surfaces, 0 … 2 (times the surface's own).
    pub friction: f32,
    /// Impacts slower than this along the normal (m/s) do not bounce.
    pub rest_speed: f32,
    /// A ball slower than this (m/s) …
    pub sleep_speed: f32,
    /// … for this long (s), touching something below it, sleeps.
    pub sleep_after: f32,
    /// Impacts one ball may take in one tick; a ball past it stops where it
    /// is, its velocity zeroed, until the next tick (a ball wedged in a gap
    /// or a pile settling cannot stall the tick).
    pub max_impacts_per_ball: u32,
    /// Gap kept to a surface at an impact, metres: the ball stops this far
    /// short along its path (so the next sweep starts outside it).
    pub skin: f32,
    /// Threads for the tick's first sweeps of every ball against the
    /// obstacles (the bulk of a tick, independent per ball); the impacts
    /// then run in time order on the calling thread. 1: no threads. The
    /// outcome is the same for any number.
    pub threads: usize,
}

impl Default for BallConfig {
    fn default() -> Self {
        Self {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            restitution: 0.8,
            friction: 0.3,
            rest_speed: 0.25,
            sleep_speed: 0.08,
            sleep_after: 0.5,
            max_impacts_per_ball: 16,
            threads: 1,
            skin: 1e-4,
        }
    }
}

/// A configuration value out of its range.
#[derive(Clone, Debug, PartialEq)]
pub struct BallConfigError(pub String);

impl std::fmt::Display for BallConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BallConfigError {}

impl BallConfig {
    /// Checks every value (finite, in range).
    pub fn validate(&self) -> Result<(), BallConfigError> {
        let range = |name: &str, v: f32, lo: f32, hi: f32| {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(BallConfigError(format!(
                    "{name} must be between {lo} and {hi}, got {v}"
                )))
            }
        };
        if !self.gravity.is_finite() || self.gravity.length() > 1000.0 {
            return Err(BallConfigError(format!(
                "gravity must be finite and at most 1000 m/s², got {}",
                self.gravity
            )));
        }
        range("restitution", self.restitution, 0.0, 1.0)?;
        range("friction", self.friction, 0.0, 2.0)?;
        range("rest_speed", self.rest_speed, 0.0, 10.0)?;
        range("sleep_speed", self.sleep_speed, 0.0, 10.0)?;
        range("sleep_after", self.sleep_after, 0.0, 60.0)?;
        range("skin", self.skin, 1e-6, 1e-2)?;
        if self.max_impacts_per_ball == 0 || self.max_impacts_per_ball > 1000 {
            return Err(BallConfigError(format!(
                "max_impacts_per_ball must be between 1 and 1000, got {}",
                self.max_impacts_per_ball
            )));
        }
        if self.threads == 0 || self.threads > 256 {
            return Err(BallConfigError(format!(
                "threads must be between 1 and 256, got {}",
                self.threads
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_bad_values_are_named() {
        BallConfig::default().validate().unwrap();
        let bad = BallConfig {
            restitution: 1.5,
            ..BallConfig::default()
        };
        assert!(bad.validate().unwrap_err().0.contains("restitution"));
        let bad = BallConfig {
            gravity: Vec3::NAN,
            ..BallConfig::default()
        };
        assert!(bad.validate().unwrap_err().0.contains("gravity"));
    }

    #[test]
    fn a_ball_has_the_mass_of_rubber() {
        let b = Ball::new(Vec3::ZERO, Vec3::X, 0.1);
        assert!((b.mass - 4.608).abs() < 0.01, "{}", b.mass);
        assert!((b.kinetic_energy() - 0.5 * b.mass).abs() < 1e-6);
    }
}
