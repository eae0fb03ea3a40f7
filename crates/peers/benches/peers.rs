//! bevy_slidewalk against two other character controllers, bevy-tnua on
//! Avian 0.7 and Rapier's kinematic character controller, on an
//! 81,000-triangle level given to each side's physics engine as one
//! static trimesh collider: N characters walking 1.5 m circles at the
//! same speed (4.5 m/s), each steered back onto its circle when held
//! back or pushed aside (`Walker::heading`), one headless app kind for all (`MinimalPlugins`,
//! transforms, assets, meshes), each side with its own physics and
//! plugins:
//!
//! * `slidewalk_avian`: `CharacterController`s walked by
//!   `MovementIntent`, the level made solid to them by
//!   `SlidewalkAvianPlugin`'s mirror of the Avian collider (the level is
//!   not a `SlidewalkCollider` of its own); Avian's `PhysicsPlugins` (in
//!   `FixedPostUpdate`) step the level alone. The characters do not
//!   collide with one another.
//! * `tnua_avian`: tnua's setup as in its examples: a dynamic Avian
//!   capsule each (the slidewalk character's width; its bottom floats
//!   0.35 m over the ground, the slidewalk character's step height, and
//!   its top is 1.65 m up), rotation locked, a `TnuaController` with a
//!   `TnuaBuiltinWalk` basis at 4.5 m/s and tnua's other defaults, a
//!   cylinder sensor shape a little narrower than the capsule; tnua's
//!   plugins in `FixedUpdate`, Avian stepping the capsules (which collide
//!   with one another).
//! * `rapier_kcc`: bevy_rapier3d 0.36 (no Avian in this app), its plugin
//!   in `FixedUpdate` with `TimestepMode::Fixed` at 60 Hz. Each character
//!   is a capsule collider of the slidewalk character's size (radius
//!   0.4 m, 1.8 m tall) with a `KinematicCharacterController` set from
//!   `ControllerConfig::default()`: autostep up to its step height
//!   (0.35 m), ground snap over its snap distance (0.4 m), climbing and
//!   sliding at its walkable slope (45°), the 0.01 m offset of
//!   bevy_rapier's character controller example, no impulses (nothing
//!   dynamic to push). Gravity as in that example: a vertical speed per
//!   character, zeroed when the controller's output says grounded, else
//!   growing by g·dt, added to the walk in the translation asked for.
//!   The capsules are colliders of the world, so the characters block
//!   one another, as tnua's do. Rapier is built without `parallel` (the
//!   repository's bevy_slidewalk_rapier features): it steps on one thread.
//!
//! The characters are dropped from above the level's top at random
//! points of its terrain, 4 m clear of its bounds, where their circles
//! meet no wall or riser (`clear_spawns`: the comparison is of walking,
//! not of being held by walls), the same points for every side, and
//! settled for 1.5 s. A tick is one `app.update()` of 1/60 s with 60 fixed ticks
//! a second: exactly one fixed tick (`FixedMain`, the physics step inside
//! it) and the frame's own schedules. Criterion's time is per tick; its
//! throughput, one element per character, is characters a second (the
//! time per character is the tick's over N). After each run, outside the
//! timing, two more seconds are walked and checked: how many characters
//! are below the level's lowest point less 1 m and where (through the
//! level, or off its edge: a circle held by walls drifts), and the mean
//! and the median of the horizontal path each character still on the
//! level walked over the ideal one (4.5 m/s × 2 s). A side and N left
//! out by criterion's filter is not even built.
//!
//! `cd crates/peers && cargo bench --profile dev --bench peers` (a
//! workspace of its own; the dev profile, as `cargo run` builds:
//! bevy_slidewalk and its collision core at opt-level 3; Bevy, Avian,
//! tnua and Rapier at 1); e.g. `-- 1000` for N = 1000 alone, the three
//! sides in turn, and `--warm-up-time 1 --measurement-time 5` (the
//! defaults) to change the times. `BENCH_ONE_THREAD=1` sets the
//! single-threaded executor on every schedule the tick runs (the main
//! and fixed schedules, Avian's `PhysicsSchedule` and `SubstepSchedule`;
//! Rapier has no schedules of its own, its systems run in `FixedUpdate`);
//! parallel iteration inside systems (Avian's, tnua's sensors, the
//! plugin's characters) still uses Bevy's task pool. Bench ids:
//! `peers_81k/{slidewalk_avian,tnua_avian,rapier_kcc}/{100,1000}`.

