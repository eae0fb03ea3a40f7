//! The crowd on the demo level (`assets/levels/playground.glb`: stairs,
//! ramps, a door, a lift): the same walk on any number of threads, and, in
//! dense groups over a long run (30 s), no two agents' ellipsoids
//! overlapping and no agent inside the level after any tick — checked
//! independently of the crate's own test, and shown to fail with
//! agent–agent collision off. An agent a door or lift squeezes is reported
//! crushed (as the controller reports the player) and the mover turns back,
//! as the game does; such an agent may be slightly inside it for a tick.

mod common;

use common::{Stage, overlap};
use glam::Vec3;
use slidewalk_crowd::{Agent, Crowd, CrowdConfig, CrowdSurroundings};
use slidewalk_sweep::{Ellipsoid, PlacedCollider};

const DT: f32 = 1.0 / 60.0;

/// Dense groups: by the door between the two rooms, at the lift below the
/// upper floor, on the two flights of stairs, on the ramps.
const GROUPS: [(Vec3, f32, usize); 4] = [
    (Vec3::new(0.0, 0.0, -14.0), 6.0, 110),
    (Vec3::new(-16.0, 0.0, -21.0), 5.0, 70),
    (Vec3::new(-11.0, 0.0, 20.0), 5.0, 70),
    (Vec3::new(-15.0, 0.0, 2.0), 6.0, 80),
];

fn crowd_on(stage: &Stage, config: CrowdConfig) -> Crowd {
    let mut crowd = Crowd::new(config).unwrap();
    let colliders = stage.colliders(DT);
    let friction = |c: usize, t: u32| stage.level.friction(c, t);
    let world = CrowdSurroundings::new(&colliders).with_friction(&friction);
    for (k, (centre, radius, n)) in GROUPS.into_iter().enumerate() {
        let placed = crowd.spawn_around(n, &world, 7 + k as u64, centre, radius);
        assert!(placed * 10 >= n * 9, "group {k}: {placed} of {n} placed");
    }
    crowd
}

