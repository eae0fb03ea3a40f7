//! The benchmark's players: ours and rapier's, each following the script
//! from its spawn, and where those spawns are (both bodies dropped onto the
//! level at the same random points).

use super::script::Cursor;
use super::{DT, PLAN_RADIUS, SEED, TERRAIN_TOP};
use crate::rapier_peer::{Rapier, RapierBody, RapierStep, to_rapier};
use glam::Vec3;
use rapier3d::math::{Pose as RPose, Vector as RVec};
use rapier3d::parry::query::{ShapeCastOptions, ShapeCastStatus};
use rapier3d::prelude::{QueryPipeline, SharedShape};
use slidewalk_controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickReport};
use slidewalk_sweep::test_util::Lcg;
use slidewalk_sweep::{MeshCollider, PlacedCollider, sweep};

/// A player of ours: spawn, state, place in the script.
#[derive(Clone)]
pub struct OurPlayer {
    pub spawn: CharacterState,
    pub state: CharacterState,
    pub cursor: Cursor,
}

impl OurPlayer {
    /// Standing with its centre at `centre`.
    pub fn new(centre: Vec3, config: &ControllerConfig, cursor: Cursor) -> Self {
        let spawn = CharacterState::standing_at(centre - Vec3::Y * config.standing_radii.y, config);
        Self {
            spawn,
            state: spawn,
            cursor,
        }
    }

    /// One update: the next input of the script, one `Controller::tick`.
    pub fn tick(&mut self, controller: &Controller, world: &Surroundings<'_>, script: &[Intent]) -> TickReport {
        let (intent, restart) = self.cursor.next(script);
        if restart {
            self.state = self.spawn;
        }
        controller
            .tick(&mut self.state, &intent, world, DT)
            .expect("valid tick")
    }
}

/// A player moved by rapier's controller: spawn, body (centre and the
/// vertical speed the caller keeps for it), place in the script.
#[derive(Clone)]
pub struct RapierPlayer {
    pub spawn: Vec3,
    pub body: RapierBody,
    pub cursor: Cursor,
}

impl RapierPlayer {
    pub fn new(centre: Vec3, cursor: Cursor) -> Self {
        Self {
            spawn: centre,
            body: RapierBody::at(centre),
            cursor,
        }
    }

    /// One update: the next input of the script, one `move_shape` with the
    /// walking velocity and the vertical speed (gravity added) as the
    /// desired translation.
    pub fn tick(&mut self, r: &Rapier<'_>, script: &[Intent]) -> RapierStep {
        let (intent, restart) = self.cursor.next(script);
        if restart {
            *self = Self::new(self.spawn, self.cursor);
        }
        self.body
            .step(r, intent.direction * r.config.walk_speed, intent.jump, DT)
    }
}

/// Where each body rests, dropped at the same point.
pub struct Spawn {
    /// Centre of our ellipsoid, metres.
    pub ours: Vec3,
    /// Centre of rapier's capsule, metres.
    pub rapier: Vec3,
}

/// `count` spawns: random points of the level, away from its edges by more
/// than the planned paths reach, where both
/// bodies, dropped from above the level, land (each at its own height, a
/// hair above the surface). The first (the warm player's) is on the
/// terrain, not on a roof or a flight of stairs.
pub fn find_spawns(
    mesh: &MeshCollider,
    placed: &[PlacedCollider<'_>],
    queries: &QueryPipeline<'_>,
    capsule: &SharedShape,
    count: usize,
) -> Vec<Spawn> {
    let ellipsoid = slidewalk_sweep::Ellipsoid::new(ControllerConfig::default().standing_radii).expect("valid radii");
    let bounds = mesh.bounds();
    let margin = Vec3::splat(2.0 * PLAN_RADIUS + 2.0);
    let (lo, hi) = (bounds.min + margin, bounds.max - margin);
    let top = bounds.max.y + 4.0;
    let drop = top - (bounds.min.y - 4.0);
    let cast = ShapeCastOptions {
        max_time_of_impact: drop,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let mut rng = Lcg::new(SEED);
    let mut spawns = Vec::with_capacity(count);
    let mut attempts = 0;
    while spawns.len() < count {
        attempts += 1;
        assert!(attempts < 100 * count, "could not place {count} spawns on the level");
        let high = Vec3::new(rng.range(lo.x, hi.x), top, rng.range(lo.z, hi.z));
        let ours = match sweep(&ellipsoid, high, Vec3::NEG_Y * drop, placed) {
            Some(hit) if !hit.started_embedded && hit.time > 0.0 => high + Vec3::NEG_Y * drop * hit.time,
            _ => continue,
        };
        let pose = RPose::from_translation(to_rapier(high));
        let rapier = match queries.cast_shape(&pose, -RVec::Y, &**capsule, cast) {
            Some((_, hit)) if hit.status != ShapeCastStatus::PenetratingOrWithinTargetDist => {
                high + Vec3::NEG_Y * hit.time_of_impact
            }
            _ => continue,
        };
        if spawns.is_empty() && ours.y > TERRAIN_TOP + ellipsoid.radii().y {
            continue;
        }
        spawns.push(Spawn {
            ours,
            rapier: rapier + Vec3::Y * 0.01,
        });
    }
    spawns
}
