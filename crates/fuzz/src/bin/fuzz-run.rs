//! `fuzz-run`: runs one fuzz target for a while on the stable toolchain.
//!
//! ```text
//! fuzz-run TARGET [--seconds N] [--execs N] [--seed N] [--corpus DIR]... [--out DIR] [--mem-mb N]
//! fuzz-run --list
//! fuzz-run --replay TARGET FILE...
//! fuzz-run --show TARGET FILE...
//! ```
//!
//! The command is a supervisor: the fuzzing runs in a child process (this
//! program again, `--worker`), under an address-space limit (`prlimit`,
//! `--mem-mb`, default 4096) when that tool exists. A panic is caught in the
//! child, minimized and saved; an abort (out of memory, stack overflow), a
//! kill or a hang (no progress for `--hang-seconds`, default 30) ends the
//! child: the supervisor saves the input it was running (the child writes
//! each input to a file before running it) and starts a new child with the
//! next seed. Crashes are saved as `<out>/<file>-<line>-<hash>.bin`
//! (panics) or `<out>/abort-<hash>.bin`, `<out>/hang-<hash>.bin`; the
//! default `<out>` is `crates/fuzz/regressions/<target>`.

use fuzz::driver::{self, Crash, Options};
use fuzz::signature::hash_bytes;
use fuzz::{TARGETS, Target};
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The command line.
#[derive(Clone)]
struct Args {
    target: &'static Target,
    seconds: Option<f64>,
    execs: Option<u64>,
    seed: u64,
    corpus: Vec<PathBuf>,
    out: PathBuf,
    mem_mb: u64,
    hang_seconds: u64,
    worker: bool,
    current: Option<PathBuf>,
}

const USAGE: &str = "usage: fuzz-run TARGET [--seconds N] [--execs N] [--seed N] [--corpus DIR]... [--out DIR] [--mem-mb N] [--hang-seconds N]
       fuzz-run --list
       fuzz-run --replay TARGET FILE...
       fuzz-run --show TARGET FILE...";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match argv.first().map(String::as_str) {
        None | Some("-h" | "--help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some("--list") => {
            for t in TARGETS {
                println!("{:<12} {}", t.name, t.about);
            }
            return ExitCode::SUCCESS;
        }
        Some("--replay") => return replay(&argv[1..]),
        Some("--show") => return show(&argv[1..]),
        _ => {}
    }
    let args = match parse(&argv) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("fuzz-run: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.worker { worker(&args) } else { supervise(&args) }
}

fn parse(argv: &[String]) -> Result<Args, String> {
    let mut it = argv.iter();
    let mut worker = false;
    let mut name = None;
    let mut args_seconds = None;
    let mut execs = None;
    let mut seed = 1;
    let mut corpus = Vec::new();
    let mut out = None;
    let mut mem_mb = 4096;
    let mut hang_seconds = 30;
    let mut current = None;
    let value =
        |it: &mut std::slice::Iter<'_, String>, flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
    let number = |s: String, flag: &str| s.parse::<f64>().map_err(|_| format!("{flag}: not a number: {s}"));
    while let Some(a) = it.next() {
        match a.as_str() {
            "--worker" => worker = true,
            "--seconds" => args_seconds = Some(number(value(&mut it, a)?, a)?),
            "--execs" => execs = Some(number(value(&mut it, a)?, a)? as u64),
            "--seed" => seed = number(value(&mut it, a)?, a)? as u64,
            "--corpus" => corpus.push(PathBuf::from(value(&mut it, a)?)),
            "--out" => out = Some(PathBuf::from(value(&mut it, a)?)),
            "--mem-mb" => mem_mb = number(value(&mut it, a)?, a)? as u64,
            "--hang-seconds" => hang_seconds = number(value(&mut it, a)?, a)? as u64,
            "--current" => current = Some(PathBuf::from(value(&mut it, a)?)),
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            target if name.is_none() => name = Some(target.to_owned()),
            extra => return Err(format!("unexpected argument {extra}")),
        }
    }
    let name = name.ok_or("no target given")?;
    let target = fuzz::target(&name).ok_or_else(|| {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        format!("unknown target {name:?} (targets: {})", names.join(", "))
    })?;
    Ok(Args {
        target,
        seconds: args_seconds,
        execs,
        seed,
        corpus,
        out: out.unwrap_or_else(|| driver::regressions_dir().join(target.name)),
        mem_mb,
        hang_seconds,
        worker,
        current,
    })
}