/// Runs `ticks` ticks, calling `check` after each with the colliders.
fn run(
    stage: &mut Stage,
    crowd: &mut Crowd,
    ticks: usize,
    mut check: impl FnMut(usize, &Crowd, &[PlacedCollider<'_>]),
) {
    for tick in 0..ticks {
        stage.advance(DT);
        let crushing = {
            let colliders = stage.colliders(DT);
            let friction = |c: usize, t: u32| stage.level.friction(c, t);
            let world = CrowdSurroundings::new(&colliders).with_friction(&friction);
            let crushing = crowd.step(&world, DT).unwrap().crushing_colliders.clone();
            check(tick, crowd, &colliders);
            crushing
        };
        stage.turn_back(&crushing);
    }
}

/// Pairs of agents whose ellipsoids overlap by more than 0.1 mm (by the
/// independent test in `common`).
fn overlapping_pairs(agents: &[Agent]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..agents.len()).collect();
    order.sort_by(|&a, &b| agents[a].position().x.total_cmp(&agents[b].position().x));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let a = &agents[i];
        for &j in &order[k + 1..] {
            let b = &agents[j];
            if b.position().x - a.position().x > a.radii().x + b.radii().x {
                break;
            }
            let d = (a.position() - b.position()).abs();
            if d.cmple(a.radii() + b.radii()).all()
                && overlap((a.position(), a.radii()), (b.position(), b.radii()), 1e-4)
            {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs
}

#[test]
fn the_same_crowd_on_any_number_of_threads() {
    let mut runs = Vec::new();
    for threads in [1, 2, 3, 8] {
        let mut stage = Stage::new(common::playground());
        let mut crowd = crowd_on(&stage, CrowdConfig::default());
        crowd.set_threads(threads);
        run(&mut stage, &mut crowd, 180, |_, _, _| {});
        // At most a thread per 64 agents.
        assert_eq!(crowd.last_step().threads, threads.min(crowd.len().div_ceil(64)));
        runs.push(crowd.agents().to_vec());
    }
    for other in &runs[1..] {
        assert!(runs[0] == *other, "a different walk on another number of threads");
    }
    // They did walk.
    let mut stage = Stage::new(common::playground());
    let start = crowd_on(&stage, CrowdConfig::default());
    let _ = &mut stage;
    let walked = start
        .agents()
        .iter()
        .zip(&runs[0])
        .filter(|(a, b)| (a.position() - b.position()).length() > 0.5)
        .count();
    assert!(
        walked * 5 > runs[0].len(),
        "only {walked} of {} agents got half a metre away",
        runs[0].len()
    );
}

#[test]
fn dense_groups_never_overlap_each_other_or_the_level() {
    let mut stage = Stage::new(common::playground());
    let mut crowd = crowd_on(&stage, CrowdConfig::default());
    let first_mover = stage.level.first_mover();
    let (mut riding, mut retried, mut worst_depth, mut crushed) = (0usize, 0usize, 0.0f32, 0usize);
    let mut crushed_depth = 0.0f32;
    let mut problems = Vec::new();
    run(&mut stage, &mut crowd, 1800, |tick, crowd, colliders| {
        let agents = crowd.agents();
        for (i, j) in overlapping_pairs(agents) {
            problems.push(format!("tick {tick}: agents {i} and {j} overlap"));
        }
        for (i, a) in agents.iter().enumerate() {
            riding += a.state.ground.is_some_and(|g| g.collider >= first_mover) as usize;
            let depth =
                slidewalk_sweep::penetration_depth(&Ellipsoid::new(a.radii()).unwrap(), a.position(), colliders);
            if a.crushed {
                // Squeezed by a door or lift (reported, as for the player).
                crushed += 1;
                crushed_depth = crushed_depth.max(depth);
                continue;
            }
            worst_depth = worst_depth.max(depth);
            if depth > 1e-4 {
                problems.push(format!(
                    "tick {tick}: agent {i} is {depth:.1e} of its radius inside the level"
                ));
            }
        }
        retried += crowd.last_step().retried;
    });
    assert!(
        problems.is_empty(),
        "{} problems, first: {:?}",
        problems.len(),
        &problems[..problems.len().min(10)]
    );
    // The run met what it is meant to: agents on the lift and the door,
    // moves refused and retried.
    assert!(
        riding > 600,
        "agents rode doors and lifts for {riding} agent-ticks only"
    );
    assert!(retried > 0);
    // Squeezed agents (the door or lift turns back at once) are barely in.
    assert!(
        crushed_depth < 0.25,
        "a squeezed agent {crushed_depth} of its radius inside"
    );
    // The crowd's gaps: for each agent, the gap to its nearest neighbour
    // along the line of their centres (metres), among those closer than 10 cm.
    let agents = crowd.agents();
    let mut gaps: Vec<f32> = agents
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            agents
                .iter()
                .enumerate()
                .filter(|&(j, b)| j != i && (a.position() - b.position()).length() < 2.0)
                .map(|(_, b)| {
                    let d = b.position() - a.position();
                    let u = d.normalize();
                    d.length() - 1.0 / (u / a.radii()).length() - 1.0 / (u / b.radii()).length()
                })
                .min_by(f32::total_cmp)
        })
        .filter(|g| *g < 0.1)
        .collect();
    gaps.sort_by(f32::total_cmp);
    assert!(gaps.first().is_none_or(|g| *g > -1e-4), "{:?}", gaps.first());
    eprintln!(
        "{} of {} agents within 10 cm of a neighbour; gap along the centres: median {:.1} mm, 90th percentile {:.1} mm",
        gaps.len(),
        agents.len(),
        gaps.get(gaps.len() / 2).unwrap_or(&0.0) * 1e3,
        gaps.get(gaps.len() * 9 / 10).unwrap_or(&0.0) * 1e3
    );
    eprintln!(
        "riding {riding} agent-ticks, {retried} retried, {crushed} crushed agent-ticks (deepest {crushed_depth:.2} of the radius), \
         deepest of the others {worst_depth:.1e}"
    );
}

#[test]
fn without_agent_collision_the_check_finds_overlaps() {
    let mut stage = Stage::new(common::playground());
    let mut crowd = crowd_on(
        &stage,
        CrowdConfig {
            collide_agents: false,
            ..CrowdConfig::default()
        },
    );
    let mut overlaps = 0;
    run(&mut stage, &mut crowd, 120, |_, crowd, _| {
        overlaps += overlapping_pairs(crowd.agents()).len()
    });
    assert!(overlaps > 100, "{overlaps}");
}

/// Agents walking 60 m/s (a metre a tick, more than the gap the check
/// searches around an agent) never end a step overlapping: the check's
/// second pass, skipped for an agent with no other mover near, must count
/// as near every agent that could end beside it.
#[test]
fn fast_walkers_never_end_a_step_overlapping() {
    let mut config = CrowdConfig::default();
    config.controller.walk_speed = 60.0;
    config.controller.ground_acceleration = 1000.0;
    let mut stage = Stage::new(common::playground());
    let mut crowd = Crowd::new(config).unwrap();
    {
        let colliders = stage.colliders(DT);
        let friction = |c: usize, t: u32| stage.level.friction(c, t);
        assert!(crowd.spawn(300, &CrowdSurroundings::new(&colliders).with_friction(&friction), 3) > 250);
    }
    let (mut problems, mut refused) = (Vec::new(), 0);
    run(&mut stage, &mut crowd, 300, |tick, crowd, _| {
        refused += crowd.last_step().retried;
        for (i, j) in overlapping_pairs(crowd.agents()) {
            problems.push(format!("tick {tick}: agents {i} and {j} overlap"));
        }
    });
    assert!(
        problems.is_empty(),
        "{} problems, first: {:?}",
        problems.len(),
        &problems[..problems.len().min(5)]
    );
    assert!(refused > 0, "no move was refused: the check was not tried");
    eprintln!("{refused} moves refused");
}

/// The step keeps buffers from step to step: a crowd cleared (the game's
/// panel has a button for it), stepped empty, then spawned smaller steps
/// on with only its new agents.
#[test]
fn a_cleared_crowd_steps_empty_and_then_with_new_agents() {
    let mut stage = Stage::new(common::playground());
    let mut crowd = crowd_on(&stage, CrowdConfig::default());
    let before = crowd.len();
    run(&mut stage, &mut crowd, 3, |_, _, _| {});
    crowd.clear();
    run(&mut stage, &mut crowd, 2, |_, c, _| assert_eq!(c.last_step().agents, 0));
    {
        let colliders = stage.colliders(DT);
        let friction = |c: usize, t: u32| stage.level.friction(c, t);
        let placed = crowd.spawn(20, &CrowdSurroundings::new(&colliders).with_friction(&friction), 5);
        assert!(placed > 0 && placed < before, "{placed} placed");
    }
    let n = crowd.len();
    run(&mut stage, &mut crowd, 3, |_, c, _| assert_eq!(c.last_step().agents, n));
    assert!(overlapping_pairs(crowd.agents()).is_empty());
}

#[test]
fn spawned_agents_stand_apart_on_walkable_ground() {
    let stage = Stage::new(common::playground());
    let crowd = crowd_on(&stage, CrowdConfig::default());
    let colliders = stage.colliders(DT);
    assert!(overlapping_pairs(crowd.agents()).is_empty());
    let sizes: std::collections::BTreeSet<u8> = crowd.agents().iter().map(|a| a.size).collect();
    assert_eq!(sizes.len(), CrowdConfig::default().sizes.len(), "every size is used");
    for a in crowd.agents() {
        let e = Ellipsoid::new(a.radii()).unwrap();
        assert_eq!(slidewalk_sweep::penetration_depth(&e, a.position(), &colliders), 0.0);
        // Ground within a few centimetres below the feet.
        let below =
            slidewalk_sweep::sweep(&e, a.position(), Vec3::new(0.0, -0.1, 0.0), &colliders).expect("ground below");
        assert!(below.normal.y > 0.7, "{}", below.normal);
    }
}

#[test]
fn agents_walk_around_a_player_standing_among_them_and_the_player_can_collide_with_them() {
    use slidewalk_controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings};
    use slidewalk_crowd::Bystander;
    let mut stage = Stage::new(common::playground());
    let mut crowd = Crowd::new(CrowdConfig::default()).unwrap();
    // A player standing on the open ground, a dense group around it.
    let config = ControllerConfig::default();
    let mut player = CharacterState::standing_at(Vec3::new(8.0, 0.0, 8.0), &config);
    {
        let colliders = stage.colliders(DT);
        let world = CrowdSurroundings::new(&colliders).with_player(Bystander {
            centre: player.position,
            radii: player.radii,
        });
        let placed = crowd.spawn_around(120, &world, 3, player.position, 5.0);
        assert!(placed > 100);
    }
    let controller = Controller::new(config).unwrap();
    let mut touched = 0;
    for tick in 0..600 {
        stage.advance(DT);
        let colliders = stage.colliders(DT);
        let bystander = Bystander {
            centre: player.position,
            radii: player.radii,
        };
        crowd
            .step(&CrowdSurroundings::new(&colliders).with_player(bystander), DT)
            .unwrap();
        for (i, a) in crowd.agents().iter().enumerate() {
            assert!(
                !overlap((a.position(), a.radii()), (player.position, player.radii), 1e-4),
                "tick {tick}: agent {i} walked into the player"
            );
            touched += ((a.position() - player.position).length() < 1.0) as usize;
        }
        // The second half: the player walks, colliding with the agents'
        // polytopes, and never ends inside an agent.
        if tick >= 300 {
            let mut all = colliders.clone();
            let r = player.radii + Vec3::splat(0.5);
            crowd.polytopes_in(player.position - r, player.position + r, &mut all);
            let intent = Intent {
                direction: Vec3::new((tick as f32 * 0.01).sin(), 0.0, (tick as f32 * 0.01).cos()),
                ..Intent::default()
            };
            controller
                .tick(&mut player, &intent, &Surroundings::new(&all), DT)
                .unwrap();
            for a in crowd.agents() {
                assert!(
                    !overlap((a.position(), a.radii()), (player.position, player.radii), 1e-4),
                    "tick {tick}: the player walked into an agent"
                );
            }
        }
    }
    assert!(
        touched > 300,
        "agents came near the player for {touched} agent-ticks only"
    );
}

/// The demo level's barrier across the ball room's entrance meets the
/// crowd's layer: agents wandering in the room never leave it; agents of
/// a layer it does not meet walk out through it.
#[test]
fn the_crowd_barrier_holds_the_crowd_and_not_others() {
    use slidewalk_level::layers::{CROWD_LAYERS, PLAYER_LAYERS};
    let out_of_room = |layers| {
        let stage = Stage::new(common::playground());
        let mut crowd = Crowd::new(CrowdConfig {
            wander: common::always_walking(),
            ..CrowdConfig::default()
        })
        .unwrap();
        let colliders = stage.colliders(DT);
        let world = CrowdSurroundings::new(&colliders).with_layers(layers);
        let placed = crowd.spawn_around(60, &world, 11, Vec3::new(16.0, 0.0, -13.0), 2.5);
        assert!(placed > 40, "{placed} placed");
        let mut out = 0;
        for _ in 0..(30.0 / DT) as usize {
            crowd.step(&world, DT).unwrap();
            out = out.max(crowd.agents().iter().filter(|a| a.position().z > -9.0).count());
        }
        out
    };
    assert_eq!(out_of_room(CROWD_LAYERS), 0);
    assert!(out_of_room(PLAYER_LAYERS) > 0);
}
