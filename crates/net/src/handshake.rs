//! The exchange of [`Hello`]s before the GGRS session: both peers check
//! they can play together and agree who is player 0.

use crate::datagram::{Incoming, Sorted, TAG_HANDSHAKE, encode, sort};
use crate::hello::{Greeting, Hello};
use crate::socket::NetSocket;
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

/// What a [`Handshake`] asks of whoever carries its datagrams, after one.
#[derive(Debug)]
pub enum Step {
    /// Nothing: go on resending our `Hello` every 100 ms.
    Wait,
    /// Send our `Hello` now ([`Handshake::datagram`]): the peer's first
    /// one came, and it should hear at once that we have it.
    Reply,
    /// Both have heard each other: the session can start with these handles.
    Agreed {
        /// Who is who.
        agreement: Agreement,
        /// The peer's first `Hello` came just now: send ours once more,
        /// so that it hears at once that we have it.
        reply: bool,
    },
    /// The handshake failed. If `reply`, send our `Hello` once more first,
    /// so that the peer can name the same difference.
    Failed {
        /// Why.
        error: HandshakeError,
        /// Send ours once more before giving up.
        reply: bool,
    },
}

/// The handshake's state between datagrams, without any I/O (sans-IO):
/// [`handshake`] drives it over a [`NetSocket`], the `net` fuzz target
/// with datagrams of its own. Only the peer's datagrams change it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    peer: SocketAddr,
    ours: Hello,
    /// The peer's `Hello`, once one came.
    theirs: Option<Hello>,
    /// The peer said it has ours.
    acknowledged_by_peer: bool,
    /// Agreed or failed: later datagrams change nothing.
    over: bool,
}

impl Handshake {
    /// A handshake of `ours` with the peer at `peer`, nothing heard yet.
    pub fn new(peer: SocketAddr, ours: Hello) -> Self {
        Self {
            peer,
            ours,
            theirs: None,
            acknowledged_by_peer: false,
            over: false,
        }
    }

    /// The peer's `Hello`, once one came.
    pub fn theirs(&self) -> Option<&Hello> {
        self.theirs.as_ref()
    }

    /// Our `Hello` as a datagram to send now (it says whether the peer's
    /// came), or an error if it is too long for one.
    pub fn datagram(&self) -> Result<Vec<u8>, HandshakeError> {
        let greeting = Greeting {
            hello: self.ours.clone(),
            acknowledged: self.theirs.is_some(),
        };
        encode(TAG_HANDSHAKE, &greeting).ok_or_else(|| {
            let too_long = "this game's Hello does not fit a datagram (4096 bytes): too many settings";
            let reason = std::io::Error::new(std::io::ErrorKind::InvalidInput, too_long);
            HandshakeError::Send {
                peer: self.peer,
                reason,
            }
        })
    }

    /// Takes the datagram `bytes` that came from `from`: anything from
    /// another address, or that does not decode, is [`Step::Wait`] and
    /// changes nothing.
    pub fn receive(&mut self, from: SocketAddr, bytes: &[u8]) -> Step {
        match sort(Some(self.peer), from, bytes) {
            Sorted::Accepted(incoming) => self.take(from, incoming),
            _ => Step::Wait,
        }
    }

    /// Takes a datagram already sorted and decoded (the socket's thread does it).
    pub(crate) fn take(&mut self, from: SocketAddr, incoming: Incoming) -> Step {
        if from != self.peer || self.over {
            return Step::Wait;
        }
        let peer = self.peer;
        let greeting = match incoming {
            Incoming::Greeting(greeting) => greeting,
            Incoming::OtherProtocol(protocol) => {
                let mut other = self.ours.clone();
                other.protocol = protocol;
                let what = self.ours.differences(&other, peer).unwrap_or_default();
                return self.fail(HandshakeError::Mismatch(what), true);
            }
            // The peer's session started before ours: GGRS resends.
            Incoming::Ggrs(_) => return Step::Wait,
        };
        if let Some(what) = self.ours.differences(&greeting.hello, peer) {
            return self.fail(HandshakeError::Mismatch(what), true);
        }
        if greeting.hello.nonce == self.ours.nonce {
            return self.fail(HandshakeError::SameNonce(peer), false);
        }
        let first = self.theirs.is_none();
        self.acknowledged_by_peer |= greeting.acknowledged;
        self.theirs = Some(greeting.hello);
        if self.acknowledged_by_peer
            && let Some(theirs) = &self.theirs
        {
            self.over = true;
            let local_handle = usize::from(self.ours.nonce > theirs.nonce);
            return Step::Agreed {
                agreement: Agreement {
                    local_handle,
                    remote_handle: 1 - local_handle,
                },
                reply: first,
            };
        }
        // Acknowledge a first Hello at once rather than at the next resend.
        if first { Step::Reply } else { Step::Wait }
    }

    fn fail(&mut self, error: HandshakeError, reply: bool) -> Step {
        self.over = true;
        Step::Failed { error, reply }
    }

    /// Why the handshake failed if it ends now, after waiting `waited`.
    pub fn timed_out(&self, waited: Duration) -> HandshakeError {
        let peer = self.peer;
        match self.theirs {
            None => HandshakeError::NoAnswer { peer, waited },
            Some(_) => HandshakeError::NotHeard { peer, waited },
        }
    }
}

/// Exchanges `ours` with the peer at `peer` over `socket`, waiting at
/// most `wait`, and returns the handles both peers agree on.
///
/// Sends our `Hello` every 100 ms until the peer's has come **and** the
/// peer has said it got ours (each `Hello` carries whether its sender has
/// seen the other's), so neither side starts its session while the other
/// still waits. If the peer's last acknowledgement is lost after we
/// return, the socket answers the peer's next `Hello` during the session.
///
/// The peer with the lower [`Hello::nonce`] is player 0. From the start
/// the socket reads the peer's datagrams only: a stranger's, even a
/// well-formed `Hello`, is dropped unread. Differences ([`Hello`]'s
/// fields but the nonce) end the handshake at once with
/// [`HandshakeError::Mismatch`], after sending ours once more so the peer
/// can say the same. [`Handshake`] is the same exchange without the socket.
pub fn handshake(
    socket: &mut NetSocket,
    peer: SocketAddr,
    ours: &Hello,
    wait: Duration,
) -> Result<Agreement, HandshakeError> {
    let started = Instant::now();
    socket.listen_to(peer);
    let mut exchange = Handshake::new(peer, ours.clone());
    let send = |socket: &mut NetSocket, exchange: &Handshake| {
        socket
            .send_datagram(&exchange.datagram()?, peer)
            .map_err(|reason| HandshakeError::Send { peer, reason })
    };
    let mut next_send = started;
    loop {
        let now = Instant::now();
        if now >= next_send {
            send(socket, &exchange)?;
            next_send = now + RESEND_EVERY;
        }
        for (from, incoming) in socket.receive() {
            match exchange.take(from, incoming) {
                Step::Wait => {}
                Step::Reply => {
                    send(socket, &exchange)?;
                    next_send = Instant::now() + RESEND_EVERY;
                }
                Step::Agreed { agreement, reply } => {
                    if reply {
                        send(socket, &exchange)?;
                    }
                    socket.keep_answer(peer, exchange.datagram()?);
                    return Ok(agreement);
                }
                Step::Failed { error, reply } => {
                    if reply {
                        let _ = send(socket, &exchange);
                    }
                    return Err(error);
                }
            }
        }
        let waited = started.elapsed();
        if waited >= wait {
            return Err(exchange.timed_out(wait));
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
