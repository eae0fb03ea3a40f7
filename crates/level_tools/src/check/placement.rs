//! Where a walker starts: where the game starts the player, at a spawn
//! node, beside a door or lift, or dropped onto a random walkable surface.

use super::course::Course;
use super::walk::{in_box, uniform};
use glam::Vec3;
use slidewalk_controller::CharacterState;
use slidewalk_level::{MoverKind, spawn};
use slidewalk_sweep::{PlacedCollider, Pose};

impl Course<'_> {
    /// Where walk `walk` starts, in words: near which door or lift, at
    /// which spawn node, or anywhere on the level.
    pub(super) fn start_place(&self, walk: u32) -> String {
        let level = self.level;
        if !level.movers.is_empty() && walk % 3 == 2 {
            let m = &level.movers[(walk / 3) as usize % level.movers.len()];
            let kind = match m.kind {
                MoverKind::Door(_) => "door",
                MoverKind::Lift(_) => "lift",
            };
            format!("near {kind} {:?}", m.name)
        } else if !level.spawns.is_empty() {
            format!("at spawn point {}", walk as usize % level.spawns.len())
        } else {
            "on the level".into()
        }
    }

    /// A free centre: where the game starts the player (walk 0's first
    /// placement, [`spawn::start_point`]); at a spawn point placed by the
    /// game's rule ([`spawn::place_at_node`]: feet on the node, or straight
    /// below or above it where the standing shape fits), with a small random
    /// offset of the node after the first try; or, for levels without
    /// spawns, dropped onto a random walkable surface. Every third walk
    /// starts at a door or a lift (where it is now, `poses`), so they meet
    /// walkers.
    pub(super) fn spawn_point(
        &self,
        world: &[PlacedCollider<'_>],
        poses: &[Pose],
        walk: u32,
        first: bool,
        rng: &mut fastrand::Rng,
    ) -> Option<Vec3> {
        let (level, e, bounds, walkable) = (self.level, &self.standing, self.bounds, self.walkable_cos);
        let r = e.radii();
        let mover = (!level.movers.is_empty() && walk % 3 == 2).then(|| {
            let k = (walk / 3) as usize % level.movers.len();
            let (m, pose) = (&level.movers[k], poses[k]);
            pose.transform_aabb(m.collider.bounds())
        });
        let free = |centre: Vec3| slidewalk_sweep::penetration_depth(e, centre, world) == 0.0;
        let standing = |feet: Vec3| CharacterState::standing_at(feet, &self.config.controller).position;
        if mover.is_none()
            && walk == 0
            && first
            && let Some(start) = self.game_start.filter(|c| free(*c))
        {
            return Some(start);
        }
        for attempt in 0..200 {
            let candidate = if let Some(near) = mover {
                // Drop onto what is below a point near the mover (its deck,
                // the floor beside it): from just above it, or every other
                // try from within its height (a door in a wall under a low
                // ceiling has no free space above it).
                let spread = Vec3::new(1.5, 0.0, 1.5) * (attempt.min(20) as f32 / 20.0);
                let above = near.max.y + r.y + 0.05;
                let y = if attempt % 2 == 0 {
                    above
                } else {
                    uniform(rng, (near.min.y + r.y + 0.05).min(above), above)
                };
                let top = in_box(rng, near.center() - spread, near.center() + spread).with_y(y);
                spawn::drop_onto(e, top, bounds, world, walkable).map(standing)
            } else if !level.spawns.is_empty() {
                let spawn = level.spawns[walk as usize % level.spawns.len()];
                let jitter = if attempt == 0 {
                    Vec3::ZERO
                } else {
                    Vec3::new(uniform(rng, -1.0, 1.0), 0.0, uniform(rng, -1.0, 1.0))
                };
                spawn::place_at_node(e, spawn.position + jitter, world).map(standing)
            } else {
                // Drop from a random point inside or above the level's
                // bounds (rooms are often closed) onto the first walkable
                // surface below: the game's drop, from anywhere.
                let top = in_box(rng, bounds.min, bounds.max + Vec3::Y * (r.y + 0.1));
                spawn::drop_onto(e, top, bounds, world, walkable).map(standing)
            };
            if let Some(p) = candidate
                && free(p)
            {
                return Some(p);
            }
        }
        None
    }
}
