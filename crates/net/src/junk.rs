//! Hostile datagrams for tests, fuzzing and measurements: what anything on
//! the network may send to a game's port. [`Junk`] draws them from a seed:
//! random bytes, each of our tags followed by random bytes, well-formed
//! `Hello`s that are not the peer's (another nonce, another level,
//! another protocol), well-formed GGRS messages with any frame numbers,
//! empty datagrams and datagrams up to 65,000 bytes. [`Spray`] sends
//! them to a game's ports from a thread, as a third party would.
//!
//! ```
//! use slidewalk_net::junk::Junk;
//!
//! let mut junk = Junk::new(7);
//! let mut datagram = Vec::new();
//! for _ in 0..100 {
//!     junk.fill(&mut datagram);
//!     assert!(datagram.len() <= 65_000);
//! }
//! ```

use crate::conditions::SplitMix;
use crate::datagram::{TAG_GGRS, TAG_HANDSHAKE, encoding};
use crate::hello::{Greeting, Hello, PROTOCOL};
use bincode::Options;
use serde::Serialize;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longest datagram drawn, bytes (a UDP datagram holds at most 65,507).
pub const LONGEST: usize = 65_000;

/// The kinds of datagram [`Junk`] draws, in the order it cycles through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Random bytes of a random length.
    Random,
    /// [`TAG_GGRS`] or [`TAG_HANDSHAKE`] followed by random bytes.
    TaggedRandom,
    /// A well-formed handshake `Hello` that is not the peer's.
    Hello,
    /// A well-formed GGRS message with random frames, magic and input bytes.
    Ggrs,
    /// No bytes at all.
    Empty,
    /// Longer than any datagram read: 4,097 to 65,000 bytes.
    Long,
}

/// Every kind.
pub const KINDS: [Kind; 6] = [
    Kind::Random,
    Kind::TaggedRandom,
    Kind::Hello,
    Kind::Ggrs,
    Kind::Empty,
    Kind::Long,
];

// Mirrors of GGRS 0.13's messages (`ggrs::network::messages`, private
// there): serde writes the same bincode for the same shape, so these are
// messages GGRS reads as its own.
#[derive(Serialize)]
struct ConnectionStatus {
    disconnected: bool,
    last_frame: i32,
}

#[derive(Serialize)]
enum Body {
    SyncRequest(u32),
    SyncReply(u32),
    Input {
        peer_connect_status: Vec<ConnectionStatus>,
        disconnect_requested: bool,
        start_frame: i32,
        ack_frame: i32,
        bytes: Vec<u8>,
    },
    InputAck(i32),
    QualityReport {
        frame_advantage: i16,
        ping: u128,
    },
    QualityReply(u128),
    ChecksumReport {
        checksum: u128,
        frame: i32,
    },
    KeepAlive,
}

#[derive(Serialize)]
struct GgrsMessage {
    magic: u16,
    body: Body,
}

/// A seeded source of hostile datagrams.
#[derive(Clone, Debug)]
pub struct Junk {
    rng: SplitMix,
    /// The `Hello` the well-formed ones imitate (the game's own, say).
    template: Hello,
    /// Datagrams drawn so far.
    drawn: u64,
}

