//! `Crowd::step`: every agent's controller tick in parallel against the
//! level and the polytopes of the agents near it where the tick started;
//! then the check that no two agents end overlapping, and a stand-still
//! (in parallel too) of the few agents whose move it refuses. `step` calls
//! the phases in order: `run_moves` ([`moves`]), `check_moves`,
//! `stand_still` and `hold` ([`check`]), `apply_moves`, `send_home`
//! ([`apply`]); what they all read is [`inputs`]; which of the level's
//! colliders an agent's tick can reach is [`far`].

mod apply;
mod check;
mod far;
mod inputs;
mod moves;

pub use inputs::CLEARANCE;

use crate::config::CrowdError;
use crate::crowd::{Bystander, Crowd, CrowdSurroundings, StepReport};
use crate::step::apply::{apply_moves, send_home};
use crate::step::inputs::StepInputs;
use glam::Vec3;
use slidewalk_controller::validate_dt;
use slidewalk_sweep::{PlacedCollider, Pose};
use std::time::Instant;

impl Crowd {
    /// Advances every agent by one tick of `dt` seconds.
    ///
    /// `world` holds the level's colliders at this tick's poses, doors and
    /// lifts with their velocities, as given to the player's controller
    /// (agents ride lifts and are pushed by doors the same way), and the
    /// player, a [`Bystander`] the agents walk around (its polytope, as another
    /// agent's). A player whose own world leaves the agents out pushes them
    /// when walking into them; with [`Crowd::polytopes_in`] in its world it
    /// collides with them.
    ///
    /// The steps (see the crate's documentation): every agent's tick in
    /// parallel against the level and the polytopes of the agents near it
    /// where they were before the tick; then, in parallel, every move is
    /// checked exactly against where the others started and where they
    /// ended; an agent whose move is refused stands still instead (checked
    /// the same way against where the others are now), or stays put.
    /// The outcome does not depend on the number of threads.
    pub fn step(&mut self, world: &CrowdSurroundings<'_>, dt: f32) -> Result<&StepReport, CrowdError> {
        validate_dt(dt).map_err(CrowdError::Dt)?;
        let started = Instant::now();
        let n = self.agents.len();
        let threads = self.config.threads_for(n);
        self.update_player_hull(world.player);
        let Crowd {
            config,
            sizes,
            agents,
            scratch,
            player_hull,
            report,
            fall_limit,
        } = self;
        let player = world.player.zip(player_hull.as_ref()).map(|(p, (_, hull))| {
            PlacedCollider::moving(hull, Pose::from_translation(p.centre), Vec3::ZERO, Vec3::ZERO)
        });
        let shared = StepInputs::new(world, sizes, agents, player, config, dt, threads);

        // 1. Every agent's tick, in parallel, against where the others start.
        let starts: Vec<Vec3> = agents.iter().map(|a| a.state.position).collect();
        shared.run_moves(&starts, scratch);
        let moved_at = Instant::now();

        // 2. The exact check of the moves against the starts and the kept ends.
        shared.check_moves(&starts, scratch);
        let checked = Instant::now();

        // 3. The refused agents stand still instead, or are held at their start.
        let (retried, stood_still, refused) = shared.stand_still(&starts, scratch);
        shared.hold(&refused, scratch);
        let cell = shared.cell;
        let retried_at = Instant::now();

        // Apply, note the blocked, bring back the fallen.
        let mut next = StepReport {
            agents: n,
            threads,
            retried,
            stood_still,
            held: refused.len(),
            ..StepReport::default()
        };
        // Copying a move costs a fraction of a microsecond, most of it
        // waiting on memory: threads pay for themselves for thousands.
        let apply_threads = if n >= 4096 { threads } else { 1 };
        let fallen = apply_moves(agents, scratch, config, (dt, apply_threads), *fall_limit, &mut next);
        if retried > 0 && !fallen.is_empty() {
            // Where everyone is now, for the fallen going home (without
            // stand-stills the moves' ends are).
            scratch.end_grid.build(scratch.current.iter().copied(), cell);
        }
        next.returned_home = send_home(fallen, agents, sizes, world, scratch, config.collide_agents);
        let done = Instant::now();
        let micros = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e6;
        next.move_micros = micros(started, moved_at);
        next.check_micros = micros(moved_at, checked);
        next.retry_micros = micros(checked, retried_at);
        next.micros = micros(started, done);
        next.micros_per_agent = next.micros / n.max(1) as f64;
        *report = next;
        Ok(report)
    }

