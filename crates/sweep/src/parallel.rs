//! Work split across threads (`std::thread::scope`) so that results never
//! depend on how many threads there are.

use std::sync::atomic::{AtomicIsize, Ordering};

/// Threads the builders use: what the machine offers, at most 8.
pub(crate) fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// `f(first, chunk)` for each run of `chunk` items of `items` (`first` is
/// the index of the run's first item), on up to `threads` threads; the
/// results in the order of the runs. The runs are cut the same way whatever
/// `threads` is, so the results are too.
pub(crate) fn map_chunks<T: Sync, R: Send>(
    items: &[T],
    chunk: usize,
    threads: usize,
    f: impl Fn(usize, &[T]) -> R + Sync,
) -> Vec<R> {
    let runs: Vec<(usize, &[T])> = items
        .chunks(chunk.max(1))
        .enumerate()
        .map(|(k, c)| (k * chunk, c))
        .collect();
    let threads = threads.clamp(1, runs.len().max(1));
    if threads == 1 {
        return runs.into_iter().map(|(first, c)| f(first, c)).collect();
    }
    // Thread k takes a contiguous share of the runs.
    let share = runs.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .chunks(share)
            .map(|mine| {
                let f = &f;
                scope.spawn(move || mine.iter().map(|&(first, c)| f(first, c)).collect::<Vec<R>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// How many more threads a fork-join computation may start. It may go below
/// zero while a thread that waits for another has lent its place.
pub(crate) struct ThreadBudget(AtomicIsize);

impl ThreadBudget {
    /// A budget for `threads` threads in all (the calling one included).
    pub(crate) fn new(threads: usize) -> Self {
        Self(AtomicIsize::new(threads.max(1) as isize - 1))
    }

    fn take(&self) -> bool {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n > 0).then_some(n - 1))
            .is_ok()
    }

    fn give(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }

    fn take_back(&self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }

    /// Runs `a` and `b`, `a` on a new scoped thread when the budget allows.
    pub(crate) fn join<A: Send, B>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
        if !self.take() {
            return (a(), b());
        }
        std::thread::scope(|scope| {
            let handle = scope.spawn(|| {
                let done = a();
                self.give();
                done
            });
            let done_b = b();
            // While this thread waits for `a`, another fork may use its place.
            self.give();
            let done_a = handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            self.take_back();
            (done_a, done_b)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_come_back_in_order_for_any_thread_count() {
        let items: Vec<u32> = (0..1000).collect();
        let one = map_chunks(&items, 64, 1, |first, c| (first, c.iter().sum::<u32>()));
        for threads in [2, 3, 7, 64] {
            assert_eq!(
                map_chunks(&items, 64, threads, |first, c| (first, c.iter().sum::<u32>())),
                one
            );
        }
        assert_eq!(one.len(), 16);
        assert_eq!(one[1], (64, (64..128).sum()));
        assert!(map_chunks(&[] as &[u32], 64, 4, |_, c| c.len()).is_empty());
    }

    #[test]
    fn joins_run_both_halves_within_budget() {
        fn sum(budget: &ThreadBudget, range: std::ops::Range<u64>) -> u64 {
            if range.end - range.start < 100 {
                return range.sum();
            }
            let mid = (range.start + range.end) / 2;
            let (a, b) = budget.join(|| sum(budget, range.start..mid), || sum(budget, mid..range.end));
            a + b
        }
        for threads in [1, 2, 5] {
            let budget = ThreadBudget::new(threads);
            assert_eq!(sum(&budget, 0..100_000), (0..100_000u64).sum());
            assert_eq!(
                budget.0.load(Ordering::Acquire),
                threads as isize - 1,
                "every thread given back"
            );
        }
    }
}
