//! The UDP socket GGRS and the handshake share: tagged datagrams, test
//! packet loss, and the late answer to a peer still shaking hands.

use crate::hello::Greeting;
use bincode::Options;
use ggrs::{Message, NonBlockingSocket};
use std::fmt;
use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};

/// First byte of a datagram carrying one of GGRS's messages.
pub const TAG_GGRS: u8 = 0xA7;
/// First byte of a datagram carrying a handshake [`Hello`](crate::Hello).
pub const TAG_HANDSHAKE: u8 = 0x5E;

/// Largest datagram read, bytes (GGRS's own socket reads as much); a
/// longer one arrives cut and is ignored.
const RECV_BUFFER_BYTES: usize = 4096;

/// The bincode settings of every datagram body: fixed-width integers
/// (a `Hello` starts with its protocol as 4 little-endian bytes, readable
/// even when the rest is not), a size limit (a length read from garbage
/// cannot ask for gigabytes) and no trailing bytes.
pub(crate) fn encoding() -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(RECV_BUFFER_BYTES as u64)
}

/// Largest protocol number read from a `Hello` this build cannot decode.
const MAX_PROTOCOL: u32 = 1000;

/// Why a socket could not be opened; its `Display` is one line.
#[derive(Debug)]
pub enum NetError {
    /// Another program (often another slidewalk) holds the port.
    PortInUse(u16),
    /// Any other failure to open or set up the port.
    Bind {
        /// The UDP port asked for.
        port: u16,
        /// What the system said.
        reason: std::io::Error,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::PortInUse(port) => write!(f, "UDP port {port} is already in use (another slidewalk?)"),
            NetError::Bind { port, reason } => write!(f, "cannot open UDP port {port}: {reason}"),
        }
    }
}

impl std::error::Error for NetError {}

/// A datagram read off the port, decoded by its tag.
pub(crate) enum Incoming {
    /// One of GGRS's messages.
    Ggrs(Message),
    /// A peer's handshake.
    Greeting(Greeting),
    /// A handshake this build cannot read, from a peer speaking protocol `.0`.
    OtherProtocol(u32),
}

/// Drops a fraction of outgoing datagrams, the same ones for the same
/// seed (splitmix64), to test play over a poor connection.
#[derive(Clone, Debug)]
struct Loss {
    /// Share of datagrams dropped, 0 to 1.
    fraction: f32,
    /// The generator's state.
    state: u64,
}

impl Loss {
    /// Whether to drop the next datagram.
    fn drop_next(&mut self) -> bool {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // 24 high bits as a uniform float in [0, 1).
        ((z >> 40) as f32 / (1u64 << 24) as f32) < self.fraction
    }
}

/// A non-blocking UDP socket on `0.0.0.0:port` for a GGRS P2P session
/// (it implements [`NonBlockingSocket`]) and the [`handshake`](crate::handshake)
/// before it, on the same port.
///
/// Every datagram starts with a tag byte ([`TAG_GGRS`], [`TAG_HANDSHAKE`])
/// followed by a bincode body; datagrams with another tag, or that do not
/// decode, are ignored. After a handshake the socket answers each `Hello`
/// the peer still sends (it missed our last one) with ours, once.
#[derive(Debug)]
pub struct NetSocket {
    socket: UdpSocket,
    buffer: Box<[u8; RECV_BUFFER_BYTES]>,
    loss: Option<Loss>,
    sent: u64,
    dropped: u64,
    /// After a handshake: the peer, and our acknowledging `Hello` encoded
    /// as a datagram, sent again to each `Hello` it sends late.
    answer: Option<(SocketAddr, Vec<u8>)>,
}

