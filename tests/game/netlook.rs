//! The local controls over the network, in one process with two peers on
//! loopback: while the session waits for a late peer (its prediction
//! window full) no turn or press of the controls is lost, and the look
//! the view shows follows the controls at once, whatever the input delay
//! holds back.

use super::*;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::time::TimeUpdateStrategy;
use bevy_slidewalk::bevy_ggrs::ggrs::{PlayerType, SessionBuilder, SessionState};
use bevy_slidewalk::bevy_ggrs::{RollbackFrameCount, Session};
use slidewalk::net::{NetConfig, PendingSession};
use slidewalk::sim;
use slidewalk::sim::input::{HeadingTakenIn, PlayerInput};
use slidewalk::sim::launch::{LaunchOptions, NetPlayers};
use slidewalk::sim::player::{Controlled, LocalPlayer, RunStats};
use slidewalk::sim::schedule::{run_on_one_thread, tick_length};
use slidewalk_net::NetSocket;
use std::time::Duration;

/// A peer on `socket` playing handle `local` with the peer on `peer_port`,
/// input delay 2, on the demo level, its controls written by the test.
fn peer_app(mut socket: NetSocket, peer_port: u16, local: usize) -> App {
    let hz = 60.0;
    let tick = tick_length(hz);
    let peer = std::net::SocketAddr::from(([127, 0, 0, 1], peer_port));
    socket.listen_to(peer);
    let session = SessionBuilder::<NetConfig>::new()
        .with_num_players(2)
        .unwrap()
        .with_fps(60)
        .unwrap()
        .with_input_delay(2)
        .with_max_prediction_window(8)
        .add_player(PlayerType::Local, local)
        .unwrap()
        .add_player(PlayerType::Remote(peer), 1 - local)
        .unwrap()
        .start_p2p_session(socket)
        .unwrap();
    let options = Options {
        tick_hz: Some(hz),
        input_delay: 2,
        ..Options::default()
    };
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LaunchOptions(options))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick))
        .insert_resource(NetPlayers { count: 2, local })
        .insert_resource(PendingSession(Some(session)))
        .add_plugins((sim::plugin, slidewalk::net::plugin));
    run_on_one_thread(&mut app, [PreUpdate.intern(), Update.intern()]);
    app.finish();
    app.cleanup();
    app
}

fn running(app: &App) -> bool {
    matches!(
        app.world().get_resource::<Session<NetConfig>>(),
        Some(Session::P2P(s)) if s.current_state() == SessionState::Running
    )
}

fn frame(app: &App) -> i32 {
    app.world().resource::<RollbackFrameCount>().0
}

fn controls(app: &mut App) -> Mut<'_, PlayerInput> {
    let mut q = app.world_mut().query_filtered::<&mut PlayerInput, With<Controlled>>();
    q.single_mut(app.world_mut()).unwrap()
}

/// The local player's simulated input, the controls', and the look shown.
fn looks(app: &mut App) -> (PlayerInput, PlayerInput, f32) {
    let mut q = app.world_mut().query_filtered::<&PlayerInput, With<LocalPlayer>>();
    let simulated = *q.single(app.world()).unwrap();
    let controls = *controls(app);
    let (shown, _) = app
        .world()
        .resource::<HeadingTakenIn>()
        .look(&simulated, Some(&controls));
    (simulated, controls, shown)
}

