//! The exact verdict on our answer (the first contact among candidate
//! triangles, in f64) and the bookkeeping of a comparison with parry:
//! agreements, grazing cases, disagreements settled by the exact distance,
//! time-of-impact percentiles, and the checks that end each test.

use crate::exact::Path;
use parry3d::query::ShapeCastStatus;

/// Relative (of the scale) tolerance of our own exactness.
pub(crate) const REL_TOL: f64 = 1e-5;
/// Relative (of the scale) band around the radius where hit/no-hit is not compared.
const GRAZE: f64 = 2e-3;
/// Largest `|t_ours − t_parry|` (fraction of the motion) accepted without adjudication.
const TOI_TOL: f64 = 5e-3;

impl Path {
    /// First time in `[0, 1]` at which the distance is the radius.
    fn first_contact(&self) -> Option<f64> {
        if self.dist(0.0) <= self.radius {
            return Some(0.0);
        }
        // Minimiser by golden section, then bisection on the decreasing part.
        let (mut lo, mut hi) = (0.0, 1.0);
        const G: f64 = 0.618_033_988_749_894_8;
        for _ in 0..90 {
            let x1 = hi - G * (hi - lo);
            let x2 = lo + G * (hi - lo);
            if self.dist(x1) <= self.dist(x2) {
                hi = x2;
            } else {
                lo = x1;
            }
        }
        let tm = if self.dist(1.0) < self.dist(lo) { 1.0 } else { lo };
        if self.dist(tm) > self.radius {
            return None;
        }
        Some(self.first_touch_before(tm))
    }
}

/// Is our answer exact for these paths (the earliest contact among them)?
/// `Err` says why not.
fn ours_is_exact(paths: &[Path], ours: Option<f64>, tol: f64) -> Result<(), String> {
    let radius = paths[0].radius;
    match ours {
        None => {
            let dmin = paths.iter().map(|p| p.min_on(0.0, 1.0).1).fold(f64::INFINITY, f64::min);
            if dmin < radius - tol {
                return Err(format!("we miss, but the path comes within {dmin} (radius {radius})"));
            }
        }
        Some(t) => {
            let d = paths.iter().map(|p| p.dist(t)).fold(f64::INFINITY, f64::min);
            if (d - radius).abs() > tol {
                return Err(format!("our hit at t = {t} is at distance {d} (radius {radius})"));
            }
            let dmin = paths.iter().map(|p| p.min_on(0.0, t).1).fold(f64::INFINITY, f64::min);
            if dmin < radius - tol {
                return Err(format!(
                    "our hit at t = {t} is late: the path is already {dmin} away before it"
                ));
            }
        }
    }
    Ok(())
}

#[derive(Default)]
pub(crate) struct Comparison {
    name: &'static str,
    pub(crate) cases: usize,
    both_hit: usize,
    pub(crate) both_miss: usize,
    grazing: usize,
    /// Hit/no-hit disagreements inside the grazing band (accepted).
    grazing_disagreements: usize,
    /// Hit/no-hit disagreements outside the band where parry is the wrong one.
    parry_wrong_hit: usize,
    /// `|t_ours − t_parry| > TOI_TOL` where parry is the wrong one.
    parry_wrong_toi: usize,
    /// Every case where ours is not exact (beyond `REL_TOL × scale`): must be none.
    pub(crate) ours_wrong: Vec<String>,
    /// `|t_ours − t_parry|` over non-grazing cases where both hit.
    dt: Vec<f64>,
    /// `|t_parry − t_exact|` and `|t_ours − t_exact|` over the same cases.
    dt_parry_exact: Vec<f64>,
    dt_ours_exact: Vec<f64>,
    parry_not_converged: usize,
    /// Largest `|min distance − r| / scale` among hit/no-hit disagreements in the grazing band.
    max_disagreement_graze: f64,
    /// The hit/no-hit disagreements outside the band settled for us (parry wrong).
    parry_wrong_examples: Vec<String>,
    /// Largest `|dist(t_parry) − r|` where parry's time was off by more than `TOI_TOL`.
    max_parry_residual: f64,
}

fn percentile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

impl Comparison {
    pub(crate) fn new(name: &'static str) -> Self {
        Self {
            name,
            ..Default::default()
        }
    }