/// `--replay TARGET FILE...`: runs each file through the target, reports panics.
fn replay(argv: &[String]) -> ExitCode {
    let Some(target) = argv.first().and_then(|n| fuzz::target(n)) else {
        eprintln!("fuzz-run: --replay needs a target name\n{USAGE}");
        return ExitCode::from(2);
    };
    let mut failed = false;
    for file in &argv[1..] {
        match fs::read(file) {
            Ok(bytes) => match driver::execute(target, &bytes) {
                Ok(sig) => println!("{file}: ok (signature {sig:016x})"),
                Err(p) => {
                    failed = true;
                    println!("{file}: PANIC at {}: {}", p.location, p.message);
                }
            },
            Err(e) => {
                failed = true;
                println!("{file}: cannot read: {e}");
            }
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// `--show TARGET FILE...`: prints the inputs each file stands for.
fn show(argv: &[String]) -> ExitCode {
    let Some(target) = argv.first().and_then(|n| fuzz::target(n)) else {
        eprintln!("fuzz-run: --show needs a target name\n{USAGE}");
        return ExitCode::from(2);
    };
    for file in &argv[1..] {
        match fs::read(file) {
            Ok(bytes) => println!("{file}:\n{}", (target.describe)(&bytes)),
            Err(e) => println!("{file}: cannot read: {e}"),
        }
    }
    ExitCode::SUCCESS
}

/// Every file directly in `dir` (sorted), read, except the inputs that
/// killed or hung a worker (`abort-*`, `hang-*`).
fn read_dir_files(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let fatal = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("abort-") || n.starts_with("hang-"))
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && !fatal(p))
        .collect();
    paths.sort();
    paths.iter().filter_map(|p| fs::read(p).ok()).collect()
}

/// The child: fuzzes in process, writes each input to `--current` first,
/// prints progress and crash lines on stdout.
fn worker(args: &Args) -> ExitCode {
    let mut corpus: Vec<Vec<u8>> = args.corpus.iter().flat_map(|d| read_dir_files(d)).collect();
    corpus.extend(read_dir_files(&args.out));
    // (Inputs that killed a worker are kept out: they would kill this one.)
    let options = Options {
        duration: args.seconds.map(Duration::from_secs_f64),
        max_execs: args.execs,
        seed: args.seed,
        corpus,
        ..Options::default()
    };
    let current = args
        .current
        .as_ref()
        .map(|p| fs::File::create(p).expect("the --current file can be created"));
    let mut buffer = Vec::new();
    let before_exec = |input: &[u8]| {
        if let Some(file) = &current {
            buffer.clear();
            buffer.extend_from_slice(&(input.len() as u64).to_le_bytes());
            buffer.extend_from_slice(input);
            file.write_all_at(&buffer, 0)
                .expect("the --current file can be written");
        }
    };
    let out = args.out.clone();
    let on_crash = |crash: &Crash| {
        let path = save(&out, &driver::crash_file_name(crash), &crash.input);
        println!(
            "crash {} ({} bytes, {} before minimizing) at {}: {}",
            path.display(),
            crash.input.len(),
            crash.original_len,
            crash.panic.location,
            crash.panic.message.lines().next().unwrap_or("")
        );
    };
    let progress = |o: &driver::Outcome| println!("progress {:.0} s, {}", o.seconds, counts(o));
    let o = driver::fuzz(args.target, &options, progress, on_crash, before_exec);
    println!("done {:.1} s, {}", o.seconds, counts(&o));
    ExitCode::SUCCESS
}

/// Writes `bytes` to `dir/name` (creating `dir`) and returns the path.
fn save(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    fs::create_dir_all(dir).expect("the output directory can be created");
    let path = dir.join(name);
    fs::write(&path, bytes).expect("the crash file can be written");
    path
}

/// The last input a worker was running, from its `--current` file.
fn read_current(path: &Path) -> Option<Vec<u8>> {
    let bytes = fs::read(path).ok()?;
    let len = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?) as usize;
    bytes.get(8..8 + len).map(<[u8]>::to_vec)
}

