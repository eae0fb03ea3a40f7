//! The game's command line, parsed and checked without the engine.

use glam::Vec3;
use std::path::{Path, PathBuf};

/// Usage text printed with every command-line error.
pub const USAGE: &str = "\
usage: slidewalk [--level PATH] [--tick-hz N] [--spawn X,Y,Z] [--yaw DEG] [--settings FILE] [--crowd N]
                 [--record FILE] [--script FILE] [--rewind AT,BACK] [--screenshot PNG --frames N]
       slidewalk --headless --script FILE [--level PATH] [--tick-hz N] [--spawn X,Y,Z] [--yaw DEG] [--crowd N]";

/// Most agents `--crowd` may ask for (the game keeps at most this many).
pub const MAX_CROWD: usize = 20_000;

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
    /// Agents to spawn around the player when the level is in (0: none).
    pub crowd: usize,
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
            crowd: 0,
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
                    let hz: f64 = v.parse().map_err(|_| format!("--tick-hz needs a number, got {v:?}"))?;
                    o.tick_hz = Some(check_tick_hz(hz).map_err(|e| format!("--tick-hz {e}"))?);
                }
                "--spawn" => o.spawn = Some(point(&value("--spawn")?)?),
                "--yaw" => {
                    let v = value("--yaw")?;
                    let yaw: f64 = v.parse().map_err(|_| format!("--yaw needs degrees, got {v:?}"))?;
                    o.yaw_deg = Some(check_yaw_deg(yaw).map_err(|e| format!("--yaw {e}"))? as f32);
                }
                "--screenshot" => {
                    let v = value("--screenshot")?;
                    let png = Path::new(&v).extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
                    if !png {
                        return Err(format!("--screenshot needs a file name ending in .png, got {v:?}"));
                    }
                    o.screenshot = Some(v.into());
                }
                "--frames" => {
                    let v = value("--frames")?;
                    o.frames = v.parse().ok().filter(|n| (1..=MAX_FRAMES).contains(n)).ok_or(format!(
                        "--frames needs a whole number from 1 to {MAX_FRAMES}, got {v:?}"
                    ))?;
                }
                "--crowd" => {
                    let v = value("--crowd")?;
                    o.crowd = v.parse().ok().filter(|n| *n <= MAX_CROWD).ok_or(format!(
                        "--crowd needs a whole number of agents from 0 to {MAX_CROWD}, got {v:?}"
                    ))?;
                }
                "--record" => o.record = Some(value("--record")?.into()),
                "--settings" => o.settings = Some(value("--settings")?.into()),
                "--rewind" => {
                    let v = value("--rewind")?;
                    let parts: Vec<Option<f32>> = v.split(',').map(|p| p.trim().parse().ok()).collect();
                    match parts[..] {
                        [Some(at), Some(back)] if at > 0.0 && at <= 1e6 && (0.0..=10.0).contains(&back) => {
                            o.rewind = Some((at, back))
                        }
                        _ => {
                            return Err(format!(
                                "--rewind needs AT,BACK in seconds (AT above 0 and at most 1e6, BACK from 0 to 10), got {v:?}"
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

/// Most frames before `--screenshot` (about 14 hours at 20 frames a second).
pub const MAX_FRAMES: u32 = 1_000_000;

/// Ticks per second accepted (`--tick-hz`, a script's `tick_hz`).
pub const TICK_HZ_LIMITS: (f64, f64) = (1.0, 1000.0);
/// Largest coordinate of a start point accepted, metres (`--spawn`, a
/// script's `spawn` and start state): beyond it an `f32` position is
/// coarser than 6 cm, and collision does not work to its skin.
pub const COORDINATE_LIMIT: f64 = 1e6;
/// Largest heading accepted, degrees either way (`--yaw`, a script's
/// `yaw_deg`; headings are not wrapped, so a recording may pass 360).
pub const YAW_LIMIT_DEG: f64 = 1e6;

/// `x` as a message shows it: 1e30, not thirty-one digits.
pub(crate) fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-6..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// `hz` as ticks per second if it is within [`TICK_HZ_LIMITS`]; the
/// error says what is accepted.
pub fn check_tick_hz(hz: f64) -> Result<f32, String> {
    let (lo, hi) = TICK_HZ_LIMITS;
    if hz.is_finite() && (lo..=hi).contains(&hz) {
        Ok(hz as f32)
    } else {
        Err(format!(
            "must be between {lo} and {hi} ticks per second, got {}",
            shown(hz)
        ))
    }
}

/// `deg` if it is a heading within ±[`YAW_LIMIT_DEG`].
pub fn check_yaw_deg(deg: f64) -> Result<f64, String> {
    if deg.is_finite() && deg.abs() <= YAW_LIMIT_DEG {
        Ok(deg)
    } else {
        Err(format!(
            "must be degrees between -{YAW_LIMIT_DEG:e} and {YAW_LIMIT_DEG:e}, got {}",
            shown(deg)
        ))
    }
}

/// `xyz` as a point, metres, if every coordinate is within ±[`COORDINATE_LIMIT`].
pub fn check_point(xyz: [f64; 3]) -> Result<Vec3, String> {
    if xyz.iter().all(|c| c.is_finite() && c.abs() <= COORDINATE_LIMIT) {
        Ok(Vec3::new(xyz[0] as f32, xyz[1] as f32, xyz[2] as f32))
    } else {
        Err(format!(
            "must be [x, y, z] in metres, each between -{COORDINATE_LIMIT:e} and {COORDINATE_LIMIT:e}, got [{}]",
            xyz.map(shown).join(", ")
        ))
    }
}

/// The arguments as text (`std::env::args` panics on one that is not
/// UTF-8, such as a file name in another encoding); the error names the
/// argument.
pub fn text_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Vec<String>, String> {
    args.into_iter()
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| {
                format!(
                    "argument {} ({a:?}) is not valid UTF-8; give paths in UTF-8 (rename the file if need be)",
                    i + 1
                )
            })
        })
        .collect()
}

/// Parses `X,Y,Z` metres.
fn point(text: &str) -> Result<Vec3, String> {
    let bad = || format!("--spawn needs X,Y,Z in metres (three numbers, each between -1e6 and 1e6), got {text:?}");
    let numbers: Vec<f64> = text
        .split(',')
        .map(|p| p.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let xyz: [f64; 3] = numbers.try_into().map_err(|_| bad())?;
    check_point(xyz).map_err(|_| bad())
}

/// Checks before the game starts that `path` can be written (it is not a
/// folder, its folder exists, and a file can be made or appended to
/// there), so a `--record` or `--screenshot` that cannot be saved is
/// refused up front instead of failing after the play. A file made only
/// to try is removed again; an existing one is left as it was.
pub fn check_output(flag: &str, path: &Path) -> Result<(), String> {
    let fail = |why: String| Err(format!("{flag} {}: {why}", path.display()));
    if path.is_dir() {
        return fail("is a folder, not a file".into());
    }
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !folder.is_dir() {
        return fail(format!("the folder {} does not exist", folder.display()));
    }
    let existed = path.exists();
    match std::fs::OpenOptions::new().append(true).create(true).open(path) {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => fail(format!("cannot be written: {e}")),
    }
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
            "--headless --level a.glb --script s.json --tick-hz 144 --spawn 1,2.5,-3 --yaw 90 --crowd 1000",
        ))
        .unwrap();
        assert_eq!(o.crowd, 1000);
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
            ("--yaw inf", "between -1e6 and 1e6"),
            ("--yaw 1e30", "--yaw must be degrees between -1e6 and 1e6, got 1e30"),
            (
                "--tick-hz 1e30",
                "--tick-hz must be between 1 and 1000 ticks per second, got 1e30",
            ),
            ("--tick-hz 1e-30", "between 1 and 1000"),
            ("--spawn 1e30,0,0", "X,Y,Z"),
            ("--spawn 1,2,3,4", "X,Y,Z"),
            ("--spawn 1,,3", "X,Y,Z"),
            ("--frames -1", "from 1 to 1000000"),
            ("--crowd -1", "from 0 to 20000"),
            ("--crowd 20001", "from 0 to 20000"),
            ("--crowd 1e3", "from 0 to 20000"),
            ("--crowd", "needs a value"),
            ("--frames 18446744073709551616", "from 1 to 1000000"),
            ("--screenshot shot.jpg", "ending in .png"),
            ("--screenshot shot", "ending in .png"),
            ("--frames 0", "from 1 to 1000000"),
            ("--frames 4294967295", "from 1 to 1000000"),
            ("--rewind 1e30,1", "AT,BACK"),
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

    #[cfg(unix)]
    #[test]
    fn an_argument_that_is_not_utf8_is_an_error_not_a_panic() {
        use std::os::unix::ffi::OsStringExt;
        let args = vec!["--level".into(), std::ffi::OsString::from_vec(b"\xff.glb".to_vec())];
        let e = text_args(args).unwrap_err();
        assert!(e.starts_with("argument 2 (\"\\xFF.glb\") is not valid UTF-8"), "{e}");
        assert_eq!(text_args(["--yaw".into(), "90".into()]).unwrap(), ["--yaw", "90"]);
    }

    #[test]
    fn outputs_that_cannot_be_written_are_refused_up_front() {
        let dir = std::env::temp_dir().join(format!("slidewalk-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let shot = dir.join("shot.png");
        check_output("--screenshot", &shot).unwrap();
        assert!(!shot.exists(), "the file made to try is removed");
        std::fs::write(&shot, b"keep").unwrap();
        check_output("--screenshot", &shot).unwrap();
        assert_eq!(
            std::fs::read(&shot).unwrap(),
            b"keep",
            "an existing file is left as it was"
        );
        let e = check_output("--record", &dir).unwrap_err();
        assert!(e.starts_with("--record ") && e.contains("is a folder"), "{e}");
        let e = check_output("--record", &dir.join("missing").join("walk.json")).unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