use avian3d::prelude::{Collider, LockedAxes, PhysicsPlugins, Position, RigidBody};
use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::{
    CharacterAutostep, CharacterLength, Collider as RapierCollider, KinematicCharacterController,
    KinematicCharacterControllerOutput, NoUserData, PhysicsSet, RapierPhysicsPlugin, TimestepMode,
};
use bevy_slidewalk::{
    CharacterController, ControllerConfig, MovementIntent, MovementState, SlidewalkPlugin, SlidewalkSystems,
};
use bevy_slidewalk_avian::SlidewalkAvianPlugin;
use bevy_tnua::builtins::{TnuaBuiltinWalk, TnuaBuiltinWalkConfig};
use bevy_tnua::prelude::*;
use bevy_tnua_avian3d::TnuaAvian3dSensorShape;
use bevy_tnua_avian3d::prelude::TnuaAvian3dPlugin;
use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use slidewalk_sweep::test_util::{Lcg, Soup, generated_level};
use slidewalk_sweep::{Aabb, MeshCollider};
use std::time::Duration;

const HZ: f64 = 60.0;

/// Kept clear of the level's bounds when dropping the characters, metres:
/// more than a circle (3 m) and a character's width, so that no circle
/// starts across an edge (one held by walls drifts, and may reach one).
const MARGIN: Vec3 = Vec3::new(4.0, 0.0, 4.0);

/// Seconds walked after the timing, for the check.
const CHECK_SECONDS: f64 = 2.0;

/// The walking speed of all sides: the slidewalk character's default.
fn speed() -> f32 {
    ControllerConfig::default().walk_speed
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Slidewalk,
    Tnua,
    Rapier,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Slidewalk => "slidewalk_avian",
            Side::Tnua => "tnua_avian",
            Side::Rapier => "rapier_kcc",
        }
    }
}

/// tnua's control scheme: walking only.
#[derive(TnuaScheme)]
#[scheme(basis = TnuaBuiltinWalk)]
enum Walking {}

/// A character's number (where on its circle it starts) and its circle's
/// centre (x, z), metres.
#[derive(Component, Clone, Copy)]
struct Walker {
    number: usize,
    centre: Vec2,
}

/// A Rapier character's vertical speed, m/s (up is positive).
#[derive(Component, Default)]
struct VerticalSpeed(f32);

/// The circles' radius, metres: the walking speed over the turn rate
/// (0.05 rad a tick, 60 ticks a second).
fn circle_radius() -> f32 {
    speed() / (0.05 * HZ as f32)
}

impl Walker {
    /// Where on its circle character `number` is at tick 0: its angle
    /// there, radians.
    fn start_angle(number: usize) -> f32 {
        number as f32 * 2.399
    }

    /// Where character `number` of the circle around `centre` (its y is
    /// kept) is at tick 0.
    fn start(number: usize, centre: Vec3) -> Vec3 {
        let off = Self::from_centre(Self::start_angle(number));
        centre + Vec3::new(off.x, 0.0, off.y)
    }

    /// Where on its circle (x, z from the centre, metres) a character
    /// heading at angle `a` is.
    fn from_centre(a: f32) -> Vec2 {
        circle_radius() * Vec2::new(a.sin(), -a.cos())
    }

    /// Character `number`, whose circle passes through `at` at tick 0.
    fn at(number: usize, at: Vec3) -> Self {
        let centre = Vec2::new(at.x, at.z) - Self::from_centre(Self::start_angle(number));
        Walker { number, centre }
    }

    /// The walking direction at `tick` for a character at `position`:
    /// along its circle, turning 0.05 rad a tick (circles of 1.5 m at
    /// 4.5 m/s, as the plugin's bench walks), and back towards where on
    /// it the character should be (a third of the way for every half
    /// metre off), so that a character held back or pushed aside (by a
    /// slope, a rise, another character) walks its circle again instead
    /// of drifting across the level and off its edge over a long run.
    fn heading(&self, tick: u64, position: Vec3) -> Vec3 {
        let a = Self::start_angle(self.number) + tick as f32 * 0.05;
        let along = Vec2::new(a.cos(), a.sin());
        let due = self.centre + Self::from_centre(a);
        let steer = (along + (due - Vec2::new(position.x, position.z)) / circle_radius()).normalize_or(along);
        Vec3::new(steer.x, 0.0, steer.y)
    }
}

fn walk_slidewalk(mut tick: Local<u64>, mut characters: Query<(&Walker, &MovementState, &mut MovementIntent)>) {
    *tick += 1;
    for (walker, state, mut intent) in &mut characters {
        intent.direction = walker.heading(*tick, state.0.position);
    }
}

