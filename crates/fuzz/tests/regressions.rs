//! The fuzzers' findings as regression tests: every input saved under
//! `crates/fuzz/regressions/<target>/` runs through its target again (each
//! reproduced a crash or a broken invariant before its fix), and every
//! target runs a few thousand fixed-seed executions of the mutation
//! fuzzer (no time limit or timing assertion: the same inputs each run).

use fuzz::driver::{self, Options};
use fuzz::{TARGETS, target};
use std::fs;

#[test]
fn every_saved_input_passes_its_target() {
    let dir = driver::regressions_dir();
    let mut replayed = 0;
    let mut failures = Vec::new();
    for entry in fs::read_dir(&dir).expect("crates/fuzz/regressions exists") {
        let sub = entry.expect("a directory entry").path();
        if !sub.is_dir() {
            continue;
        }
        let name = sub.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let t = target(&name).unwrap_or_else(|| panic!("regressions/{name}: no target of that name"));
        let mut files: Vec<_> = fs::read_dir(&sub)
            .expect("a readable directory")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        files.sort();
        for file in files {
            let bytes = fs::read(&file).expect("a readable file");
            if let Err(p) = driver::execute(t, &bytes) {
                failures.push(format!("{}: {} ({})", file.display(), p.message, p.location));
            }
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no regression inputs found under {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_target_survives_a_short_fixed_seed_run() {
    for t in TARGETS {
        // Fewer executions for the slow targets (the loader reads whole
        // levels, the controller runs ticks, `world` a Bevy app, `engine`
        // a Bevy app with Avian stepping, about 15 a second).
        let execs = match t.name {
            "sweep" => 20_000,
            "level_glb" | "world" => 300,
            "engine" => 100,
            _ => 2_000,
        };
        let options = Options {
            max_execs: Some(execs),
            seed: 20_240_601,
            max_crashes: 1,
            minimize_execs: 2_000,
            ..Options::default()
        };
        let outcome = driver::fuzz(t, &options, |_| {}, |_| {}, |_| {});
        let crashes: Vec<String> = outcome
            .crashes
            .iter()
            .map(|c| format!("{} at {}, input {:?}", c.panic.message, c.panic.location, c.input))
            .collect();
        assert!(crashes.is_empty(), "{}: {}", t.name, crashes.join("\n"));
        assert!(outcome.execs >= execs, "{}: {} executions", t.name, outcome.execs);
    }
}

#[test]
fn the_driver_finds_minimizes_and_names_a_crash() {
    // A toy target that panics on any input containing "bug".
    fn toy(data: &[u8]) -> u64 {
        assert!(!data.windows(3).any(|w| w == b"bug"), "found the bug");
        data.len() as u64
    }
    fn seeds() -> Vec<Vec<u8>> {
        vec![b"a little bu and some padding around it".to_vec()]
    }
    fn describe(data: &[u8]) -> String {
        String::from_utf8_lossy(data).into_owned()
    }
    let t = fuzz::Target {
        name: "toy",
        about: "panics on \"bug\"",
        run: toy,
        seeds,
        describe,
    };
    let options = Options {
        max_execs: Some(200_000),
        max_crashes: 1,
        ..Options::default()
    };
    let outcome = driver::fuzz(&t, &options, |_| {}, |_| {}, |_| {});
    let crash = outcome.crashes.first().expect("the toy bug is found");
    assert_eq!(crash.input, b"bug", "minimized to the three bytes");
    assert_eq!(crash.panic.message, "found the bug");
    assert!(driver::crash_file_name(crash).starts_with("regressions.rs-"));
}
