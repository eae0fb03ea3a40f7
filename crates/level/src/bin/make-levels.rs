//! Writes the generated demo levels (binary glTF) into a directory:
//! `cargo run -p level --bin make-levels [-- OUT_DIR]`, by default
//! `assets/levels/` of the workspace. The output is byte-identical run to run.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let out_dir = match (args.next(), args.next()) {
        (None, _) => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels")),
        (Some(dir), None) if dir != "-h" && dir != "--help" => PathBuf::from(dir),
        _ => {
            eprintln!("usage: make-levels [OUT_DIR]   (default: assets/levels of the workspace)");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        eprintln!("make-levels: cannot create {}: {e}", out_dir.display());
        return ExitCode::FAILURE;
    }
    let out_dir = std::fs::canonicalize(&out_dir).unwrap_or(out_dir);
    for level in level::generate::LEVELS {
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
