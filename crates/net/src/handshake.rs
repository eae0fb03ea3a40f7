//! The exchange of [`Hello`]s before the GGRS session: both peers check
//! they can play together and agree who is player 0.

use crate::hello::{Greeting, Hello};
use crate::socket::{Incoming, NetSocket, TAG_HANDSHAKE, encode};
use std::fmt;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Time between two of our `Hello`s while no answer has come.
const RESEND_EVERY: Duration = Duration::from_millis(100);
/// Sleep between two looks at the socket.
const POLL_EVERY: Duration = Duration::from_millis(3);

/// The player handles both peers computed the same way (see [`handshake`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// This peer's player handle in the GGRS session (0 or 1).
    pub local_handle: usize,
    /// The peer's player handle (the other one).
    pub remote_handle: usize,
}

/// Why a handshake failed; its `Display` is one line.
#[derive(Debug)]
pub enum HandshakeError {
    /// The peer runs another version, level, tick rate or settings: the text says which.
    Mismatch(String),
    /// Nothing came from the peer within the wait.
    NoAnswer {
        /// The peer's address.
        peer: SocketAddr,
        /// How long this peer waited.
        waited: Duration,
    },
    /// The peer's `Hello`s came, but it never said it got ours.
    NotHeard {
        /// The peer's address.
        peer: SocketAddr,
        /// How long this peer waited.
        waited: Duration,
    },
    /// The peer sent back our own nonce: it is this same game (`--peer`
    /// names our own port), or both drew the same number.
    SameNonce(SocketAddr),
    /// Our `Hello` could not be sent to the peer (its address cannot be
    /// reached from this socket, e.g. IPv6 from an IPv4 socket).
    Send {
        /// The peer's address.
        peer: SocketAddr,
        /// What the system said.
        reason: std::io::Error,
    },
}

/// `d` in seconds as a message shows it: `10 s`, `0.3 s`.
fn seconds(d: Duration) -> String {
    let tenths = (d.as_secs_f64() * 10.0).round() as u64;
    match tenths % 10 {
        0 => format!("{} s", tenths / 10),
        t => format!("{}.{t} s", tenths / 10),
    }
}

impl fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandshakeError::Mismatch(what) => f.write_str(what),
            HandshakeError::NoAnswer { peer, waited } => {
                write!(f, "no answer from the peer at {peer} in {}", seconds(*waited))
            }
            HandshakeError::NotHeard { peer, waited } => write!(
                f,
                "the peer at {peer} answered but did not hear this one in {} \
                 (does its --peer name this machine and port?)",
                seconds(*waited)
            ),
            HandshakeError::SameNonce(peer) => write!(
                f,
                "the peer at {peer} is this same game, or drew the same nonce: \
                 give --peer the other game's address and port"
            ),
            HandshakeError::Send { peer, reason } => {
                write!(f, "cannot send to the peer at {peer}: {reason}")
            }
        }
    }
}

impl std::error::Error for HandshakeError {}

