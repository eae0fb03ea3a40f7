//! Which of the level's colliders an agent's tick can reach: a still one
//! farther than a tick can take the agent is met with no layers, so every
//! query of the tick passes it over at once (it would find nothing in it
//! anyway). The colliders keep their places: the controller knows the
//! ground by index.

use crate::step::inputs::StepInputs;
use glam::Vec3;
use slidewalk_controller::{CharacterState, ControllerConfig};
use slidewalk_sweep::{CollisionLayers, PlacedCollider};

/// Each of `colliders`' world box (metres), or the whole of space for one
/// that moves (it is never passed over).
pub(super) fn level_boxes(colliders: &[PlacedCollider<'_>]) -> Vec<(Vec3, Vec3)> {
    colliders
        .iter()
        .map(|c| {
            if c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO {
                (Vec3::NEG_INFINITY, Vec3::INFINITY)
            } else {
                let b = c.world_bounds();
                (b.min, b.max)
            }
        })
        .collect()
}

/// How far (metres) one tick of `dt` seconds can take an agent's
/// ellipsoid, or what its controller looks at, beyond its radii and its
/// world velocity's travel: the speed it can gain (accelerations, gravity,
/// a walk, a jump, a wall jump's push, a slide's boost, a dash), the
/// lengths a tick moves or looks by (step-up, snap, mantle, dash), two of
/// the largest radii (a change of shape, a push out) and half a metre.
/// Generous: what lies beyond it is far from any agent that is not near.
pub(super) fn tick_margin(c: &ControllerConfig, max_radii: Vec3, dt: f32) -> f32 {
    let g = c.gravity.length();
    let jump_speed = (2.0 * g * c.jump_height.max(c.wall_jump_height)).sqrt();
    let dash_speed = if c.dash_time > 0.0 {
        c.dash_distance / c.dash_time
    } else {
        0.0
    };
    let gained = (c.ground_acceleration.max(c.air_acceleration) + g) * dt
        + c.walk_speed.max(c.sprint_speed).max(c.crouch_speed).max(c.swim_speed)
        + jump_speed
        + c.wall_jump_push
        + c.slide_speed_boost
        + dash_speed;
    gained * dt
        + c.step_height
        + c.snap_distance
        + c.mantle_height
        + c.dash_distance
        + 2.0 * max_radii.max_element()
        + 0.5
}

/// How far (metres) the fastest of `colliders` moves any point of itself
/// in `dt` seconds: as far as it can push an agent this tick.
pub(super) fn fastest_push(colliders: &[PlacedCollider<'_>], dt: f32) -> f32 {
    colliders
        .iter()
        .filter(|c| c.linear_velocity != Vec3::ZERO || c.angular_velocity != Vec3::ZERO)
        .map(|c| {
            // The farthest corner of its box from the origin it turns about.
            let b = c.world_bounds();
            let arm = (b.min - c.pose.translation)
                .abs()
                .max((b.max - c.pose.translation).abs());
            (c.linear_velocity.length() + c.angular_velocity.length() * arm.length()) * dt
        })
        .fold(0.0, f32::max)
}

impl<'a> StepInputs<'a> {
    /// Sets the layers of `level` (the level's colliders, in their
    /// places) for agent `state`'s tick: each its own when it is near,
    /// none when it is still and beyond the tick's reach
    /// ([`StepInputs::tick_margin`] past its radii and its world
    /// velocity's travel). On the demo level a dozen small parts each
    /// cost every sweep a walk of their tree.
    pub(super) fn pass_over_far_level(&self, state: &CharacterState, level: &mut [PlacedCollider<'a>]) {
        let far = state.world_velocity().length() * self.dt + self.tick_margin;
        let (lo, hi) = (state.position - state.radii - far, state.position + state.radii + far);
        let all_near = !(lo.is_finite() && hi.is_finite());
        for ((c, placed), &(min, max)) in level.iter_mut().zip(self.world.colliders).zip(&self.level_boxes) {
            let near = all_near || min.cmple(hi).all() && max.cmpge(lo).all();
            c.layers = if near { placed.layers } else { CollisionLayers::NONE };
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::CrowdConfig;
    use crate::crowd::{Agent, Crowd, CrowdSurroundings};
    use crate::grid::Grid;
    use crate::step::inputs::{Reach, StepInputs, TickScratch};
    use crate::wander::{AgentRng, Wander};
    use glam::Vec3;
    use slidewalk_controller::{CharacterState, Intent};
    use slidewalk_sweep::test_util::Soup;
    use slidewalk_sweep::{MeshCollider, PlacedCollider, Pose};

    /// Agents walking, running into boxes, falling onto them and riding
    /// them among small boxes, each its own collider: every tick with the
    /// far ones passed over ends exactly where it ends with all of them met.
    #[test]
    fn passing_over_far_colliders_changes_no_tick() {
        let mut floor = Soup::default();
        floor.cuboid(Vec3::new(-30.0, -1.0, -30.0), Vec3::new(30.0, 0.0, 30.0));
        let floor = MeshCollider::build(&floor.positions, &floor.triangles).unwrap();
        let mut small = Soup::default();
        small.cuboid(Vec3::splat(-0.3), Vec3::splat(0.3));
        let small = MeshCollider::build(&small.positions, &small.triangles).unwrap();
        let at = |p: Vec3, v: Vec3| PlacedCollider::moving(&small, Pose::from_translation(p), v, Vec3::ZERO);
        let mut placed = vec![PlacedCollider::fixed(&floor)];
        for k in 0..60 {
            let (x, z) = ((k % 10) as f32 * 5.0 - 22.0, (k / 10) as f32 * 7.0 - 20.0);
            placed.push(at(Vec3::new(x, 0.3 + (k % 3) as f32 * 0.2, z), Vec3::ZERO));
        }
        // A lift going up fast, a platform sliding sideways.
        placed.push(at(Vec3::new(3.0, 0.2, 3.0), Vec3::Y * 6.0));
        placed.push(at(Vec3::new(-3.0, 0.4, 8.0), Vec3::X * 8.0));
        let world = CrowdSurroundings::new(&placed);
        let config = CrowdConfig {
            collide_agents: false,
            ..CrowdConfig::default()
        };
        let crowd = Crowd::new(config.clone()).unwrap();
        let controller = config.controller_for(0);
        // Feet, walk, starting velocity (m/s).
        let starts = [
            (Vec3::new(-20.0, 0.0, -20.5), Vec3::X, Vec3::ZERO),
            (Vec3::new(0.0, 0.0, -13.0), Vec3::new(0.3, 0.0, 1.0), Vec3::ZERO),
            (Vec3::new(-12.0, 0.0, 1.0), Vec3::Z, Vec3::new(0.0, 0.0, 20.0)),
            (Vec3::new(2.0, 6.0, 1.0), Vec3::X, Vec3::new(3.0, -10.0, 0.0)),
            (Vec3::new(3.0, 0.5, 3.0), Vec3::ZERO, Vec3::ZERO),
            (Vec3::new(-3.5, 0.7, 8.0), -Vec3::X, Vec3::ZERO),
        ];
        let agents: Vec<Agent> = (0..starts.len())
            .map(|k| {
                let state = CharacterState::standing_at(starts[k].0, &controller);
                Agent {
                    state,
                    size: 0,
                    wander: Wander::new(AgentRng::new(1, k as u64), &config.wander),
                    home: state.position,
                    crushed: false,
                }
            })
            .collect();
        let dt = 1.0 / 60.0;
        let passing = StepInputs::new(&world, &crowd.sizes, &agents, None, &config, dt, 1);
        let mut meeting_all = StepInputs::new(&world, &crowd.sizes, &agents, None, &config, dt, 1);
        meeting_all.level_boxes.fill((Vec3::NEG_INFINITY, Vec3::INFINITY));
        let grid = Grid::default();
        let (mut sa, mut sb) = (TickScratch::default(), TickScratch::default());
        for (i, &(feet, direction, velocity)) in starts.iter().enumerate() {
            let mut a = agents[i].state;
            a.velocity = velocity;
            let mut b = a;
            let intent = Intent {
                direction,
                ..Intent::default()
            };
            for tick in 0..120 {
                passing.tick(&mut sa, i, &mut a, &intent, &grid, Reach::All);
                meeting_all.tick(&mut sb, i, &mut b, &intent, &grid, Reach::All);
                assert_eq!(a, b, "from {feet} at tick {tick}");
            }
            assert!(
                direction == Vec3::ZERO || a.position.distance(feet) > 1.0,
                "from {feet}: went nowhere"
            );
        }
    }
}
