//! The peer both the benchmark and the behaviour table measure against:
//! rapier3d's `KinematicCharacterController` set up like our defaults, the
//! capsule it moves, a level of triangles as rapier sees it, one tick of a
//! character it moves (the caller keeping its vertical speed, as in rapier's
//! examples), and the conversions between glam and rapier's vectors.

use glam::Vec3;
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::math::{Pose as RPose, Vector as RVec};
use rapier3d::prelude::{
    ColliderBuilder, ColliderSet, DefaultBroadPhase, IntegrationParameters, NarrowPhase, QueryFilter, QueryPipeline,
    RigidBodySet, SharedShape,
};
use slidewalk_controller::ControllerConfig;
use slidewalk_sweep::test_util::Soup;

/// Capsule of the rapier character: radius and half the length of its
/// segment, metres (1.8 m tall, as our ellipsoid 0.4, 0.9, 0.4 m).
pub const CAPSULE_RADIUS: f32 = 0.4;
pub const CAPSULE_HALF_SEGMENT: f32 = 0.5;

/// The capsule rapier's controller moves, upright.
pub fn capsule() -> SharedShape {
    SharedShape::capsule_y(CAPSULE_HALF_SEGMENT, CAPSULE_RADIUS)
}

/// rapier's controller set up as our defaults, as far as it has them.
pub fn kinematic_controller(autostep: bool) -> KinematicCharacterController {
    KinematicCharacterController {
        up: RVec::Y,
        max_slope_climb_angle: 45f32.to_radians(),
        min_slope_slide_angle: 45f32.to_radians(),
        snap_to_ground: Some(CharacterLength::Absolute(0.4)),
        autostep: autostep.then_some(CharacterAutostep {
            max_height: CharacterLength::Absolute(0.35),
            min_width: CharacterLength::Absolute(0.2),
            include_dynamic_bodies: false,
        }),
        ..KinematicCharacterController::default()
    }
}

/// A level as rapier sees it: one fixed trimesh collider in the BVH broad
/// phase (its AABB set directly: no physics step is needed for queries).
pub struct RapierLevel {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    broad_phase: DefaultBroadPhase,
    narrow_phase: NarrowPhase,
}

impl RapierLevel {
    pub fn new(soup: &Soup) -> Self {
        let vertices: Vec<RVec> = soup.positions.iter().map(|p| to_rapier(*p)).collect();
        let collider = ColliderBuilder::trimesh(vertices, soup.triangles.clone())
            .expect("rapier accepts the triangles")
            .build();
        let mut colliders = ColliderSet::new();
        let handle = colliders.insert(collider);
        let mut broad_phase = DefaultBroadPhase::new();
        broad_phase.set_aabb(
            &IntegrationParameters::default(),
            handle,
            colliders[handle].compute_aabb(),
        );
        Self {
            bodies: RigidBodySet::new(),
            colliders,
            broad_phase,
            narrow_phase: NarrowPhase::new(),
        }
    }

    pub fn queries(&self) -> QueryPipeline<'_> {
        self.broad_phase.as_query_pipeline(
            self.narrow_phase.query_dispatcher(),
            &self.bodies,
            &self.colliders,
            QueryFilter::default(),
        )
    }
}

/// rapier's controller, its view of the level, the capsule, and the
/// speeds and gravity it is given (ours, from our config).
pub struct Rapier<'a> {
    pub kcc: &'a KinematicCharacterController,
    pub queries: &'a QueryPipeline<'a>,
    pub shape: &'a SharedShape,
    pub config: &'a ControllerConfig,
}

/// A character moved by rapier's controller: its centre and what the caller
/// keeps for it (rapier's controller handles no velocity or gravity).
#[derive(Clone, Copy)]
pub struct RapierBody {
    /// Centre, metres.
    pub position: Vec3,
    /// Speed along y, m/s.
    pub vertical_speed: f32,
    /// Whether the last tick ended on the ground.
    pub grounded: bool,
}

/// What one tick of a `RapierBody` did.
#[allow(dead_code, reason = "the behaviour table looks only at the position")]
pub struct RapierStep {
    pub grounded: bool,
    pub jumped: bool,
    /// Shape-cast hits reported to the collision callback.
    pub hits: u32,
}

impl RapierBody {
    /// At rest with its centre at `position`, not yet grounded.
    pub fn at(position: Vec3) -> Self {
        Self {
            position,
            vertical_speed: 0.0,
            grounded: false,
        }
    }

    /// One tick: a jump (at our jump speed) if asked on the ground, gravity
    /// added to the vertical speed (down to our fastest fall), then one
    /// `move_shape` with the walking `velocity` (m/s, horizontal) and the
    /// vertical speed as the desired translation. The vertical speed is
    /// zeroed when falling onto the ground or when a ceiling stops a rise.
    pub fn step(&mut self, r: &Rapier<'_>, velocity: Vec3, jump: bool, dt: f32) -> RapierStep {
        let jumped = jump && self.grounded;
        if jumped {
            self.vertical_speed = r.config.jump_speed();
        }
        self.vertical_speed = (self.vertical_speed + r.config.gravity.y * dt).max(-r.config.max_fall_speed);
        let desired = (velocity + Vec3::Y * self.vertical_speed) * dt;
        let mut hits = 0;
        let moved = r.kcc.move_shape(
            dt,
            r.queries,
            &**r.shape,
            &RPose::from_translation(to_rapier(self.position)),
            to_rapier(desired),
            |_| hits += 1,
        );
        let moved_by = from_rapier(moved.translation);
        self.position += moved_by;
        self.grounded = moved.grounded;
        if (self.grounded && self.vertical_speed < 0.0) || (desired.y > 0.0 && moved_by.y < 0.5 * desired.y) {
            // Standing, or a ceiling stopped the rise.
            self.vertical_speed = 0.0;
        }
        RapierStep {
            grounded: self.grounded,
            jumped,
            hits,
        }
    }
}

/// A glam vector as rapier's.
pub fn to_rapier(v: Vec3) -> RVec {
    RVec::from_array(v.to_array())
}

/// A rapier vector as glam's.
pub fn from_rapier(v: RVec) -> Vec3 {
    Vec3::from_array(v.to_array())
}