/// Execs count out of a worker's `progress` or `done` line.
fn execs_in(line: &str) -> Option<u64> {
    line.split(", ").nth(1)?.strip_suffix(" execs")?.parse().ok()
}

/// The parent: runs workers until the time or executions are used up,
/// saving the input of any worker that died or hung.
fn supervise(args: &Args) -> ExitCode {
    let started = Instant::now();
    let exe = std::env::current_exe().expect("own path");
    let current = std::env::temp_dir().join(format!("fuzz-run-{}-{}.current", args.target.name, std::process::id()));
    let prlimit = Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let mut total_execs = 0u64;
    let mut crashes = 0usize;
    let mut seed = args.seed;
    let mut restarts = 0;
    println!(
        "fuzz-run {}: {}{}, seed {}, saving crashes in {}",
        args.target.name,
        args.seconds.map_or(String::new(), |s| format!("{s} s")),
        args.execs.map_or(String::new(), |n| format!(" {n} execs")),
        args.seed,
        args.out.display()
    );
    loop {
        let remaining = args.seconds.map(|s| s - started.elapsed().as_secs_f64());
        if remaining.is_some_and(|r| r <= 0.5) || args.execs.is_some_and(|n| total_execs >= n) || restarts > 50 {
            break;
        }
        let mut cmd = if prlimit {
            let mut c = Command::new("prlimit");
            c.arg(format!("--as={}", args.mem_mb * 1024 * 1024)).arg("--").arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        // (An abort's backtrace would fill the log; the input is saved.)
        cmd.env("RUST_BACKTRACE", "0")
            .arg("--worker")
            .arg(args.target.name)
            .arg("--seed")
            .arg(seed.to_string())
            .arg("--out")
            .arg(&args.out)
            .arg("--current")
            .arg(&current);
        if let Some(r) = remaining {
            cmd.arg("--seconds").arg(r.to_string());
        }
        if let Some(n) = args.execs {
            cmd.arg("--execs").arg((n - total_execs).to_string());
        }
        for c in &args.corpus {
            cmd.arg("--corpus").arg(c);
        }
        let mut child = cmd.stdout(Stdio::piped()).spawn().expect("the worker starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut worker_execs = 0;
        let mut hung = false;
        loop {
            match rx.recv_timeout(Duration::from_secs(args.hang_seconds)) {
                Ok(line) => {
                    if let Some(n) = execs_in(&line) {
                        worker_execs = n;
                    }
                    if line.starts_with("crash ") {
                        crashes += 1;
                    }
                    println!("{line}");
                    let _ = std::io::stdout().flush();
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    hung = true;
                    let _ = child.kill();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let status = child.wait().expect("the worker is waited for");
        let _ = reader.join();
        total_execs += worker_execs;
        if status.success() && !hung {
            break;
        }
        restarts += 1;
        let kind = if hung { "hang" } else { "abort" };
        match read_current(&current) {
            Some(input) => {
                let path = save(&args.out, &format!("{kind}-{:016x}.bin", hash_bytes(&input)), &input);
                crashes += 1;
                println!(
                    "crash {} ({} bytes): the worker {} ({status})",
                    path.display(),
                    input.len(),
                    if hung { "hung" } else { "died" }
                );
            }
            None => println!("the worker {kind}ed ({status}) before running any input"),
        }
        seed = seed.wrapping_add(1_000_003);
    }
    let _ = fs::remove_file(&current);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "total {}: {seconds:.0} s, {total_execs} execs, {:.0} exec/s, {crashes} crashes, {restarts} worker restarts",
        args.target.name,
        total_execs as f64 / seconds.max(1e-9)
    );
    if crashes > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// What a run has done so far, for its progress and final lines.
fn counts(o: &driver::Outcome) -> String {
    format!(
        "{} execs, {:.0} exec/s, corpus {}, signatures {}, crashes {}",
        o.execs,
        o.execs as f64 / o.seconds.max(1e-9),
        o.corpus,
        o.signatures,
        o.crashes.len()
    )
}
