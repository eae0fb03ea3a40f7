//! Writes the generated demo levels (binary glTF) into a directory:
//! `make-levels [OUT_DIR]`, by default the current directory (never the
//! directory it was built in: installed by `cargo install`, that is
//! cargo's read-only copy of the source). The workspace's levels are
//! regenerated with the folder given:
//! `cargo run -p slidewalk_level_tools --bin make-levels -- assets/levels`.
//! The output is byte-identical run to run.
//!
//! `make-levels --generated TRIANGLES FILE` writes instead the benchmarks'
//! large generated level (terrain, buildings and stairs,
//! `slidewalk_sweep::test_util::generated_level`) of about TRIANGLES triangles, for
//! measuring `slidewalk_level::load` and soaking on a level of a million triangles
//! (not committed: 1M triangles is about 20 MB).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "--generated") {
        return write_generated(&args[1..]);
    }
    let mut args = args.into_iter();
    let out_dir = match (args.next(), args.next()) {
        (None, _) => PathBuf::from("."),
        (Some(dir), None) if dir != "-h" && dir != "--help" => PathBuf::from(dir),
        _ => {
            eprintln!("usage: make-levels [OUT_DIR]   (default: the current directory)");
            eprintln!("       make-levels --generated TRIANGLES FILE");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        eprintln!("make-levels: cannot create {}: {e}", out_dir.display());
        return ExitCode::FAILURE;
    }
    let out_dir = std::fs::canonicalize(&out_dir).unwrap_or(out_dir);
    for level in slidewalk_level_tools::generate::LEVELS {
        let bytes = (level.generate)();
        let path = out_dir.join(level.file);
        if let Err(e) = std::fs::write(&path, &bytes) {
            eprintln!("make-levels: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
    ExitCode::SUCCESS
}

/// `--generated TRIANGLES FILE`: the large generated level as one GLB.
fn write_generated(args: &[std::ffi::OsString]) -> ExitCode {
    let usage = "usage: make-levels --generated TRIANGLES FILE   (TRIANGLES from 1000 to 20000000)";
    let [count, file] = args else {
        eprintln!("make-levels: {usage}");
        return ExitCode::from(2);
    };
    let triangles = match count.to_str().and_then(|c| c.parse::<usize>().ok()) {
        Some(n) if (1_000..=20_000_000).contains(&n) => n,
        _ => {
            eprintln!("make-levels: TRIANGLES must be a whole number from 1000 to 20000000, got {count:?}\n{usage}");
            return ExitCode::from(2);
        }
    };
    let soup = slidewalk_sweep::test_util::generated_level(triangles);
    let bytes = slidewalk_level_tools::generate::triangles_glb("Generated", &soup.positions, &soup.triangles);
    if let Err(e) = std::fs::write(file, &bytes) {
        eprintln!("make-levels: cannot write {}: {e}", PathBuf::from(file).display());
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {} ({} triangles, {} bytes)",
        PathBuf::from(file).display(),
        soup.triangles.len(),
        bytes.len()
    );
    ExitCode::SUCCESS
}
