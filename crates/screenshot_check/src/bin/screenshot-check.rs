//! `screenshot-check FILE.png`: exits 0 if the file holds a picture, 1 if
//! the frame is blank (nearly one colour), 2 if it cannot be read. Used by
//! `.ci/run` on the game's `--screenshot`.

use screenshot_check::PictureStats;
use std::process::ExitCode;

fn main() -> ExitCode {
    // As OS strings: a file name need not be UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let usage = "usage: screenshot-check FILE.png";
    let [path] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    if path == "-h" || path == "--help" {
        println!("{usage}");
        return ExitCode::SUCCESS;
    }
    let path = std::path::Path::new(path);
    match PictureStats::of_png(path) {
        Ok(stats) => {
            println!("{}: {}", path.display(), stats.describe());
            if stats.is_blank() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("screenshot-check: {e}");
            ExitCode::from(2)
        }
    }
}
