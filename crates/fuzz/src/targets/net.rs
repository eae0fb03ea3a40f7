//! Target `net`: the handshake of two peers (`slidewalk_net::Handshake`,
//! the state machine the game's socket drives, and its datagram decoding)
//! under a network the bytes control: each peer's `Hello`s sent, delivered,
//! duplicated, reordered, lost or corrupted, while strangers send junk
//! (`slidewalk_net::junk`), replay the peers' own `Hello`s from their
//! addresses, and raw bytes arrive as if from the peer.
//!
//! Checked: nothing panics; a stranger's datagram (any address but the
//! peer's: another port, another IP, the same port over IPv6) leaves the
//! state exactly as it was and asks nothing; so does anything after the
//! handshake ended; a peer that agrees does so on its peer's real `Hello`
//! (unless the bytes tampered with what came from the peer's address), with
//! the lower nonce as player 0 on both sides; a difference of setup or
//! equal nonces never agree, and the same setup never fails; our `Hello`
//! always fits a datagram.

use arbitrary::{Result, Unstructured};
use slidewalk_net::junk::{Junk, KINDS};
use slidewalk_net::{Handshake, HandshakeError, Hello, PROTOCOL, Step};
use std::fmt::Write;
use std::net::SocketAddr;

use crate::signature::Signature;

/// Most operations read from one input.
const MAX_OPS: usize = 96;

/// What a peer's `Hello` may differ in from the other's.
#[derive(Clone, Copy, Debug)]
enum Setup {
    Same,
    Level,
    Settings,
    TickRate,
    Version,
    Protocol,
    SameNonce,
}

/// One step of the network.
#[derive(Debug)]
enum Op {
    /// Peer `a` (true) or `b` sends its `Hello` (its resend timer fired).
    Send(bool),
    /// The datagram in flight at this index arrives.
    Deliver(u8),
    /// It arrives and stays in flight (a duplicate comes later).
    Duplicate(u8),
    /// It is lost.
    Lose(u8),
    /// It arrives with one byte changed, or cut short.
    Corrupt(u8, u16, u8),
    /// A stranger sends junk of kind `.2` to `a` (true) or `b` from stranger `.0`.
    Junk(u8, bool, u8),
    /// A stranger replays a peer's own `Hello` from its address.
    Replay(u8, bool),
    /// Raw bytes arrive at `a` (true) or `b` from its peer's address.
    Raw(bool, Vec<u8>),
}

/// Addresses that are not the peers': another port, another IP, IPv6.
fn strangers() -> [SocketAddr; 4] {
    [
        "127.0.0.1:7002",
        "127.0.0.2:7001",
        "[::1]:7001",
        "[::ffff:127.0.0.1]:7001",
    ]
    .map(|s| s.parse().unwrap())
}

fn hello(nonce: u64) -> Hello {
    Hello {
        protocol: PROTOCOL,
        game_version: "0.1.0".into(),
        level: "playground.glb".into(),
        level_digest: 11,
        settings_digest: 22,
        settings: vec![("gravity".into(), "9.81".into())],
        tick_hz_millis: 60_000,
        nonce,
    }
}

/// The two `Hello`s, the junk seed and the operations the bytes stand for.
struct Input {
    a: Hello,
    b: Hello,
    setup: Setup,
    junk_seed: u64,
    ops: Vec<Op>,
}

