//! Work spread over threads: a slice of outputs cut into chunks that the
//! threads take in turn (a shared queue, so a slow chunk does not hold the
//! others up). Each output depends only on its index, so the result is the
//! same for any number of threads.

use std::sync::Mutex;

/// Outputs per chunk: small enough to balance, large enough that taking
/// one from the queue costs nothing.
const CHUNK: usize = 64;

/// Fills `out[i] = work(scratch, i)` for every `i`, on up to `threads`
/// threads (this one included; fewer for short slices); each thread makes
/// its own scratch with `scratch`.
pub(crate) fn fill<T: Send, S>(
    threads: usize,
    out: &mut [T],
    scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
) {
    update(threads, out, scratch, |s, i, slot| *slot = work(s, i));
}

/// Runs `work(scratch, i, &mut out[i])` for every `i`, on up to `threads`
/// threads as [`fill`] does: each slot is changed in place, by its index
/// and what it held.
pub(crate) fn update<T: Send, S>(
    threads: usize,
    out: &mut [T],
    scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, &mut T) + Sync,
) {
    let run = |queue: &Mutex<std::iter::Enumerate<std::slice::ChunksMut<'_, T>>>| {
        let mut s = scratch();
        loop {
            let next = queue.lock().expect("no thread panicked holding the queue").next();
            let Some((k, chunk)) = next else { break };
            for (j, slot) in chunk.iter_mut().enumerate() {
                work(&mut s, k * CHUNK + j, slot);
            }
        }
    };
    // At least a chunk a thread.
    let threads = threads.min(out.len().div_ceil(CHUNK)).max(1);
    let queue = Mutex::new(out.chunks_mut(CHUNK).enumerate());
    if threads <= 1 {
        run(&queue);
        return;
    }
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|| run(&queue));
        }
        run(&queue);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_is_filled_by_its_index() {
        for threads in [1, 2, 5] {
            let mut out = vec![0usize; 1000];
            fill(threads, &mut out, || (), |_, i| i * 3);
            assert!(out.iter().enumerate().all(|(i, &v)| v == i * 3));
        }
    }

    #[test]
    fn every_slot_is_updated_from_what_it_held() {
        for threads in [1, 2, 5] {
            let mut out: Vec<usize> = (0..1000).collect();
            update(threads, &mut out, || (), |_, i, v| *v += i);
            assert!(out.iter().enumerate().all(|(i, &v)| v == 2 * i));
        }
    }
}
