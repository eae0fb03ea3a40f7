//! `Crowd::spawn`: agents dropped onto free walkable ground.

use crate::crowd::{Agent, Crowd, CrowdSurroundings};
use crate::separation::apart;
use crate::wander::{AgentRng, Wander};
use glam::Vec3;
use slidewalk_controller::CharacterState;
use slidewalk_sweep::{Aabb, Ellipsoid, PlacedCollider};
use std::collections::HashMap;

/// The gap left between a new agent and the others at spawn, in the
/// eSpace of each (a fraction of its radius).
const SPAWN_GAP: f64 = 0.05;

/// Tries per agent asked for before giving up on the rest (a full level).
const TRIES_PER_AGENT: usize = 60;

/// The world box of the colliders at their current poses, metres.
pub(crate) fn bounds_of(colliders: &[PlacedCollider<'_>]) -> Aabb {
    PlacedCollider::world_bounds_of(colliders)
}

impl Crowd {
    /// Adds up to `n` agents at random free places of `world` and returns
    /// how many were placed (fewer when the level is too full).
    ///
    /// Each agent gets a size at random and is dropped from above the
    /// level at a random point onto the first surface below it; the place
    /// is taken if that surface is walkable, the ground a little beyond
    /// the agent on all four sides is within a step of it (not a wall's
    /// top, a railing or the rim of a drop), the ellipsoid overlaps no
    /// geometry, stays a small gap away from every other agent and out of
    /// reach of the player's polytope ([`CrowdSurroundings::player`]). The
    /// agents' walks are a function of `seed` and the order of spawns.
    ///
    /// Also sets the height below which an agent has fallen out (20 m
    /// below the level's box): it is then sent back where it spawned.
    pub fn spawn(&mut self, n: usize, world: &CrowdSurroundings<'_>, seed: u64) -> usize {
        self.spawn_where(n, world, seed, None)
    }

    /// [`Crowd::spawn`] within `radius` metres of `centre` across (x, z):
    /// around the player, or a dense group for a test.
    pub fn spawn_around(
        &mut self,
        n: usize,
        world: &CrowdSurroundings<'_>,
        seed: u64,
        centre: Vec3,
        radius: f32,
    ) -> usize {
        self.spawn_where(n, world, seed, Some((centre, radius.max(0.0))))
    }

    fn spawn_where(
        &mut self,
        n: usize,
        world: &CrowdSurroundings<'_>,
        seed: u64,
        around: Option<(Vec3, f32)>,
    ) -> usize {
        let colliders = world.colliders;
        let bounds = bounds_of(colliders);
        if colliders.is_empty() || !bounds.min.is_finite() || !bounds.max.is_finite() {
            return 0;
        }
        self.fall_limit = bounds.min.y - 20.0;
        let max_radii = self.sizes.iter().fold(Vec3::ZERO, |m, s| m.max(s.radii));
        let cell = 2.0 * max_radii.max_element();
        let key = |p: Vec3| {
            let c = (p / cell).floor();
            (c.x as i32, c.y as i32, c.z as i32)
        };
        let mut cells: HashMap<(i32, i32, i32), Vec<u32>> = HashMap::new();
        for (i, a) in self.agents.iter().enumerate() {
            cells.entry(key(a.state.position)).or_default().push(i as u32);
        }
        let cos_walkable = self.config.controller.walkable_slope_deg.to_radians().cos();
        // Clear of the player's polytope, and the player's of the agent's.
        let gap = self.config.hull.max_gap();
        let step = self.config.controller.step_height;
        let mut rng = AgentRng::new(seed, u64::MAX);
        let first = self.agents.len();
        let mut tries = 0;
        while self.agents.len() - first < n && tries < TRIES_PER_AGENT * n + 100 {
            tries += 1;
            let size = ((rng.next_f32() * self.sizes.len() as f32) as usize).min(self.sizes.len() - 1);
            let radii = self.sizes[size].radii;
            let e = Ellipsoid::new(radii).expect("valid radii");
            let (x, z) = match around {
                None => (
                    rng.range(bounds.min.x + radii.x, bounds.max.x - radii.x),
                    rng.range(bounds.min.z + radii.z, bounds.max.z - radii.z),
                ),
                Some((c, r)) => {
                    // Uniform on the disc.
                    let (a, d) = (rng.range(0.0, std::f32::consts::TAU), r * rng.next_f32().sqrt());
                    (c.x + d * a.cos(), c.z + d * a.sin())
                }
            };
            // The first surface below (x, z): y of the centre standing on it.
            let drop_at = |x: f32, z: f32| {
                let top = Vec3::new(x, bounds.max.y + radii.y + 0.1, z);
                let down = Vec3::new(0.0, bounds.min.y - top.y - radii.y - 0.1, 0.0);
                slidewalk_sweep::sweep_with(&e, top, down, colliders, world.layers, ())
                    .filter(|hit| hit.normal.y >= cos_walkable && !hit.started_embedded)
                    .map(|hit| top.y + down.y * hit.time)
            };
            let Some(y) = drop_at(x, z) else { continue };
            let centre = Vec3::new(x, y + 0.01 * radii.y, z);
            // Not crowding another agent.
            let near = |p: Vec3| {
                let c = key(p);
                let mut found = Vec::new();
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        for dz in -1..=1 {
                            if let Some(list) = cells.get(&(c.0 + dx, c.1 + dy, c.2 + dz)) {
                                found.extend_from_slice(list);
                            }
                        }
                    }
                }
                found
            };
            if !near(centre).iter().all(|&k| {
                let other = &self.agents[k as usize].state;
                apart(centre, radii, other.position, other.radii, SPAWN_GAP)
            }) || world
                .player
                .is_some_and(|p| !apart(centre, radii * (1.0 + gap), p.centre, p.radii * (1.0 + gap), SPAWN_GAP))
            {
                continue;
            }
            // Ground on all sides, within a step (no wall tops, no rims).
            let beyond = radii.x.max(radii.z) + 0.3;
            let level_around = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)]
                .iter()
                .all(|(dx, dz)| {
                    drop_at(x + dx * beyond, z + dz * beyond).is_some_and(|y2| (y2 - y).abs() <= step + 0.3)
                });
            if !level_around || slidewalk_sweep::penetration_depth_with(&e, centre, colliders, world.layers, ()) > 0.0 {
                continue;
            }
            let index = self.agents.len() as u64;
            let controller = &self.sizes[size].controller;
            let mut state = CharacterState::standing_at(centre - Vec3::Y * radii.y, controller.config());
            state.position = centre;
            cells.entry(key(centre)).or_default().push(index as u32);
            self.agents.push(Agent {
                state,
                size: size as u8,
                wander: Wander::new(AgentRng::new(seed, index), &self.config.wander),
                home: centre,
                crushed: false,
            });
        }
        self.agents.len() - first
    }
}