fn walk_tnua(mut tick: Local<u64>, mut characters: Query<(&Walker, &Position, &mut TnuaController<Walking>)>) {
    *tick += 1;
    for (walker, position, mut controller) in &mut characters {
        controller.basis = TnuaBuiltinWalk {
            desired_motion: walker.heading(*tick, position.0),
            ..default()
        };
    }
}

/// The translation each Rapier character asks for this tick: its walk
/// and its fall, the fall as bevy_rapier's character controller example
/// keeps it (zeroed on the ground, else gravity added after it is used).
fn walk_rapier(
    time: Res<Time>,
    mut tick: Local<u64>,
    mut characters: Query<(
        &Walker,
        &Transform,
        &mut VerticalSpeed,
        &mut KinematicCharacterController,
        Option<&KinematicCharacterControllerOutput>,
    )>,
) {
    *tick += 1;
    let (dt, speed, gravity) = (time.delta_secs(), speed(), ControllerConfig::default().gravity.y);
    for (walker, transform, mut fall, mut controller, output) in &mut characters {
        if output.is_some_and(|output| output.grounded) {
            fall.0 = 0.0;
        }
        let velocity = walker.heading(*tick, transform.translation) * speed + Vec3::Y * fall.0;
        fall.0 += gravity * dt;
        controller.translation = Some(velocity * dt);
    }
}

/// The Rapier character: a capsule of the slidewalk character's size
/// with Rapier's controller set to the slidewalk character's step, snap
/// and slope.
fn rapier_character() -> impl Bundle {
    let config = ControllerConfig::default();
    let (radius, half_height) = (config.standing_radii.x, config.standing_radii.y);
    let slope = config.walkable_slope_deg.to_radians();
    (
        RapierCollider::capsule_y(half_height - radius, radius),
        KinematicCharacterController {
            offset: CharacterLength::Absolute(0.01),
            autostep: Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(config.step_height),
                include_dynamic_bodies: false,
                ..default()
            }),
            max_slope_climb_angle: slope,
            min_slope_slide_angle: slope,
            snap_to_ground: Some(CharacterLength::Absolute(config.snap_distance)),
            apply_impulse_to_dynamic_bodies: false,
            ..default()
        },
        VerticalSpeed::default(),
    )
}

/// The headless app all sides run in, with `side`'s physics and plugins.
fn app(side: Side) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, AssetPlugin::default(), MeshPlugin))
        .insert_resource(Time::<Fixed>::from_hz(HZ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / HZ)));
    match side {
        Side::Slidewalk => {
            app.add_plugins((
                PhysicsPlugins::default(),
                SlidewalkPlugin::default(),
                SlidewalkAvianPlugin::default(),
            ))
            .add_systems(FixedUpdate, walk_slidewalk.before(SlidewalkSystems::Prepare));
        }
        Side::Tnua => {
            app.add_plugins((
                PhysicsPlugins::default(),
                TnuaControllerPlugin::<Walking>::new(FixedUpdate),
                TnuaAvian3dPlugin::new(FixedUpdate),
            ))
            .add_systems(FixedUpdate, walk_tnua.in_set(TnuaUserControlsSystems));
        }
        Side::Rapier => {
            app.insert_resource(TimestepMode::Fixed {
                dt: (1.0 / HZ) as f32,
                substeps: 1,
            })
            .add_plugins(RapierPhysicsPlugin::<NoUserData>::default().in_fixed_schedule())
            .add_systems(FixedUpdate, walk_rapier.before(PhysicsSet::SyncBackend));
        }
    }
    app.finish();
    app.cleanup();
    if std::env::var_os("BENCH_ONE_THREAD").is_some() {
        let mut schedules = app.world_mut().resource_mut::<Schedules>();
        let mut labels = Vec::new();
        for (label, schedule) in schedules.iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
            labels.push(format!("{label:?}"));
        }
        labels.sort();
        eprintln!("{}: one thread: {}", side.name(), labels.join(", "));
    }
    app
}

/// The level's bounds.
struct Level {
    lo: Vec3,
    hi: Vec3,
}

