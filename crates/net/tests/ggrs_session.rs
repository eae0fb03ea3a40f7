//! Two GGRS P2P sessions over two `NetSocket`s on 127.0.0.1, after a
//! handshake: both synchronise and play 60 frames with the same inputs,
//! also when a tenth of the datagrams are lost, and also while a third
//! party sprays both ports with junk from ports of its own for the whole
//! time (then both play exactly the frames of the quiet run).

use ggrs::{
    Config, DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, InputStatus, NonBlockingSocket, P2PSession, PlayerType,
    PredictRepeatLast, SessionBuilder, SessionState,
};
use slidewalk_net::junk::{Junk, Spray};
use slidewalk_net::{Agreement, Digest, Hello, NetSocket, PROTOCOL, TrafficCounts, handshake};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

#[derive(Debug)]
struct TestConfig;

impl Config for TestConfig {
    type Input = u8;
    type InputPredictor = PredictRepeatLast;
    type State = Game;
    type Address = SocketAddr;
}

/// A game whose state is a digest of every input it was given.
#[derive(Clone, Debug, Default)]
struct Game {
    /// Frames simulated.
    frame: i32,
    /// Digest of the frames so far (each frame's inputs).
    digest: u64,
    /// Digest after each frame, index = frame − 1.
    history: Vec<u64>,
    /// Sum of each player's confirmed inputs.
    confirmed_sums: [u32; 2],
}

impl Game {
    fn handle(&mut self, requests: Vec<GgrsRequest<TestConfig>>) {
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    assert_eq!(self.frame, frame);
                    cell.save(frame, Some(self.clone()), Some(u128::from(self.digest)));
                }
                GgrsRequest::LoadGameState { cell, .. } => *self = cell.load().unwrap(),
                GgrsRequest::AdvanceFrame { inputs } => self.advance(&inputs),
            }
        }
    }

    fn advance(&mut self, inputs: &[(u8, InputStatus)]) {
        let mut d = Digest::new();
        d.write_u64(self.digest);
        for (player, (input, status)) in inputs.iter().enumerate() {
            d.write_bytes(&[*input]);
            if *status == InputStatus::Confirmed {
                self.confirmed_sums[player] += u32::from(*input);
            }
        }
        self.digest = d.finish();
        self.frame += 1;
        self.history.truncate(self.frame as usize - 1);
        self.history.push(self.digest);
    }
}

fn hello(nonce: u64) -> Hello {
    Hello {
        protocol: PROTOCOL,
        game_version: "test".into(),
        level: "playground.glb".into(),
        level_digest: 1,
        settings_digest: 2,
        settings: vec![],
        tick_hz_millis: 60_000,
        nonce,
    }
}

/// Two sessions started, the sprayer if any, and each socket's counts.
struct Started {
    sessions: [(P2PSession<TestConfig>, Agreement); 2],
    sprayer: Option<Spray>,
    traffic: [slidewalk_net::TrafficHandle; 2],
}

