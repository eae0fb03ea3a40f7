//! One walk, tick by tick: the walker's random intent (headings, jumps,
//! crouches, sprints), the controller's tick, and every tick judged
//! (penetration, passing through a surface, non-finite, crushed, stuck,
//! walked off). The walker meets the level as the player does
//! ([`PLAYER_LAYERS`]): not the parts whose layers let the player through,
//! one-way platforms from their front only.

use super::config::SOAK_REVISIT_SECONDS;
use super::course::Course;
use super::report::WalkReport;
use crate::movers::MoverSchedule;
use glam::Vec3;
use slidewalk_controller::{CharacterState, Intent, Surroundings};
use slidewalk_level::layers::{PLAYER_LAYERS, met_by};
use slidewalk_sweep::{Aabb, Candidate, CollisionLayers, Ellipsoid, PlacedCollider, segment_crosses_triangle};
use std::collections::HashSet;
use std::time::Instant;

/// Uniform in `[lo, hi)`.
pub(super) fn uniform(rng: &mut fastrand::Rng, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * rng.f32()
}

/// Uniform in the box `[lo, hi)`.
pub(super) fn in_box(rng: &mut fastrand::Rng, lo: Vec3, hi: Vec3) -> Vec3 {
    Vec3::new(
        uniform(rng, lo.x, hi.x),
        uniform(rng, lo.y, hi.y),
        uniform(rng, lo.z, hi.z),
    )
}

/// One walker's state while placed.
struct Walker {
    state: CharacterState,
    /// Walking direction, radians about +Y from −Z.
    heading: f32,
    /// Crouching time left, seconds.
    crouch_left: f32,
    sprint: bool,
    /// Tick and position of the last time it moved more than 1 cm.
    still_since: (u32, Vec3),
    /// The last tick moved less than a tenth of its walking step.
    blocked: bool,
    /// Reported crushed since it was placed.
    crushed: bool,
    /// Tick it was placed at.
    placed_at: u32,
}

/// What ended a walker's placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    WalkedOff,
    FellThrough,
    NonFinite,
    Stuck,
}

