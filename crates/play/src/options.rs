//! The game's command line, parsed and checked without the engine.

use glam::Vec3;
use std::path::PathBuf;

/// Usage text printed with every command-line error.
pub const USAGE: &str = "\
usage: slidewalk [--level PATH] [--tick-hz N] [--spawn X,Y,Z] [--yaw DEG] [--settings FILE]
                 [--record FILE] [--script FILE] [--rewind AT,BACK] [--screenshot PNG --frames N]
       slidewalk --headless --script FILE [--level PATH] [--tick-hz N] [--spawn X,Y,Z] [--yaw DEG]";

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The level to open (`None`: the demo level).
    pub level: Option<PathBuf>,
    /// Run the simulation without a window, as fast as it can, and print a summary.
    pub headless: bool,
    /// The script to play (headless, or watched in the window).
    pub script: Option<PathBuf>,
    /// Fixed ticks per second, if given (default: the script's, else 60).
    pub tick_hz: Option<f32>,
    /// Where the feet start instead of the level's spawn, metres.
    pub spawn: Option<Vec3>,
    /// Heading at the start instead of the spawn's, degrees.
    pub yaw_deg: Option<f32>,
    /// Save a screenshot here after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames before the screenshot (default 120).
    pub frames: u32,
    /// Write what the player does to this script file.
    pub record: Option<PathBuf>,
    /// Read and save the settings here instead of the user's config
    /// directory (headless runs use none unless given).
    pub settings: Option<PathBuf>,
    /// Pause after `.0` seconds of play and view the tick `.1` seconds
    /// earlier, as P and ← would (for screenshots of the rewind).
    pub rewind: Option<(f32, f32)>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            level: None,
            headless: false,
            script: None,
            tick_hz: None,
            spawn: None,
            yaw_deg: None,
            screenshot: None,
            frames: 120,
            record: None,
            settings: None,
            rewind: None,
        }
    }
}

impl Options {
    /// Fixed ticks per second: as given, else 60.
    pub fn tick_hz(&self) -> f32 {
        self.tick_hz.unwrap_or(60.0)
    }

    /// Parses the arguments after the program name.
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let mut o = Options::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = |flag: &str| it.next().cloned().ok_or(format!("{flag} needs a value"));
            match arg.as_str() {
                "--level" => o.level = Some(value("--level")?.into()),
                "--headless" => o.headless = true,
                "--script" => o.script = Some(value("--script")?.into()),
                "--tick-hz" => {
                    let v = value("--tick-hz")?;
                    let hz: f32 = v.parse().map_err(|_| format!("--tick-hz needs a number, got {v:?}"))?;
                    if !(hz.is_finite() && (1.0..=1000.0).contains(&hz)) {
                        return Err(format!("--tick-hz must be between 1 and 1000, got {v}"));
                    }
                    o.tick_hz = Some(hz);
                }
                "--spawn" => o.spawn = Some(point(&value("--spawn")?)?),
                "--yaw" => {
                    let v = value("--yaw")?;
                    let yaw: f32 = v.parse().map_err(|_| format!("--yaw needs degrees, got {v:?}"))?;
                    if !yaw.is_finite() {
                        return Err(format!("--yaw must be a finite number of degrees, got {v}"));
                    }
                    o.yaw_deg = Some(yaw);
                }
                "--screenshot" => o.screenshot = Some(value("--screenshot")?.into()),
                "--frames" => {
                    let v = value("--frames")?;
                    o.frames = v
                        .parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or(format!("--frames needs a whole number above 0, got {v:?}"))?;
                }
                "--record" => o.record = Some(value("--record")?.into()),
                "--settings" => o.settings = Some(value("--settings")?.into()),
                "--rewind" => {
                    let v = value("--rewind")?;
                    let parts: Vec<Option<f32>> = v.split(',').map(|p| p.trim().parse().ok()).collect();
                    match parts[..] {
                        [Some(at), Some(back)] if at.is_finite() && at > 0.0 && (0.0..=10.0).contains(&back) => {
                            o.rewind = Some((at, back))
                        }
                        _ => {
                            return Err(format!(
                                "--rewind needs AT,BACK in seconds (AT > 0, BACK from 0 to 10), got {v:?}"
                            ));
                        }
                    }
                }
                "-h" | "--help" => return Err("help".into()),
                other => return Err(format!("unknown argument {other:?}")),
            }
        }
        if o.headless && o.script.is_none() {
            return Err("--headless needs --script FILE".into());
        }
        if o.headless && (o.screenshot.is_some() || o.record.is_some() || o.rewind.is_some()) {
            return Err("--screenshot, --record and --rewind need a window (drop --headless)".into());
        }
        Ok(o)
    }
}

/// Parses `X,Y,Z` metres.
fn point(text: &str) -> Result<Vec3, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers: Vec<f32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
    if parts.len() != 3 || numbers.len() != 3 || numbers.iter().any(|n: &f32| !n.is_finite() || n.abs() > 1e6) {
        return Err(format!(
            "--spawn needs X,Y,Z in metres (three finite numbers), got {text:?}"
        ));
    }
    Ok(Vec3::new(numbers[0], numbers[1], numbers[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_documented_flags() {
        let o = Options::parse(&args(
            "--headless --level a.glb --script s.json --tick-hz 144 --spawn 1,2.5,-3 --yaw 90",
        ))
        .unwrap();
        assert!(o.headless);
        assert_eq!(o.level, Some("a.glb".into()));
        assert_eq!(o.tick_hz, Some(144.0));
        assert_eq!(o.tick_hz(), 144.0);
        assert_eq!(o.spawn, Some(Vec3::new(1.0, 2.5, -3.0)));
        assert_eq!(o.yaw_deg, Some(90.0));
        let o = Options::parse(&args("--script s.json --settings my.json --rewind 6,1.5")).unwrap();
        assert_eq!(o.settings, Some("my.json".into()));
        assert_eq!(o.rewind, Some((6.0, 1.5)));
        assert_eq!(o.tick_hz(), 60.0);
        assert_eq!(Options::parse(&[]).unwrap(), Options::default());
    }

    #[test]
    fn bad_values_say_what_is_wrong() {
        for (a, says) in [
            ("--tick-hz 0", "between 1 and 1000"),
            ("--tick-hz fast", "needs a number"),
            ("--tick-hz NaN", "between 1 and 1000"),
            ("--spawn 1,2", "X,Y,Z"),
            ("--spawn 1,nan,2", "X,Y,Z"),
            ("--yaw inf", "finite"),
            ("--frames 0", "above 0"),
            ("--level", "needs a value"),
            ("--headless --level a.glb", "needs --script"),
            ("--rewind 5", "AT,BACK"),
            ("--rewind 5,11", "AT,BACK"),
            ("--rewind -1,1", "AT,BACK"),
            ("--rewind nan,1", "AT,BACK"),
            ("--headless --script s.json --rewind 5,1", "need a window"),
            ("--settings", "needs a value"),
            ("--wat", "unknown argument"),
        ] {
            let e = Options::parse(&args(a)).unwrap_err();
            assert!(e.contains(says), "{a}: {e}");
        }
    }
}
