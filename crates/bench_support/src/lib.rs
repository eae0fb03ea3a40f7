//! Helpers shared by the criterion benchmarks of the workspace: the level
//! sizes they run, choosing some by an environment variable, and reading
//! criterion's medians back for a summary table. A dev-dependency of the
//! benchmarks only (it reads files; the crates it measures do no I/O).
//!
//! ```
//! // With `SWEEP_BENCH_SIZES` unset, every size runs.
//! let sizes = bench_support::selected_sizes("BENCH_SUPPORT_DOCTEST_UNSET");
//! assert_eq!(sizes.len(), bench_support::LEVEL_SIZES.len());
//! ```
#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Generated level sizes (target triangles) and their names.
pub const LEVEL_SIZES: [(usize, &str); 3] = [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")];

/// The sizes to run: all of [`LEVEL_SIZES`], or those named in the
/// environment variable `var` (e.g. `10k,1M`).
///
/// # Panics
/// On a name that is not a known size.
pub fn selected_sizes(var: &str) -> Vec<(usize, &'static str)> {
    selected_levels(var, &LEVEL_SIZES)
}

/// The entries of `known` (triangles, name) to run: all of them, or those
/// named in the environment variable `var` (comma separated, any case).
///
/// # Panics
/// On a name that is not in `known`.
pub fn selected_levels(var: &str, known: &[(usize, &'static str)]) -> Vec<(usize, &'static str)> {
    let Ok(list) = std::env::var(var) else {
        return known.to_vec();
    };
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            *known
                .iter()
                .find(|(_, l)| l.eq_ignore_ascii_case(s))
                .unwrap_or_else(|| {
                    let names: Vec<&str> = known.iter().map(|(_, l)| *l).collect();
                    panic!("{var}: unknown level {s:?}, expected one of {}", names.join(", "))
                })
        })
        .collect()
}

/// Where criterion writes its results (as criterion itself decides, short of
/// asking `cargo metadata`: a bench runs from `<target>/<profile>/deps`).
pub fn criterion_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(home.into());
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// Criterion's median (ns per iteration) of the benchmark `group`/`id`, if
/// measured since `since` (criterion turns an id's slashes into
/// underscores on disk).
pub fn criterion_median_ns(dir: &Path, group: &str, id: &str, since: SystemTime) -> Option<f64> {
    let path = dir
        .join(group)
        .join(id.replace('/', "_"))
        .join("new")
        .join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None; // left over from an earlier run
    }
    let json = std::fs::read_to_string(path).ok()?;
    let median = &json[json.find("\"median\"")?..];
    let value = &median[median.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}
