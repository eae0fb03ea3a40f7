//! How the level checker's walks are run: their number and length, the
//! tick, the walkers' controller, the seed, soak mode and threads.

use slidewalk_controller::ControllerConfig;

/// How the walks are run.
#[derive(Clone, Copy, Debug)]
pub struct CheckConfig {
    /// Number of walks (walkers).
    pub walks: u32,
    /// Ticks per walk (at `dt`).
    pub ticks: u32,
    /// Tick length, seconds.
    pub dt: f32,
    /// The walkers' controller (default: the game's defaults).
    pub controller: ControllerConfig,
    /// Seed of the walk generator. Walk `k` draws from its own generator
    /// seeded from this and `k`, so results do not depend on `threads`.
    pub seed: u64,
    /// Soak mode: a walker that walked off the level, fell through a
    /// surface, went non-finite or got stuck is counted and placed again, so
    /// every walker walks all its `ticks`; walkers that start at a door or
    /// lift are placed there again every 60 s (`SOAK_REVISIT_SECONDS`), so the
    /// movers keep meeting walkers all the time. Off: such a walk ends there.
    pub soak: bool,
    /// Threads running walks; 0 = one per core.
    pub threads: usize,
}

/// In soak mode, how often (simulated seconds) a walker that starts at a
/// door or lift is placed there again.
pub const SOAK_REVISIT_SECONDS: f32 = 60.0;

impl CheckConfig {
    /// `walks` walks of `ticks` ticks each, everything else as by default
    /// (a quick check; the default is 32 walks of 600 ticks).
    pub fn short(walks: u32, ticks: u32) -> Self {
        Self {
            walks,
            ticks,
            ..Self::default()
        }
    }
}

impl Default for CheckConfig {
    fn default() -> Self {
        Self {
            walks: 32,
            ticks: 600,
            dt: 1.0 / 60.0,
            controller: ControllerConfig::default(),
            seed: 1,
            soak: false,
            threads: 0,
        }
    }
}
