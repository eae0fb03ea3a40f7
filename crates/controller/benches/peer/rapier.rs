//! The peer both the benchmark and the behaviour table measure against:
//! rapier3d's `KinematicCharacterController` set up like our defaults, the
//! capsule it moves, a level of triangles as rapier sees it, and the
//! conversions between glam and rapier's vectors.

use glam::Vec3;
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::math::Vector as RVec;
use rapier3d::prelude::{
    ColliderBuilder, ColliderSet, DefaultBroadPhase, IntegrationParameters, NarrowPhase, QueryFilter, QueryPipeline,
    RigidBodySet,
};
use sweep::test_util::Soup;

/// Capsule of the rapier character: radius and half the length of its
/// segment, metres (1.8 m tall).
pub const CAPSULE_RADIUS: f32 = 0.4;
pub const CAPSULE_HALF_SEGMENT: f32 = 0.5;

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

/// A glam vector as rapier's.
pub fn to_rapier(v: Vec3) -> RVec {
    RVec::from_array(v.to_array())
}

/// A rapier vector as glam's.
pub fn from_rapier(v: RVec) -> Vec3 {
    Vec3::from_array(v.to_array())
}