impl Course<'_> {
    /// Walk number `walk`: its findings, the seconds spent in controller
    /// ticks and the coverage cells it stood in.
    pub(super) fn walk(&self, walk: u32) -> (WalkReport, f64, HashSet<[i32; 3]>) {
        let (level, config) = (self.level, self.config);
        let mut rng = fastrand::Rng::with_seed(config.seed ^ u64::from(walk).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut report = WalkReport {
            walks: 1,
            ..Default::default()
        };
        let mut timed = 0.0f64;
        let mut movers = MoverSchedule::new(level);
        let revisit_ticks = (SOAK_REVISIT_SECONDS / config.dt).round().max(1.0) as u32;
        let at_a_mover = !level.movers.is_empty() && walk % 3 == 2;
        let mut walker: Option<Walker> = None;
        let mut placements = 0u64;
        let mut visited = HashSet::new();
        for tick in 0..config.ticks {
            movers.advance(level, config.dt);
            // As the player meets them: each collider it passes through has no layers.
            let colliders = met_by(&movers.colliders(level, config.dt), PLAYER_LAYERS);
            if config.soak && at_a_mover && walker.as_ref().is_some_and(|w| tick - w.placed_at >= revisit_ticks) {
                walker = None;
            }
            let w = match &mut walker {
                Some(w) => w,
                None => {
                    let Some(start) = self.spawn_point(&colliders, movers.poses(), walk, placements == 0, &mut rng)
                    else {
                        let place = self.start_place(walk);
                        report.note(if placements == 0 {
                            format!("walk {walk}: could not start: no free place to stand {place}")
                        } else {
                            format!(
                                "walk {walk} tick {tick}: could not be placed again: no free place to stand {place}"
                            )
                        });
                        break;
                    };
                    if placements == 0 {
                        report.walks_started += 1;
                        if walk == 0 {
                            report.first_start = Some(start);
                        }
                    }
                    report.respawns += (placements > 0) as u64;
                    placements += 1;
                    let r = self.standing.radii();
                    let mut state = CharacterState::standing_at(start - Vec3::Y * r.y, &config.controller);
                    state.position = start;
                    walker.insert(Walker {
                        state,
                        heading: uniform(&mut rng, 0.0, std::f32::consts::TAU),
                        crouch_left: 0.0,
                        sprint: false,
                        still_since: (tick, start),
                        blocked: false,
                        crushed: false,
                        placed_at: tick,
                    })
                }
            };
            let (ended, seconds) = self.tick(w, walk, tick, &colliders, &mut movers, &mut rng, &mut report);
            timed += seconds;
            report.updates += 1;
            if let Some(g) = w.state.ground
                && g.collider < level.first_mover()
            {
                visited.insert(self.coverage.key(g.point));
            }
            match ended {
                None => {}
                Some(ended) => {
                    match ended {
                        Ended::WalkedOff => report.walked_off += 1,
                        Ended::FellThrough => report.fell_through += 1,
                        Ended::NonFinite => report.non_finite += 1,
                        Ended::Stuck => report.stuck += 1,
                    }
                    walker = None;
                    if !config.soak {
                        break;
                    }
                }
            }
        }
        (report, timed, visited)
    }

    /// One controller tick of a placed walker, checked: what ended its
    /// placement, if anything, and the seconds spent in the controller.
    #[allow(clippy::too_many_arguments)]
    fn tick(
        &self,
        w: &mut Walker,
        walk: u32,
        tick: u32,
        colliders: &[PlacedCollider<'_>],
        movers: &mut MoverSchedule,
        rng: &mut fastrand::Rng,
        report: &mut WalkReport,
    ) -> (Option<Ended>, f64) {
        let (level, config) = (self.level, self.config);
        let friction = |collider: usize, triangle: u32| level.friction(collider, triangle);
        let world = Surroundings::new(colliders).with_friction(&friction);
        let intent = self.intent(w, rng);
        let before = w.state;
        let from = before.position;
        let started = Instant::now();
        let tick_report = self.controller.tick(&mut w.state, &intent, &world, config.dt);
        let seconds = started.elapsed().as_secs_f64();
        let tick_report = match tick_report {
            Ok(report) => report,
            Err(e) => {
                // Only a state gone bad gets here (the dt is checked): count it as non-finite.
                report.note(format!("walk {walk} tick {tick}: the controller refused the tick: {e}"));
                return (Some(Ended::NonFinite), seconds);
            }
        };
        let state = &w.state;
        report.jumps += tick_report.jumped as u64;
        report.steps += tick_report.stepped as u64;
        if let Some(g) = state.ground
            && g.collider >= level.first_mover()
        {
            report.riding_ticks += 1;
        }
        if !(state.position.is_finite() && state.velocity.is_finite()) {
            report.note(format!(
                "walk {walk} tick {tick}: non-finite state (position {}, velocity {})",
                state.position, state.velocity
            ));
            return (Some(Ended::NonFinite), seconds);
        }
        let moved = (state.position - from).length();
        w.blocked = moved < 0.1 * config.controller.walk_speed * config.dt && state.grounded();
        let e = Ellipsoid::new(state.radii).expect("valid radii");
        if tick_report.crushed {
            // The game turns the squeezing door or lift back; so does the checker.
            let depth = slidewalk_sweep::penetration_depth(&e, state.position, colliders);
            report.max_squeeze = report.max_squeeze.max(depth);
            if !w.crushed {
                w.crushed = true;
                report.crushed += 1;
                report.note(format!(
                    "walk {walk} tick {tick}: crushed at {} (not an error)",
                    state.position
                ));
            }
            movers.turn_back(level, tick_report.pushing_colliders());
        } else {
            let depth = tick_depth(&before, state, tick_report.dropped, colliders);
            report.max_penetration = report.max_penetration.max(depth);
            if depth > penetration_tolerance(state.position, state.radii) {
                report.penetrating_passes += 1;
                report.note(format!(
                    "walk {walk} tick {tick}: penetrating by {depth:.2e} of the radius at {}",
                    state.position
                ));
            }
        }
        if crosses_surface(colliders, state.radii, from, state.position) {
            report.note(format!(
                "walk {walk} tick {tick}: centre passed through a surface from {from} to {}",
                state.position
            ));
            return (Some(Ended::FellThrough), seconds);
        }
        if state.position.y < self.bounds.min.y - 2.0 * self.standing.radii().y {
            return (Some(Ended::WalkedOff), seconds);
        }
        if (state.position - w.still_since.1).length() > 0.01 {
            w.still_since = (tick, state.position);
        } else if (tick - w.still_since.0) as f32 * config.dt > 3.0 {
            report.note(format!("walk {walk} tick {tick}: stuck at {}", state.position));
            return (Some(Ended::Stuck), seconds);
        }
        (None, seconds)
    }

    /// What the walker wants this tick: a new heading now and then, and
    /// whenever the last tick was blocked (a bumping walker), and often a
    /// jump when blocked, so "stuck" means no direction or jump got it out;
    /// now and then a jump, a crouch, a sprint.
    fn intent(&self, w: &mut Walker, rng: &mut fastrand::Rng) -> Intent {
        let config = self.config;
        if w.blocked || rng.f32() < config.dt / 1.5 {
            w.heading = uniform(rng, 0.0, std::f32::consts::TAU);
            w.sprint = rng.f32() < 0.3;
        }
        if w.crouch_left <= 0.0 && rng.f32() < config.dt / 8.0 {
            w.crouch_left = uniform(rng, 0.5, 3.0);
        }
        w.crouch_left -= config.dt;
        // Whatever else a controller's intent holds (a drop through a
        // one-way platform, say) the walker leaves at its default.
        #[allow(clippy::needless_update)]
        Intent {
            direction: Vec3::new(w.heading.sin(), 0.0, -w.heading.cos()),
            jump: rng.f32() < if w.blocked { 0.2 } else { config.dt / 4.0 },
            crouch: w.crouch_left > 0.0,
            sprint: w.sprint,
            ..Intent::default()
        }
    }
}

/// The deepest overlap a tick may end with and not count as penetrating,
/// eSpace units: 1e-4, or where the character is so far from the origin
/// that its `f32` position cannot resolve that, two steps of that
/// resolution (at 3.6 km a step is 0.24 mm, 6e-4 of a 0.4 m radius: a map
/// of a 33 km² scene walked 3.6 km up measured 1.1e-4 there).
pub fn penetration_tolerance(position: Vec3, radii: Vec3) -> f32 {
    let step = position.abs().max_element() * f32::EPSILON;
    1e-4f32.max(2.0 * step / radii.min_element())
}

/// How deep (eSpace units) the walker ends its tick from `before` to
/// `after` (`dropped`: a drop through a one-way platform begun and ended
/// within it) inside what should have stopped it: the controller's
/// [`penetration_after_tick`](slidewalk_controller::penetration_after_tick),
/// the measure the game's summary and the controller's tests use too. The
/// colliders come with the walker's layers already applied.
fn tick_depth(before: &CharacterState, after: &CharacterState, dropped: bool, colliders: &[PlacedCollider<'_>]) -> f32 {
    slidewalk_controller::penetration_after_tick(before, after, dropped, colliders, CollisionLayers::ALL)
}

/// Whether the segment `from → to` passes through a triangle that stops
/// a body of `radii` (metres) centred at `from`: any triangle of a
/// collider it meets, but of a one-way collider only one that holds it
/// (facing the one-way direction, the body wholly in front of it; passing
/// up through a one-way platform is no fall).
fn crosses_surface(world: &[PlacedCollider<'_>], radii: Vec3, from: Vec3, to: Vec3) -> bool {
    let query = Aabb::from_corners(from, to);
    let mut crossed = false;
    for c in world {
        if !CollisionLayers::ALL.interacts_with(c.layers) {
            continue;
        }
        let up = c.one_way.map(|d| c.pose.rotation * d);
        c.query_world(&query, |slot, tri| {
            crossed |= segment_crosses_triangle(from, to, tri).is_some()
                && up.is_none_or(|up| one_way_holds(c, slot, up, from, radii));
        });
    }
    crossed
}

/// Whether the one-way triangle in `slot` of `collider` holds a body of
/// `radii` centred at `centre`, by the collision core's own rule
/// ([`Candidate::one_way_holds`]): its winding normal within 90° of `up`
/// and the body in front of it up to [`slidewalk_sweep::ONE_WAY_SLACK`].
fn one_way_holds(collider: &PlacedCollider<'_>, slot: usize, up: Vec3, centre: Vec3, radii: Vec3) -> bool {
    let espace = collider
        .mesh
        .triangle(slot)
        .map(|p| (collider.pose.transform_point(p) - centre) / radii);
    Candidate::new(0, collider, slot, espace, centre, radii).one_way_holds(up, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidewalk_sweep::MeshCollider;

    /// A 10 m square floor at y = 0, wound to face up.
    fn floor() -> MeshCollider {
        MeshCollider::from_triangles(&[
            [
                Vec3::new(-5.0, 0.0, -5.0),
                Vec3::new(-5.0, 0.0, 5.0),
                Vec3::new(5.0, 0.0, 5.0),
            ],
            [
                Vec3::new(-5.0, 0.0, -5.0),
                Vec3::new(5.0, 0.0, 5.0),
                Vec3::new(5.0, 0.0, -5.0),
            ],
        ])
        .unwrap()
    }

    #[test]
    fn rising_through_a_one_way_floor_is_no_fall_but_falling_through_it_is() {
        let floor = floor();
        let radii = Vec3::new(0.4, 0.9, 0.4);
        let (below, above) = (Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, 1.0, 0.0));
        let solid = [PlacedCollider::fixed(&floor)];
        assert!(crosses_surface(&solid, radii, below, above));
        assert!(crosses_surface(&solid, radii, above, below));
        let one_way = [PlacedCollider::fixed(&floor).with_one_way(Some(Vec3::Y))];
        assert!(!crosses_surface(&one_way, radii, below, above));
        assert!(crosses_surface(&one_way, radii, above, below));
        // Started partly below it (rising through, then falling back): no fall.
        assert!(!crosses_surface(&one_way, radii, Vec3::new(0.0, 0.5, 0.0), below));
        // A collider the walker does not meet is never crossed.
        let passed = [PlacedCollider::fixed(&floor).with_layers(CollisionLayers::NONE)];
        assert!(!crosses_surface(&passed, radii, above, below));
    }

    /// A standing walker (radii 0.4, 0.9, 0.4) centred at `y` above the origin.
    fn standing_at(y: f32) -> CharacterState {
        let mut s = CharacterState::standing_at(Vec3::ZERO, &slidewalk_controller::ControllerConfig::default());
        s.position = Vec3::new(0.0, y, 0.0);
        s
    }

    #[test]
    fn ending_a_tick_in_a_one_way_floor_counts_only_if_it_held_the_walker() {
        let floor = floor();
        // 5 cm into it: within the slack, held from now on.
        let sunk = standing_at(0.85);
        let solid = [PlacedCollider::fixed(&floor)];
        let one_way = [PlacedCollider::fixed(&floor).with_one_way(Some(Vec3::Y))];
        let deep = 0.05 / 0.9;
        for world in [&solid[..], &one_way[..]] {
            let d = tick_depth(&standing_at(1.5), &sunk, false, world);
            assert!((d - deep).abs() < 1e-4, "{d}");
        }
        // Risen into the slack from below: passing through, not inside.
        assert_eq!(tick_depth(&standing_at(0.2), &sunk, false, &one_way), 0.0);
        assert!((tick_depth(&standing_at(0.2), &sunk, false, &solid) - deep).abs() < 1e-4);
    }

    /// A crouched walker (radii 0.4, 0.55, 0.4) centred at `y` above the origin.
    fn crouched_at(y: f32) -> CharacterState {
        let mut s = CharacterState::standing_at(Vec3::ZERO, &slidewalk_controller::ControllerConfig::default());
        s.position = Vec3::new(0.0, y, 0.0);
        s.radii = Vec3::new(0.4, 0.55, 0.4);
        s.crouched = true;
        s
    }

    #[test]
    fn a_drop_through_a_one_way_floor_ends_no_tick_inside_it() {
        // `level-check assets/levels/playground.glb --soak 600` (seed 0),
        // walk 17, ticks 2300–2306: a walker crouched on the lowest one-way
        // platform jumped, which the controller takes as a drop through it;
        // the check counted its 7 ticks sinking through as ending inside.
        let floor = floor();
        let one_way = [PlacedCollider::fixed(&floor).with_one_way(Some(Vec3::Y))];
        let (mut on, mut sinking) = (crouched_at(0.5492), crouched_at(0.5451));
        // The tick the drop began in, then one under way.
        sinking.drop_through = Some(0.0);
        assert_eq!(tick_depth(&on, &sinking, true, &one_way), 0.0);
        on.drop_through = Some(0.0);
        assert_eq!(tick_depth(&on, &sinking, false, &one_way), 0.0);
        // Without a drop the same tick sank into the floor that held it.
        on.drop_through = None;
        sinking.drop_through = None;
        assert!(tick_depth(&on, &sinking, false, &one_way) > 5e-3);
    }
}
