//! What a datagram read off the port is, decided without any I/O: who
//! may talk to us, which tag it carries, whether its body decodes. The
//! socket's receiver and the `net` fuzz target share this one function.

use crate::hello::Greeting;
use bincode::Options;
use ggrs::Message;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};

/// First byte of a datagram carrying one of GGRS's messages.
pub const TAG_GGRS: u8 = 0xA7;
/// First byte of a datagram carrying a handshake [`Hello`](crate::Hello).
pub const TAG_HANDSHAKE: u8 = 0x5E;

/// Longest datagram read, bytes (GGRS's own socket reads as much); a
/// longer one is counted as [`TrafficCounts::too_long`] and dropped.
pub const MAX_DATAGRAM_BYTES: usize = 4096;

/// Largest protocol number read from a `Hello` this build cannot decode.
const MAX_PROTOCOL: u32 = 1000;

/// The bincode settings of every datagram body: fixed-width integers
/// (a `Hello` starts with its protocol as 4 little-endian bytes, readable
/// even when the rest is not), a size limit (a length read from garbage
/// cannot ask for more than a datagram holds) and no trailing bytes.
pub(crate) fn encoding() -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(MAX_DATAGRAM_BYTES as u64)
}

/// A datagram from the peer, decoded by its tag.
#[derive(Clone, Debug)]
pub(crate) enum Incoming {
    /// One of GGRS's messages.
    Ggrs(Message),
    /// A peer's handshake.
    Greeting(Greeting),
    /// A handshake this build cannot read, from a peer speaking protocol `.0`.
    OtherProtocol(u32),
}

/// What became of a datagram that arrived.
#[derive(Clone, Debug)]
pub(crate) enum Sorted {
    /// From the peer (or from anyone, before the peer is known) and decoded.
    Accepted(Incoming),
    /// From an address that is not the peer's: dropped before decoding.
    Stranger,
    /// From the peer, but with another tag or a body that does not decode.
    Undecodable,
    /// Longer than [`MAX_DATAGRAM_BYTES`].
    TooLong,
}

/// Sorts the datagram `bytes` (its whole length `len`: the receive buffer
/// holds one byte more than the longest datagram read, so a longer one is
/// seen as such) that came from `from`, while listening to `peer` (`None`:
/// to anyone). Allocates only what an accepted message holds: a stranger's
/// datagram costs a comparison of addresses.
pub(crate) fn sort(peer: Option<SocketAddr>, from: SocketAddr, bytes: &[u8]) -> Sorted {
    if peer.is_some_and(|p| p != from) {
        return Sorted::Stranger;
    }
    if bytes.len() > MAX_DATAGRAM_BYTES {
        return Sorted::TooLong;
    }
    decode(bytes).map_or(Sorted::Undecodable, Sorted::Accepted)
}

/// Reads a datagram by its tag; `None` for anything unknown or broken.
pub(crate) fn decode(datagram: &[u8]) -> Option<Incoming> {
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
    (datagram.len() <= MAX_DATAGRAM_BYTES).then_some(datagram)
}

/// How many datagrams arrived and what became of them, since the socket
/// was opened: a snapshot of [`NetSocket::traffic`](crate::NetSocket::traffic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrafficCounts {
    /// From the peer and decoded (handed to the handshake or to GGRS).
    pub accepted: u64,
    /// From other addresses: dropped unread.
    pub from_strangers: u64,
    /// From the peer but not a datagram of ours (another tag, a body
    /// that does not decode).
    pub undecodable: u64,
    /// Longer than the longest datagram read (4096 bytes).
    pub too_long: u64,
    /// From the peer and decoded, but the queue to the game was full
    /// (the game did not read the socket for a long while): dropped.
    pub queue_full: u64,
}

impl TrafficCounts {
    /// Every datagram dropped, whatever the reason.
    pub fn ignored(&self) -> u64 {
        self.from_strangers + self.undecodable + self.too_long + self.queue_full
    }
}

/// The receiver's counters, written by its thread, read by anyone.
#[derive(Debug, Default)]
pub(crate) struct Traffic {
    accepted: AtomicU64,
    from_strangers: AtomicU64,
    undecodable: AtomicU64,
    too_long: AtomicU64,
    queue_full: AtomicU64,
}

impl Traffic {
    /// Counts one datagram sorted as `sorted` (an accepted one that found
    /// the queue full is counted by [`Traffic::count_queue_full`] instead).
    pub(crate) fn count(&self, sorted: &Sorted) {
        let counter = match sorted {
            Sorted::Accepted(_) => &self.accepted,
            Sorted::Stranger => &self.from_strangers,
            Sorted::Undecodable => &self.undecodable,
            Sorted::TooLong => &self.too_long,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an accepted datagram dropped because the queue was full.
    pub(crate) fn count_queue_full(&self) {
        self.queue_full.fetch_add(1, Ordering::Relaxed);
    }

    /// The counts now.
    pub(crate) fn counts(&self) -> TrafficCounts {
        let read = |c: &AtomicU64| c.load(Ordering::Relaxed);
        TrafficCounts {
            accepted: read(&self.accepted),
            from_strangers: read(&self.from_strangers),
            undecodable: read(&self.undecodable),
            too_long: read(&self.too_long),
            queue_full: read(&self.queue_full),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hello::tests::hello;

    #[test]
    fn strangers_are_dropped_before_decoding_and_the_peer_is_read() {
        let peer: SocketAddr = "127.0.0.1:7001".parse().unwrap();
        let stranger: SocketAddr = "127.0.0.1:7002".parse().unwrap();
        let greeting = Greeting {
            hello: hello(5),
            acknowledged: true,
        };
        let datagram = encode(TAG_HANDSHAKE, &greeting).unwrap();
        assert!(matches!(sort(Some(peer), stranger, &datagram), Sorted::Stranger));
        let Sorted::Accepted(Incoming::Greeting(read)) = sort(Some(peer), peer, &datagram) else {
            panic!("the peer's Hello was not read");
        };
        assert_eq!(read, greeting);
        // Before the peer is known, anyone is read.
        assert!(matches!(sort(None, stranger, &datagram), Sorted::Accepted(_)));
        assert!(matches!(sort(Some(peer), peer, &[]), Sorted::Undecodable));
        assert!(matches!(sort(Some(peer), peer, &[0x01, 2, 3]), Sorted::Undecodable));
        let mut long = datagram.clone();
        long.resize(MAX_DATAGRAM_BYTES + 1, 0);
        assert!(matches!(sort(Some(peer), peer, &long), Sorted::TooLong));
    }

    #[test]
    fn counts_add_up() {
        let traffic = Traffic::default();
        for sorted in [Sorted::Stranger, Sorted::Stranger, Sorted::Undecodable, Sorted::TooLong] {
            traffic.count(&sorted);
        }
        traffic.count_queue_full();
        let counts = traffic.counts();
        assert_eq!(
            counts,
            TrafficCounts {
                accepted: 0,
                from_strangers: 2,
                undecodable: 1,
                too_long: 1,
                queue_full: 1
            }
        );
        assert_eq!(counts.ignored(), 5);
    }
}
