//! The in-process fuzzer: a mutation loop over a corpus (the edits are in
//! [`crate::mutate`]; a tenth of the inputs are fully random), panics caught
//! with `catch_unwind` and recorded with their location, a shrinking
//! minimizer, and a little feedback from the targets' behaviour signatures.
//! Stable Rust, no instrumentation.

use crate::Target;
use crate::mutate::{Rng, mutate_once};
use crate::signature::hash_bytes;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Once;
use std::time::{Duration, Instant};

/// How long and how to fuzz.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop after this long (wall clock), if set.
    pub duration: Option<Duration>,
    /// Stop after this many executions, if set.
    pub max_execs: Option<u64>,
    /// Seed of the mutation RNG: the same seed, corpus and limits in
    /// executions give the same run.
    pub seed: u64,
    /// Longest input generated, bytes.
    pub max_len: usize,
    /// Extra seed inputs (files read by the caller).
    pub corpus: Vec<Vec<u8>>,
    /// Most executions spent minimizing one crash.
    pub minimize_execs: u64,
    /// Most crashes kept before stopping (distinct panic locations).
    pub max_crashes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            duration: None,
            max_execs: Some(10_000),
            seed: 1,
            max_len: 64 * 1024,
            corpus: Vec::new(),
            minimize_execs: 20_000,
            max_crashes: 16,
        }
    }
}

/// A panic caught while running a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panic {
    /// `file:line:column` of the panic.
    pub location: String,
    /// The panic message.
    pub message: String,
}

/// A crash found by [`fuzz`], minimized.
#[derive(Clone, Debug)]
pub struct Crash {
    /// The smallest input found that panics at the same location.
    pub input: Vec<u8>,
    /// Length of the input as first found, bytes.
    pub original_len: usize,
    /// The panic.
    pub panic: Panic,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Target executions (fuzzing and minimizing).
    pub execs: u64,
    /// Crashes at distinct locations, minimized.
    pub crashes: Vec<Crash>,
    /// Inputs in the corpus at the end.
    pub corpus: usize,
    /// Distinct behaviour signatures seen.
    pub signatures: usize,
    /// Wall time, seconds.
    pub seconds: f64,
}

thread_local! {
    /// Set while the fuzzer runs a target on this thread: its panics are
    /// recorded, not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<Panic>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that records the panics of fuzzed runs in
/// a thread-local and leaves every other panic to the previous hook.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(Panic { location, message }));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `target` on `input`, catching a panic: `Ok(signature)` or the panic.
pub fn execute(target: &Target, input: &[u8]) -> Result<u64, Panic> {
    install_hook();
    QUIET.with(|q| q.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(input)));
    QUIET.with(|q| q.set(false));
    result.map_err(|_| {
        LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or(Panic {
            location: "unknown".into(),
            message: "panic without a message".into(),
        })
    })
}