/// `n` characters of `side` dropped over `level` (given to the side's
/// physics as one static trimesh), settled for 1.5 s, walking. Also the
/// level's bounds.
fn populated(side: Side, level: &Soup, n: usize) -> (App, Level) {
    let mut app = app(side);
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in &level.positions {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let (positions, triangles) = (level.positions.clone(), level.triangles.clone());
    if side == Side::Rapier {
        let trimesh = RapierCollider::trimesh(positions, triangles).expect("the level is a trimesh");
        app.world_mut().spawn((trimesh, Transform::default()));
    } else {
        let trimesh = Collider::trimesh(positions, triangles);
        app.world_mut()
            .spawn((RigidBody::Static, trimesh, Transform::default()));
    }
    let config = (side == Side::Tnua).then(|| {
        app.world_mut()
            .resource_mut::<Assets<WalkingConfig>>()
            .add(WalkingConfig {
                basis: TnuaBuiltinWalkConfig {
                    speed: speed(),
                    // The capsule's centre this far over the ground: its
                    // bottom (0.65 m below the centre) 0.35 m over it.
                    float_height: 1.0,
                    ..default()
                },
            })
    });
    for (i, at) in clear_spawns(level, lo, hi, n).into_iter().enumerate() {
        let centre = Vec3::new(at.x, hi.y + 1.0, at.z);
        let mut character = app
            .world_mut()
            .spawn((Walker::at(i, at), Transform::from_translation(centre)));
        match side {
            Side::Slidewalk => {
                character.insert((
                    CharacterController::default(),
                    MovementIntent {
                        direction: Walker::at(i, at).heading(0, at),
                        ..default()
                    },
                ));
            }
            Side::Tnua => {
                character.insert((
                    RigidBody::Dynamic,
                    // Radius 0.4 (the slidewalk character's), 1.3 m tall.
                    Collider::capsule(0.4, 0.5),
                    TnuaController::<Walking>::default(),
                    TnuaConfig::<Walking>(config.clone().expect("tnua's walk has its config")),
                    TnuaAvian3dSensorShape(Collider::cylinder(0.39, 0.0)),
                    LockedAxes::ROTATION_LOCKED,
                ));
            }
            Side::Rapier => {
                character.insert(rapier_character());
            }
        }
    }
    for _ in 0..(1.5 * HZ) as usize {
        app.update();
    }
    (app, Level { lo, hi })
}

/// How far beyond its circle (metres) a character's circle must find
/// nothing to walk into: a body's width and a hand's breadth.
const CLEAR: f32 = 0.5;

/// `n` spawn points (x, z) over the level at least `MARGIN` inside its
/// bounds, the same for every side: the starts of circles (character `i`
/// starts its circle where [`Walker::at`] puts it) at random on the
/// terrain (the top surface at the circle's centre within 2 m of the
/// level's lowest point: not a roof, not a flight of stairs) where
/// nothing steeper than 25° (a wall, a riser) lies within `CLEAR` of the
/// circle, from a hand's breadth over the ground to above the head, so
/// that every character walks its whole circle (one held by a wall drifts
/// or, steered back, walks into it again: the comparison is of walking,
/// not of pushing).
fn clear_spawns(level: &Soup, lo: Vec3, hi: Vec3, n: usize) -> Vec<Vec3> {
    let mesh = MeshCollider::build(&level.positions, &level.triangles).expect("the level builds");
    let ground = |x: f32, z: f32| {
        let mut top = f32::NEG_INFINITY;
        let column = Aabb::from_corners(Vec3::new(x, lo.y, z), Vec3::new(x, hi.y, z)).expand(Vec3::splat(0.01));
        mesh.query(&column, |slot| {
            let t = mesh.triangle(slot);
            top = top.max(t[0].y.max(t[1].y).max(t[2].y));
        });
        top
    };
    let mut rng = Lcg::new(7);
    let mut spawns = Vec::with_capacity(n);
    let half = circle_radius() + CLEAR;
    while spawns.len() < n {
        let centre = rng.in_box(lo + MARGIN, hi - MARGIN);
        let floor = ground(centre.x, centre.z);
        let around = Aabb::from_corners(
            Vec3::new(centre.x - half, floor + 0.1, centre.z - half),
            Vec3::new(centre.x + half, floor + 2.2, centre.z + half),
        );
        let mut clear = true;
        mesh.query(&around, |slot| {
            let [a, b, c] = mesh.triangle(slot);
            let normal = (b - a).cross(c - a).normalize_or_zero();
            let inside = a.min(b).min(c).cmple(around.max).all() && a.max(b).max(c).cmpge(around.min).all();
            clear &= !inside || normal.y.abs() >= 25f32.to_radians().cos();
        });
        if clear && floor < lo.y + 2.0 {
            spawns.push(Walker::start(spawns.len(), centre));
        }
    }
    spawns
}

/// Each character's centre (slidewalk: its state's; tnua: Avian's
/// `Position`; Rapier: the `Transform` its controller moves), by number.
fn positions(app: &mut App, side: Side, n: usize) -> Vec<Vec3> {
    let mut out = vec![Vec3::NAN; n];
    match side {
        Side::Slidewalk => {
            let mut q = app.world_mut().query::<(&Walker, &MovementState)>();
            for (w, s) in q.iter(app.world()) {
                out[w.number] = s.0.position;
            }
        }
        Side::Tnua => {
            let mut q = app.world_mut().query::<(&Walker, &Position)>();
            for (w, p) in q.iter(app.world()) {
                out[w.number] = p.0;
            }
        }
        Side::Rapier => {
            let mut q = app
                .world_mut()
                .query_filtered::<(&Walker, &Transform), With<KinematicCharacterController>>();
            for (w, t) in q.iter(app.world()) {
                out[w.number] = t.translation;
            }
        }
    }
    out
}

/// Walks `CHECK_SECONDS` more (untimed) and prints how many characters
/// fell (are below the level's lowest point less 1 m), where the first
/// few are (a character beyond the level's area walked off its edge), and,
/// over those still on the level, the mean ratio of the horizontal path
/// walked to the ideal one (speed × time), its median (which the few
/// held by walls or by other characters do not pull down), the worst,
/// and how many walked less than half of it (held by a wall, or stuck).
fn check(app: &mut App, side: Side, n: usize, level: &Level) {
    let ticks = (CHECK_SECONDS * HZ) as usize;
    let mut before = positions(app, side, n);
    let mut walked = vec![0.0f32; n];
    for _ in 0..ticks {
        app.update();
        let now = positions(app, side, n);
        for ((w, a), b) in walked.iter_mut().zip(&before).zip(&now) {
            *w += (*b - *a).with_y(0.0).length();
        }
        before = now;
    }
    let fell = |p: &Vec3| p.y < level.lo.y - 1.0 || p.y.is_nan();
    let fallen: Vec<String> = (before.iter().enumerate())
        .filter(|(_, p)| fell(p))
        .map(|(i, p)| format!("{i} at ({:.1}, {:.1}, {:.1})", p.x, p.y, p.z))
        .collect();
    let ideal = speed() * CHECK_SECONDS as f32;
    let mut ratios: Vec<f32> = walked
        .iter()
        .zip(&before)
        .filter(|(_, p)| !fell(p))
        .map(|(w, _)| w / ideal)
        .collect();
    ratios.sort_by(f32::total_cmp);
    let mean = ratios.iter().sum::<f32>() / ratios.len() as f32;
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(f32::NAN);
    let worst = ratios.iter().copied().fold(f32::INFINITY, f32::min);
    let under_half = ratios.iter().filter(|r| **r < 0.5 || r.is_nan()).count();
    eprintln!(
        "peers_81k/{}/{n}: fell {} of {n} [{}] (the level spans x {:.1} … {:.1}, z {:.1} … {:.1}); \
         the {} on it walked {mean:.3} of the ideal path ({ideal:.1} m in {CHECK_SECONDS} s) on average, \
         median {median:.3}, the worst {worst:.3}, {under_half} under half",
        side.name(),
        fallen.len(),
        fallen.iter().take(3).cloned().collect::<Vec<_>>().join("; "),
        level.lo.x,
        level.hi.x,
        level.lo.z,
        level.hi.z,
        ratios.len(),
    );
}

fn peers(c: &mut Criterion) {
    let soup = generated_level(81_000);
    eprintln!(
        "level: {} triangles, {} vertices",
        soup.triangles.len(),
        soup.positions.len()
    );
    let mut group = c.benchmark_group("peers_81k");
    group.sampling_mode(SamplingMode::Flat);
    for n in [100usize, 1000] {
        group.throughput(Throughput::Elements(n as u64));
        for side in [Side::Slidewalk, Side::Tnua, Side::Rapier] {
            // Built when criterion first runs the bench (not at all when
            // its filter leaves it out), once for warm-up and samples.
            let mut built = None;
            group.bench_function(BenchmarkId::new(side.name(), n), |b| {
                let (app, _) = built.get_or_insert_with(|| populated(side, &soup, n));
                b.iter(|| app.update())
            });
            if let Some((mut app, level)) = built {
                check(&mut app, side, n, &level);
            }
        }
    }
    group.finish();
}

// Ten samples, a second of warm-up and five of measurement unless
// criterion's `--sample-size`, `--warm-up-time` or `--measurement-time`
// say otherwise.
criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = peers
}
criterion_main!(benches);
