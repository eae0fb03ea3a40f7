//! The game's command line, parsed and checked without the engine.

use glam::Vec3;
use std::path::{Path, PathBuf};

/// Usage text printed with every command-line error.
pub const USAGE: &str = "\
usage: slidewalk [--level PATH] [--tick-hz N] [--spawn X,Y,Z] [--yaw DEG] [--settings FILE] [--crowd N]
                 [--record FILE] [--script FILE] [--rewind AT,BACK] [--screenshot PNG --frames N]
                 [--p2p LOCAL_PORT --peer ADDR[:PORT] [--input-delay FRAMES] [--net-loss FRACTION] [--net-jitter MS] [--peer-wait SECONDS]]
       slidewalk --headless --script FILE [--level PATH] [--tick-hz N] [--spawn X,Y,Z] [--yaw DEG] [--crowd N]
                            [--p2p LOCAL_PORT --peer ADDR[:PORT] ...]";

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
    /// Play against `peer` over UDP from this local port (rollback netcode).
    pub p2p: Option<u16>,
    /// The other player's address, `ADDR[:PORT]`, as given: resolving it
    /// needs the network, so the game reads it (`slidewalk_net::parse_peer`).
    pub peer: Option<String>,
    /// Ticks between a key press and its effect in a P2P game (0 to
    /// [`MAX_INPUT_DELAY`], default 2): more hides more latency, less rollback.
    pub input_delay: usize,
    /// Share of this peer's outgoing datagrams dropped on purpose, 0 to
    /// below 1 (default 0): for tests of a poor connection.
    pub net_loss: f32,
    /// Longest delay of this peer's outgoing datagrams, milliseconds (0 to
    /// [`MAX_NET_JITTER_MS`], default 0): each waits a random time up to
    /// it, so they also arrive out of order. For tests of a poor connection.
    pub net_jitter_ms: u32,
    /// How long to wait for the peer's first answer, seconds (default 15).
    pub peer_wait: f32,
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
            p2p: None,
            peer: None,
            input_delay: 2,
            net_loss: 0.0,
            net_jitter_ms: 0,
            peer_wait: 15.0,
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
        // The flags given that only mean something with --p2p.
        let mut p2p_only: Vec<&str> = Vec::new();
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
                "--p2p" => {
                    let v = value("--p2p")?;
                    o.p2p = Some(
                        v.parse()
                            .ok()
                            .filter(|port| *port != 0)
                            .ok_or(format!("--p2p needs a UDP port from 1 to 65535, got {v:?}"))?,
                    );
                }
                "--peer" => {
                    let v = value("--peer")?;
                    if v.trim().is_empty() {
                        return Err("--peer needs ADDR[:PORT], got an empty value".into());
                    }
                    o.peer = Some(v);
                }
                "--input-delay" => {
                    let v = value("--input-delay")?;
                    o.input_delay = v.parse().ok().filter(|n| *n <= MAX_INPUT_DELAY).ok_or(format!(
                        "--input-delay needs a whole number of ticks from 0 to {MAX_INPUT_DELAY}, got {v:?}"
                    ))?;
                    p2p_only.push("--input-delay");
                }
                "--net-loss" => {
                    let v = value("--net-loss")?;
                    o.net_loss = v
                        .parse()
                        .ok()
                        .filter(|f: &f32| (0.0..1.0).contains(f))
                        .ok_or(format!("--net-loss needs a fraction from 0 to below 1, got {v:?}"))?;
                    p2p_only.push("--net-loss");
                }
                "--net-jitter" => {
                    let v = value("--net-jitter")?;
                    o.net_jitter_ms = v.parse().ok().filter(|ms| *ms <= MAX_NET_JITTER_MS).ok_or(format!(
                        "--net-jitter needs whole milliseconds from 0 to {MAX_NET_JITTER_MS}, got {v:?}"
                    ))?;
                    p2p_only.push("--net-jitter");
                }
                "--peer-wait" => {
                    let v = value("--peer-wait")?;
                    let (lo, hi) = PEER_WAIT_LIMITS_S;
                    o.peer_wait = v
                        .parse()
                        .ok()
                        .filter(|s: &f32| (lo..=hi).contains(s))
                        .ok_or(format!("--peer-wait needs seconds from {lo} to {hi}, got {v:?}"))?;
                    p2p_only.push("--peer-wait");
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
        match (o.p2p, &o.peer) {
            (Some(_), None) => return Err("--p2p needs --peer ADDR[:PORT] (the other player's address)".into()),
            (None, Some(_)) => return Err("--peer needs --p2p LOCAL_PORT (the UDP port this game listens on)".into()),
            (None, None) if !p2p_only.is_empty() => {
                return Err(format!(
                    "{} only applies to a P2P game (add --p2p and --peer)",
                    p2p_only[0]
                ));
            }
            _ => {}
        }
        if o.p2p.is_some() && o.crowd > 0 {
            return Err("--p2p cannot go with --crowd: the crowd is not played over the network".into());
        }
        if o.p2p.is_some() && (o.rewind.is_some() || o.record.is_some()) {
            return Err(
                "--p2p cannot go with --rewind or --record: a rewind of one player's view would put \
                 the two games out of step, and a recording would replay one player without the other"
                    .into(),
            );
        }
        Ok(o)
    }
}

/// Most ticks of `--input-delay`.
pub const MAX_INPUT_DELAY: usize = 8;

/// Longest `--net-jitter`, milliseconds.
pub const MAX_NET_JITTER_MS: u32 = 1000;

/// Shortest and longest `--peer-wait`, seconds.
pub const PEER_WAIT_LIMITS_S: (f32, f32) = (0.1, 600.0);

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
mod tests;