/// Handshakes on two threads, then starts a session on each socket; with
/// `spray`, junk reaches both ports from the first datagram on.
fn two_sessions(loss: f32, spray: bool) -> Started {
    let a = NetSocket::bind(0).unwrap().with_loss(loss, 11);
    let b = NetSocket::bind(0).unwrap().with_loss(loss, 12);
    let addr = |s: &NetSocket| SocketAddr::from(([127, 0, 0, 1], s.local_port()));
    let (to_a, to_b) = (addr(&a), addr(&b));
    let traffic = [a.traffic(), b.traffic()];
    // Junk imitating the peers' own `Hello` (one that differs only in its
    // nonce, among the rest), about 50,000 datagrams a second.
    let sprayer =
        spray.then(|| Spray::start(vec![to_a, to_b], Junk::new(5).imitating(hello(1)), Some(50_000.0)).unwrap());
    if spray {
        // The handshake starts with the junk already arriving.
        let seen = |t: &slidewalk_net::TrafficHandle| {
            let c = t.counts();
            c.accepted + c.from_strangers + c.undecodable + c.too_long
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while traffic.iter().any(|t| seen(t) < 20) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    // Each side, once agreed, goes on answering the other's late `Hello`s
    // (as a game's session does from its first frame) until both agreed:
    // its one reply may be lost in a flood.
    let agreed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let shake = |mut socket: NetSocket, peer, nonce| {
        let agreed = agreed.clone();
        std::thread::spawn(move || {
            let agreement = handshake(&mut socket, peer, &hello(nonce), Duration::from_secs(10)).unwrap();
            agreed.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
            let deadline = Instant::now() + Duration::from_secs(15);
            while agreed.load(std::sync::atomic::Ordering::Acquire) < 2 && Instant::now() < deadline {
                let _ = socket.receive_all_messages();
                std::thread::sleep(Duration::from_millis(1));
            }
            (socket, peer, agreement)
        })
    };
    let (ta, tb) = (shake(a, to_b, 50), shake(b, to_a, 40));
    let sessions = [ta.join().unwrap(), tb.join().unwrap()].map(|(socket, peer, agreement)| {
        let session = SessionBuilder::<TestConfig>::new()
            .with_input_delay(2)
            .with_desync_detection_mode(DesyncDetection::On { interval: 10 })
            .add_player(PlayerType::Local, agreement.local_handle)
            .unwrap()
            .add_player(PlayerType::Remote(peer), agreement.remote_handle)
            .unwrap()
            .start_p2p_session(socket)
            .unwrap();
        (session, agreement)
    });
    Started {
        sessions,
        sprayer,
        traffic,
    }
}

/// Plays both sessions until each has confirmed `frames` frames (or the
/// time is up), checks they saw the same inputs, and returns the first
/// `frames` frames' digests and what each socket received.
fn play(loss: f32, frames: i32, spray: bool) -> (Vec<u64>, [TrafficCounts; 2]) {
    let Started {
        mut sessions,
        sprayer,
        traffic,
    } = two_sessions(loss, spray);
    assert_eq!(sessions[0].1.local_handle, 1, "the higher nonce is player 1");
    assert_eq!(sessions[1].1.local_handle, 0);
    let mut games = [Game::default(), Game::default()];
    let deadline = Instant::now() + Duration::from_secs(20);
    // Confirmed frames run ahead of the simulated ones by the input
    // delay (the local input for them is in): both conditions.
    let done = |s: &[(P2PSession<TestConfig>, Agreement); 2], g: &[Game; 2]| {
        s.iter().all(|(s, _)| s.confirmed_frame() >= frames) && g.iter().all(|g| g.history.len() >= frames as usize)
    };
    while !done(&sessions, &games) {
        assert!(Instant::now() < deadline, "not done in time (loss {loss})");
        for ((session, agreement), game) in sessions.iter_mut().zip(&mut games) {
            session.poll_remote_clients();
            for event in session.events() {
                assert!(!matches!(event, GgrsEvent::DesyncDetected { .. }), "{event:?}");
            }
            if session.current_state() != SessionState::Running {
                continue;
            }
            // Each player presses something different every frame.
            let input = (game.frame as u8)
                .wrapping_mul(3)
                .wrapping_add(agreement.local_handle as u8 + 1);
            session.add_local_input(agreement.local_handle, input).unwrap();
            match session.advance_frame() {
                Ok(requests) => game.handle(requests),
                Err(GgrsError::PredictionThreshold) => {}
                Err(e) => panic!("{e}"),
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let n = frames as usize;
    assert_eq!(games[0].history[..n], games[1].history[..n], "same inputs, same frames");
    for game in &games {
        assert!(
            game.confirmed_sums.iter().all(|&s| s > 0),
            "both players' inputs arrived: {game:?}"
        );
    }
    for (socket_owner, _) in &sessions {
        assert_eq!(socket_owner.current_state(), SessionState::Running);
    }
    if let Some(sprayer) = &sprayer {
        assert!(sprayer.sent() > 1000, "the sprayer sent {}", sprayer.sent());
    }
    (games[0].history[..n].to_vec(), traffic.map(|t| t.counts()))
}

#[test]
fn two_sessions_play_60_frames_in_step() {
    play(0.0, 60, false);
}

#[test]
fn two_sessions_play_60_frames_in_step_losing_a_tenth_of_the_datagrams() {
    play(0.1, 60, false);
}

/// The junk is dropped unread (counted as from strangers) and the frames
/// are those of the quiet run: the inputs are a function of the frame
/// and the player, so any junk read as the peer's would show.
#[test]
fn junk_from_strangers_changes_nothing() {
    let (quiet, _) = play(0.0, 120, false);
    let (noisy, counts) = play(0.0, 120, true);
    assert_eq!(quiet, noisy, "junk changed the frames");
    for c in counts {
        assert!(c.from_strangers > 100, "{c:?}");
        // Junk that came before the handshake named the peer was read
        // (and dropped as not ours): a few, not thousands.
        assert!(c.undecodable + c.too_long < 100, "{c:?}");
        assert_eq!(c.queue_full, 0, "{c:?}");
    }
}

/// Strangers' `Hello`s during the handshake, exactly like the peers' own
/// but for a nonce that would make the stranger player 0, neither join
/// nor change who is who.
#[test]
fn a_strangers_hello_neither_joins_nor_disturbs_the_handshake() {
    for round in 0..3 {
        let Started {
            sessions,
            sprayer,
            traffic,
        } = two_sessions(0.0, true);
        assert_eq!(
            sessions[0].1.local_handle, 1,
            "round {round}: the higher nonce is player 1"
        );
        assert_eq!(sessions[1].1.local_handle, 0);
        // Junk goes on arriving after the peer is named: dropped unread.
        std::thread::sleep(Duration::from_millis(50));
        drop(sprayer);
        for t in traffic {
            assert!(t.counts().from_strangers > 0, "round {round}: {:?}", t.counts());
        }
    }
}
