//! A poor connection on purpose, for tests: a share of the outgoing
//! datagrams lost, the rest delayed by a random time each (jitter, which
//! also reorders them), the same for the same seed.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// splitmix64: a small generator whose sequence is fixed by its seed.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1) (24 random bits).
    pub(crate) fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A datagram held back until `due`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Held {
    due: Instant,
    /// Order of sending, so equal times leave in order.
    order: u64,
    to: SocketAddr,
    datagram: Vec<u8>,
}

/// Loss and jitter applied to what a socket sends.
#[derive(Debug)]
pub(crate) struct Conditions {
    /// Share of datagrams dropped, 0 to 1.
    pub(crate) loss: f32,
    /// Longest delay of a datagram (each waits a uniform time up to it).
    pub(crate) jitter: Duration,
    rng: SplitMix,
    held: BinaryHeap<Reverse<Held>>,
    order: u64,
}

/// What to do with a datagram about to be sent.
pub(crate) enum Fate {
    /// Send it now.
    Send,
    /// Lost on purpose.
    Drop,
    /// Held back: sent by [`Conditions::due`] later.
    Held,
}

impl Conditions {
    /// No loss, no jitter, generator seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            loss: 0.0,
            jitter: Duration::ZERO,
            rng: SplitMix(seed),
            held: BinaryHeap::new(),
            order: 0,
        }
    }

    /// Decides the fate of `datagram` for `to`, sent at `now`; keeps it if held.
    pub(crate) fn admit(&mut self, datagram: &[u8], to: SocketAddr, now: Instant) -> Fate {
        if self.loss > 0.0 && self.rng.unit() < self.loss {
            return Fate::Drop;
        }
        if self.jitter.is_zero() {
            return Fate::Send;
        }
        let due = now + self.jitter.mul_f32(self.rng.unit());
        self.order += 1;
        self.held.push(Reverse(Held {
            due,
            order: self.order,
            to,
            datagram: datagram.to_vec(),
        }));
        Fate::Held
    }

    /// The next held datagram whose time has come by `now`.
    pub(crate) fn due(&mut self, now: Instant) -> Option<(SocketAddr, Vec<u8>)> {
        if self.held.peek().is_some_and(|Reverse(h)| h.due <= now) {
            self.held.pop().map(|Reverse(h)| (h.to, h.datagram))
        } else {
            None
        }
    }

    /// Datagrams held back now.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.held.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_delays_each_datagram_up_to_its_bound_and_reorders() {
        let to: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let mut c = Conditions::new(3);
        c.jitter = Duration::from_millis(100);
        let t0 = Instant::now();
        for i in 0..200u8 {
            assert!(matches!(c.admit(&[i], to, t0), Fate::Held));
        }
        assert!(c.due(t0).is_none() || c.held() < 200);
        let mut order = Vec::new();
        for ms in 0..=100 {
            while let Some((_, d)) = c.due(t0 + Duration::from_millis(ms)) {
                order.push(d[0]);
            }
        }
        assert_eq!(order.len(), 200, "all sent within the bound");
        assert_eq!(c.held(), 0);
        assert!(order.windows(2).any(|w| w[0] > w[1]), "some reordered");
    }
}