    /// Makes the player's polytope (from `config.hull`) into `player_hull`
    /// when there is a player and the polytope held is not for its radii.
    fn update_player_hull(&mut self, player: Option<Bystander>) {
        if let Some(p) = player
            && self.player_hull.as_ref().is_none_or(|(r, _)| *r != p.radii)
        {
            self.player_hull = self.config.hull.collider(p.radii).map(|h| (p.radii, h));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::CrowdConfig;
    use crate::crowd::{Agent, Crowd, CrowdSurroundings};
    use crate::wander::{AgentRng, Wander};
    use glam::Vec3;
    use slidewalk_controller::CharacterState;
    use slidewalk_sweep::test_util::Soup;
    use slidewalk_sweep::{MeshCollider, PlacedCollider};

    /// Two agents of the smallest size on a floor, `gap` metres apart
    /// across: the first walks at full speed along `heading` (0: towards
    /// −z, where the second stands; π: away), the second stands still.
    fn pair(floor: &MeshCollider, gap: f32, heading: f32) -> (Crowd, Vec<PlacedCollider<'_>>) {
        let config = CrowdConfig::default();
        let radii = config.sizes[0];
        let controller = config.controller_for(0);
        let mut crowd = Crowd::new(config.clone()).unwrap();
        let placed = vec![PlacedCollider::fixed(floor)];
        let feet = [Vec3::ZERO, Vec3::new(0.0, 0.0, -(2.0 * radii.x + gap))];
        for (k, feet) in feet.into_iter().enumerate() {
            let mut state = CharacterState::standing_at(feet, &controller);
            state.ground = None;
            let mut wander = Wander::new(AgentRng::new(1, k as u64), &config.wander);
            (wander.heading, wander.leg_left, wander.pace) = (heading, 100.0, if k == 0 { 1.0 } else { 0.0 });
            crowd.agents.push(Agent {
                state,
                size: 0,
                wander,
                home: state.position,
                crushed: false,
            });
        }
        (crowd, placed)
    }

    #[test]
    fn an_agent_walking_into_a_neighbour_it_is_closer_to_than_the_polytope_reaches_yields() {
        let mut soup = Soup::default();
        soup.cuboid(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0));
        let floor = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let dt = 1.0 / 60.0;
        // Settle both onto the floor, standing.
        let (mut crowd, placed) = pair(&floor, 0.02, 0.0);
        let world = CrowdSurroundings::new(&placed);
        let walk_speed = crowd.config.controller.walk_speed;
        let settle = |crowd: &mut Crowd| {
            let pace = crowd.agents[0].wander.pace;
            crowd.agents[0].wander.pace = 0.0;
            for _ in 0..30 {
                crowd.step(&world, dt).unwrap();
            }
            crowd.agents[0].wander.pace = pace;
            crowd.agents[0].wander.leg_left = 100.0;
        };
        settle(&mut crowd);
        // Walking at full speed towards the other, 2 cm away: yields.
        let start = crowd.agents[0].state.position;
        crowd.agents[0].state.velocity = Vec3::new(0.0, 0.0, -walk_speed);
        let report = crowd.step(&world, dt).unwrap().clone();
        assert_eq!((report.yielded, report.retried), (1, 1), "{report:?}");
        // Its tick did not run, so it swept no polytope (the other is asleep).
        assert_eq!((report.hulls_swept, report.asleep), (0, 1), "{report:?}");
        assert_eq!(crowd.agents[0].state.position, start);
        assert_eq!(crowd.agents[0].state.velocity, Vec3::ZERO);
        // Walking away from it: its tick runs, and it moves.
        let (mut crowd, placed) = pair(&floor, 0.02, std::f32::consts::PI);
        let world = CrowdSurroundings::new(&placed);
        settle(&mut crowd);
        let start = crowd.agents[0].state.position;
        crowd.agents[0].state.velocity = Vec3::new(0.0, 0.0, walk_speed);
        let report = crowd.step(&world, dt).unwrap().clone();
        assert_eq!((report.yielded, report.retried), (0, 0), "{report:?}");
        assert!(crowd.agents[0].state.position.z > start.z + 0.5 * walk_speed * dt);
        // Towards it from 30 cm: farther than its polytope reaches, so it
        // walks (the polytope stops it short).
        let (mut crowd, placed) = pair(&floor, 0.3, 0.0);
        let world = CrowdSurroundings::new(&placed);
        settle(&mut crowd);
        let start = crowd.agents[0].state.position;
        crowd.agents[0].state.velocity = Vec3::new(0.0, 0.0, -walk_speed);
        let report = crowd.step(&world, dt).unwrap().clone();
        assert_eq!(report.yielded, 0, "{report:?}");
        assert!(crowd.agents[0].state.position.z < start.z - 0.5 * walk_speed * dt);
    }
}
