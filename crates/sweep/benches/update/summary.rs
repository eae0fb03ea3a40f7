//! The benchmarked names and the summary printed at the end: criterion's
//! medians of this run side by side, with the ratios.

use bench_support::{criterion_dir, criterion_median_ns};
use std::time::{Duration, SystemTime};

/// The benchmarked names, in the order of the summary columns.
pub(crate) const BENCHES: [&str; 5] = [
    "sweep_bvh",
    "sweep_brute_force",
    "update",
    "sphere_sweep_bvh",
    "sphere_parry3d",
];

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Prints the medians measured by this run side by side, with the ratios.
pub(crate) fn print_summary(sizes: &[(usize, &str)], since: SystemTime) {
    let Some(dir) = criterion_dir() else { return };
    let rows: Vec<(&str, [Option<f64>; 5])> = sizes
        .iter()
        .map(|&(_, label)| (label, BENCHES.map(|b| criterion_median_ns(&dir, label, b, since))))
        .collect();
    if rows.iter().all(|(_, cells)| cells.iter().all(Option::is_none)) {
        return; // smoke run (--test), listing, or everything filtered out
    }
    let us = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |ns| format!("{:.3}", ns / 1e3));
    let ratio = |a: Option<f64>, b: Option<f64>| {
        a.zip(b)
            .map_or_else(|| "-".to_string(), |(a, b)| format!("{:.1}x", a / b))
    };
    println!(
        "\nsummary: criterion medians, microseconds per call (from {})",
        dir.display()
    );
    println!(
        "{:>11} {:>11} {:>13} {:>11} {:>10} {:>14} {:>13} {:>13}",
        "level", "sweep_bvh", "brute_force", "brute/bvh", "update", "sphere_bvh", "parry3d", "parry/ours"
    );
    for (label, [bvh, brute, update, sphere, parry]) in rows {
        println!(
            "{:>11} {:>11} {:>13} {:>11} {:>10} {:>14} {:>13} {:>13}",
            label,
            us(bvh),
            us(brute),
            ratio(brute, bvh),
            us(update),
            us(sphere),
            us(parry),
            ratio(parry, sphere)
        );
    }
}