    /// Records one case: `paths` are all the candidate triangles (the exact
    /// answer is the earliest contact among them), `scale` the case's size.
    pub(crate) fn record(
        &mut self,
        paths: &[Path],
        ours: Option<f64>,
        parry: Option<(f32, ShapeCastStatus)>,
        scale: f64,
        what: impl Fn() -> String,
    ) {
        self.cases += 1;
        let radius = paths[0].radius;
        let tol = REL_TOL * scale;
        if let Some((_, s)) = parry
            && s != ShapeCastStatus::Converged
        {
            self.parry_not_converged += 1;
        }
        let parry_t = parry.map(|(t, _)| t as f64);
        let dmin = paths.iter().map(|p| p.min_on(0.0, 1.0).1).fold(f64::INFINITY, f64::min);
        let grazing = (dmin - radius).abs() <= GRAZE * scale;
        self.grazing += grazing as usize;
        let exact = paths
            .iter()
            .filter_map(Path::first_contact)
            .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.min(t))));
        // Our exactness is checked on every case, whatever parry says.
        let verdict = ours_is_exact(paths, ours, tol);
        if let Err(e) = &verdict {
            self.ours_wrong
                .push(format!("{}: ours {ours:?}, parry {parry_t:?}: {e}", what()));
        }
        match (ours, parry_t) {
            (None, None) => self.both_miss += 1,
            (Some(to), Some(tp)) => {
                self.both_hit += 1;
                let dt = (to - tp).abs();
                if !grazing {
                    self.dt.push(dt);
                    if let Some(te) = exact {
                        self.dt_parry_exact.push((tp - te).abs());
                        self.dt_ours_exact.push((to - te).abs());
                    }
                }
                // Ours is checked above: a large difference is parry's error
                // when ours is exact (and a failure of ours otherwise).
                if dt > TOI_TOL && verdict.is_ok() {
                    self.parry_wrong_toi += 1;
                    let d = paths.iter().map(|p| p.dist(tp)).fold(f64::INFINITY, f64::min);
                    self.max_parry_residual = self.max_parry_residual.max((d - radius).abs());
                }
            }
            (o, p) => {
                if grazing {
                    self.grazing_disagreements += 1;
                    self.max_disagreement_graze = self.max_disagreement_graze.max((dmin - radius).abs() / scale);
                } else if verdict.is_ok() {
                    self.parry_wrong_hit += 1;
                    self.parry_wrong_examples.push(format!(
                        "{}: ours {o:?}, parry {p:?}, min distance {dmin} (radius {radius})",
                        what()
                    ));
                }
            }
        }
    }

    pub(crate) fn report(&mut self) {
        let (dt_max, dt_p99, dt_p50) = (
            percentile(&mut self.dt, 1.0),
            percentile(&mut self.dt, 0.99),
            percentile(&mut self.dt, 0.5),
        );
        let (pe_max, pe_p99) = (
            percentile(&mut self.dt_parry_exact, 1.0),
            percentile(&mut self.dt_parry_exact, 0.99),
        );
        let (oe_max, oe_p99) = (
            percentile(&mut self.dt_ours_exact, 1.0),
            percentile(&mut self.dt_ours_exact, 0.99),
        );
        println!(
            "[{}] {} cases: {} both hit, {} both miss; grazing (|min dist − r| ≤ {GRAZE}·scale) {}, of which hit/no-hit differ {}",
            self.name, self.cases, self.both_hit, self.both_miss, self.grazing, self.grazing_disagreements
        );
        println!(
            "[{}]   |t_ours − t_parry| (both hit, not grazing): max {dt_max:.3e}, p99 {dt_p99:.3e}, p50 {dt_p50:.3e}",
            self.name
        );
        println!(
            "[{}]   |t_parry − t_exact|: max {pe_max:.3e}, p99 {pe_p99:.3e}; |t_ours − t_exact|: max {oe_max:.3e}, p99 {oe_p99:.3e}",
            self.name
        );
        println!(
            "[{}]   disagreements outside the grazing band, settled for us by the exact distance: hit/no-hit {}, |Δt| > {TOI_TOL} {} (parry's distance there off by up to {:.3e})",
            self.name, self.parry_wrong_hit, self.parry_wrong_toi, self.max_parry_residual,
        );
        println!(
            "[{}]   cases where ours is not exact (to {REL_TOL}·scale): {}",
            self.name,
            self.ours_wrong.len()
        );
        println!(
            "[{}]   hit/no-hit disagreements in the grazing band have |min dist − r| ≤ {:.3e}·scale; parry not converged: {}",
            self.name, self.max_disagreement_graze, self.parry_not_converged
        );
        for w in self.parry_wrong_examples.iter().take(5) {
            println!("[{}]   parry wrong: {w}", self.name);
        }
    }

    /// The assertions shared by the tests: ours is exact in every case.
    pub(crate) fn check(&self) {
        assert!(
            self.ours_wrong.is_empty(),
            "[{}] ours is not exact in {} cases:\n{}",
            self.name,
            self.ours_wrong.len(),
            self.ours_wrong[..self.ours_wrong.len().min(8)].join("\n")
        );
        // Parry being "wrong" often would mean the harness feeds it something
        // else than what we sweep: it is right to ~1e-3 almost always.
        let parry_wrong = self.parry_wrong_hit + self.parry_wrong_toi;
        assert!(
            parry_wrong * 200 <= self.cases,
            "[{}] parry disagrees with the exact answer in {parry_wrong} cases",
            self.name
        );
        // Enough of both outcomes for the comparison to mean something.
        assert!(
            self.both_hit * 10 >= self.cases && self.both_miss * 10 >= self.cases,
            "[{}] unbalanced cases",
            self.name
        );
    }
}