impl NetSocket {
    /// Opens UDP port `port` on every IPv4 interface (`0` picks a free
    /// port: see [`local_port`](Self::local_port)), non-blocking.
    pub fn bind(port: u16) -> Result<Self, NetError> {
        let bind_error = |reason: std::io::Error| match reason.kind() {
            ErrorKind::AddrInUse => NetError::PortInUse(port),
            _ => NetError::Bind { port, reason },
        };
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, port)).map_err(bind_error)?;
        socket.set_nonblocking(true).map_err(bind_error)?;
        Ok(Self {
            socket,
            buffer: Box::new([0; RECV_BUFFER_BYTES]),
            loss: None,
            sent: 0,
            dropped: 0,
            answer: None,
        })
    }

    /// Drops `fraction` (0 to 1, clamped; NaN is 0) of the datagrams this
    /// socket sends, chosen by a generator seeded with `seed`: the same
    /// seed drops the same datagrams. For tests of a poor connection.
    pub fn with_loss(mut self, fraction: f32, seed: u64) -> Self {
        let fraction = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        self.loss = (fraction > 0.0).then_some(Loss { fraction, state: seed });
        self
    }

    /// The UDP port this socket listens on (the one picked, if bound to 0).
    pub fn local_port(&self) -> u16 {
        self.socket.local_addr().map_or(0, |a| a.port())
    }

    /// Datagrams that went out so far (the dropped ones not counted).
    pub fn sent(&self) -> u64 {
        self.sent
    }

    /// Datagrams dropped so far by [`with_loss`](Self::with_loss).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Sends one datagram unless the test loss drops it. Errors the
    /// system reports for an earlier datagram (the peer's port was
    /// closed) are not errors of this one and are ignored.
    pub(crate) fn send_datagram(&mut self, datagram: &[u8], to: SocketAddr) -> std::io::Result<()> {
        if self.loss.as_mut().is_some_and(Loss::drop_next) {
            self.dropped += 1;
            return Ok(());
        }
        match self.socket.send_to(datagram, to) {
            Ok(_) => {
                self.sent += 1;
                Ok(())
            }
            Err(e) if is_transient(&e) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Every datagram waiting on the port that decodes, with its sender.
    pub(crate) fn receive(&mut self) -> Vec<(SocketAddr, Incoming)> {
        let mut received = Vec::new();
        loop {
            match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((len, from)) => {
                    if let Some(incoming) = decode(&self.buffer[..len.min(RECV_BUFFER_BYTES)]) {
                        received.push((from, incoming));
                    }
                }
                Err(e) if is_transient(&e) => {}
                // WouldBlock: nothing more; anything else: try again next poll.
                Err(_) => return received,
            }
        }
    }

    /// Remembers our acknowledging `Hello` to answer the peer's late ones.
    pub(crate) fn keep_answer(&mut self, peer: SocketAddr, datagram: Vec<u8>) {
        self.answer = Some((peer, datagram));
    }
}

/// Errors a UDP socket reports for an earlier datagram (an ICMP "port
/// unreachable" on some systems), or that only mean "try later".
fn is_transient(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused | ErrorKind::Interrupted
    )
}

/// Reads a datagram by its tag; `None` for anything unknown or broken.
fn decode(datagram: &[u8]) -> Option<Incoming> {
    let (&tag, body) = datagram.split_first()?;
    match tag {
        TAG_GGRS => encoding().deserialize(body).ok().map(Incoming::Ggrs),
        TAG_HANDSHAKE => match encoding().deserialize(body) {
            Ok(greeting) => Some(Incoming::Greeting(greeting)),
            Err(_) => {
                // A protocol number past any this crate will reach is
                // garbage, not a newer build.
                let protocol = u32::from_le_bytes(body.get(..4)?.try_into().ok()?);
                let plausible = (1..=MAX_PROTOCOL).contains(&protocol) && protocol != crate::PROTOCOL;
                plausible.then_some(Incoming::OtherProtocol(protocol))
            }
        },
        _ => None,
    }
}

/// `body` encoded behind `tag`, or `None` if it does not fit a datagram.
pub(crate) fn encode<T: serde::Serialize>(tag: u8, body: &T) -> Option<Vec<u8>> {
    let mut datagram = vec![tag];
    encoding().serialize_into(&mut datagram, body).ok()?;
    Some(datagram)
}

