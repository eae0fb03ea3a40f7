//! The walking tick's collision work, counted: N characters walking 1.5 m
//! circles at 4.5 m/s (the peers' scenario) on the peers' level
//! (`generated_level(81_000)`), the demo level or a 1M-triangle generated
//! level, `ControllerConfig::default()`, 60 Hz, dropped at random points
//! at least 4 m inside the level's bounds and settled 1.5 s first.
//!
//! Prints, over the walking ticks (on the ground before and after): the
//! sweeps (`TickReport::sweeps`) and the settles (`TickReport::settles`)
//! per tick, how many ticks ran 0, 1, 2, … sweeps, and a checksum of the
//! final positions (a change that keeps behaviour keeps it, bit for bit).
//! The ticks are in `walk_circles`, for instruction counts:
//!
//! ```text
//! cargo build --release -p slidewalk_controller --example walking_cost
//! valgrind --tool=callgrind --toggle-collect='*walk_circles*' \
//!     $CARGO_TARGET_DIR/release/examples/walking_cost peers 100 300   # level (peers, demo, 1m), characters, ticks
//! ```

use glam::Vec3;
use slidewalk_controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickReport};
use slidewalk_sweep::test_util::{Lcg, generated_level};
use slidewalk_sweep::{ContactResponse, Ellipsoid, MeshCollider, PlacedCollider, SlideOptions, collide_and_slide_with};
use std::path::Path;

const DT: f32 = 1.0 / 60.0;

/// The circles' turning rate: 4.5 m/s on a 1.5 m radius, rad/s.
const TURN: f32 = 3.0;

/// What the walking ticks did.
#[derive(Default)]
struct Counts {
    walking: u64,
    other: u64,
    sweeps: u64,
    settles: u64,
    by_sweeps: [u64; 8],
}

#[inline(never)]
fn walk_circles(
    controller: &Controller,
    world: &Surroundings<'_>,
    characters: &mut [(CharacterState, f32)],
    ticks: usize,
    counts: &mut Counts,
) {
    let mut report = TickReport::default();
    for _ in 0..ticks {
        for (state, heading) in characters.iter_mut() {
            *heading += TURN * DT;
            let intent = Intent {
                direction: Vec3::new(heading.cos(), 0.0, heading.sin()),
                ..Intent::default()
            };
            let stood = state.ground.is_some();
            controller
                .tick_into(state, &intent, world, DT, &mut report)
                .expect("a valid tick");
            if stood && state.ground.is_some() {
                counts.walking += 1;
                counts.sweeps += u64::from(report.sweeps);
                counts.settles += u64::from(report.settles);
                counts.by_sweeps[(report.sweeps as usize).min(7)] += 1;
            } else {
                counts.other += 1;
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let level = args.next().unwrap_or_else(|| "peers".into());
    let n: usize = args.next().map_or(100, |s| s.parse().expect("characters: a number"));
    let ticks: usize = args.next().map_or(300, |s| s.parse().expect("ticks: a number"));
    let mesh = match level.as_str() {
        "peers" | "1m" => {
            let soup = generated_level(if level == "peers" { 81_000 } else { 1_000_000 });
            MeshCollider::build(&soup.positions, &soup.triangles).expect("a generated level builds")
        }
        "demo" => {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/playground.glb");
            slidewalk_level::load(&path)
                .expect("the demo level loads")
                .statics
                .expect("it has static parts")
        }
        other => panic!("unknown level {other:?}: peers, demo or 1m"),
    };
    let placed = [PlacedCollider::fixed(&mesh)];
    let world = Surroundings::new(&placed);
    let controller = Controller::new(ControllerConfig::default()).expect("the default config is valid");
    let radii = controller.config().standing_radii;
    let e = Ellipsoid::new(radii).expect("valid radii");
    let b = mesh.bounds();
    let mut rng = Lcg::new(7);
    let mut characters = Vec::with_capacity(n);
    while characters.len() < n {
        let x = b.min.x + 4.0 + rng.next_f32() * (b.max.x - b.min.x - 8.0);
        let z = b.min.z + 4.0 + rng.next_f32() * (b.max.z - b.min.z - 8.0);
        let drop = Vec3::new(0.0, b.min.y - b.max.y - 4.0, 0.0);
        let fell = collide_and_slide_with(
            &e,
            Vec3::new(x, b.max.y + 2.0, z),
            drop,
            &placed,
            &SlideOptions::default(),
            |_| ContactResponse::Stop,
        );
        if fell.contacts.first().is_some_and(|c| c.normal.y > 0.8) {
            let state = CharacterState::standing_at(fell.position - Vec3::Y * radii.y, controller.config());
            characters.push((state, characters.len() as f32 * 0.7));
        }
    }
    for (state, _) in characters.iter_mut() {
        for _ in 0..90 {
            controller
                .tick(state, &Intent::default(), &world, DT)
                .expect("a valid tick");
        }
    }
    let mut counts = Counts::default();
    walk_circles(&controller, &world, &mut characters, ticks, &mut counts);
    let per_tick = |v: u64| v as f64 / counts.walking.max(1) as f64;
    println!(
        "{level}, {n} characters, {ticks} ticks: {} walking ticks ({} others); per walking tick {:.3} sweeps and {:.3} settles; \
         walking ticks by sweeps run (0, 1, 2, …, 7+): {:?}",
        counts.walking,
        counts.other,
        per_tick(counts.sweeps),
        per_tick(counts.settles),
        counts.by_sweeps
    );
    let checksum: f64 = characters
        .iter()
        .map(|(s, _)| f64::from(s.position.x + s.position.y + s.position.z))
        .sum();
    println!("checksum of the final positions: {checksum:.6}");
}
