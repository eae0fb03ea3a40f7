//! slidewalk: a first-person demo of swept-ellipsoid collide-and-slide.
//! `main` parses the command line and assembles the plugins: the
//! simulation always, the view only with a window.

use bevy::prelude::*;
use play::{Options, USAGE};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match Options::parse(&args) {
        Ok(o) => o,
        Err(e) if e == "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("slidewalk: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if options.headless {
        return match slidewalk::headless::run(&options) {
            Ok(summary) => {
                println!("{}", summary.to_json());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("slidewalk: {e}");
                ExitCode::from(2)
            }
        };
    }
    App::new()
        .insert_resource(slidewalk::sim::LaunchOptions(options))
        .add_plugins((
            slidewalk::view::window_plugins,
            slidewalk::sim::plugin,
            slidewalk::view::plugin,
        ))
        .run();
    ExitCode::SUCCESS
}
