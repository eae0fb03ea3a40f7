//! The level as the balls meet it ([`BallLevel`]), and the short sweep
//! that places a new ball in it (a throw's start, a drop).

use crate::sim::colliders::Colliders;
use slidewalk_balls::{AnalyticSolids, MeshSolids};
use slidewalk_sweep::PlacedCollider;

/// Seconds over which a placement (a throw's start, a drop) is swept, so
/// a moving door or lift barely moves meanwhile.
pub(super) const PLACEMENT_SWEEP_SECONDS: f32 = 1e-3;

/// The level as balls meet it this tick: its colliders at their poses at
/// the tick's start, the exact planes and cylinders of nodes that asked
/// for one instead of their triangles (the player still walks the
/// triangles), and every other triangle.
pub(super) struct BallLevel<'c> {
    pub(super) placed: Vec<PlacedCollider<'c>>,
    shapes: AnalyticSolids,
    friction: Box<dyn Fn(usize, u32) -> f32 + Sync + 'c>,
    analytic: Box<dyn Fn(usize, u32) -> bool + Sync + 'c>,
    any_analytic: bool,
    /// The static collider's index when a sphere meets only its exact shapes.
    analytic_statics: Option<usize>,
}

impl<'c> BallLevel<'c> {
    pub(super) fn new(colliders: &'c Colliders) -> Self {
        let shapes = colliders.analytic_shapes();
        Self {
            placed: colliders.placed_at_tick_start(),
            shapes: AnalyticSolids::new(&shapes),
            friction: Box::new(|c, t| colliders.friction(c, t)),
            analytic: Box::new(|c, t| colliders.is_analytic(c, t)),
            any_analytic: !shapes.is_empty(),
            analytic_statics: colliders.all_analytic_statics(),
        }
    }

    pub(super) fn obstacles(&self) -> (&AnalyticSolids, MeshSolids<'_>) {
        let meshes = MeshSolids::new(&self.placed)
            .with_friction(&*self.friction)
            .with_layers(slidewalk_level::layers::BALL_LAYERS);
        let meshes = if let Some(statics) = self.analytic_statics {
            meshes.without(statics)
        } else if self.any_analytic {
            meshes.skipping(&*self.analytic)
        } else {
            meshes
        };
        (&self.shapes, meshes)
    }
}
