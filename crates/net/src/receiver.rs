//! The socket's receiving thread: it drains the port as fast as datagrams
//! come, drops what is not the peer's before decoding it, and queues the
//! peer's decoded messages for the game, so that a flood from others
//! neither fills the system's receive buffer (where it would crowd out
//! the peer's datagrams) nor costs the game's tick anything.

use crate::datagram::{Incoming, MAX_DATAGRAM_BYTES, Sorted, Traffic, sort};
use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Decoded datagrams from the peer waiting for the game: at 60 ticks a
/// second GGRS exchanges a few a tick, so this holds seconds of them; a
/// peer that sends more than the game reads loses the excess.
const QUEUE_DATAGRAMS: usize = 1024;

/// How long the thread waits on the port before it looks whether the
/// socket was closed.
const WAKE_EVERY: Duration = Duration::from_millis(100);

/// What the game's side and the thread share.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    /// Whose datagrams are read (`None`: anyone's).
    peer: Mutex<Option<SocketAddr>>,
    /// What arrived and what became of it.
    pub(crate) traffic: Traffic,
    /// The socket was closed: the thread ends.
    stop: AtomicBool,
}

impl Shared {
    /// The peer whose datagrams are read, if one is set.
    pub(crate) fn peer(&self) -> Option<SocketAddr> {
        *self.peer.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads only `peer`'s datagrams from now on.
    pub(crate) fn listen_to(&self, peer: SocketAddr) {
        *self.peer.lock().unwrap_or_else(PoisonError::into_inner) = Some(peer);
    }
}

/// The receiving thread and the queue it fills.
#[derive(Debug)]
pub(crate) struct Receiving {
    pub(crate) shared: Arc<Shared>,
    /// The decoded datagrams (in a mutex only because GGRS wants its
    /// socket `Sync`; only the socket's owner locks it).
    queue: Mutex<Receiver<(SocketAddr, Incoming)>>,
    thread: Option<JoinHandle<()>>,
    /// Where a datagram wakes the thread when the socket closes.
    wake: Option<SocketAddr>,
}

impl Receiving {
    /// Starts receiving on a clone of `socket` (blocking, with a read
    /// timeout), which listens on `local`.
    pub(crate) fn start(socket: &UdpSocket, local: SocketAddr) -> std::io::Result<Self> {
        let reader = socket.try_clone()?;
        reader.set_read_timeout(Some(WAKE_EVERY))?;
        let shared = Arc::new(Shared::default());
        let (sender, queue) = sync_channel(QUEUE_DATAGRAMS);
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("slidewalk-net-receive".into())
            .spawn(move || receive_loop(&reader, &thread_shared, &sender))?;
        let wake = (local.port() != 0).then(|| {
            let ip = if local.is_ipv4() {
                std::net::Ipv4Addr::LOCALHOST.into()
            } else {
                std::net::Ipv6Addr::LOCALHOST.into()
            };
            SocketAddr::new(ip, local.port())
        });
        Ok(Self {
            shared,
            queue: Mutex::new(queue),
            thread: Some(thread),
            wake,
        })
    }

    /// Every decoded datagram waiting, oldest first.
    pub(crate) fn take_all(&self) -> Vec<(SocketAddr, Incoming)> {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .try_iter()
            .collect()
    }

    /// Stops the thread and waits for it (at most [`WAKE_EVERY`]): `socket`
    /// sends it an empty datagram so that it wakes at once.
    pub(crate) fn stop(&mut self, socket: &UdpSocket) {
        self.shared.stop.store(true, Ordering::Release);
        if let Some(wake) = self.wake {
            let _ = socket.send_to(&[], wake);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads the port until the socket closes: each datagram sorted into one
/// buffer allocated once, the peer's decoded ones queued.
fn receive_loop(socket: &UdpSocket, shared: &Shared, queue: &SyncSender<(SocketAddr, Incoming)>) {
    // One byte more than the longest datagram read, to see a longer one.
    let mut buffer = vec![0u8; MAX_DATAGRAM_BYTES + 1];
    while !shared.stop.load(Ordering::Acquire) {
        match socket.recv_from(&mut buffer) {
            Ok((len, from)) => {
                if shared.stop.load(Ordering::Acquire) {
                    return;
                }
                let sorted = sort(shared.peer(), from, &buffer[..len]);
                shared.traffic.count(&sorted);
                if let Sorted::Accepted(incoming) = sorted {
                    match queue.try_send((from, incoming)) {
                        Ok(()) => {}
                        Err(TrySendError::Full(_)) => shared.traffic.count_queue_full(),
                        Err(TrySendError::Disconnected(_)) => return,
                    }
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            // An ICMP "port unreachable" for an earlier send, or anything
            // the system says once: try again, not in a busy loop.
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}