impl NonBlockingSocket<SocketAddr> for NetSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        // GGRS resends what is lost, so a failed send is a lost datagram.
        if let Some(datagram) = encode(TAG_GGRS, msg) {
            let _ = self.send_datagram(&datagram, *addr);
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut messages = Vec::new();
        for (from, incoming) in self.receive() {
            match incoming {
                Incoming::Ggrs(message) => messages.push((from, message)),
                Incoming::Greeting(_) => {
                    if let Some((peer, answer)) = self.answer.clone()
                        && peer == from
                    {
                        let _ = self.send_datagram(&answer, peer);
                    }
                }
                Incoming::OtherProtocol(_) => {}
            }
        }
        messages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn localhost(socket: &NetSocket) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], socket.local_port()))
    }

    #[test]
    fn a_port_in_use_is_named() {
        let first = NetSocket::bind(0).unwrap();
        let port = first.local_port();
        assert_ne!(port, 0);
        let e = NetSocket::bind(port).unwrap_err();
        assert!(matches!(e, NetError::PortInUse(p) if p == port), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("UDP port {port} is already in use (another slidewalk?)")
        );
    }

    #[test]
    fn garbage_datagrams_are_ignored() {
        let mut target = NetSocket::bind(0).unwrap();
        let mut sender = NetSocket::bind(0).unwrap();
        let to = localhost(&target);
        let mut garbage: Vec<Vec<u8>> = vec![
            vec![],
            vec![TAG_GGRS],
            vec![TAG_HANDSHAKE],
            vec![TAG_HANDSHAKE, 1, 0],
            vec![0x00, 1, 2, 3],
            vec![TAG_GGRS, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            vec![TAG_HANDSHAKE; 1500],
        ];
        // Pseudo-random bytes behind each tag, and a good Hello cut short.
        let mut loss = Loss {
            fraction: 0.0,
            state: 42,
        };
        for len in 1..200 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    loss.drop_next();
                    (loss.state >> 13) as u8
                })
                .collect();
            for tag in [TAG_GGRS, TAG_HANDSHAKE, 0x01] {
                garbage.push([&[tag][..], &bytes].concat());
            }
        }
        let hello = encode(
            TAG_HANDSHAKE,
            &Greeting {
                hello: crate::hello::tests::hello(1),
                acknowledged: false,
            },
        )
        .unwrap();
        for cut in 1..hello.len() {
            garbage.push(hello[..cut].to_vec());
        }
        // Read after each send, so the system's receive buffer never overflows.
        let mut ggrs_messages = 0;
        let mut read = |target: &mut NetSocket| {
            for (_, incoming) in target.receive() {
                // A random body may decode as a GGRS message (GGRS checks
                // its magic number and sender), never as a handshake.
                assert!(matches!(incoming, Incoming::Ggrs(_)));
                ggrs_messages += 1;
            }
        };
        for datagram in &garbage {
            sender.send_datagram(datagram, to).unwrap();
            read(&mut target);
        }
        let deadline = Instant::now() + Duration::from_millis(100);
        while Instant::now() < deadline {
            read(&mut target);
            std::thread::sleep(Duration::from_millis(3));
        }
        assert!(
            ggrs_messages < garbage.len() / 10,
            "{ggrs_messages} of {} decoded",
            garbage.len()
        );
        assert!(ggrs::NonBlockingSocket::receive_all_messages(&mut target).is_empty());
    }

    #[test]
    fn loss_drops_that_fraction_the_same_for_a_seed() {
        let to = SocketAddr::from(([127, 0, 0, 1], 9));
        let dropped = |seed| {
            let mut socket = NetSocket::bind(0).unwrap().with_loss(0.5, seed);
            for _ in 0..2000 {
                socket.send_datagram(&[TAG_GGRS], to).unwrap();
            }
            assert_eq!(socket.sent() + socket.dropped(), 2000);
            socket.dropped()
        };
        let d = dropped(7);
        assert!((900..=1100).contains(&d), "{d} of 2000 dropped");
        assert_eq!(d, dropped(7));
        let mut none = NetSocket::bind(0).unwrap().with_loss(f32::NAN, 1);
        none.send_datagram(&[TAG_GGRS], to).unwrap();
        assert_eq!((none.sent(), none.dropped()), (1, 0));
    }
}
