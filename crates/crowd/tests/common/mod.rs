//! What the crowd's tests, benchmark and profiling example share: the demo
//! level and a generated level, their doors and lifts moving on a schedule
//! (a door opens and closes again and again and turns back when it
//! squeezes an agent, as the game's does for the player), and an
//! independent check that two ellipsoids do not overlap.
#![allow(dead_code)]

use glam::{DVec3, Vec3};
use level::{Level, MoverKind};
use std::path::Path;
use sweep::{MeshCollider, PlacedCollider, Pose};

/// A brain that never stands still: no pauses, no wait when blocked (every
/// agent walks every tick; the benchmark's worst case).
pub fn always_walking() -> crowd::WanderConfig {
    crowd::WanderConfig {
        pause_chance: 0.0,
        blocked_wait_s: 0.0,
        ..Default::default()
    }
}

/// The demo level, `assets/levels/playground.glb`.
pub fn playground() -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
    level::load(&path).expect("the demo level loads")
}

/// `sweep::test_util::generated_level(triangles)` as a level without
/// doors, lifts or spawns.
pub fn generated(triangles: usize) -> Level {
    let soup = sweep::test_util::generated_level(triangles);
    let statics = MeshCollider::build(&soup.positions, &soup.triangles).expect("a generated level has triangles");
    Level {
        statics: Some(statics),
        static_surfaces: Vec::new(),
        surfaces: Vec::new(),
        static_analytic: Vec::new(),
        analytic: Vec::new(),
        movers: Vec::new(),
        spawns: Vec::new(),
        report: Default::default(),
    }
}

/// A level with its movers running: lifts up and down (their pause at each
/// end), doors opening and closing (2 s wait at each end), both turning
/// back when they squeeze someone.
pub struct Stage {
    pub level: Level,
    /// Seconds since the start.
    pub time: f64,
    /// Each mover's openness, direction and wait left (seconds).
    doors: Vec<(f32, bool, f32)>,
    before: Vec<Pose>,
    now: Vec<Pose>,
}

impl Stage {
    pub fn new(level: Level) -> Self {
        let rest: Vec<Pose> = level.movers.iter().map(|m| m.rest).collect();
        Self {
            doors: vec![(0.0, true, 2.0); level.movers.len()],
            before: rest.clone(),
            now: rest,
            level,
            time: 0.0,
        }
    }

    /// Moves the doors and lifts on by `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        self.time += dt as f64;
        self.before = std::mem::take(&mut self.now);
        for (door, m) in self.doors.iter_mut().zip(&self.level.movers) {
            // Seconds from one end to the other, and the wait at each end.
            let (travel, wait_s) = match m.kind {
                MoverKind::Door(spec) => (spec.open_seconds, 2.0),
                MoverKind::Lift(lift) => (lift.travel_seconds(), lift.pause_seconds),
            };
            let (openness, opening, wait) = door;
            if *wait > 0.0 {
                *wait -= dt;
                continue;
            }
            let step = dt / travel.max(1e-3);
            *openness = (*openness + if *opening { step } else { -step }).clamp(0.0, 1.0);
            if *openness == 0.0 || *openness == 1.0 {
                *opening = *openness == 0.0;
                *wait = wait_s;
            }
        }
        self.now = self
            .level
            .movers
            .iter()
            .zip(&self.doors)
            .map(|(m, door)| m.pose_at(door.0))
            .collect();
    }

    /// The colliders at this tick's poses (statics first, then the movers
    /// with their motion over the last tick as velocities).
    pub fn colliders(&self, dt: f32) -> Vec<PlacedCollider<'_>> {
        self.level.placed(&self.now, &self.before, dt)
    }

    /// Turns back the doors and lifts among `colliders` (indices as in
    /// [`Stage::colliders`]) that squeezed someone, as the game does for
    /// the player.
    pub fn turn_back(&mut self, colliders: &[usize]) {
        let first = self.level.statics.is_some() as usize;
        for &c in colliders {
            if let Some(door) = c.checked_sub(first).and_then(|i| self.doors.get_mut(i)) {
                door.1 = !door.1;
                door.2 = 0.0;
            }
        }
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
