//! How much junk a `NetSocket` keeps up with: one thread sprays it from
//! ports of its own as fast as the system takes datagrams, while the peer
//! sends a well-formed datagram every 5 ms; prints the junk rate the
//! socket's receiving thread drained and how many of the peer's datagrams
//! got through. RATE: junk datagrams a second (default: as fast as the
//! system takes them), sent in bursts of a hundred.
//!
//! ```text
//! cargo run --release -p slidewalk_net --example junk_rate [-- SECONDS [RATE]]
//! cargo run --release -p slidewalk_net --example junk_rate -- SECONDS [RATE] ADDR:PORT...
//! ```
//!
//! With addresses, it only sprays them (every kind of junk, at RATE or as
//! fast as the system takes it) for that long and prints the rate: to
//! flood two headless peers while they play.

use slidewalk_net::NetSocket;
use slidewalk_net::junk::{Junk, Kind, Spray};
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Sprays `targets` with every kind of junk for `seconds`, at `rate`
/// datagrams a second if given.
fn spray(targets: Vec<SocketAddr>, seconds: f64, rate: Option<f64>) {
    let spray = Spray::start(targets, Junk::new(3), rate).unwrap();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    println!(
        "sprayed {} datagrams: {:.0}/s",
        spray.sent(),
        spray.sent() as f64 / seconds
    );
}

/// Waits, every hundred datagrams, until the `i`th one's time at `rate`.
fn pace(started: Instant, i: usize, rate: Option<f64>) {
    if let Some(rate) = rate
        && i.is_multiple_of(100)
    {
        let due = started + Duration::from_secs_f64(i as f64 / rate);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(5.0);
    let targets: Vec<SocketAddr> = args.iter().skip(1).filter_map(|a| a.parse().ok()).collect();
    let rate: Option<f64> = args.iter().skip(1).find_map(|s| s.parse().ok());
    if !targets.is_empty() {
        return spray(targets, seconds, rate);
    }
    let mut socket = NetSocket::bind(0).unwrap();
    let to = SocketAddr::from(([127, 0, 0, 1], socket.local_port()));
    let peer = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket.listen_to(peer.local_addr().unwrap());
    let traffic = socket.traffic();

    // Small junk (what a flood is made of), drawn before the clock starts.
    let mut junk = Junk::new(1);
    let datagrams: Vec<Vec<u8>> = (0..4096)
        .map(|i| {
            let mut d = Vec::new();
            junk.fill_kind([Kind::Random, Kind::TaggedRandom, Kind::Ggrs][i % 3], &mut d);
            d.truncate(64);
            d
        })
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let sprayed = Arc::new(AtomicU64::new(0));
    let sprayer = {
        let (stop, sprayed) = (Arc::clone(&stop), Arc::clone(&sprayed));
        std::thread::spawn(move || {
            let from = UdpSocket::bind("127.0.0.1:0").unwrap();
            let started = Instant::now();
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                if from.send_to(&datagrams[i % datagrams.len()], to).is_ok() {
                    sprayed.fetch_add(1, Ordering::Relaxed);
                }
                i += 1;
                pace(started, i, rate);
            }
        })
    };

    let mut peer_junk = Junk::new(2);
    let mut datagram = Vec::new();
    let started = Instant::now();
    let mut peer_sent = 0u64;
    while started.elapsed().as_secs_f64() < seconds {
        peer_junk.fill_kind(Kind::Ggrs, &mut datagram);
        if peer.send_to(&datagram, to).is_ok() {
            peer_sent += 1;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    stop.store(true, Ordering::Relaxed);
    sprayer.join().unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let elapsed = started.elapsed().as_secs_f64();
    let counts = traffic.counts();
    let sprayed = sprayed.load(Ordering::Relaxed);
    println!(
        "junk sprayed: {:.0}/s; drained by the socket: {:.0}/s ({:.1}%); \
         the peer's datagrams received: {} of {peer_sent}",
        sprayed as f64 / elapsed,
        counts.from_strangers as f64 / elapsed,
        100.0 * counts.from_strangers as f64 / sprayed.max(1) as f64,
        counts.accepted,
    );
}
