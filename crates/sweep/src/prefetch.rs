//! Asking the CPU to start loading memory a walk will read soon: a large
//! level's tree and triangles do not fit the caches, and a walk that
//! waits for each load in turn spends most of its time waiting. The
//! crate's only `unsafe` (the walking crowd on a million triangles ran
//! 7–8% faster with it: docs/figures.md's git history, "Fetching ahead").
#![allow(unsafe_code)]

/// Starts loading the cache lines `items` lies on; returns at once. Only
/// a hint: without it (on other architectures it does nothing) every
/// answer is the same.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        const LINE: usize = 64;
        let first: *const i8 = items.as_ptr().cast();
        let lines = (first.addr() % LINE + std::mem::size_of_val(items)).div_ceil(LINE);
        for line in 0..lines {
            // SAFETY: a prefetch neither reads nor writes memory as the
            // program sees it and never faults, whatever the address
            // (here within `items`' lines); SSE, which provides it, is
            // part of every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(LINE * line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}
