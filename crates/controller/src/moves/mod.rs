//! The moves beyond walking — variable jump height, air jumps, dash, wall
//! slide and wall jump, mantling, climbing, launches, Quake's air control
//! and bunny hops, swimming, the crouch-slide, hanging from ledges, hard
//! landings — as rules of a tick,
//! and what they keep between ticks ([`MoveState`]). Each is off while its
//! config field is 0 ([`crate::ControllerConfig`]).

mod climb;
mod dash;
mod hang;
mod jumps;
mod landing;
mod launch;
mod mantle;
mod quake;
mod slide;
mod swim;
mod walls;

use glam::Vec3;

/// What the moves keep between ticks: plain data, part of
/// [`crate::CharacterState`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct MoveState {
    /// The dash, mantle or climb under way (one at a time).
    pub under_way: Option<Move>,
    /// While a jump rises and may still be cut by letting go: the square of
    /// the speed (m²/s²) a release takes off the rise, `2·g·(jump_height −
    /// min_jump_height)`.
    pub jump_cut: Option<f32>,
    /// Air jumps made since the last landing or wall jump.
    pub air_jumps_used: u32,
    /// Dashes started in the air since the last landing.
    pub air_dashes_used: u32,
    /// Seconds before another dash may start.
    pub dash_cooldown: f32,
    /// The wall last touched in the air.
    pub wall: Option<WallTouch>,
    /// The outward normal (unit, across "up") of the wall last jumped off:
    /// it cannot be jumped off again until something else is touched.
    pub wall_jumped_off: Option<Vec3>,
    /// Height along "up" (metres, `up · feet`) of the last push-off: the
    /// ground stood on, an air jump, a wall jump, a launch. A mantle in
    /// the air reaches `mantle_height` above it or the feet, whichever is
    /// lower. A non-finite value counts as the feet's height.
    pub push_off_height: f32,
    /// How deep in water the character was at the end of its last tick.
    pub water: WaterLevel,
    /// Seconds left of a hard landing's lag (no jumps, slower walking).
    pub landing_lag: f32,
}

/// How deep in water a character is, as Quake's three levels: which of
/// its feet (the ellipsoid's lowest point), waist (its centre) and eyes
/// ([`EYES`] of the way from the centre to the top) are under the
/// surface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum WaterLevel {
    /// Out of water.
    #[default]
    Dry,
    /// The feet are in water, the waist is not.
    Feet,
    /// The waist is in water, the eyes are not: swimming at the surface.
    Waist,
    /// Under water, eyes and all.
    Eyes,
}

/// Where the eyes are, as a fraction of the way from the ellipsoid's
/// centre to its top along "up" (0.8: 1.62 m above the feet of the
/// default 1.8 m person).
pub const EYES: f32 = 0.8;

/// A move that lasts several ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Move {
    /// A dash.
    Dash(Dash),
    /// A pull up onto a ledge (a mantle, or the top of a climb).
    Mantle(Mantle),
    /// A climb on a climbable face.
    Climb(Climb),
    /// A crouch-slide.
    Slide(Slide),
    /// Hanging from a ledge.
    Hang(Hang),
}

impl MoveState {
    /// No move under way; the last push-off at `height` (metres along "up").
    pub fn new(height: f32) -> Self {
        Self {
            under_way: None,
            jump_cut: None,
            air_jumps_used: 0,
            air_dashes_used: 0,
            dash_cooldown: 0.0,
            wall: None,
            wall_jumped_off: None,
            push_off_height: height,
            water: WaterLevel::Dry,
            landing_lag: 0.0,
        }
    }

    /// The crouch-slide under way, if any.
    pub fn slide(&self) -> Option<Slide> {
        match self.under_way {
            Some(Move::Slide(s)) => Some(s),
            _ => None,
        }
    }

    /// The ledge hung from, if any.
    pub fn hang(&self) -> Option<Hang> {
        match self.under_way {
            Some(Move::Hang(h)) => Some(h),
            _ => None,
        }
    }

    /// The dash under way, if any.
    pub fn dash(&self) -> Option<Dash> {
        match self.under_way {
            Some(Move::Dash(d)) => Some(d),
            _ => None,
        }
    }

    /// The mantle under way, if any.
    pub fn mantle(&self) -> Option<Mantle> {
        match self.under_way {
            Some(Move::Mantle(m)) => Some(m),
            _ => None,
        }
    }

