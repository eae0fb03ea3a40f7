//! The network port under attack, across processes: while two headless
//! peers play, a third party (a thread of this test, from ports of its
//! own) sprays both ports with every kind of junk for the whole session
//! (`slidewalk_net::junk`: random bytes, our tags and random bytes,
//! `Hello`s with other nonces, GGRS messages with any frames, empty and
//! 65,000-byte datagrams). Both end with status 0 and the checksums of
//! the quiet run with the same roles, in a bounded number of log lines.
//! And a peer whose partner is killed mid-session ends with one line
//! saying so and status 1, within the disconnect timeout.

use super::netplay::{finish, free_ports, peer, temp, two_peers_with};
use slidewalk_net::junk::{Junk, Spray};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// A spray that writes how much it sent when it stops.
struct SprayCount<'a>(Spray, &'a mut u64);

impl Drop for SprayCount<'_> {
    fn drop(&mut self) {
        *self.1 = self.0.sent();
    }
}

#[test]
fn junk_sprayed_at_both_peers_changes_nothing() {
    let quiet = two_peers_with(&[], &[], |_| {});
    assert_eq!(quiet.checksums[0], quiet.checksums[1]);
    // For the whole session, from the peers' start to their end, about
    // 5,000 datagrams a second (the peers need the machine's cores to keep
    // their real-time pace: the rate the socket keeps up with is measured
    // by `cargo run --release -p slidewalk_net --example junk_rate`).
    let mut sent = 0;
    let noisy = two_peers_with(&[], &[], |ports| {
        let targets = ports.map(|p| SocketAddr::from(([127, 0, 0, 1], p))).to_vec();
        SprayCount(Spray::start(targets, Junk::new(48), Some(5_000.0)).unwrap(), &mut sent)
    });
    assert!(sent > 10_000, "the sprayer sent only {sent} datagrams");
    assert_eq!(noisy.checksums, quiet.checksums, "junk changed the game");
    for err in &noisy.stderr {
        assert!(!err.contains("panicked"), "{err}");
        let lines = err.lines().count();
        // The waiting line, the junk reported at most every 10 s, the figures.
        assert!(lines <= 8, "{lines} lines on stderr under junk:\n{err}");
        assert!(err.contains("ignored"), "the junk was not reported:\n{err}");
    }
}

#[test]
fn a_peer_whose_partner_is_killed_ends_with_one_line_and_status_1() {
    let long = temp("long.json", r#"{"steps": [{"for_s": 60, "move": [0, 1]}]}"#);
    let long = long.to_str().unwrap();
    let [a, b] = free_ports().map(|p: u16| p.to_string());
    let mut first = peer(&[
        "--headless",
        "--p2p",
        &a,
        "--peer",
        &format!("127.0.0.1:{b}"),
        "--script",
        long,
    ]);
    let second = peer(&[
        "--headless",
        "--p2p",
        &b,
        "--peer",
        &format!("127.0.0.1:{a}"),
        "--script",
        long,
    ]);
    // Let them meet and play a while, then the first is killed.
    std::thread::sleep(Duration::from_secs(4));
    assert!(first.0.try_wait().unwrap().is_none(), "the first peer ended early");
    first.0.kill().unwrap();
    let killed = Instant::now();
    let (code, out, err) = finish(second, Duration::from_secs(40));
    let took = killed.elapsed();
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "a summary was printed: {out}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!(
            "slidewalk: the peer at 127.0.0.1:{a} left before the script's last tick"
        )),
        "{err}"
    );
    // The waiting line, the peer gone quiet, and the one line it ends on.
    assert!(err.lines().count() <= 3, "{err}");
    assert!(
        !err.contains("playing on alone"),
        "a headless peer does not play on: {err}"
    );
    // The disconnect timeout (10 s) after the last datagram, and a margin.
    assert!(took < Duration::from_secs(20), "ended {took:?} after its partner");
}

/// A hostile peer's input numbers (NaN, infinite, out of range) are taken
/// within their ranges, the same way on every peer: no NaN enters the
/// simulation, and the two peers still agree.
#[test]
fn a_hostile_peers_numbers_are_taken_within_their_ranges() {
    use slidewalk::net::input::{MAX_TURN_PER_TICK, NetInput};
    use slidewalk::sim::input::PlayerInput;
    let input = |movement: [f32; 2], turn: f32, pitch: f32| -> NetInput {
        serde_json::from_value(serde_json::json!({
            "movement": movement.map(f32::to_bits),
            "turn": turn.to_bits(),
            "pitch": pitch.to_bits(),
            "held": 255, "pressed": 255, "asks": 255,
        }))
        .unwrap()
    };
    let mut player = PlayerInput {
        yaw: 1.0,
        ..PlayerInput::default()
    };
    input([f32::NAN, 5.0], f32::INFINITY, 10.0).apply(&mut player);
    assert_eq!(player.movement, bevy::math::Vec2::new(0.0, 1.0));
    assert_eq!(player.yaw, 1.0, "an infinite turn is no turn");
    assert_eq!(player.pitch, std::f32::consts::FRAC_PI_2);
    input([-1e30, f32::NEG_INFINITY], -1e30, f32::NAN).apply(&mut player);
    assert_eq!(player.movement, bevy::math::Vec2::new(-1.0, 0.0));
    assert_eq!(player.yaw, 1.0 - MAX_TURN_PER_TICK);
    assert_eq!(player.pitch, 0.0);
    // What an honest peer sends is taken as it is.
    input([0.25, -0.5], 0.1, -0.3).apply(&mut player);
    assert_eq!(
        (player.movement, player.pitch),
        (bevy::math::Vec2::new(0.25, -0.5), -0.3)
    );
}
