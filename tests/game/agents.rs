//! The crowd: agents spawned from the panel wander without entering the player, the level or each other; big spawns spread over ticks.

use super::*;

fn crowd_sim(app: &App) -> &slidewalk::sim::crowd::CrowdSim {
    app.world().resource::<slidewalk::sim::crowd::CrowdSim>()
}

fn crowd_control(app: &mut App, control: slidewalk::sim::crowd::CrowdControl) {
    app.world_mut().write_message(control);
    app.update();
}

#[test]
fn a_crowd_spawned_from_the_panel_wanders_around_the_walking_player_never_into_it_the_level_or_each_other() {
    use slidewalk::sim::crowd::CrowdControl;
    // The player stands on the start pad for a second, then walks ahead
    // into the crowd; the panel's button asks for 100 agents around it,
    // then 100 more.
    let options = Options {
        spawn: Some(Vec3::new(0.0, 0.0, 30.0)),
        ..Options::default()
    };
    let mut app = scripted_app(
        &options,
        r#"{"steps": [{"for_s": 1.0, "yaw_deg": 0}, {"for_s": 600, "move": [0, 1]}]}"#,
    );
    crowd_control(&mut app, CrowdControl::Spawn(100));
    crowd_control(&mut app, CrowdControl::Spawn(100));
    let sim = crowd_sim(&app);
    let placed = sim.crowd.len();
    assert!(placed >= 180, "only {placed} of 200 agents placed");
    let starts: Vec<Vec3> = sim.crowd.agents().iter().map(|a| a.position()).collect();
    let statics = {
        let current = app.world().resource::<slidewalk::sim::level::CurrentLevel>();
        current.level.clone().unwrap()
    };
    let level = [slidewalk_sweep::PlacedCollider::fixed(
        statics.statics.as_ref().unwrap(),
    )];
    let mut nearest = f64::INFINITY;
    for second in 0..5 {
        for _ in 0..60 {
            app.update();
            // Every tick: the player and the agents never overlap (the gap
            // is in the agent's eSpace: a fraction of its radii).
            let body = player(&mut app);
            for (i, a) in crowd_sim(&app).crowd.agents().iter().enumerate() {
                let gap =
                    slidewalk_crowd::separation::espace_distance(a.position(), a.radii(), body.position, body.radii)
                        - 1.0;
                nearest = nearest.min(gap);
                assert!(gap >= 0.0, "second {second}: agent {i} inside the player ({gap})");
            }
        }
        let body = player(&mut app);
        let sim = crowd_sim(&app);
        let sim_agents = sim.crowd.agents();
        assert_eq!(sim_agents.len(), placed);
        for (i, a) in sim_agents.iter().enumerate() {
            assert!(a.position().is_finite(), "agent {i} went non-finite");
            let e = slidewalk_sweep::Ellipsoid::new(a.radii()).unwrap();
            let depth = slidewalk_sweep::penetration_depth(&e, a.position(), &level);
            assert!(
                depth <= 1e-4,
                "second {second}: agent {i} {depth} into the level at {}",
                a.position()
            );
            assert!(
                slidewalk_crowd::separation::apart(a.position(), a.radii(), body.position, body.radii, 0.0),
                "second {second}: agent {i} inside the player"
            );
            for (j, b) in sim_agents.iter().enumerate().skip(i + 1) {
                assert!(
                    slidewalk_crowd::separation::apart(a.position(), a.radii(), b.position(), b.radii(), 0.0),
                    "second {second}: agents {i} and {j} overlap at {} and {}",
                    a.position(),
                    b.position()
                );
            }
        }
    }
    let body = player(&mut app);
    assert!(
        body.position.z < 27.0,
        "the player did not walk into the crowd: {}",
        body.position
    );
    let sim = crowd_sim(&app);
    let walked = sim
        .crowd
        .agents()
        .iter()
        .zip(&starts)
        .filter(|(a, s)| (a.position() - **s).length() > 1.0)
        .count();
    assert!(walked > placed / 2, "only {walked} of {placed} agents wandered off");
    // It came close to agents (the test met the case it is about).
    assert!(nearest < 0.5, "the player never came near an agent: {nearest}");
    // The panel's readout: what the last step cost, for how many.
    let last = sim.last_step();
    assert_eq!(last.agents, placed);
    assert!(last.micros > 0.0 && last.micros_per_agent > 0.0, "{last:?}");
    assert_never_penetrated(&app);
    crowd_control(&mut app, CrowdControl::Clear);
    assert!(crowd_sim(&app).crowd.is_empty());
}

#[test]
fn a_big_spawn_is_spread_over_ticks_and_a_clear_stops_it() {
    use slidewalk::sim::crowd::CrowdControl;
    use slidewalk::sim::crowd::SPAWN_CHUNK;
    let mut app = scripted_app(&Options::default(), r#"{"steps": [{"for_s": 600}]}"#);
    // With no time to spare, one chunk a tick; none are lost on the way,
    // and the spawn ends with all of them on the demo level.
    app.world_mut()
        .resource_mut::<slidewalk::sim::crowd::CrowdSim>()
        .spawn_budget = std::time::Duration::ZERO;
    let asked = 29 * SPAWN_CHUNK / 2;
    crowd_control(&mut app, CrowdControl::Spawn(asked));
    for tick in 1..=16 {
        let sim = crowd_sim(&app);
        assert_eq!(
            (sim.crowd.len(), sim.spawning()),
            (
                (tick * SPAWN_CHUNK).min(asked),
                asked.saturating_sub(tick * SPAWN_CHUNK)
            ),
            "after {tick} ticks"
        );
        app.update();
    }
    // A clear during a spawn stops it.
    crowd_control(&mut app, CrowdControl::Spawn(3_000));
    crowd_control(&mut app, CrowdControl::Clear);
    app.update();
    let sim = crowd_sim(&app);
    assert_eq!((sim.crowd.len(), sim.spawning()), (0, 0));
}