fn draw(u: &mut Unstructured<'_>) -> Result<Input> {
    let a = hello(u.arbitrary()?);
    let mut b = hello(u.arbitrary()?);
    let setup = match u.int_in_range(0..=15u8)? {
        0 => Setup::Level,
        1 => Setup::Settings,
        2 => Setup::TickRate,
        3 => Setup::Version,
        4 => Setup::Protocol,
        5 => Setup::SameNonce,
        _ => Setup::Same,
    };
    match setup {
        Setup::Same => {}
        Setup::Level => b.level_digest ^= 1 + u.int_in_range(0..=7u64)?,
        Setup::Settings => {
            b.settings_digest ^= 1;
            b.settings[0].1 = "20".into();
        }
        Setup::TickRate => b.tick_hz_millis = u.int_in_range(1..=59_999u32)?,
        Setup::Version => b.game_version = "9.9.9".into(),
        Setup::Protocol => b.protocol = u.int_in_range(2..=1000u32)?,
        Setup::SameNonce => b.nonce = a.nonce,
    }
    let junk_seed = u.arbitrary()?;
    let mut ops = Vec::new();
    while !u.is_empty() && ops.len() < MAX_OPS {
        let op = match u.int_in_range(0..=9u8)? {
            0 | 1 => Op::Send(u.arbitrary()?),
            2..=4 => Op::Deliver(u.arbitrary()?),
            5 => match u.int_in_range(0..=2u8)? {
                0 => Op::Duplicate(u.arbitrary()?),
                1 => Op::Lose(u.arbitrary()?),
                _ => Op::Corrupt(u.arbitrary()?, u.arbitrary()?, u.arbitrary()?),
            },
            6 | 7 => Op::Junk(u.arbitrary()?, u.arbitrary()?, u.arbitrary()?),
            8 => Op::Replay(u.arbitrary()?, u.arbitrary()?),
            _ => {
                let len = u.int_in_range(0..=64usize)?;
                Op::Raw(u.arbitrary()?, u.bytes(len)?.to_vec())
            }
        };
        ops.push(op);
    }
    Ok(Input {
        a,
        b,
        setup,
        junk_seed,
        ops,
    })
}

/// How a peer's handshake ended, if it did.
#[derive(Debug)]
enum End {
    Agreed(usize),
    Failed(HandshakeError),
}

/// One peer: its state machine, its address and how it ended.
struct Peer {
    handshake: Handshake,
    addr: SocketAddr,
    end: Option<End>,
    /// Something other than the peer's own datagrams came from its address.
    tampered: bool,
}

/// A datagram on its way: to `a` (true) or `b`, its bytes.
type InFlight = (bool, Vec<u8>);

/// Gives `bytes` from `from` to `peer`; queues what it asks to send.
fn arrive(
    peer: &mut Peer,
    from: SocketAddr,
    bytes: &[u8],
    to_a: bool,
    flight: &mut Vec<InFlight>,
    sig: &mut Signature,
) {
    let before = peer.handshake.clone();
    let step = peer.handshake.receive(from, bytes);
    let stranger = from != peer_address_of(to_a);
    if stranger || peer.end.is_some() {
        assert!(matches!(step, Step::Wait), "a stranger or a late datagram got {step:?}");
        assert!(
            peer.handshake == before,
            "a stranger's or a late datagram changed the state"
        );
        return;
    }
    let reply = match step {
        Step::Wait => false,
        Step::Reply => true,
        Step::Agreed { agreement, reply } => {
            assert_eq!(agreement.local_handle + agreement.remote_handle, 1, "{agreement:?}");
            peer.end = Some(End::Agreed(agreement.local_handle));
            reply
        }
        Step::Failed { error, reply } => {
            sig.add_text(&error.to_string());
            peer.end = Some(End::Failed(error));
            reply
        }
    };
    sig.add(u64::from(reply));
    if reply {
        let datagram = peer.handshake.datagram().expect("a Hello that fits");
        flight.push((!to_a, datagram));
    }
}

/// The address each side's datagrams come from: `a`'s peer is `b`.
fn peer_address_of(to_a: bool) -> SocketAddr {
    if to_a { addr_b() } else { addr_a() }
}

fn addr_a() -> SocketAddr {
    "127.0.0.1:7000".parse().unwrap()
}

fn addr_b() -> SocketAddr {
    "127.0.0.1:7001".parse().unwrap()
}

