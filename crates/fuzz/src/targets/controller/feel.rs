//! The `controller` target's draw of how it feels to move: Quake's air
//! control and friction, bunny hops, swimming, the slide, ledges,
//! platform momentum and hard landings (the config's fields), water over
//! the course, a conveyor level and the look's pitch per tick. Drawn after
//! everything else, so older corpus files keep their meaning.

use crate::draw;
use arbitrary::{Result, Unstructured};
use glam::Vec3;
use slidewalk_controller::{ControllerConfig, PlatformMomentum};

/// What a case adds to feel.
#[derive(Debug, Default)]
pub struct Feel {
    /// The config's feel fields, if drawn (else the case's config's).
    fields: Option<Fields>,
    /// Water over the whole course up to this height (metres), if any.
    pub water_top: Option<f32>,
    /// The static level's surface velocity (m/s), if it is a conveyor.
    pub conveyor: Option<Vec3>,
    /// The look's pitch for each tick, radians.
    pub pitches: Vec<f32>,
}

#[derive(Debug, Clone, Copy)]
struct Fields {
    air_speed_cap: f32,
    stop_speed: f32,
    auto_hop: bool,
    swim_speed: f32,
    water_drag: f32,
    slide_speed_boost: f32,
    slide_friction: f32,
    slide_min_speed: f32,
    ledge_grab: bool,
    platform_momentum: PlatformMomentum,
    hard_landing_speed: f32,
    hard_landing_time: f32,
}

impl Feel {
    /// Draws the feel of a case with `ticks` ticks at `scale`.
    pub fn generate(u: &mut Unstructured<'_>, ticks: usize, scale: f32) -> Result<Self> {
        let fields = if u.ratio(1u8, 2)? {
            let on = |u: &mut Unstructured<'_>, v: f32, max: f32| draw::maybe_f32(u, v, max);
            Some(Fields {
                air_speed_cap: on(u, 0.76, 100.0)?,
                stop_speed: on(u, 2.5, 100.0)?,
                auto_hop: u.arbitrary()?,
                swim_speed: on(u, 3.5, 100.0)?,
                water_drag: on(u, 4.0, 1000.0)?,
                slide_speed_boost: on(u, 2.0, 100.0)?,
                slide_friction: on(u, 2.0, 100.0)?,
                slide_min_speed: on(u, 5.0, 100.0)?,
                ledge_grab: u.arbitrary()?,
                platform_momentum: match u.int_in_range(0u8..=2)? {
                    0 => PlatformMomentum::All,
                    1 => PlatformMomentum::Horizontal,
                    _ => PlatformMomentum::None,
                },
                hard_landing_speed: on(u, 10.0, 100.0)?,
                hard_landing_time: on(u, 0.4, 10.0)?,
            })
        } else {
            None
        };
        let water_top = if u.ratio(1u8, 3)? {
            Some(draw::in_range(u, -1.0, 4.0)? * scale)
        } else {
            None
        };
        let conveyor = if u.ratio(1u8, 4)? {
            Some(draw::sane_vec3(u, 5.0)?)
        } else {
            None
        };
        let mut pitches = Vec::with_capacity(ticks);
        for _ in 0..ticks {
            pitches.push(if u.ratio(1u8, 8)? {
                draw::any_f32(u, 10.0)?
            } else {
                draw::unit(u)? * 1.5
            });
        }
        Ok(Self {
            fields,
            water_top,
            conveyor,
            pitches,
        })
    }

    /// `config` with the feel's fields.
    pub fn apply(&self, config: ControllerConfig) -> ControllerConfig {
        let Some(f) = self.fields else {
            return config;
        };
        ControllerConfig {
            air_speed_cap: f.air_speed_cap,
            stop_speed: f.stop_speed,
            auto_hop: f.auto_hop,
            swim_speed: f.swim_speed,
            water_drag: f.water_drag,
            slide_speed_boost: f.slide_speed_boost,
            slide_friction: f.slide_friction,
            slide_min_speed: f.slide_min_speed,
            ledge_grab: f.ledge_grab,
            platform_momentum: f.platform_momentum,
            hard_landing_speed: f.hard_landing_speed,
            hard_landing_time: f.hard_landing_time,
            ..config
        }
    }

    /// Depth of `point` below the water's surface along `up` (the course's
    /// water is level with the world's y axis), if under it.
    pub fn depth(&self, point: Vec3, up: Vec3) -> Option<f32> {
        let top = self.water_top?;
        let depth = top - point.y;
        (depth > 0.0 && up.y > 0.5).then_some(depth / up.y)
    }
}
