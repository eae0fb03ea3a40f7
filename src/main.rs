//! slidewalk: a first-person demo of swept-ellipsoid collide-and-slide.
//! `main` parses the command line and assembles the plugins: the
//! simulation always, the view only with a window (which also keeps the
//! player's settings in their config directory).

use bevy::prelude::*;
use slidewalk_play::{Options, USAGE};
use std::process::ExitCode;

fn main() -> ExitCode {
    let options = match slidewalk_play::text_args(std::env::args_os().skip(1)).and_then(|args| Options::parse(&args)) {
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
    // Files the game will write: refused now rather than after the play.
    for (flag, path) in [("--record", &options.record), ("--screenshot", &options.screenshot)] {
        if let Some(path) = path
            && let Err(e) = slidewalk_play::check_output(flag, path)
        {
            eprintln!("slidewalk: {e}");
            return ExitCode::from(2);
        }
    }
    if options.headless && options.p2p.is_some() {
        use slidewalk::net::headless::{RunError, run};
        return match run(&options) {
            Ok(summary) => {
                println!("{}", summary.to_json());
                ExitCode::SUCCESS
            }
            Err(RunError::Refused(e)) => {
                eprintln!("slidewalk: {e}");
                ExitCode::from(2)
            }
            Err(RunError::NoPeer(e)) => {
                eprintln!("slidewalk: {e}");
                ExitCode::from(1)
            }
        };
    }
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
    // A script can be watched in the window, played where it was made.
    let script = match &options.script {
        None => None,
        Some(path) => match slidewalk::sim::script::read_script(path) {
            Ok(script) => Some(script),
            Err(e) => {
                eprintln!("slidewalk: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let options = match &script {
        Some(s) => slidewalk::sim::script::options_for_script(&options, s),
        None => options,
    };
    if options.p2p.is_some()
        && let Some(Err(line)) = script.as_ref().map(slidewalk::net::check_script)
    {
        eprintln!("slidewalk: {line}");
        return ExitCode::from(2);
    }
    let mut app = App::new();
    if options.p2p.is_some() {
        match slidewalk::net::window::meet_peer(&options) {
            Ok(Some(net)) => net.insert_into(&mut app),
            // No answer: the game is played alone (said on stderr).
            Ok(None) => {}
            Err(e) => {
                eprintln!("slidewalk: {e}");
                return ExitCode::from(2);
            }
        }
    }
    app.insert_resource(slidewalk::sim::launch::LaunchOptions(options.clone()))
        .insert_resource(slidewalk::sim::tuning::SettingsFile(
            options
                .settings
                .clone()
                .or_else(slidewalk_play::settings::default_settings_path),
        ));
    if let Some(script) = script {
        if app.world().contains_resource::<slidewalk::sim::launch::NetPlayers>() {
            // Over the network the script is this player's input.
            let dt = slidewalk::sim::schedule::tick_length(options.tick_hz()).as_secs_f32();
            app.insert_resource(slidewalk::net::input::NetScript::new(vec![script], dt));
        } else {
            app.insert_resource(slidewalk::sim::script::ScriptRun::new(script));
        }
    }
    app.add_plugins((
        slidewalk::view::window::window_plugins,
        slidewalk::sim::plugin,
        slidewalk::view::plugin,
    ));
    if app.world().contains_resource::<slidewalk::sim::launch::NetPlayers>() {
        app.add_plugins(slidewalk::net::plugin);
    }
    app.run();
    ExitCode::SUCCESS
}