/// Fuzzes `target` with `options`; `progress` is called about once a
/// second with the running outcome (a driver prints it). Crashes are
/// minimized before they are returned (and reported to `on_crash` as soon
/// as they are).
pub fn fuzz(
    target: &Target,
    options: &Options,
    mut progress: impl FnMut(&Outcome),
    mut on_crash: impl FnMut(&Crash),
    mut before_exec: impl FnMut(&[u8]),
) -> Outcome {
    let started = Instant::now();
    let mut rng = Rng::new(options.seed);
    let mut outcome = Outcome::default();
    let mut corpus: Vec<Vec<u8>> = (target.seeds)();
    corpus.extend(options.corpus.iter().cloned());
    if corpus.is_empty() {
        corpus.push(Vec::new());
    }
    let mut signatures: HashSet<u64> = HashSet::new();
    let mut seen_locations: HashSet<String> = HashSet::new();
    let mut last_report = Instant::now();
    let out_of_time = |outcome: &Outcome| {
        options.duration.is_some_and(|d| started.elapsed() >= d)
            || options.max_execs.is_some_and(|n| outcome.execs >= n)
            || outcome.crashes.len() >= options.max_crashes
    };
    // Seeds first, as they are.
    let mut queue: Vec<Vec<u8>> = corpus.clone();
    loop {
        if out_of_time(&outcome) {
            break;
        }
        let input = if let Some(seed) = queue.pop() {
            seed
        } else if rng.one_in(10) {
            let most = 1 + rng.below(options.max_len.min(4096));
            let n = rng.below(most + 1);
            (0..n).map(|_| rng.next_u64() as u8).collect()
        } else {
            let base = &corpus[rng.below(corpus.len())];
            let other = &corpus[rng.below(corpus.len())];
            let mut data = base.clone();
            let most = if rng.one_in(4) { 32 } else { 6 };
            let edits = 1 + rng.below(most);
            for _ in 0..edits {
                mutate_once(&mut rng, &mut data, other, options.max_len);
            }
            data
        };
        before_exec(&input);
        outcome.execs += 1;
        match execute(target, &input) {
            Ok(signature) => {
                if signatures.insert(signature) && corpus.len() < 4096 {
                    corpus.push(input);
                }
            }
            Err(panic) => {
                if seen_locations.insert(panic.location.clone()) {
                    let (small, execs) = minimize(target, &input, &panic.location, options.minimize_execs);
                    outcome.execs += execs;
                    let panic = execute(target, &small).expect_err("the minimized input still panics");
                    let crash = Crash {
                        original_len: input.len(),
                        input: small,
                        panic,
                    };
                    on_crash(&crash);
                    outcome.crashes.push(crash);
                }
            }
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            last_report = Instant::now();
            outcome.corpus = corpus.len();
            outcome.signatures = signatures.len();
            outcome.seconds = started.elapsed().as_secs_f64();
            progress(&outcome);
        }
    }
    outcome.corpus = corpus.len();
    outcome.signatures = signatures.len();
    outcome.seconds = started.elapsed().as_secs_f64();
    outcome
}

/// Shrinks `input` while it still panics at `location`: removes chunks
/// (halves down to single bytes), then lowers bytes towards zero. Returns
/// the smallest input found and the executions spent.
pub fn minimize(target: &Target, input: &[u8], location: &str, budget: u64) -> (Vec<u8>, u64) {
    let mut best = input.to_vec();
    let mut execs = 0u64;
    let still_crashes = |candidate: &[u8], execs: &mut u64| {
        *execs += 1;
        matches!(execute(target, candidate), Err(p) if p.location == location)
    };
    let mut chunk = best.len().div_ceil(2).max(1);
    while chunk >= 1 && execs < budget {
        let mut i = 0;
        let mut shrunk = false;
        while i < best.len() && execs < budget {
            let mut candidate = best.clone();
            candidate.drain(i..(i + chunk).min(best.len()));
            if still_crashes(&candidate, &mut execs) {
                best = candidate;
                shrunk = true;
            } else {
                i += chunk;
            }
        }
        if !shrunk {
            if chunk == 1 {
                break;
            }
            chunk /= 2;
        }
    }
    for i in 0..best.len() {
        for value in [0u8, 1, best[i] / 2] {
            if execs >= budget || best[i] <= value {
                continue;
            }
            let mut candidate = best.clone();
            candidate[i] = value;
            if still_crashes(&candidate, &mut execs) {
                best = candidate;
                break;
            }
        }
    }
    (best, execs)
}

/// The file name a crash is saved under: the panic's file and line, and a
/// hash of the input (`sweep_slide.rs-123-0123456789abcdef.bin`).
pub fn crash_file_name(crash: &Crash) -> String {
    let place: String = crash
        .panic
        .location
        .rsplit('/')
        .next()
        .unwrap_or("unknown")
        .split(':')
        .take(2)
        .collect::<Vec<_>>()
        .join("-");
    format!("{place}-{:016x}.bin", hash_bytes(&crash.input))
}

/// The directory of the regression inputs of the `fuzz` crate
/// (`crates/fuzz/regressions`).
pub fn regressions_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("regressions")
}