/// Exchanges `ours` with the peer at `peer` over `socket`, waiting at
/// most `wait`, and returns the handles both peers agree on.
///
/// Sends our `Hello` every 100 ms until the peer's has come **and** the
/// peer has said it got ours (each `Hello` carries whether its sender has
/// seen the other's), so neither side starts its session while the other
/// still waits. If the peer's last acknowledgement is lost after we
/// return, the socket answers the peer's next `Hello` during the session.
///
/// The peer with the lower [`Hello::nonce`] is player 0. `Hello`s from
/// other addresses are ignored. Differences ([`Hello`]'s fields but the
/// nonce) end the handshake at once with [`HandshakeError::Mismatch`],
/// after sending ours once more so the peer can say the same.
pub fn handshake(
    socket: &mut NetSocket,
    peer: SocketAddr,
    ours: &Hello,
    wait: Duration,
) -> Result<Agreement, HandshakeError> {
    let started = Instant::now();
    let datagram = |acknowledged| {
        let greeting = Greeting {
            hello: ours.clone(),
            acknowledged,
        };
        encode(TAG_HANDSHAKE, &greeting).ok_or_else(|| {
            let too_long = "this game's Hello does not fit a datagram (4096 bytes): too many settings";
            let reason = std::io::Error::new(std::io::ErrorKind::InvalidInput, too_long);
            HandshakeError::Send { peer, reason }
        })
    };
    let send = |socket: &mut NetSocket, acknowledged: bool| {
        socket
            .send_datagram(&datagram(acknowledged)?, peer)
            .map_err(|reason| HandshakeError::Send { peer, reason })
    };
    let mut theirs: Option<Hello> = None;
    let mut acknowledged_by_peer = false;
    let mut next_send = started;
    loop {
        let now = Instant::now();
        if now >= next_send {
            send(socket, theirs.is_some())?;
            next_send = now + RESEND_EVERY;
        }
        for (from, incoming) in socket.receive() {
            if from != peer {
                continue;
            }
            let greeting = match incoming {
                Incoming::Greeting(greeting) => greeting,
                Incoming::OtherProtocol(protocol) => {
                    let _ = send(socket, true);
                    let mut other = ours.clone();
                    other.protocol = protocol;
                    let what = ours.differences(&other, peer).unwrap_or_default();
                    return Err(HandshakeError::Mismatch(what));
                }
                // The peer's session started before ours: GGRS resends.
                Incoming::Ggrs(_) => continue,
            };
            if let Some(what) = ours.differences(&greeting.hello, peer) {
                let _ = send(socket, true);
                return Err(HandshakeError::Mismatch(what));
            }
            if greeting.hello.nonce == ours.nonce {
                return Err(HandshakeError::SameNonce(peer));
            }
            if theirs.is_none() {
                // Acknowledge at once rather than at the next resend.
                send(socket, true)?;
                next_send = Instant::now() + RESEND_EVERY;
            }
            acknowledged_by_peer |= greeting.acknowledged;
            theirs = Some(greeting.hello);
        }
        if let (Some(theirs), true) = (&theirs, acknowledged_by_peer) {
            socket.keep_answer(peer, datagram(true)?);
            let local_handle = usize::from(ours.nonce > theirs.nonce);
            return Ok(Agreement {
                local_handle,
                remote_handle: 1 - local_handle,
            });
        }
        let waited = started.elapsed();
        if waited >= wait {
            return Err(match theirs {
                None => HandshakeError::NoAnswer { peer, waited: wait },
                Some(_) => HandshakeError::NotHeard { peer, waited: wait },
            });
        }
        std::thread::sleep(POLL_EVERY.min(wait - waited));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hello::tests::hello;

    fn localhost(socket: &NetSocket) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], socket.local_port()))
    }

    /// Shakes hands between two fresh sockets on 127.0.0.1, one per
    /// thread, with these `Hello`s and losses; returns both results.
    fn both(a: Hello, b: Hello, loss: f32) -> (Result<Agreement, HandshakeError>, Result<Agreement, HandshakeError>) {
        let mut sa = NetSocket::bind(0).unwrap().with_loss(loss, 1);
        let mut sb = NetSocket::bind(0).unwrap().with_loss(loss, 2);
        let (pa, pb) = (localhost(&sa), localhost(&sb));
        let wait = Duration::from_secs(5);
        let other = std::thread::spawn(move || handshake(&mut sb, pa, &b, wait));
        let ra = handshake(&mut sa, pb, &a, wait);
        // As the session would: poll, so late Hellos are answered.
        while !other.is_finished() {
            ggrs::NonBlockingSocket::receive_all_messages(&mut sa);
            std::thread::sleep(POLL_EVERY);
        }
        (ra, other.join().unwrap())
    }

    #[test]
    fn two_peers_agree_on_opposite_handles() {
        for loss in [0.0, 0.3] {
            let (a, b) = both(hello(7), hello(3), loss);
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_eq!(
                a,
                Agreement {
                    local_handle: 1,
                    remote_handle: 0
                },
                "loss {loss}"
            );
            assert_eq!(
                b,
                Agreement {
                    local_handle: 0,
                    remote_handle: 1
                },
                "loss {loss}"
            );
        }
    }

    #[test]
    fn a_mismatch_is_named_on_both_sides() {
        let mut other = hello(3);
        other.level = "other.glb".into();
        other.level_digest = 99;
        let (a, b) = both(hello(7), other, 0.0);
        let (a, b) = (a.unwrap_err().to_string(), b.unwrap_err().to_string());
        assert!(
            a.ends_with(r#"runs level "other.glb" (this one runs "playground.glb")"#),
            "{a}"
        );
        assert!(
            b.ends_with(r#"runs level "playground.glb" (this one runs "other.glb")"#),
            "{b}"
        );

        let mut other = hello(3);
        other.settings_digest = 0;
        other.settings[0].1 = "20".into();
        let (a, b) = both(hello(7), other, 0.0);
        let (a, b) = (a.unwrap_err().to_string(), b.unwrap_err().to_string());
        assert!(a.ends_with("differ: gravity 9.81 here, 20 there"), "{a}");
        assert!(b.ends_with("differ: gravity 20 here, 9.81 there"), "{b}");

        let mut other = hello(3);
        other.game_version = "9.9.9".into();
        let (a, b) = both(hello(7), other, 0.0);
        let (a, b) = (a.unwrap_err().to_string(), b.unwrap_err().to_string());
        assert!(a.contains("runs slidewalk 9.9.9 (this one runs 0.1.0)"), "{a}");
        assert!(b.contains("runs slidewalk 0.1.0 (this one runs 9.9.9)"), "{b}");
    }

    #[test]
    fn another_protocol_is_named_even_if_its_hello_cannot_be_read() {
        let mut sa = NetSocket::bind(0).unwrap();
        let sb = NetSocket::bind(0).unwrap();
        // Protocol 99 then bytes this build does not understand.
        let mut datagram = vec![TAG_HANDSHAKE];
        datagram.extend(99u32.to_le_bytes());
        datagram.extend([0xff; 5]);
        let mut sb = sb;
        sb.send_datagram(&datagram, localhost(&sa)).unwrap();
        let e = handshake(&mut sa, localhost(&sb), &hello(1), Duration::from_secs(2)).unwrap_err();
        assert!(
            e.to_string().contains("speaks network protocol 99 (this one speaks 1)"),
            "{e}"
        );
    }

    #[test]
    fn nobody_listening_is_no_answer_within_the_wait() {
        let mut socket = NetSocket::bind(0).unwrap();
        // A port bound and then closed: nobody listens there.
        let nobody = localhost(&NetSocket::bind(0).unwrap());
        let started = Instant::now();
        let wait = Duration::from_millis(300);
        let e = handshake(&mut socket, nobody, &hello(1), wait).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(matches!(e, HandshakeError::NoAnswer { .. }));
        assert_eq!(e.to_string(), format!("no answer from the peer at {nobody} in 0.3 s"));
        assert_eq!(seconds(Duration::from_secs(10)), "10 s");
    }

    #[test]
    fn a_hello_too_long_for_a_datagram_is_an_error_not_a_panic() {
        let mut socket = NetSocket::bind(0).unwrap();
        let mut ours = hello(1);
        ours.settings = vec![("setting".into(), "x".repeat(5000))];
        let me = localhost(&socket);
        let e = handshake(&mut socket, me, &ours, Duration::from_secs(1)).unwrap_err();
        assert!(e.to_string().contains("does not fit a datagram"), "{e}");
    }

    #[test]
    fn talking_to_oneself_is_refused() {
        let mut socket = NetSocket::bind(0).unwrap();
        let me = localhost(&socket);
        let e = handshake(&mut socket, me, &hello(1), Duration::from_secs(2)).unwrap_err();
        assert!(matches!(e, HandshakeError::SameNonce(_)), "{e}");
    }

    #[test]
    fn a_late_hello_is_answered_during_the_session() {
        use ggrs::NonBlockingSocket;
        // A peer that finished (its socket keeps our answer) hears a late Hello.
        let mut done = NetSocket::bind(0).unwrap();
        let mut late = NetSocket::bind(0).unwrap();
        done.keep_answer(localhost(&late), vec![TAG_HANDSHAKE, 1, 2]);
        let greeting = encode(
            TAG_HANDSHAKE,
            &Greeting {
                hello: hello(3),
                acknowledged: true,
            },
        )
        .unwrap();
        late.send_datagram(&greeting, localhost(&done)).unwrap();
        let deadline = Instant::now() + Duration::from_secs(2);
        while done.sent() == 0 && Instant::now() < deadline {
            assert!(done.receive_all_messages().is_empty());
            std::thread::sleep(POLL_EVERY);
        }
        assert_eq!(done.sent(), 1, "answered once");
    }
}
