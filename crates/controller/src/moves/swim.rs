//! Water: how deep the character is (Quake's three levels: feet, waist,
//! eyes), swimming with the waist in water (along the look, up with jump,
//! down with crouch, floating with the eyes above the surface when
//! still, the velocity following what is asked at `water_drag`), and the
//! water jump onto a ledge at the surface.

use super::{EYES, WaterLevel};
use crate::frame::{extent_along, horizontal};
use crate::state::{CharacterState, Intent, Pass};
use crate::tick::Run;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid};

/// How far above the surface a still swimmer floats its eyes, metres.
pub const FLOAT_EYES_ABOVE: f32 = 0.1;

/// How fast a still swimmer rises or sinks to its floating height: the
/// speed asked for is this rate times the distance from it (1/s), up to
/// the swimming speed.
const FLOAT_RATE: f32 = 2.0;

/// Highest ledge a water jump reaches, metres above the water's surface.
pub const WATER_JUMP_REACH: f32 = 1.0;

/// The water around the character: its level and, in water, the
/// surface's height along "up" (metres).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Water {
    pub(crate) level: WaterLevel,
    pub(crate) surface: Option<f32>,
}

impl Run<'_> {
    /// How deep in water the character is now.
    pub(crate) fn water_level(&self, state: &CharacterState) -> Water {
        if self.world.water.is_none() {
            return Water::default();
        }
        let up = state.up;
        let feet = state.feet();
        let Some(depth) = self.world.depth_in_water(feet, up) else {
            return Water::default();
        };
        let surface = Some(feet.dot(up) + depth);
        let eyes = state.position + up * (EYES * extent_along(state.radii, up));
        let level = if self.world.depth_in_water(eyes, up).is_some() {
            WaterLevel::Eyes
        } else if self.world.depth_in_water(state.position, up).is_some() {
            WaterLevel::Waist
        } else {
            WaterLevel::Feet
        };
        Water { level, surface }
    }

    /// At the tick's end: the level reached, and what changed since the last tick.
    pub(crate) fn note_water(&mut self, state: &mut CharacterState) {
        let before = state.moves.water;
        if self.world.water.is_none() && before == WaterLevel::Dry {
            return;
        }
        let now = self.water_level(state).level;
        let r = &mut self.report;
        r.water = now;
        r.entered_water = before == WaterLevel::Dry && now > WaterLevel::Dry;
        r.left_water = before > WaterLevel::Dry && now == WaterLevel::Dry;
        r.submerged = before < WaterLevel::Eyes && now == WaterLevel::Eyes;
        state.moves.water = now;
    }

    /// One tick of swimming, when the waist is in water and swimming is
    /// on (true: the tick's move is done).
    pub(crate) fn swim(
        &mut self,
        state: &mut CharacterState,
        intent: &Intent,
        wish: Vec3,
        e: &Ellipsoid,
        water: Water,
    ) -> bool {
        let c = self.c;
        let (Some(surface), true) = (water.surface, water.level >= WaterLevel::Waist) else {
            return false;
        };
        if c.swim_speed <= 0.0 || matches!(state.moves.under_way, Some(super::Move::Dash(_))) {
            return false;
        }
        let up = state.up;
        let dt = self.dt;
        if state.moves.slide().is_some() {
            state.moves.under_way = None;
            self.report.slide_ended = true;
        }
        self.leave_ground(state);
        state.coyote_jump = false;
        state.moves.jump_cut = None;
        self.report.swimming = true;
        if state.jump_buffer > 0.0 && water.level == WaterLevel::Waist && self.water_jump(state, wish, e, surface) {
            return true;
        }
        // The wish in 3D: its forward part (along the facing) pitched by the look.
        let facing = horizontal(intent.facing, up).normalize_or(wish.normalize_or_zero());
        let forward = wish.dot(facing);
        let pitch = if intent.pitch.is_finite() {
            intent
                .pitch
                .clamp(-std::f32::consts::FRAC_PI_2, std::f32::consts::FRAC_PI_2)
        } else {
            0.0
        };
        let (sin, cos) = (libm::sinf(pitch), libm::cosf(pitch));
        let across = wish - facing * forward + (facing * cos + up * sin) * forward;
        let vertical = f32::from(u8::from(intent.jump_held || intent.jump)) - f32::from(u8::from(intent.crouch));
        let mut target = (across + up * vertical).clamp_length_max(1.0) * c.swim_speed;
        if vertical == 0.0 && across.dot(up).abs() < 0.05 {
            // Still along "up": float with the eyes just above the surface.
            let eyes = state.position.dot(up) + EYES * extent_along(state.radii, up);
            let rise = (surface + FLOAT_EYES_ABOVE - eyes) * FLOAT_RATE;
            target += up * (rise.clamp(-c.swim_speed, c.swim_speed) - target.dot(up));
        }
        // The velocity relaxes towards the target at `water_drag` (exact over the tick).
        let v0 = state.velocity;
        let decay = libm::expf(-c.water_drag * dt);
        let velocity = target + (v0 - target) * decay;
        let motion = if c.water_drag > 0.0 {
            target * dt + (v0 - target) * ((1.0 - decay) / c.water_drag)
        } else {
            v0 * dt
        };
        let result = self.pass(Pass::Swim, e, state.position, motion, |_| ContactResponse::Slide);
        let mut velocity = velocity;
        for ct in &result.contacts {
            let into = (velocity - ct.surface_velocity).dot(ct.normal);
            if into < 0.0 {
                velocity -= ct.normal * into;
            }
        }
        state.position = result.position;
        state.velocity = velocity;
        true
    }

    /// Jump at the surface facing a ledge within [`WATER_JUMP_REACH`]
    /// above the water: pulled up onto it as a mantle is (true: started).
    fn water_jump(&mut self, state: &mut CharacterState, wish: Vec3, e: &Ellipsoid, surface: f32) -> bool {
        if wish == Vec3::ZERO {
            return false;
        }
        let Some(normal) = self.wall_ahead(state, e, wish.normalize()) else {
            return false;
        };
        let Some(ledge) = self.find_ledge(state, -normal, surface + WATER_JUMP_REACH) else {
            return false;
        };
        self.report.water_jumped = true;
        self.report.mantled = Some(ledge.height);
        let time = self.c.mantle_time;
        self.begin_pull(state, ledge, time);
        true
    }
}
