//! The UDP socket GGRS and the handshake share: tagged datagrams read by
//! a receiving thread that listens to the peer only, test packet loss and
//! jitter, and the late answer to a peer still shaking hands.

use crate::conditions::{Conditions, Fate};
use crate::datagram::{Incoming, TAG_GGRS, TrafficCounts, encode};
use crate::receiver::{Receiving, Shared};
use ggrs::{Message, NonBlockingSocket};
use std::fmt;
use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest a send may block (a full system send buffer): past it, the
/// datagram counts as lost, which GGRS and the handshake both survive.
const SEND_TIMEOUT: Duration = Duration::from_millis(5);

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

/// A UDP socket on `0.0.0.0:port` for a GGRS P2P session (it implements
/// [`NonBlockingSocket`]) and the [`handshake`](crate::handshake) before
/// it, on the same port.
///
/// Every datagram starts with a tag byte ([`TAG_GGRS`],
/// [`TAG_HANDSHAKE`](crate::TAG_HANDSHAKE)) followed by a bincode body.
/// A thread of the socket's own reads the port as fast as datagrams come:
/// once the handshake has named the peer, datagrams from any other address
/// are dropped unread (they cost a comparison, no allocation), and the
/// peer's are decoded and queued for the game, at most 1024 of them;
/// datagrams with another tag, that do not decode, or longer than 4096
/// bytes are dropped. [`traffic`](Self::traffic) counts all of them. After
/// a handshake the socket answers each `Hello` the peer still sends (it
/// missed our last one) with ours, once.
#[derive(Debug)]
pub struct NetSocket {
    socket: UdpSocket,
    receiving: Receiving,
    conditions: Conditions,
    sent: u64,
    dropped: u64,
    /// After a handshake: the peer, and our acknowledging `Hello` encoded
    /// as a datagram, sent again to each `Hello` it sends late.
    answer: Option<(SocketAddr, Vec<u8>)>,
}

/// A handle on a socket's counts that outlives its move into a session.
#[derive(Clone, Debug)]
pub struct TrafficHandle(Arc<Shared>);

impl TrafficHandle {
    /// What arrived on the socket so far and what became of it.
    pub fn counts(&self) -> TrafficCounts {
        self.0.traffic.counts()
    }
}

impl NetSocket {
    /// Opens UDP port `port` on every IPv4 interface (`0` picks a free
    /// port: see [`local_port`](Self::local_port)) and starts its
    /// receiving thread.
    pub fn bind(port: u16) -> Result<Self, NetError> {
        let bind_error = |reason: std::io::Error| match reason.kind() {
            ErrorKind::AddrInUse => NetError::PortInUse(port),
            _ => NetError::Bind { port, reason },
        };
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, port)).map_err(bind_error)?;
        socket.set_write_timeout(Some(SEND_TIMEOUT)).map_err(bind_error)?;
        let local = socket.local_addr().map_err(bind_error)?;
        let receiving = Receiving::start(&socket, local).map_err(bind_error)?;
        Ok(Self {
            socket,
            receiving,
            conditions: Conditions::new(u64::from(port)),
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
        let jitter = self.conditions.jitter;
        self.conditions = Conditions::new(seed);
        self.conditions.loss = fraction;
        self.conditions.jitter = jitter;
        self
    }

    /// Delays each datagram this socket sends by a random time from 0 to
    /// `max` (so they also arrive out of order), drawn from the generator
    /// [`with_loss`](Self::with_loss) seeds. For tests of a poor
    /// connection; the delayed datagrams leave when the socket is next
    /// used (GGRS uses it every frame), so the delay is rounded up to that.
    pub fn with_jitter(mut self, max: Duration) -> Self {
        self.conditions.jitter = max;
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

    /// What arrived so far and what became of it; the handle keeps
    /// counting after the socket has moved into a GGRS session.
    pub fn traffic(&self) -> TrafficHandle {
        TrafficHandle(Arc::clone(&self.receiving.shared))
    }

    /// Reads only `peer`'s datagrams from now on: the others are dropped
    /// unread. [`handshake`](crate::handshake) calls it; call it yourself
    /// to start a GGRS session without one.
    pub fn listen_to(&mut self, peer: SocketAddr) {
        self.receiving.shared.listen_to(peer);
    }

    /// Sends one datagram unless the test conditions drop or hold it.
    /// Errors the system reports for an earlier datagram (the peer's port
    /// was closed) are not errors of this one and are ignored.
    pub(crate) fn send_datagram(&mut self, datagram: &[u8], to: SocketAddr) -> std::io::Result<()> {
        let now = Instant::now();
        self.send_due(now);
        match self.conditions.admit(datagram, to, now) {
            Fate::Drop => {
                self.dropped += 1;
                Ok(())
            }
            Fate::Held => Ok(()),
            Fate::Send => self.send_now(datagram, to),
        }
    }

    /// Sends the held datagrams whose time has come.
    fn send_due(&mut self, now: Instant) {
        while let Some((to, datagram)) = self.conditions.due(now) {
            let _ = self.send_now(&datagram, to);
        }
    }

    fn send_now(&mut self, datagram: &[u8], to: SocketAddr) -> std::io::Result<()> {
        match self.socket.send_to(datagram, to) {
            Ok(_) => {
                self.sent += 1;
                Ok(())
            }
            Err(e) if is_transient(&e) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Every decoded datagram from the peer waiting, with its sender.
    pub(crate) fn receive(&mut self) -> Vec<(SocketAddr, Incoming)> {
        self.send_due(Instant::now());
        self.receiving.take_all()
    }

    /// Remembers our acknowledging `Hello` to answer the peer's late ones.
    pub(crate) fn keep_answer(&mut self, peer: SocketAddr, datagram: Vec<u8>) {
        self.answer = Some((peer, datagram));
    }
}

impl Drop for NetSocket {
    fn drop(&mut self) {
        self.receiving.stop(&self.socket);
    }
}

/// Errors a UDP socket reports for an earlier datagram (an ICMP "port
/// unreachable" on some systems), or that only mean "try later" (a send
/// that timed out is a lost datagram).
fn is_transient(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::ConnectionReset
            | ErrorKind::ConnectionRefused
            | ErrorKind::Interrupted
            | ErrorKind::WouldBlock
            | ErrorKind::TimedOut
    )
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
    use crate::datagram::TAG_HANDSHAKE;
    use crate::hello::Greeting;

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
        let mut rng = crate::conditions::SplitMix(42);
        for len in 1..200 {
            let bytes: Vec<u8> = (0..len).map(|_| (rng.next_u64() >> 13) as u8).collect();
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
