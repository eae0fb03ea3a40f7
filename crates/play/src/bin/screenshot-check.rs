//! `screenshot-check FILE.png`: exits 0 if the file holds a picture, 1 if
//! the frame is blank (nearly one colour), 2 if it cannot be read. Used by
//! `.ci/run` on the game's `--screenshot`.

use play::picture::PictureStats;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!("usage: screenshot-check FILE.png");
        return ExitCode::from(2);
    };
    match PictureStats::of_png(path.as_ref()) {
        Ok(stats) => {
            println!("{path}: {}", stats.describe());
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
