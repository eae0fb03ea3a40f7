//! What the crowd's tests, benchmark and profiling example share: the demo
//! level and a generated level, their doors and lifts running by the game's
//! rules, and an independent check that two ellipsoids do not overlap.
#![allow(dead_code)]

use glam::{DVec3, Vec3};
use slidewalk_level::Level;
use slidewalk_level_tools::MoverSchedule;
use slidewalk_sweep::{MeshCollider, PlacedCollider};
use std::path::Path;

/// A brain that never stands still: no pauses, no wait when blocked (every
/// agent walks every tick; the benchmark's worst case).
pub fn always_walking() -> slidewalk_crowd::WanderConfig {
    slidewalk_crowd::WanderConfig {
        pause_chance: 0.0,
        blocked_wait_s: 0.0,
        ..Default::default()
    }
}

/// The demo level, `assets/levels/playground.glb`.
pub fn playground() -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
    slidewalk_level::load(&path).expect("the demo level loads")
}

/// `slidewalk_sweep::test_util::generated_level(triangles)` as a level without
/// doors, lifts or spawns.
pub fn generated(triangles: usize) -> Level {
    let soup = slidewalk_sweep::test_util::generated_level(triangles);
    let statics = MeshCollider::build(&soup.positions, &soup.triangles).expect("a generated level has triangles");
    Level {
        statics: Some(statics),
        static_surfaces: Vec::new(),
        surfaces: Vec::new(),
        static_analytic: Vec::new(),
        analytic: Vec::new(),
        movers: Vec::new(),
        parts: Vec::new(),
        sensors: Vec::new(),
        water: Vec::new(),
        spawns: Vec::new(),
        report: Default::default(),
    }
}

/// A level with its movers running by the game's rules
/// ([`slidewalk_level_tools::MoverSchedule`]: doors opening and closing again and
/// again, lifts on their schedule, both turning back when they squeeze
/// someone).
pub struct Stage {
    pub level: Level,
    /// Seconds since the start.
    pub time: f64,
    movers: MoverSchedule,
}

impl Stage {
    pub fn new(level: Level) -> Self {
        Self {
            movers: MoverSchedule::new(&level),
            level,
            time: 0.0,
        }
    }

    /// Moves the doors and lifts on by `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        self.time += dt as f64;
        self.movers.advance(&self.level, dt);
    }

    /// The colliders at this tick's poses (statics first, then the movers
    /// with their motion over the last tick as velocities).
    pub fn colliders(&self, dt: f32) -> Vec<PlacedCollider<'_>> {
        self.movers.colliders(&self.level, dt)
    }

    /// Turns back the doors and lifts among `colliders` (indices as in
    /// [`Stage::colliders`]) that squeezed someone, as the game does for
    /// the player.
    pub fn turn_back(&mut self, colliders: &[usize]) {
        self.movers.turn_back(&self.level, colliders.iter().copied());
    }
}

/// Whether two axis-aligned ellipsoids overlap by more than `tolerance`
/// (metres, roughly), decided independently of the crate's own test: the
/// smallest value of b's implicit function `Σ((x − c_b)/r_b)²` over a's
/// surface, by a fine sweep of a's surface refined by local search (both
/// are convex: they overlap when it is below 1, or when one's centre is
/// inside the other).
pub fn overlap(a: (Vec3, Vec3), b: (Vec3, Vec3), tolerance: f64) -> bool {
    let (ca, ra) = (a.0.as_dvec3(), a.1.as_dvec3());
    let (cb, rb) = (b.0.as_dvec3(), b.1.as_dvec3());
    // Bounding spheres apart: no overlap.
    if (ca - cb).length() > ra.max_element() + rb.max_element() {
        return false;
    }
    if ((cb - ca) / ra).length() < 1.0 || ((ca - cb) / rb).length() < 1.0 {
        return true;
    }
    // b's implicit function at a's surface point (θ, φ).
    let f = |th: f64, ph: f64| {
        let x = ca + ra * DVec3::new(ph.cos() * th.cos(), ph.sin(), ph.cos() * th.sin());
        ((x - cb) / rb).length_squared()
    };
    let (n_th, n_ph) = (48, 24);
    let mut best = (f64::INFINITY, 0.0, 0.0);
    for i in 0..n_th {
        for j in 0..=n_ph {
            let th = i as f64 / n_th as f64 * std::f64::consts::TAU;
            let ph = (j as f64 / n_ph as f64 - 0.5) * std::f64::consts::PI;
            let v = f(th, ph);
            if v < best.0 {
                best = (v, th, ph);
            }
        }
    }
    // Local search around the best sample, halving the step.
    let (mut v, mut th, mut ph) = best;
    let mut h = std::f64::consts::TAU / n_th as f64;
    while h > 1e-9 {
        let mut improved = false;
        for (dt, dp) in [
            (h, 0.0),
            (-h, 0.0),
            (0.0, h),
            (0.0, -h),
            (h, h),
            (-h, -h),
            (h, -h),
            (-h, h),
        ] {
            let w = f(
                th + dt,
                (ph + dp).clamp(-std::f64::consts::FRAC_PI_2, std::f64::consts::FRAC_PI_2),
            );
            if w < v {
                (v, th, ph) = (
                    w,
                    th + dt,
                    (ph + dp).clamp(-std::f64::consts::FRAC_PI_2, std::f64::consts::FRAC_PI_2),
                );
                improved = true;
            }
        }
        if !improved {
            h *= 0.5;
        }
    }
    // v < 1 means a's surface reaches inside b; by how much, roughly in
    // metres: (1 − √v) times b's smallest radius.
    v < 1.0 && (1.0 - v.sqrt()) * rb.min_element() > tolerance
}
