//! The benchmark's printed figures: what the players did over some updates
//! (outside the timings), and at the end a summary of criterion's medians.

use super::players::{OurPlayer, RapierPlayer};
use super::{CYCLE, Peer};
use crate::rapier_peer::Rapier;
use bench_support::{criterion_dir, criterion_median_ns};
use slidewalk_controller::{Controller, Intent, Surroundings};
use std::time::SystemTime;

/// What players did over some updates.
#[derive(Default)]
pub struct Stats {
    updates: usize,
    sweeps: u64,
    contacts: u64,
    grounded: usize,
    stepped: usize,
    jumped: usize,
    /// Updates that started and ended on the ground (walking ticks), and
    /// the sweeps and settles they ran.
    walking: usize,
    walking_sweeps: u64,
    walking_settles: u64,
    /// Horizontal distance walked, metres (the jump back to the spawn not counted).
    walked: f64,
}

impl Stats {
    pub fn print(&self, peer: Peer, kind: &str, ticks: usize) {
        let n = self.updates as f64;
        let cycles = ticks as f64 / CYCLE as f64;
        let per_update = |v: u64| v as f64 / n;
        let pct = |v: usize| 100.0 * v as f64 / n;
        match peer {
            Peer::Ours => println!(
                "{:<18} {kind}: {:.2} sweeps per update, {:.2} contacts; grounded {:.0} %, stepped {:.1} %, {} jumps; \
                 {:.1} m walked per player-cycle; per walking tick {:.3} sweeps and {:.3} settles",
                peer.name(),
                per_update(self.sweeps),
                per_update(self.contacts),
                pct(self.grounded),
                pct(self.stepped),
                self.jumped,
                self.walked / cycles,
                self.walking_sweeps as f64 / self.walking.max(1) as f64,
                self.walking_settles as f64 / self.walking.max(1) as f64,
            ),
            _ => println!(
                "{:<18} {kind}: {:.2} shape-cast hits per update; grounded {:.0} %, {} jumps; \
                 {:.1} m walked per player-cycle",
                peer.name(),
                per_update(self.sweeps),
                pct(self.grounded),
                self.jumped,
                self.walked / cycles
            ),
        }
    }
}

/// `ticks` updates of copies of `players`, round-robin.
pub fn run_ours(
    controller: &Controller,
    world: &Surroundings<'_>,
    players: &[OurPlayer],
    script: &[Intent],
    ticks: usize,
) -> Stats {
    let mut players = players.to_vec();
    let mut stats = Stats::default();
    for i in 0..ticks {
        let k = players.len();
        let p = &mut players[i % k];
        let before = p.state.position;
        let stood = p.state.ground.is_some();
        let report = p.tick(controller, world, script);
        let after = p.state.position;
        if p.cursor.tick != 1 {
            stats.walked += f64::from((after - before).with_y(0.0).length());
        }
        stats.updates += 1;
        stats.sweeps += u64::from(report.sweeps);
        stats.contacts += report.contacts.len() as u64;
        stats.grounded += usize::from(report.ground.is_some());
        stats.stepped += usize::from(report.stepped);
        stats.jumped += usize::from(report.jumped);
        if stood && report.ground.is_some() {
            stats.walking += 1;
            stats.walking_sweeps += u64::from(report.sweeps);
            stats.walking_settles += u64::from(report.settles);
        }
    }
    stats
}

/// `ticks` updates of copies of `players` by rapier's controller, round-robin.
pub fn run_rapier(r: &Rapier<'_>, players: &[RapierPlayer], script: &[Intent], ticks: usize) -> Stats {
    let mut players = players.to_vec();
    let mut stats = Stats::default();
    for i in 0..ticks {
        let k = players.len();
        let p = &mut players[i % k];
        let before = p.body.position;
        let report = p.tick(r, script);
        if p.cursor.tick != 1 {
            stats.walked += f64::from((p.body.position - before).with_y(0.0).length());
        }
        stats.updates += 1;
        stats.sweeps += u64::from(report.hits);
        stats.grounded += usize::from(report.grounded);
        stats.jumped += usize::from(report.jumped);
    }
    stats
}

/// Prints the medians measured by this run side by side, with rapier's
/// time over ours.
pub fn print_summary(sizes: &[(usize, &str)], since: SystemTime) {
    let Some(dir) = criterion_dir() else { return };
    let cell = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |ns| format!("{:.2}", ns / 1e3));
    let ratio = |a: Option<f64>, b: Option<f64>| {
        a.zip(b)
            .map_or_else(|| "-".to_string(), |(a, b)| format!("{:.1}x", a / b))
    };
    let mut printed_header = false;
    for kind in ["warm", "cold"] {
        for &(_, label) in sizes {
            let [ours, auto, plain] =
                Peer::ALL.map(|p| criterion_median_ns(&dir, "update", &format!("{}/{kind}/{label}", p.name()), since));
            if [ours, auto, plain].iter().all(Option::is_none) {
                continue; // smoke run (--test), listing, or filtered out
            }
            if !printed_header {
                println!(
                    "\nsummary: criterion medians, microseconds per update (from {})",
                    dir.display()
                );
                println!(
                    "{:>5} {:>6} {:>9} {:>16} {:>10} {:>19} {:>10}",
                    "", "level", "ours", "rapier autostep", "/ ours", "rapier no autostep", "/ ours"
                );
                printed_header = true;
            }
            println!(
                "{kind:>5} {label:>6} {:>9} {:>16} {:>10} {:>19} {:>10}",
                cell(ours),
                cell(auto),
                ratio(auto, ours),
                cell(plain),
                ratio(plain, ours)
            );
        }
    }
}
