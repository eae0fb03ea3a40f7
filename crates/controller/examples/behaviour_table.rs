//! Behaviour table: which stair risers and ramp angles our controller and
//! rapier3d's `KinematicCharacterController` climb, printed as markdown.
//!
//! Each case is a course from `slidewalk_controller::test_util` on a slab (top at
//! y = 0): a flight of 6 risers (0.4 m treads, a 3 m landing, 3 m wide) for
//! riser heights 0.05 … 0.45 m, or a ramp up to 1.5 m (3 m wide, a 4 m
//! platform on top) for angles 20° … 60°; then a finer look around the
//! step height and the walkable slope. The character starts standing with
//! its centre 1 m in front of the first riser or the ramp's foot, rests
//! 0.3 s, then walks forward (−z) at 4.5 m/s at 60 Hz for 4 s. **Climbed**:
//! the feet reached the top surface's height within 1 cm (the time it took
//! is printed; for a block, the highest the feet got).
//!
//! * **ours**: `Sim` with `ControllerConfig::default()` (ellipsoid radii 0.4,
//!   0.9, 0.4 m; step height 0.35 m; walkable up to 45°; snap 0.4 m). Every
//!   tick is checked by brute force for penetration.
//! * **rapier**: a capsule (radius 0.4 m, 1.8 m tall) on a trimesh collider
//!   of the same triangles, `max_slope_climb_angle` and
//!   `min_slope_slide_angle` 45°, `snap_to_ground` 0.4 m, with autostep
//!   (`max_height` 0.35 m, `min_width` 0.2 m, dynamic bodies excluded) and
//!   without. Gravity as in rapier's examples: the controller does not
//!   handle it, the caller adds it to the desired translation (a vertical
//!   speed gaining −9.81 m/s² · dt each tick, zeroed when grounded).
//!
//! `cargo run --release -p slidewalk_controller --example behaviour_table`

#[path = "../benches/peer/rapier.rs"]
mod rapier_peer;

use glam::{Quat, Vec3};
use rapier_peer::{CAPSULE_RADIUS, Rapier, RapierBody, RapierLevel, capsule, kinematic_controller};
use slidewalk_controller::test_util::{Sim, forward, ramp, slab, stairs};
use slidewalk_controller::{ControllerConfig, Intent};
use slidewalk_sweep::test_util::Soup;
use std::time::Instant;

/// Tick rate, Hz.
const HZ: f32 = 60.0;
/// Rest before walking, seconds.
const SETTLE: f32 = 0.3;
/// Walking time, seconds.
const WALK: f32 = 4.0;
/// Start: the centre this far in front (+z) of the first riser or the ramp's foot, metres.
const START_Z: f32 = 1.0;
/// "Climbed": the feet got this close to the top surface's height, metres.
const TOLERANCE: f32 = 0.01;
/// Risers of the flight.
const RISERS: u32 = 6;
/// Height of the ramps, metres.
const RAMP_HEIGHT: f32 = 1.5;
/// Centre to feet of both characters, metres.
const CENTRE_HEIGHT: f32 = 0.9;

fn main() {
    let started = Instant::now();
    let config = ControllerConfig::default();
    println!(
        "Climbing from standing, centre {START_Z} m in front, walking forward at {} m/s at {HZ} Hz for {WALK} s \
         (after {SETTLE} s at rest).",
        config.walk_speed
    );
    println!(
        "\"yes (t)\": the feet reached the top within {} cm after t seconds of walking; \
         \"no (h)\": the highest the feet got.",
        TOLERANCE * 100.0
    );
    println!(
        "ours: step height {} m, walkable {}°; rapier: capsule r {CAPSULE_RADIUS} m, 1.8 m tall, climb/slide angle 45°, \
         snap 0.4 m, autostep max height 0.35 m, min width 0.2 m.\n",
        config.step_height, config.walkable_slope_deg
    );

    let risers: Vec<f32> = (1..=9).map(|i| 0.05 * i as f32).collect();
    stairs_table(&format!("## Stairs: {RISERS} risers, 0.4 m treads"), &risers);
    let angles: Vec<f32> = (0..9).map(|i| 20.0 + 5.0 * i as f32).collect();
    ramps_table(&format!("## Ramps up to {RAMP_HEIGHT} m"), &angles);
    stairs_table("## Around the step height", &[0.33, 0.34, 0.35, 0.36, 0.37, 0.38]);
    ramps_table("## Around the walkable slope", &[43.0, 44.0, 45.0, 46.0, 47.0]);
    eprintln!("(done in {:.1} s)", started.elapsed().as_secs_f64());
}

