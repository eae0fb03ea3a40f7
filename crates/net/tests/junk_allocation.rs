//! A stranger's datagram costs the receiving socket no allocation: the
//! whole process's allocations are counted while junk from another
//! address arrives by the thousand (its own test binary, so that no other
//! test allocates meanwhile).

use slidewalk_net::junk::Junk;
use slidewalk_net::{Hello, NetSocket, PROTOCOL, handshake};
use std::alloc::{GlobalAlloc, Layout, System};
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting allocations.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn hello(nonce: u64) -> Hello {
    Hello {
        protocol: PROTOCOL,
        game_version: "test".into(),
        level: "level.glb".into(),
        level_digest: 1,
        settings_digest: 2,
        settings: vec![],
        tick_hz_millis: 60_000,
        nonce,
    }
}

#[test]
fn junk_from_strangers_allocates_nothing() {
    let mut a = NetSocket::bind(0).unwrap();
    let mut b = NetSocket::bind(0).unwrap();
    let addr = |s: &NetSocket| SocketAddr::from(([127, 0, 0, 1], s.local_port()));
    let (to_a, to_b) = (addr(&a), addr(&b));
    let other = std::thread::spawn(move || {
        handshake(&mut b, to_a, &hello(2), Duration::from_secs(5)).unwrap();
        b
    });
    handshake(&mut a, to_b, &hello(1), Duration::from_secs(5)).unwrap();
    let _b = other.join().unwrap();
    // Every kind of junk, drawn before counting.
    let mut junk = Junk::new(9).imitating(hello(3));
    let datagrams: Vec<Vec<u8>> = (0..3000)
        .map(|_| {
            let mut d = Vec::new();
            junk.fill(&mut d);
            d
        })
        .collect();
    let stranger = UdpSocket::bind("127.0.0.1:0").unwrap();
    let traffic = a.traffic();
    let before = traffic.counts().from_strangers;
    let allocations = ALLOCATIONS.load(Ordering::Relaxed);
    let mut sent = 0;
    for (i, d) in datagrams.iter().enumerate() {
        if stranger.send_to(d, to_a).is_ok() {
            sent += 1;
        }
        // Paced, so the system's receive buffer never overflows.
        if i % 32 == 31 {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    // Until all came, or none came for 100 ms (the system may drop a few
    // of the 65 kB ones).
    let (mut last, mut last_change) = (0, Instant::now());
    while last < sent && last_change.elapsed() < Duration::from_millis(100) {
        std::thread::sleep(Duration::from_millis(5));
        let now = traffic.counts().from_strangers - before;
        if now != last {
            (last, last_change) = (now, Instant::now());
        }
    }
    let allocated = ALLOCATIONS.load(Ordering::Relaxed) - allocations;
    let received = traffic.counts().from_strangers - before;
    assert!(received > sent * 9 / 10, "{received} of {sent} junk datagrams arrived");
    assert!(
        allocated < 10,
        "{allocated} allocations while {received} junk datagrams were received"
    );
}
