//! The shapes the playground's layout is described in: a rectangle on the
//! ground, a flight of stairs, a ramp up to a platform, each with the
//! points tests and scripted walks aim for.

use glam::{Vec2, Vec3};

/// An axis-aligned rectangle on the ground: `min`/`max` are (x, z) in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Smallest (x, z).
    pub min: Vec2,
    /// Largest (x, z).
    pub max: Vec2,
}

impl Rect {
    /// The rectangle from (`x0`, `z0`) to (`x1`, `z1`).
    pub const fn new(x0: f32, z0: f32, x1: f32, z1: f32) -> Self {
        Self {
            min: Vec2::new(x0, z0),
            max: Vec2::new(x1, z1),
        }
    }

    /// Its centre on the ground (y = 0).
    pub fn centre(&self) -> Vec3 {
        let c = (self.min + self.max) / 2.0;
        Vec3::new(c.x, 0.0, c.y)
    }
}

/// A flight of stairs ending in a landing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    /// Node name.
    pub name: &'static str,
    /// Centre of the foot of the first riser (on the ground).
    pub base: Vec3,
    /// Horizontal unit direction going up.
    pub dir: Vec3,
    /// Width across `dir`, metres.
    pub width: f32,
    /// Height of each riser, metres.
    pub rise: f32,
    /// Depth of each tread (except the landing), metres.
    pub run: f32,
    /// Number of risers (the last step is the landing).
    pub steps: u32,
    /// Depth of the landing (the top step), metres.
    pub landing: f32,
}

impl Flight {
    /// Height of the landing.
    pub fn top(&self) -> f32 {
        self.steps as f32 * self.rise
    }

    /// Horizontal distance from the first riser to the back of the landing.
    pub fn length(&self) -> f32 {
        (self.steps - 1) as f32 * self.run + self.landing
    }

    /// Centre of the top of step `i` (0 = lowest; `steps - 1` = the landing).
    pub fn tread_centre(&self, i: u32) -> Vec3 {
        let u0 = i as f32 * self.run;
        let u1 = if i + 1 == self.steps {
            u0 + self.landing
        } else {
            u0 + self.run
        };
        self.base + self.dir * ((u0 + u1) / 2.0) + Vec3::Y * ((i + 1) as f32 * self.rise)
    }
}

/// A ramp leading up to a platform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ramp {
    /// Node name of the ramp.
    pub name: &'static str,
    /// Node name of its platform.
    pub platform_name: &'static str,
    /// Centre of the platform's front edge on the ground (where the ramp's
    /// back face meets the platform).
    pub platform_foot: Vec3,
    /// Horizontal unit direction going up.
    pub dir: Vec3,
    /// Width of ramp and platform, metres.
    pub width: f32,
    /// Slope, degrees from horizontal (= the surface normal's angle from vertical).
    pub angle_deg: f32,
    /// Height of the platform, metres.
    pub height: f32,
    /// Depth of the platform along `dir`, metres.
    pub platform_depth: f32,
    /// Meant to be walked up (drawn in the walkable ramp colour) or too steep.
    pub walkable: bool,
}

impl Ramp {
    /// Horizontal length of the slope.
    pub fn run(&self) -> f32 {
        (self.height as f64 / (self.angle_deg as f64).to_radians().tan()) as f32
    }

    /// Centre of the ramp's low edge (on the ground).
    pub fn base(&self) -> Vec3 {
        self.platform_foot - self.dir * self.run()
    }

    /// The point of the slope on its centre line, `d` metres (horizontally) up from the base.
    pub fn surface_at(&self, d: f32) -> Vec3 {
        let tan = (self.angle_deg as f64).to_radians().tan() as f32;
        self.base() + self.dir * d + Vec3::Y * (d * tan)
    }

    /// The slope's unit surface normal.
    pub fn normal(&self) -> Vec3 {
        let a = (self.angle_deg as f64).to_radians();
        (Vec3::Y * a.cos() as f32 - self.dir * a.sin() as f32).normalize()
    }

    /// Centre of the platform's top.
    pub fn platform_centre(&self) -> Vec3 {
        self.platform_foot + self.dir * (self.platform_depth / 2.0) + Vec3::Y * self.height
    }
}
