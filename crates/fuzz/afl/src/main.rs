//! AFL++ harness: runs the fuzz target named by `FUZZ_TARGET` (see
//! `fuzz-run --list`) on each input AFL gives it. Panics (the targets'
//! failed invariants) are crashes to AFL.

fn main() {
    let name = std::env::var("FUZZ_TARGET").unwrap_or_else(|_| "sweep".into());
    let target = fuzz::target(&name).unwrap_or_else(|| panic!("no fuzz target called {name:?}"));
    afl::fuzz!(|data: &[u8]| {
        (target.run)(data);
    });
}