fn both(a: &mut App, b: &mut App, updates: usize) {
    for _ in 0..updates {
        a.update();
        b.update();
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_stalled_session_loses_no_turn_or_press_and_the_view_turns_at_once() {
    // Ports picked by the system.
    let (socket_a, socket_b) = (NetSocket::bind(0).unwrap(), NetSocket::bind(0).unwrap());
    let (port_a, port_b) = (socket_a.local_port(), socket_b.local_port());
    let (mut a, mut b) = (peer_app(socket_a, port_b, 0), peer_app(socket_b, port_a, 1));
    let mut waited = 0;
    while !(running(&a) && running(&b) && frame(&a) > 60 && frame(&b) > 60) {
        both(&mut a, &mut b, 1);
        waited += 1;
        assert!(waited < 3_000, "the peers never synchronized");
    }
    let (simulated, controls_0, shown_0) = looks(&mut a);
    // The simulated heading starts at the spawn's, the controls' at 0:
    // what stays fixed is the difference.
    let offset = simulated.yaw - controls_0.yaw;
    let jumps = a.world().resource::<RunStats>().summary.jumps;
    // Peer B stops answering: A runs to its prediction window and waits,
    // while its controls turn and press jump.
    let stalled_at = frame(&a);
    // B's inputs reach the tick it is at plus the input delay (2): A may
    // run at most the prediction window (8) past them.
    let b_at = frame(&b);
    let mut lagging = 0.0f32;
    for i in 0..40 {
        let mut c = controls(&mut a);
        c.yaw += 0.01;
        c.held.jump = i == 25;
        c.pressed.jump |= i == 25;
        a.update();
        std::thread::sleep(Duration::from_millis(1));
        let (simulated, controls, shown) = looks(&mut a);
        assert!(
            (shown - controls.yaw - (shown_0 - controls_0.yaw)).abs() < 1e-4,
            "update {i}: the view shows {shown}, the controls turned to {}",
            controls.yaw
        );
        lagging = lagging.max((simulated.yaw - offset - controls.yaw).abs());
    }
    let limit = stalled_at.max(b_at) + 2 + 9;
    assert!(
        frame(&a) <= limit,
        "A ran past its prediction window: at {} (A was at {stalled_at}, B at {b_at})",
        frame(&a)
    );
    assert!(
        lagging > 0.1,
        "the simulation never lagged the controls ({lagging} rad): no stall"
    );
    // B answers again: every turn and the press arrive.
    controls(&mut a).held.jump = false;
    both(&mut a, &mut b, 200);
    let (simulated, controls, _) = looks(&mut a);
    assert!(
        (simulated.yaw - controls.yaw - offset).abs() < 1e-4,
        "turns were lost: simulated {} for controls {} (offset {offset})",
        simulated.yaw,
        controls.yaw
    );
    assert_eq!(
        a.world().resource::<RunStats>().summary.jumps,
        jumps + 1,
        "the jump pressed while the session waited"
    );
    // And B simulated A as A did.
    let mut q = b.world_mut().query::<(&Player, &PlayerInput)>();
    let a_on_b = q.iter(b.world()).find(|(p, _)| p.slot == 0).unwrap().1.yaw;
    assert_eq!(a_on_b.to_bits(), simulated.yaw.to_bits());
}

/// While a player's input is late, ggrs guesses it: the stick, turn and
/// buttons held go on, a press or a respawn does not happen again.
#[test]
fn a_late_input_is_predicted_without_its_presses() {
    use bevy_slidewalk::bevy_ggrs::ggrs::InputPredictor;
    use slidewalk::net::input::NetInput;
    let mut last = PlayerInput {
        movement: Vec2::new(0.5, 1.0),
        pitch: 0.25,
        respawn: true,
        toggle_fly: true,
        ..PlayerInput::default()
    };
    last.held.sprint = true;
    last.held.jump = true;
    last.pressed.jump = true;
    let predicted = <NetConfig as InputPredictor<NetInput>>::predict(NetInput::new(&last, 0.01));
    let mut input = PlayerInput::default();
    predicted.apply(&mut input);
    assert_eq!(input.movement, last.movement);
    assert_eq!(input.pitch, last.pitch);
    assert_eq!(input.yaw, 0.01, "the turn goes on");
    assert!(input.held.sprint && input.held.jump, "buttons held stay held");
    assert!(!input.pressed.jump, "no new press");
    assert!(!input.respawn && !input.toggle_fly, "no respawn or fly toggle");
}
