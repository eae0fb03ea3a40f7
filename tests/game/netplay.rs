//! The game over the network. In one process: ggrs's sync-test session
//! simulates every tick again 8 ticks later and compares checksums, with
//! four players on scripts (riding a lift, walking and jumping, throwing
//! balls, crouching and dashing), and a control that leaves the balls out
//! of the rollback. Across processes: two headless peers on loopback play
//! scripts of 600 ticks and print the same checksum, also with one
//! peer's input delayed, 10% of datagrams dropped and the rest delayed by
//! up to 100 ms; refusals and a silent peer end with a clear line and a
//! bounded wait. Every port is picked by the system.

use bevy::prelude::*;
use bevy_slidewalk::MovementState;
use bevy_slidewalk::bevy_ggrs::{RollbackFrameCount, SyncTestMismatch};
use slidewalk::net::rollback::LeaveOutOfRollback;
use slidewalk::sim::balls::{BallBlast, BallPit};
use slidewalk::sim::player::Player;
use slidewalk_play::Script;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn script_text(text: &str) -> Script {
    Script::parse(text).unwrap()
}

/// The four players' scripts (each 20 s).
fn four_scripts() -> Vec<Script> {
    vec![
        // Rides the lift it stands on.
        script_text(r#"{"steps": [{"for_s": 20}]}"#),
        // Walks off, jumps, walks back.
        script_text(
            r#"{"steps": [{"for_s": 3, "move": [1, 0]}, {"for_s": 1, "jump": true, "move": [0, 1]},
            {"for_s": 4, "jump": false, "move": [0, -1], "sprint": true}, {"for_s": 12, "move": [-1, 0], "sprint": false}]}"#,
        ),
        // Throws balls, turning.
        script_text(
            r#"{"steps": [{"for_s": 1, "move": [1, 0]}, {"for_s": 0.5, "throw": true}, {"for_s": 0.5, "throw": false, "yaw_deg": 90},
            {"for_s": 0.8, "throw": true}, {"for_s": 0.5, "throw": false, "yaw_deg": 180}, {"for_s": 0.3, "throw": true},
            {"for_s": 16.4, "throw": false, "move": [0, 1]}]}"#,
        ),
        // Crouches, dashes, uses.
        script_text(
            r#"{"steps": [{"for_s": 2, "move": [1, 0], "crouch": true}, {"for_s": 1, "crouch": false, "dash": true},
            {"for_s": 2, "dash": false, "use": true, "move": [0, 1]}, {"for_s": 15, "use": false, "move": [0, -1]}]}"#,
        ),
    ]
}

#[derive(Resource, Default)]
struct Mismatches(usize);

/// Every ball blast written, as bits (point and speed), in order.
#[derive(Resource, Default)]
struct BlastsSeen(Vec<[u32; 4]>);

fn see_blasts(mut blasts: MessageReader<BallBlast>, mut seen: ResMut<BlastsSeen>) {
    for b in blasts.read() {
        let p = b.point.to_array().map(f32::to_bits);
        seen.0.push([p[0], p[1], p[2], b.speed.to_bits()]);
    }
}

/// The demo level with four players at the lift's spawn under a
/// sync-test session of `check_distance`, on [`four_scripts`].
fn sync_test_app(check_distance: usize, leave_out: Option<LeaveOutOfRollback>) -> App {
    crate::synctest::sync_test_app(Vec3::new(-14.75, 0.2, -21.0), four_scripts(), check_distance, |app| {
        app.init_resource::<Mismatches>()
            .init_resource::<BlastsSeen>()
            .add_systems(Update, see_blasts)
            .add_observer(|_: On<SyncTestMismatch>, mut m: ResMut<Mismatches>| m.0 += 1);
        if let Some(piece) = leave_out {
            app.insert_resource(piece);
        }
    })
}

fn frame(app: &App) -> i32 {
    app.world().resource::<RollbackFrameCount>().0
}

#[test]
fn four_players_resimulate_bit_for_bit() {
    let mut app = sync_test_app(8, None);
    let (mut rider_top, mut most_balls) = (f32::MIN, 0);
    for _ in 0..1500 {
        if frame(&app) >= 1200 {
            break;
        }
        app.update();
        let mut players = app.world_mut().query::<(&Player, &MovementState)>();
        for (p, s) in players.iter(app.world()) {
            if p.slot == 0 {
                rider_top = rider_top.max(s.feet().y);
            }
        }
        most_balls = most_balls.max(app.world().resource::<BallPit>().simulation.balls.len());
    }
    assert_eq!(app.world().resource::<Mismatches>().0, 0, "sync test mismatches");
    assert_eq!(frame(&app), 1200, "ticks run");
    assert!(rider_top > 2.0, "the lift carried player 1 only to {rider_top} m");
    assert!(
        most_balls >= 3,
        "{most_balls} balls in flight at most: the throws did not happen"
    );
    // Every tick was simulated nine times; each blast was shown once.
    let mut blasts = app.world().resource::<BlastsSeen>().0.clone();
    let shown = blasts.len();
    blasts.sort_unstable();
    blasts.dedup();
    assert!(shown > 0, "no ball blasted");
    assert_eq!(
        blasts.len(),
        shown,
        "a blast was shown again when its tick was simulated again"
    );
}