/// One row per riser height: ours and rapier's, with and without autostep.
fn stairs_table(title: &str, risers: &[f32]) {
    println!("{title}\n");
    println!("| riser (m) | top (m) | ours | rapier, autostep | rapier, no autostep |");
    println!("|---:|---:|:---|:---|:---|");
    for &rise in risers {
        let mut course = Soup::default();
        slab(&mut course, 30.0, 0.0);
        stairs(&mut course, 0.0, rise, 0.4, RISERS, 3.0, 3.0);
        let top = rise * RISERS as f32;
        println!(
            "| {rise:.2} | {top:.2} | {} | {} | {} |",
            ours(&course, top),
            rapier(&course, top, true),
            rapier(&course, top, false)
        );
    }
    println!();
}

/// One row per ramp angle (degrees): ours and rapier's, with and without autostep.
fn ramps_table(title: &str, angles: &[f32]) {
    println!("{title}\n");
    println!("| angle (°) | ours | rapier, autostep | rapier, no autostep |");
    println!("|---:|:---|:---|:---|");
    for &angle in angles {
        let mut course = Soup::default();
        slab(&mut course, 30.0, 0.0);
        ramp(&mut course, 0.0, angle, RAMP_HEIGHT, 3.0, 4.0);
        println!(
            "| {angle:.0} | {} | {} | {} |",
            ours(&course, RAMP_HEIGHT),
            rapier(&course, RAMP_HEIGHT, true),
            rapier(&course, RAMP_HEIGHT, false)
        );
    }
    println!();
}

/// A table cell: climbed and when, or how high the feet got.
fn cell(feet_heights: impl Iterator<Item = f32>, top: f32) -> String {
    let mut highest = f32::MIN;
    for (i, feet) in feet_heights.enumerate() {
        if feet >= top - TOLERANCE {
            return format!("yes ({:.2} s)", (i + 1) as f32 / HZ);
        }
        highest = highest.max(feet);
    }
    format!("no ({highest:.2} m)")
}

/// Our controller on `course` (canonical frame, y up), default config.
fn ours(course: &Soup, top: f32) -> String {
    let mut sim = Sim::new(
        ControllerConfig::default(),
        course,
        Quat::IDENTITY,
        Vec3::new(0.0, 0.0, START_Z),
        HZ,
    );
    sim.run(SETTLE, Intent::default());
    let ticks = sim.run(WALK, forward());
    let extent = sim.state.radii.y;
    cell(ticks.iter().map(|t| t.position.y - extent), top)
}

/// rapier3d's controller on the same triangles, with or without autostep.
fn rapier(course: &Soup, top: f32, autostep: bool) -> String {
    let level = RapierLevel::new(course);
    let queries = level.queries();
    let kcc = kinematic_controller(autostep);
    let shape = capsule();
    let config = ControllerConfig::default();
    let r = Rapier {
        kcc: &kcc,
        queries: &queries,
        shape: &shape,
        config: &config,
    };
    let mut body = RapierBody::at(Vec3::new(0.0, CENTRE_HEIGHT + 0.01, START_Z));
    let dt = 1.0 / HZ;
    for _ in 0..(SETTLE * HZ).round() as usize {
        body.step(&r, Vec3::ZERO, false, dt);
    }
    let walk = forward().direction * config.walk_speed;
    let feet: Vec<f32> = (0..(WALK * HZ).round() as usize)
        .map(|_| {
            body.step(&r, walk, false, dt);
            body.position.y - CENTRE_HEIGHT
        })
        .collect();
    cell(feet.into_iter(), top)
}