/// The target.
pub fn run(data: &[u8]) -> u64 {
    let mut u = Unstructured::new(data);
    let Ok(input) = draw(&mut u) else { return 0 };
    play(&input).2.finish()
}

/// Plays the input's network: both peers as they ended, and the signature.
fn play(input: &Input) -> (Peer, Peer, Signature) {
    let mut sig = Signature::default();
    let mut a = Peer {
        handshake: Handshake::new(addr_b(), input.a.clone()),
        addr: addr_a(),
        end: None,
        tampered: false,
    };
    let mut b = Peer {
        handshake: Handshake::new(addr_a(), input.b.clone()),
        addr: addr_b(),
        end: None,
        tampered: false,
    };
    let mut junk = Junk::new(input.junk_seed).imitating(input.a.clone());
    let mut junk_bytes = Vec::new();
    let mut flight: Vec<InFlight> = Vec::new();
    let strangers = strangers();
    for op in &input.ops {
        let pick = |i: u8, flight: &Vec<InFlight>| (!flight.is_empty()).then(|| usize::from(i) % flight.len());
        match op {
            Op::Send(from_a) => {
                let sender = if *from_a { &a } else { &b };
                flight.push((!from_a, sender.handshake.datagram().expect("a Hello that fits")));
            }
            Op::Deliver(i) | Op::Duplicate(i) | Op::Lose(i) | Op::Corrupt(i, ..) => {
                let Some(i) = pick(*i, &flight) else { continue };
                let (to_a, mut bytes) = if matches!(op, Op::Duplicate(_)) {
                    flight[i].clone()
                } else {
                    flight.remove(i)
                };
                if matches!(op, Op::Lose(_)) {
                    continue;
                }
                let (target, from) = if to_a { (&mut a, addr_b()) } else { (&mut b, addr_a()) };
                if let Op::Corrupt(_, at, value) = op {
                    target.tampered = true;
                    if *value == 0 {
                        bytes.truncate(usize::from(*at) % (bytes.len() + 1));
                    } else if !bytes.is_empty() {
                        let at = usize::from(*at) % bytes.len();
                        bytes[at] ^= value;
                    }
                }
                arrive(target, from, &bytes, to_a, &mut flight, &mut sig);
            }
            Op::Junk(s, to_a, kind) => {
                junk.fill_kind(KINDS[usize::from(*kind) % KINDS.len()], &mut junk_bytes);
                let target = if *to_a { &mut a } else { &mut b };
                arrive(
                    target,
                    strangers[usize::from(*s) % strangers.len()],
                    &junk_bytes,
                    *to_a,
                    &mut flight,
                    &mut sig,
                );
            }
            Op::Replay(s, to_a) => {
                // The other peer's own Hello, from a stranger's address.
                let other = if *to_a { &b } else { &a };
                let bytes = other.handshake.datagram().expect("a Hello that fits");
                let target = if *to_a { &mut a } else { &mut b };
                arrive(
                    target,
                    strangers[usize::from(*s) % strangers.len()],
                    &bytes,
                    *to_a,
                    &mut flight,
                    &mut sig,
                );
            }
            Op::Raw(to_a, bytes) => {
                let (target, from) = if *to_a { (&mut a, addr_b()) } else { (&mut b, addr_a()) };
                target.tampered = true;
                arrive(target, from, bytes, *to_a, &mut flight, &mut sig);
            }
        }
        sig.add(flight.len().min(8) as u64);
    }
    check_ends(input, &a, &b);
    for peer in [&a, &b] {
        sig.add(match &peer.end {
            None => 0,
            Some(End::Agreed(h)) => 1 + *h as u64,
            Some(End::Failed(_)) => 3,
        });
    }
    (a, b, sig)
}

