//! What balls bounce off: anything that answers a sphere sweep. The
//! level's triangle meshes (static, doors, lifts) through the collision
//! core are [`MeshSolids`]; the exact planes and cylinders a level asks
//! for are [`AnalyticSolids`].

use glam::Vec3;
use slidewalk_sweep::{Aabb, AnalyticShape, CollisionLayers, Ellipsoid, PlacedCollider};

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

/// Something balls bounce off (the level, a door, the player): it answers
/// a sphere sweep.
pub trait Solids: Sync {
    /// The first contact of a sphere of `radius` (metres) whose centre is
    /// at `centre` `at` seconds into the tick and moves at `velocity` (m/s)
    /// for `duration` seconds; `None` if it touches nothing.
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact>;
}

/// Two sets of solids as one: the earlier contact of the two.
impl<A: Solids, B: Solids> Solids for (A, B) {
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

/// Any number of solids as one (the players' capsules, however many play):
/// the earliest contact of them all, each looking only as far as the
/// earliest found so far. Pass a slice (`capsules.as_slice()`), so a step
/// allocates nothing for it.
impl<T: Solids> Solids for [T] {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        let mut best: Option<Contact> = None;
        for solid in self {
            let horizon = best.map_or(duration, |c| c.time);
            if let Some(c) = solid.sweep(centre, radius, velocity, at, horizon)
                && best.is_none_or(|b| c.time < b.time)
            {
                best = Some(c);
            }
        }
        best
    }
}

impl<T: Solids + ?Sized> Solids for &T {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        (**self).sweep(centre, radius, velocity, at, duration)
    }
}

impl<T: Solids> Solids for Option<T> {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        self.as_ref()?.sweep(centre, radius, velocity, at, duration)
    }
}

/// Nothing to bounce off (open space; balls against balls only).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSolids;

impl Solids for NoSolids {
    fn sweep(&self, _: Vec3, _: f32, _: Vec3, _: f32, _: f32) -> Option<Contact> {
        None
    }
}

/// Triangle meshes at their poses at the start of the tick, each with its
/// velocities. A moving one (door, lift) is swept against in its own
/// frame: the ball's motion relative to the surface's velocity at the
/// ball (rotation taken at that point, so a swinging door is followed to
/// first order within a tick), so a lift coming up hits a resting ball.
pub struct MeshSolids<'a> {
    colliders: &'a [PlacedCollider<'a>],
    friction: &'a (dyn Fn(usize, u32) -> f32 + Sync),
    skip: Option<&'a (dyn Fn(usize, u32) -> bool + Sync)>,
    left_out: Option<usize>,
    layers: CollisionLayers,
}

impl<'a> MeshSolids<'a> {
    /// The colliders, all with friction factor 1.
    pub fn new(colliders: &'a [PlacedCollider<'a>]) -> Self {
        Self {
            colliders,
            friction: &|_, _| 1.0,
            skip: None,
            left_out: None,
            layers: CollisionLayers::ALL,
        }
    }

    /// Without collider `index` at all (every triangle of it is met some
    /// other way): its bounding volume is not even walked. The others
    /// keep their numbers.
    pub fn without(mut self, index: usize) -> Self {
        self.left_out = Some(index);
        self
    }

    /// Without the triangles `skip` (collider index, triangle) says a ball
    /// meets some other way, e.g. those of a level node that asked for an
    /// analytic collider (then in an [`AnalyticSolids`] beside these).
    pub fn skipping(mut self, skip: &'a (dyn Fn(usize, u32) -> bool + Sync)) -> Self {
        self.skip = Some(skip);
        self
    }

    /// For balls with `layers`: colliders whose layers do not interact
    /// with them are passed through (a grate the balls fly through).
    /// One-way colliders are met as the core meets them whatever the
    /// layers: solid from the front for a ball that starts in front.
    pub fn with_layers(mut self, layers: CollisionLayers) -> Self {
        self.layers = layers;
        self
    }

    /// With a friction factor per (collider index, triangle), e.g. the
    /// level's surfaces (ice 0).
    pub fn with_friction(mut self, friction: &'a (dyn Fn(usize, u32) -> f32 + Sync)) -> Self {
        self.friction = friction;
        self
    }
}

impl Solids for MeshSolids<'_> {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, at: f32, duration: f32) -> Option<Contact> {
        let sphere = Ellipsoid::sphere(radius).ok()?;
        let mut best: Option<Contact> = None;
        for (index, collider) in self.colliders.iter().enumerate() {
            if self.left_out == Some(index) {
                continue;
            }
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
            let one = std::slice::from_ref(collider);
            let hit = match self.skip {
                Some(skip) => slidewalk_sweep::sweep_with(
                    &sphere,
                    start,
                    motion,
                    one,
                    self.layers,
                    slidewalk_sweep::KeepTriangles(|c: &slidewalk_sweep::Candidate<'_, '_>| !skip(index, c.triangle())),
                ),
                None => slidewalk_sweep::sweep_with(&sphere, start, motion, one, self.layers, ()),
            };
            let Some(hit) = hit else {
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

/// Static analytic colliders (infinite planes, capped cylinders), swept
/// exactly by the collision core: the lesson's room without its meshes'
/// facets. Each shape has its own friction factor. A cylinder's exact
/// sweep is costly (closed forms in `f64`, the rims by advancement), so a
/// ball whose path's box misses the cylinder's box skips it.
pub struct AnalyticSolids {
    shapes: Vec<(AnalyticShape, f32, Option<Aabb>)>,
}

impl AnalyticSolids {
    /// The shapes, in world space (metres), each with its friction factor, 0 (ice) … 1.
    pub fn new(shapes: &[(AnalyticShape, f32)]) -> Self {
        Self {
            shapes: shapes.iter().map(|&(s, f)| (s, f, s.bounds())).collect(),
        }
    }
}

impl Solids for AnalyticSolids {
    fn sweep(&self, centre: Vec3, radius: f32, velocity: Vec3, _at: f32, duration: f32) -> Option<Contact> {
        let path = Aabb::from_corners(centre, centre + velocity * duration).expand(Vec3::splat(radius));
        let mut best: Option<Contact> = None;
        for (shape, friction, bounds) in &self.shapes {
            if bounds.is_some_and(|b| !b.intersects(&path)) {
                continue;
            }
            let Some(hit) = shape.sweep_sphere(centre, radius, velocity, duration) else {
                continue;
            };
            if best.is_some_and(|b| b.time <= hit.time) {
                continue;
            }
            best = Some(Contact {
                time: hit.time,
                point: hit.point,
                normal: hit.normal,
                surface_velocity: Vec3::ZERO,
                friction: *friction,
                body: None,
            });
        }
        best
    }
}