#[test]
fn leaving_the_balls_out_is_a_mismatch() {
    let mut app = sync_test_app(8, Some(LeaveOutOfRollback::Balls));
    for _ in 0..400 {
        app.update();
    }
    assert!(
        app.world().resource::<Mismatches>().0 > 0,
        "the balls were left out of the rollback, yet the sync test saw no mismatch"
    );
}

/// A headless peer, killed if the test ends first.
pub(super) struct Peer(pub(super) Child);

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(super) fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("slidewalk-net-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// `n` UDP ports free now, picked by the system (bound to port 0, read
/// back, let go): a test never names a fixed port, so two runs on one
/// machine, or a busy port, do not collide. (Each peer is a process that
/// binds its own `--p2p` port, so it is let go just before the peer starts.)
pub(super) fn free_ports<const N: usize>() -> [u16; N] {
    let sockets: [std::net::UdpSocket; N] = std::array::from_fn(|_| std::net::UdpSocket::bind("0.0.0.0:0").unwrap());
    sockets.map(|s| s.local_addr().unwrap().port())
}

pub(super) fn peer(args: &[&str]) -> Peer {
    peer_with(args, &[])
}

/// A peer with extra environment variables (e.g. its handshake nonce).
pub(super) fn peer_with(args: &[&str], env: &[(&str, String)]) -> Peer {
    let child = Command::new(env!("CARGO_BIN_EXE_slidewalk"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Peer(child)
}

/// Waits at most `limit` for the peer; its status, stdout and stderr.
pub(super) fn finish(mut peer: Peer, limit: Duration) -> (Option<i32>, String, String) {
    let started = Instant::now();
    loop {
        if let Some(status) = peer.0.try_wait().unwrap() {
            let mut out = String::new();
            let mut err = String::new();
            use std::io::Read;
            peer.0.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            peer.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return (status.code(), out, err);
        }
        assert!(started.elapsed() < limit, "a peer ran past {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn checksum(out: &str) -> String {
    let summary: serde_json::Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(summary["ticks"], 600, "{out}");
    summary["checksum"].as_str().unwrap().to_string()
}

/// How two headless peers ended: each one's checksum and stderr.
pub(super) struct TwoPeers {
    pub(super) checksums: [String; 2],
    pub(super) stderr: [String; 2],
}

/// Two peers on loopback, on ports the system picked, each with its own
/// script of 600 ticks and its own extra flags, peer A player 0 (its
/// handshake nonce the lower); `during` runs once both have started, with
/// their ports, and what it returns is kept until both have ended. Both
/// must end with status 0.
pub(super) fn two_peers_with<T>(a_flags: &[&str], b_flags: &[&str], during: impl FnOnce([u16; 2]) -> T) -> TwoPeers {
    let [a, b] = free_ports();
    let walk = temp(
        &format!("walk-{a}.json"),
        r#"{"steps": [{"for_s": 2, "move": [0, 1]}, {"for_s": 1, "move": [1, 0], "jump": true},
        {"for_s": 2, "jump": false, "move": [0, -1], "sprint": true, "yaw_deg": 45}, {"for_s": 1, "throw": true},
        {"for_s": 4, "throw": false, "move": [-1, 0]}]}"#,
    );
    let crouch = temp(
        &format!("crouch-{b}.json"),
        r#"{"steps": [{"for_s": 3, "move": [-1, 0], "crouch": true}, {"for_s": 2, "crouch": false, "dash": true, "move": [0, 1]},
        {"for_s": 1, "dash": false, "throw": true, "yaw_deg": -60}, {"for_s": 4, "throw": false, "move": [0, 1]}]}"#,
    );
    let (pa, pb) = (a.to_string(), b.to_string());
    let (to_a, to_b) = (format!("127.0.0.1:{a}"), format!("127.0.0.1:{b}"));
    let mut args_a = vec![
        "--headless",
        "--p2p",
        &pa,
        "--peer",
        &to_b,
        "--script",
        walk.to_str().unwrap(),
    ];
    args_a.extend_from_slice(a_flags);
    let mut args_b = vec![
        "--headless",
        "--p2p",
        &pb,
        "--peer",
        &to_a,
        "--script",
        crouch.to_str().unwrap(),
    ];
    args_b.extend_from_slice(b_flags);
    let nonce = |n: u64| [(slidewalk::net::connect::NONCE_VARIABLE, n.to_string())];
    let (peer_a, peer_b) = (peer_with(&args_a, &nonce(1)), peer_with(&args_b, &nonce(2)));
    let kept = during([a, b]);
    let (code_a, out_a, err_a) = finish(peer_a, Duration::from_secs(60));
    let (code_b, out_b, err_b) = finish(peer_b, Duration::from_secs(60));
    drop(kept);
    assert_eq!(code_a, Some(0), "peer A: {err_a}");
    assert_eq!(code_b, Some(0), "peer B: {err_b}");
    TwoPeers {
        checksums: [checksum(&out_a), checksum(&out_b)],
        stderr: [err_a, err_b],
    }
}

#[test]
fn two_peers_end_with_the_same_checksum() {
    let [a, b] = two_peers_with(&[], &[], |_| {}).checksums;
    assert_eq!(a, b, "the peers' final states differ");
}

#[test]
fn delayed_input_lost_and_jittered_datagrams_still_agree() {
    let [a, b] = two_peers_with(
        &["--input-delay", "5", "--net-loss", "0.1", "--net-jitter", "60"],
        &["--net-loss", "0.1", "--net-jitter", "100"],
        |_| {},
    )
    .checksums;
    assert_eq!(a, b, "the peers' final states differ");
}

#[test]
fn a_silent_peer_ends_the_run_within_the_wait() {
    let walk = temp("silent.json", r#"{"steps": [{"for_s": 1, "move": [0, 1]}]}"#);
    // A port held open by the test that never answers.
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let silent = silent.local_addr().unwrap().to_string();
    let [own] = free_ports();
    let started = Instant::now();
    let p = peer(&[
        "--headless",
        "--p2p",
        &own.to_string(),
        "--peer",
        &silent,
        "--peer-wait",
        "1",
        "--script",
        walk.to_str().unwrap(),
    ]);
    let (code, _, err) = finish(p, Duration::from_secs(20));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("no answer from the peer at {silent}")), "{err}");
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[test]
fn refusals_are_one_line_and_status_2() {
    let walk = temp("refused.json", r#"{"steps": [{"for_s": 1, "move": [0, 1]}]}"#);
    let walk = walk.to_str().unwrap();
    let [own, other] = free_ports().map(|p: u16| p.to_string());
    // An address that does not parse.
    let (code, _, err) = finish(
        peer(&[
            "--headless",
            "--p2p",
            &own,
            "--peer",
            "127.0.0.1:99999",
            "--script",
            walk,
        ]),
        Duration::from_secs(20),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--peer needs ADDR[:PORT]"), "{err}");
    // A port in use (held by the test).
    let taken = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    let taken_port = taken.local_addr().unwrap().port().to_string();
    let (code, _, err) = finish(
        peer(&[
            "--headless",
            "--p2p",
            &taken_port,
            "--peer",
            &format!("127.0.0.1:{other}"),
            "--script",
            walk,
        ]),
        Duration::from_secs(20),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&taken_port) && err.contains("in use"), "{err}");
    // Peers on different levels.
    let a = peer(&[
        "--headless",
        "--p2p",
        &own,
        "--peer",
        &format!("127.0.0.1:{other}"),
        "--script",
        walk,
    ]);
    let b = peer(&[
        "--headless",
        "--p2p",
        &other,
        "--peer",
        &format!("127.0.0.1:{own}"),
        "--level",
        "assets/levels/magic_room.glb",
        "--script",
        walk,
    ]);
    for (code, _, err) in [finish(a, Duration::from_secs(30)), finish(b, Duration::from_secs(30))] {
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("level"), "{err}");
    }
}

/// In a network game the controller's settings are locked (both peers
/// simulate the ones they agreed on), the view's own are not.
#[test]
fn the_controller_is_locked_over_the_network_and_the_view_is_not() {
    use slidewalk::sim::tuning::Tune;
    let mut app = sync_test_app(8, None);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(super::tune(&mut app, Tune::Hud(false)), None, "a view setting");
    assert_eq!(super::tune(&mut app, Tune::ThirdPerson(true)), None, "a view setting");
    let refused = super::tune(&mut app, Tune::Value("walk_speed", 3.0));
    assert!(
        refused.as_deref().is_some_and(|r| r.contains("locked")),
        "the walk speed changed over the network: {refused:?}"
    );
}