/// The outcomes agree with the two `Hello`s.
fn check_ends(input: &Input, a: &Peer, b: &Peer) {
    for (peer, ours, theirs) in [(a, &input.a, &input.b), (b, &input.b, &input.a)] {
        if let Some(End::Failed(error)) = &peer.end {
            // Only a real difference, or what came from the peer's
            // address not being the peer's, ends a handshake in failure.
            // (The bytes may draw two equal nonces: that is a difference.)
            assert!(
                peer.tampered || !matches!(input.setup, Setup::Same) || ours.nonce == theirs.nonce,
                "{} failed with the same setup: {error}",
                peer.addr
            );
        }
        let Some(End::Agreed(local)) = peer.end else { continue };
        if peer.tampered {
            // What came from the peer's address was not only the peer's:
            // the handles follow whatever `Hello` was believed.
            let believed = peer.handshake.theirs().expect("agreed without a Hello");
            assert_eq!(local, usize::from(ours.nonce > believed.nonce), "{:?}", peer.addr);
            continue;
        }
        assert!(
            matches!(input.setup, Setup::Same),
            "{} agreed despite a {:?} difference",
            peer.addr,
            input.setup
        );
        assert_ne!(ours.nonce, theirs.nonce, "agreed with equal nonces");
        assert_eq!(peer.handshake.theirs(), Some(theirs), "agreed on another Hello");
        assert_eq!(local, usize::from(ours.nonce > theirs.nonce));
    }
    if let (Some(End::Agreed(la)), Some(End::Agreed(lb)), false, false) = (&a.end, &b.end, a.tampered, b.tampered) {
        assert_ne!(la, lb, "both peers took the same handle");
    }
}

/// The clean exchange: nonces 0 and 0x0101…, the same setup; `a` sends,
/// `b` gets it and replies, `a` gets that and acknowledges, `b` gets it.
fn clean_seed() -> Vec<u8> {
    let mut clean = vec![0u8; 8];
    clean.extend([1u8; 8]);
    clean.extend([9, 0, 0, 0, 0, 0, 0, 0, 0]);
    clean.extend([0, 1, 2, 0, 2, 0, 2, 0]);
    clean
}

/// Seeds: a clean exchange, one with a difference, one under junk.
pub fn seeds() -> Vec<Vec<u8>> {
    let clean = clean_seed();
    // The setup byte says "another level", and the next byte how.
    let mut differing = clean.clone();
    differing[16] = 0;
    differing.insert(17, 3);
    let mut noisy = clean[..25].to_vec();
    noisy.extend([
        6, 0, 1, 2, 0, 1, 7, 1, 0, 3, 8, 0, 1, 9, 4, 1, 2, 3, 4, 2, 0, 2, 0, 2, 0,
    ]);
    vec![clean, differing, noisy]
}

/// The `Hello`s and the operations, one per line.
pub fn describe(data: &[u8]) -> String {
    let mut u = Unstructured::new(data);
    let Ok(input) = draw(&mut u) else {
        return "too short for an input".into();
    };
    let mut out = format!(
        "a: nonce {:#x}; b: nonce {:#x}; setup {:?}; junk seed {}\n",
        input.a.nonce, input.b.nonce, input.setup, input.junk_seed
    );
    for op in &input.ops {
        let _ = writeln!(out, "{op:?}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clean_seed_agrees_on_opposite_handles_and_a_difference_on_none() {
        let input = draw(&mut Unstructured::new(&clean_seed())).unwrap();
        assert!(matches!(input.setup, Setup::Same), "{:?}", input.setup);
        let (a, b, _) = play(&input);
        assert!(matches!(a.end, Some(End::Agreed(0))), "{:?}", a.end);
        assert!(matches!(b.end, Some(End::Agreed(1))), "{:?}", b.end);
        let input = draw(&mut Unstructured::new(&seeds()[1])).unwrap();
        let (a, b, _) = play(&input);
        assert!(
            matches!(a.end, Some(End::Failed(_))),
            "{:?} with {:?}",
            a.end,
            input.setup
        );
        assert!(!matches!(b.end, Some(End::Agreed(_))), "{:?}", b.end);
    }
}