impl Junk {
    /// A source seeded with `seed`, its `Hello`s imitating a default one.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix(seed),
            template: Hello {
                protocol: PROTOCOL,
                game_version: "0.1.0".into(),
                level: "playground.glb".into(),
                level_digest: 0,
                settings_digest: 0,
                settings: Vec::new(),
                tick_hz_millis: 60_000,
                nonce: 0,
            },
            drawn: 0,
        }
    }

    /// Its `Hello`s imitate `hello` (the real peers' own: then they differ
    /// from a real one only in their nonce, or in one field).
    pub fn imitating(mut self, hello: Hello) -> Self {
        self.template = hello;
        self
    }

    /// A random number below `n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n
    }

    /// Any frame number, often a plausible one.
    fn frame(&mut self) -> i32 {
        match self.below(4) {
            0 => self.rng.next_u64() as i32,
            1 => -1,
            _ => self.below(2000) as i32,
        }
    }

    fn random_bytes(&mut self, out: &mut Vec<u8>, len: usize) {
        out.extend((0..len).map(|_| self.rng.next_u64() as u8));
    }

    /// The next datagram, of the next kind in turn, written over `out`
    /// (which keeps its capacity: no allocation once it has grown).
    pub fn fill(&mut self, out: &mut Vec<u8>) -> Kind {
        let kind = KINDS[(self.drawn % KINDS.len() as u64) as usize];
        self.drawn += 1;
        self.fill_kind(kind, out);
        kind
    }

    /// A datagram of `kind`, written over `out`.
    pub fn fill_kind(&mut self, kind: Kind, out: &mut Vec<u8>) {
        out.clear();
        match kind {
            Kind::Random => {
                let len = self.below(1500) as usize;
                self.random_bytes(out, len);
            }
            Kind::TaggedRandom => {
                out.push(if self.below(2) == 0 { TAG_GGRS } else { TAG_HANDSHAKE });
                let len = self.below(600) as usize;
                self.random_bytes(out, len);
            }
            Kind::Hello => {
                let mut hello = self.template.clone();
                hello.nonce = self.rng.next_u64();
                match self.below(6) {
                    0 => hello.level_digest ^= 1,
                    1 => hello.protocol = 1 + self.below(999) as u32,
                    2 => hello.tick_hz_millis = self.below(1_000_000) as u32,
                    // Most look exactly like the peer's but for the nonce.
                    _ => {}
                }
                let greeting = Greeting {
                    hello,
                    acknowledged: self.below(2) == 0,
                };
                out.push(TAG_HANDSHAKE);
                // A Hello too long for a datagram is sent cut: junk too.
                let _ = encoding().serialize_into(&mut *out, &greeting);
            }
            Kind::Ggrs => {
                let body = match self.below(8) {
                    0 => Body::SyncRequest(self.rng.next_u64() as u32),
                    1 => Body::SyncReply(self.rng.next_u64() as u32),
                    2 | 3 => {
                        let players = self.below(5) as usize;
                        let peer_connect_status = (0..players)
                            .map(|_| ConnectionStatus {
                                disconnected: self.below(2) == 0,
                                last_frame: self.frame(),
                            })
                            .collect();
                        let mut bytes = Vec::new();
                        let len = self.below(64) as usize;
                        self.random_bytes(&mut bytes, len);
                        Body::Input {
                            peer_connect_status,
                            disconnect_requested: self.below(8) == 0,
                            start_frame: self.frame(),
                            ack_frame: self.frame(),
                            bytes,
                        }
                    }
                    4 => Body::InputAck(self.frame()),
                    5 => Body::QualityReport {
                        frame_advantage: self.rng.next_u64() as i16,
                        ping: u128::from(self.rng.next_u64()),
                    },
                    6 => Body::ChecksumReport {
                        checksum: u128::from(self.rng.next_u64()),
                        frame: self.frame(),
                    },
                    _ => {
                        if self.below(2) == 0 {
                            Body::QualityReply(u128::from(self.rng.next_u64()))
                        } else {
                            Body::KeepAlive
                        }
                    }
                };
                let message = GgrsMessage {
                    magic: self.rng.next_u64() as u16,
                    body,
                };
                out.push(TAG_GGRS);
                let _ = encoding().serialize_into(&mut *out, &message);
            }
            Kind::Empty => {}
            Kind::Long => {
                let len = 4097 + self.below((LONGEST - 4097 + 1) as u64) as usize;
                out.push(if self.below(2) == 0 { TAG_GGRS } else { TAG_HANDSHAKE });
                self.random_bytes(out, len - 1);
            }
        }
    }
}

/// A third party on the same machine: a thread that sends [`Junk`] to
/// `targets` from three UDP ports of its own, in turn, until dropped.
/// For tests of a game's port under attack and for measurements.
#[derive(Debug)]
pub struct Spray {
    stop: Arc<AtomicBool>,
    sent: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl Spray {
    /// Starts spraying `targets` with `junk`, about `rate` datagrams a
    /// second (paced a hundred at a time; `None`: as fast as the system
    /// takes them; a rate that is not a positive number is refused).
    pub fn start(targets: Vec<SocketAddr>, mut junk: Junk, rate: Option<f64>) -> std::io::Result<Self> {
        if rate.is_some_and(|r| !(r.is_finite() && r > 0.0)) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the rate must be a positive number of datagrams a second",
            ));
        }
        let sockets = (0..3)
            .map(|_| UdpSocket::bind("127.0.0.1:0"))
            .collect::<std::io::Result<Vec<_>>>()?;
        let stop = Arc::new(AtomicBool::new(false));
        let sent = Arc::new(AtomicU64::new(0));
        let (thread_stop, thread_sent) = (Arc::clone(&stop), Arc::clone(&sent));
        let thread = std::thread::Builder::new().name("junk-spray".into()).spawn(move || {
            let started = Instant::now();
            let mut datagram = Vec::new();
            let mut n = 0usize;
            while !thread_stop.load(Ordering::Relaxed) && !targets.is_empty() {
                junk.fill(&mut datagram);
                // Every port to every target in turn.
                let (target, socket) = (n % targets.len(), (n / targets.len()) % sockets.len());
                if sockets[socket].send_to(&datagram, targets[target]).is_ok() {
                    thread_sent.fetch_add(1, Ordering::Relaxed);
                }
                n += 1;
                if let Some(rate) = rate
                    && n.is_multiple_of(100)
                {
                    let due = started + Duration::from_secs_f64(n as f64 / rate);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                }
            }
        })?;
        Ok(Self {
            stop,
            sent,
            thread: Some(thread),
        })
    }

    /// Datagrams sent so far.
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }
}

impl Drop for Spray {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagram::{Incoming, decode};

    #[test]
    fn each_kind_is_what_it_says() {
        let mut junk = Junk::new(1);
        let mut out = Vec::new();
        let (mut hellos, mut ggrs) = (0, 0);
        for _ in 0..600 {
            match junk.fill(&mut out) {
                Kind::Empty => assert!(out.is_empty()),
                Kind::Long => assert!((4097..=LONGEST).contains(&out.len())),
                Kind::Hello => {
                    if let Some(Incoming::Greeting(g)) = decode(&out) {
                        assert_ne!(g.hello.nonce, 0);
                        hellos += 1;
                    }
                }
                Kind::Ggrs => {
                    assert!(matches!(decode(&out), Some(Incoming::Ggrs(_))), "GGRS reads it");
                    ggrs += 1;
                }
                Kind::Random | Kind::TaggedRandom => assert!(out.len() <= 1500),
            }
        }
        assert_eq!(ggrs, 100);
        assert!(hellos >= 60, "{hellos} of 100 Hellos decode");
    }
}