    /// The climb under way, if any.
    pub fn climb(&self) -> Option<Climb> {
        match self.under_way {
            Some(Move::Climb(c)) => Some(c),
            _ => None,
        }
    }

    /// Finite numbers, no negative time.
    pub(crate) fn is_valid(&self) -> bool {
        let time = |t: f32| t.is_finite() && t >= 0.0;
        let under_way = match self.under_way {
            None => true,
            Some(Move::Dash(d)) => d.direction.is_finite() && d.speed.is_finite() && time(d.time_left),
            Some(Move::Mantle(m)) => {
                m.from.is_finite()
                    && m.to.is_finite()
                    && m.clear.is_finite()
                    && time(m.elapsed)
                    && m.duration.is_finite()
                    && m.duration > 0.0
            }
            Some(Move::Climb(c)) => c.normal.is_finite(),
            Some(Move::Slide(s)) => time(s.elapsed),
            Some(Move::Hang(h)) => h.normal.is_finite() && h.top.is_finite(),
        };
        under_way
            && self.jump_cut.is_none_or(time)
            && time(self.dash_cooldown)
            && self.wall.is_none_or(|w| w.normal.is_finite() && time(w.since))
            && self.wall_jumped_off.is_none_or(Vec3::is_finite)
            && time(self.landing_lag)
    }
}

/// A dash under way.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Dash {
    /// Unit direction, across "up".
    pub direction: Vec3,
    /// m/s.
    pub speed: f32,
    /// Seconds left.
    pub time_left: f32,
}

/// A wall touched in the air.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct WallTouch {
    /// Its outward normal across "up", unit.
    pub normal: Vec3,
    /// Seconds since it was last touched (0: this tick).
    pub since: f32,
    /// Sliding down it (pushed into, falling, the fall capped).
    pub sliding: bool,
}

/// A pull up onto a ledge under way: the centre goes from `from` up to
/// `clear` metres above the height of `to`, over to above `to`, and down
/// onto it, over `duration`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Mantle {
    /// Where the centre started, metres.
    pub from: Vec3,
    /// Where the centre ends, on the ledge, metres.
    pub to: Vec3,
    /// How far above the landing the centre passes over the rim, metres.
    pub clear: f32,
    /// Seconds since it started.
    pub elapsed: f32,
    /// Seconds it takes.
    pub duration: f32,
}

impl Mantle {
    /// The path's corners: the start, above it, above the landing, the landing.
    pub(crate) fn path(&self, up: Vec3) -> [Vec3; 4] {
        let rise = (self.to - self.from).dot(up) + self.clear;
        [self.from, self.from + up * rise, self.to + up * self.clear, self.to]
    }

    /// The point `fraction` (0..1) of the way along the path, by length.
    pub(crate) fn at(&self, fraction: f32, up: Vec3) -> Vec3 {
        let path = self.path(up);
        let legs = [path[1] - path[0], path[2] - path[1], path[3] - path[2]];
        let total: f32 = legs.iter().map(|l| l.length()).sum();
        let mut left = fraction.clamp(0.0, 1.0) * total;
        for (i, leg) in legs.iter().enumerate() {
            let length = leg.length();
            if left <= length && length > 0.0 {
                return path[i] + *leg * (left / length);
            }
            left -= length;
        }
        path[3]
    }
}

/// A climb under way.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Climb {
    /// The face's outward normal across "up", unit.
    pub normal: Vec3,
    /// The collider climbed: its index in [`crate::Surroundings::colliders`]
    /// (as [`crate::GroundContact::collider`]); a moving one carries the
    /// climber by its motion, as a platform carries what stands on it.
    /// `None`: not known (not carried).
    pub collider: Option<usize>,
    /// The triangle of that collider last touched (its input index).
    pub triangle: u32,
}

/// A crouch-slide under way.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Slide {
    /// Seconds since it started.
    pub elapsed: f32,
}

/// Hanging from a ledge.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Hang {
    /// The wall's outward normal across "up", unit (the character faces
    /// the other way).
    pub normal: Vec3,
    /// Height of the ledge's top along "up", metres.
    pub top: f32,
    /// The stick has been let go of (or crouch released) since the grab:
    /// forward, back and crouch act only from then on, so the push that
    /// caught the ledge does not pull up or let go at once.
    pub armed: bool,
}
