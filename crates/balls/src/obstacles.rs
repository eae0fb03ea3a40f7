//! What balls bounce off: anything that answers a sphere sweep. The
//! level's triangle meshes (static, doors, lifts) through the collision
//! core are [`MeshObstacles`].

use glam::Vec3;
use sweep::{Ellipsoid, PlacedCollider};

/// A ball's first contact with an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Seconds after the sweep's start.
    pub time: f32,
    /// The contact point on the surface, metres (where it is at that time).
    pub point: Vec3,
    /// Unit surface normal at the contact, pointing towards the ball.
    pub normal: Vec3,
    /// The surface's velocity at the contact, m/s (zero for static geometry).
    pub surface_velocity: Vec3,
    /// The surface's friction factor, 0 (ice) … 1.
    pub friction: f32,
    /// The body hit, when it is one that takes impulses back (the player,
    /// by the caller's number); `None` for the level.
    pub body: Option<u32>,
}

/// Something balls bounce off.
pub trait Obstacles: Sync {
    /// The first contact of a sphere of `radius` (metres) whose centre is
    /// at `centre` `at` seconds into the tick and moves at `velocity` (m/s)
    /// for `duration` seconds; `None` if it touches nothing.
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact>;
}

/// Two sets of obstacles as one: the earlier contact of the two.
impl<A: Obstacles, B: Obstacles> Obstacles for (A, B) {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        let first = self.0.sweep(centre, radius, velocity, at, duration);
        // The second need only look as far as the first's contact.
        let horizon = first.map_or(duration, |c| c.time);
        match self.1.sweep(centre, radius, velocity, at, horizon) {
            Some(c) if first.is_none_or(|f| c.time < f.time) => Some(c),
            _ => first,
        }
    }
}

impl<T: Obstacles> Obstacles for Option<T> {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        self.as_ref()?.sweep(centre, radius, velocity, at, duration)
    }
}

/// Nothing to bounce off (open space; balls against balls only).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObstacles;

impl Obstacles for NoObstacles {
    fn sweep(&self, _: Vec3, _: f32, _: Vec3, _: f32, _: f32) -> Option<Contact> {
        None
    }
}

/// Triangle meshes at their poses at the start of the tick, each with its
/// velocities. A moving one (door, lift) is swept against in its own
/// frame: the ball's motion relative to the surface's velocity at the
/// ball (rotation taken at that point, so a swinging door is followed to
/// first order within a tick), so a lift coming up hits a resting ball.
pub struct MeshObstacles<'a> {
    colliders: &'a [PlacedCollider<'a>],
    friction: &'a (dyn Fn(usize, u32) -> f32 + Sync),
}

impl<'a> MeshObstacles<'a> {
    /// The colliders, all with friction factor 1.
    pub fn new(colliders: &'a [PlacedCollider<'a>]) -> Self {
        Self {
            colliders,
            friction: &|_, _| 1.0,
        }
    }

    /// With a friction factor per (collider index, triangle), e.g. the
    /// level's surfaces (ice 0).
    pub fn with_friction(mut self, friction: &'a (dyn Fn(usize, u32) -> f32 + Sync)) -> Self {
        self.friction = friction;
        self
    }
}

impl Obstacles for MeshObstacles<'_> {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        let sphere = Ellipsoid::sphere(radius).ok()?;
        let mut best: Option<Contact> = None;
        for (index, collider) in self.colliders.iter().enumerate() {
            let moving = collider.linear_velocity != Vec3::ZERO || collider.angular_velocity != Vec3::ZERO;
            let surface = if moving {
                collider.velocity_at(centre)
            } else {
                Vec3::ZERO
            };
            // Where the ball is relative to the collider's pose at the tick's start.
            let start = centre - surface * at;
            let motion = (velocity - surface) * duration;
            if motion == Vec3::ZERO {
                continue;
            }
            let Some(hit) = sweep::sweep(&sphere, start, motion, std::slice::from_ref(collider)) else {
                continue;
            };
            let time = hit.time * duration;
            if best.is_some_and(|b| b.time <= time) {
                continue;
            }
            best = Some(Contact {
                time,
                point: hit.point + surface * (at + time),
                normal: hit.normal,
                surface_velocity: surface,
                friction: (self.friction)(index, hit.triangle),
                body: None,
            });
        }
        best
    }
}
