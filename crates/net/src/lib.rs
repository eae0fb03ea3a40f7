//! slidewalk's peer-to-peer transport, without the engine: a UDP socket
//! that carries GGRS's rollback messages and, on the same port, a
//! handshake that makes sure both peers run the same game, level, tick
//! rate and simulation settings before the session starts.
//!
//! * [`NetSocket`] implements [`ggrs::NonBlockingSocket`]: every datagram
//!   starts with a one-byte tag ([`TAG_GGRS`] or [`TAG_HANDSHAKE`]), the
//!   rest is bincode; anything else that arrives is ignored.
//! * [`handshake`] exchanges a [`Hello`] with the peer and returns the
//!   [`Agreement`] on player handles, or says in one line what differs.
//! * [`parse_peer`] reads `--peer ADDR[:PORT]`; [`Digest`] is a stable
//!   64-bit hash (FNV-1a) for level files and settings.
//!
//! # Example
//!
//! ```no_run
//! use slidewalk_net::{Hello, NetSocket, PROTOCOL, handshake, parse_peer};
//! use std::time::Duration;
//!
//! let mut socket = NetSocket::bind(7000)?;
//! let peer = parse_peer("192.168.1.20", 7000)?;
//! let ours = Hello {
//!     protocol: PROTOCOL,
//!     game_version: "0.1.0".into(),
//!     level: "playground.glb".into(),
//!     level_digest: 0x1234,
//!     settings_digest: 0x5678,
//!     settings: vec![("gravity".into(), "9.81".into())],
//!     tick_hz_millis: 60_000,
//!     nonce: slidewalk_net::random_nonce(),
//! };
//! let agreement = handshake(&mut socket, peer, &ours, Duration::from_secs(15))?;
//! // Then: SessionBuilder::add_player(PlayerType::Local, agreement.local_handle) …
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod conditions;
mod datagram;
mod digest;
mod handshake;
mod hello;
pub mod junk;
mod peer;
mod receiver;
mod socket;

pub use datagram::{MAX_DATAGRAM_BYTES, TAG_GGRS, TAG_HANDSHAKE, TrafficCounts};
pub use digest::Digest;
pub use handshake::{Agreement, Handshake, HandshakeError, Step, handshake};
pub use hello::{Hello, PROTOCOL, random_nonce};
pub use peer::parse_peer;
pub use socket::{NetError, NetSocket, TrafficHandle};
