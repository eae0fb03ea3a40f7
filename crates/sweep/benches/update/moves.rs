//! The benchmark's fixed move set (walking and falling ticks from where
//! each body rests on the level), the two passes of a character update,
//! and what the moves meet (printed outside the timings).

use glam::Vec3;
use slidewalk_sweep::{Aabb, Ellipsoid, Ground, MeshCollider, PlacedCollider, SlideOptions, collide_and_slide, sweep};

/// Moves in the fixed set.
pub(crate) const MOVES: usize = 256;
/// Seed of the move set.
const SEED: u64 = 0x51_1de_a1c;
/// Horizontal motion of one walking tick: 6 m/s at 60 Hz.
const WALK_STEP: f32 = 0.1;
/// Extra downward motion of a falling tick: 12 m/s at 60 Hz.
const FALL_STEP: f32 = 0.2;
/// Share of falling ticks in the move set.
const FALLING_SHARE: f32 = 0.25;
/// Displacement of the gravity pass of a character update.
pub(crate) const GRAVITY_STEP: Vec3 = Vec3::new(0.0, -0.05, 0.0);

/// Options of the move pass (defaults) and of the gravity pass (defaults, and
/// stop on ground walkable up to 50°, as the game's controller does).
pub(crate) fn pass_options() -> (SlideOptions, SlideOptions) {
    let gravity = SlideOptions {
        stop_on_ground: Some(Ground::y_up(50f32.to_radians())),
        ..Default::default()
    };
    (SlideOptions::default(), gravity)
}

/// One sweep: start centre and motion, metres.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Move {
    pub(crate) start: Vec3,
    pub(crate) motion: Vec3,
}

/// The fixed move set, the same candidate positions and motions for each
/// body, each body resting at its own height there (found by a downward sweep
/// from above the level). A candidate is kept only when every body lands.
pub(crate) fn make_moves<const N: usize>(mesh: &MeshCollider, bodies: [&Ellipsoid; N]) -> [Vec<Move>; N] {
    let world = [PlacedCollider::fixed(mesh)];
    let bounds = mesh.bounds();
    let top = bounds.max.y + 4.0;
    let fall = Vec3::new(0.0, bounds.min.y - 4.0 - top, 0.0);
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut moves: [Vec<Move>; N] = std::array::from_fn(|_| Vec::with_capacity(MOVES));
    let mut attempts = 0;
    while moves[0].len() < MOVES {
        attempts += 1;
        assert!(attempts < 100 * MOVES, "could not place {MOVES} moves on the level");
        let x = bounds.min.x + 1.0 + (bounds.max.x - bounds.min.x - 2.0) * rng.f32();
        let z = bounds.min.z + 1.0 + (bounds.max.z - bounds.min.z - 2.0) * rng.f32();
        let angle = rng.f32() * std::f32::consts::TAU;
        let falling = rng.f32() < FALLING_SHARE;
        let u = rng.f32();
        let walk = Vec3::new(angle.cos(), 0.0, angle.sin()) * WALK_STEP;
        let (lift, motion) = if falling {
            (0.05 + 0.95 * u, walk - Vec3::Y * FALL_STEP)
        } else {
            (0.001 + 0.004 * u, walk)
        };
        let high = Vec3::new(x, top, z);
        let landed: Vec<Option<Vec3>> = bodies
            .iter()
            .map(|body| match sweep(body, high, fall, &world) {
                Some(hit) if !hit.started_embedded && hit.time > 0.0 => Some(high + fall * hit.time),
                _ => None,
            })
            .collect();
        if landed.iter().all(Option::is_some) {
            for (list, rest) in moves.iter_mut().zip(landed) {
                list.push(Move {
                    start: rest.unwrap() + Vec3::Y * lift,
                    motion,
                });
            }
        }
    }
    moves
}

/// Prints what the player's moves meet: broad-phase candidates per sweep,
/// hits, and what a character update does.
pub(crate) fn describe_moves(mesh: &MeshCollider, player: &Ellipsoid, moves: &[Move], world: &[PlacedCollider<'_>]) {
    let r = player.radii();
    let (mut candidates, mut most, mut hits) = (0usize, 0usize, 0usize);
    for m in moves {
        // The same box `sweep` asks the BVH for.
        let query = Aabb::from_corners(m.start, m.start + m.motion).expand(r * 1.001 + Vec3::splat(1e-6));
        let mut k = 0;
        mesh.query(&query, |_| k += 1);
        candidates += k;
        most = most.max(k);
        hits += usize::from(sweep(player, m.start, m.motion, world).is_some());
    }
    let (options, gravity_options) = pass_options();
    let (mut contacts, mut sweeps, mut blocked, mut depenetrated, mut unresolved) = (0, 0, 0, 0, 0);
    slidewalk_sweep::counts::take();
    for m in moves {
        let walked = collide_and_slide(player, m.start, m.motion, world, &options);
        let fell = collide_and_slide(player, walked.position, GRAVITY_STEP, world, &gravity_options);
        for step in [&walked, &fell] {
            contacts += step.contacts.len();
            sweeps += step.iterations;
            blocked += usize::from(step.blocked);
            depenetrated += usize::from(step.depenetration != Vec3::ZERO);
            unresolved += usize::from(step.unresolved_overlap);
        }
    }
    let work = slidewalk_sweep::counts::take();
    let n = moves.len() as f64;
    if work.walks > 0 {
        // Only with `--features counts`.
        let per = |x: u64| x as f64 / work.walks as f64;
        println!(
            "per sweep of the updates: {:.1} wide nodes opened, {:.1} boxes entered, {:.1} candidate triangles, \
             {:.2} exact tests",
            per(work.nodes),
            per(work.entered),
            per(work.candidates),
            per(work.exact)
        );
    }
    println!(
        "player moves: {MOVES}, {hits} sweeps hit something; broad phase: {:.1} candidate triangles per sweep (max {most})",
        candidates as f64 / n
    );
    println!(
        "updates: {:.2} contacts and {:.2} sweeps per update (move + gravity pass); of {} passes {blocked} blocked, \
         {depenetrated} depenetrated, {unresolved} left overlapping",
        contacts as f64 / n,
        f64::from(sweeps) / n,
        2 * moves.len()
    );
}
