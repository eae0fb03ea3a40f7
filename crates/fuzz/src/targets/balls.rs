//! Target `balls`: a `BallSimulation` with an arbitrary configuration (refused
//! when invalid) and up to a dozen balls of arbitrary sizes, places and
//! velocities, stepped a few times with arbitrary tick lengths in a closed
//! room of triangles (with, sometimes, a moving platform and one to five
//! players' capsules), in the exact planes and cylinder of an analytic
//! room, or in open space.
//!
//! Checked: `BallConfig::validate` refuses what it should with a message;
//! a step never panics; balls that start finite, with a sane radius and
//! speed, stay finite; in the still triangle room, a ball that starts free
//! never ends a step inside a wall; every impact with a player names one
//! of the players there.

use crate::draw;
use crate::signature::Signature;
use arbitrary::{Result, Unstructured};
use glam::Vec3;
use slidewalk_balls::{
    AnalyticSolids, Ball, BallConfig, BallSimulation, ImpactKind, MeshSolids, MovingCapsule, NoSolids,
};
use slidewalk_sweep::test_util::{Soup, box_room};
use slidewalk_sweep::{
    AnalyticShape, Cylinder, Ellipsoid, MeshCollider, PlacedCollider, Plane, Pose, penetration_depth,
};

/// The players a case may have, in order: centre (metres) and velocity
/// (m/s). The first is where the one player of the earlier cases stood.
const PLAYERS: [(Vec3, Vec3); 5] = [
    (Vec3::new(-2.0, 0.9, 0.0), Vec3::new(1.0, 0.0, 0.0)),
    (Vec3::new(2.0, 0.9, 0.0), Vec3::new(-1.0, 0.0, 0.5)),
    (Vec3::new(0.0, 0.9, -2.5), Vec3::new(0.0, 0.0, 2.0)),
    (Vec3::new(0.0, 0.9, 2.5), Vec3::ZERO),
    (Vec3::new(2.5, 0.9, 2.5), Vec3::new(-3.0, 0.0, -3.0)),
];

/// The target.
pub fn run(data: &[u8]) -> u64 {
    let mut u = Unstructured::new(data);
    match Case::generate(&mut u) {
        Ok(case) => case.check(),
        Err(_) => 0,
    }
}

/// Seeds: random bytes.
pub fn seeds() -> Vec<Vec<u8>> {
    vec![vec![0; 256], vec![0x33; 512]]
}

/// The case the bytes stand for.
pub fn describe(data: &[u8]) -> String {
    match Case::generate(&mut Unstructured::new(data)) {
        Ok(c) => format!("{c:#?}"),
        Err(e) => format!("no case: {e}"),
    }
}

/// Where the balls are.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Room {
    /// A closed 8 × 4 × 8 m box of triangles, maybe with a moving
    /// platform, and 0 to 5 players.
    Mesh { platform: bool, players: u8 },
    /// A floor plane and a pillar, exact.
    Analytic,
    /// Nothing but the other balls.
    Open,
}

/// One generated case.
#[derive(Debug)]
pub struct Case {
    config: BallConfig,
    room: Room,
    balls: Vec<Ball>,
    steps: Vec<f32>,
}

impl Case {
    /// Draws a case from the bytes.
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let d = BallConfig::default();
        let config = BallConfig {
            gravity: match u.int_in_range(0u8..=7)? {
                0 => draw::any_vec3(u, 50.0)?,
                1 => Vec3::ZERO,
                _ => d.gravity,
            },
            restitution: draw::maybe_f32(u, d.restitution, 1.0)?,
            friction: draw::maybe_f32(u, d.friction, 2.0)?,
            rest_speed: draw::maybe_f32(u, d.rest_speed, 10.0)?,
            sleep_speed: draw::maybe_f32(u, d.sleep_speed, 10.0)?,
            sleep_after: draw::maybe_f32(u, d.sleep_after, 10.0)?,
            max_impacts_per_ball: if u.ratio(1u8, 8)? {
                u.int_in_range(0u32..=2000)?
            } else {
                d.max_impacts_per_ball
            },
            skin: draw::maybe_f32(u, d.skin, 1e-2)?,
            threads: if u.ratio(1u8, 8)? {
                u.int_in_range(0usize..=3)?
            } else {
                1
            },
        };
        let room = match u.int_in_range(0u8..=5)? {
            0 => Room::Analytic,
            1 => Room::Open,
            _ => Room::Mesh {
                platform: u.arbitrary()?,
                // How many is drawn last (below), so the inputs kept
                // from when there was one player still draw the same case.
                players: u8::from(u.ratio(1u8, 3)?),
            },
        };
        let mut balls = Vec::new();
        for _ in 0..u.int_in_range(1u8..=12)? {
            let radius = match u.int_in_range(0u8..=9)? {
                0 => draw::any_f32(u, 1.0)?,
                _ => draw::in_range(u, 0.03, 0.6)?,
            };
            let position = match u.int_in_range(0u8..=9)? {
                0 => draw::any_vec3(u, 5.0)?,
                _ => Vec3::new(draw::unit(u)? * 3.0, draw::in_range(u, 0.7, 3.3)?, draw::unit(u)? * 3.0),
            };
            let velocity = match u.int_in_range(0u8..=9)? {
                0 => draw::any_vec3(u, 100.0)?,
                _ => draw::sane_vec3(u, 20.0)?,
            };
            let mut ball = Ball::new(position, velocity, radius);
            if u.ratio(1u8, 10)? {
                ball.asleep = true;
            }
            balls.push(ball);
        }
        let mut steps = Vec::new();
        for _ in 0..u.int_in_range(1u8..=6)? {
            steps.push(match u.int_in_range(0u8..=9)? {
                0 => draw::any_f32(u, 1.0)?,
                1 => draw::in_range(u, 0.0, 0.5)?,
                _ => 1.0 / 60.0,
            });
        }
        let room = match room {
            Room::Mesh { platform, players: 1 } => Room::Mesh {
                platform,
                players: u.int_in_range(1u8..=5)?,
            },
            other => other,
        };
        Ok(Self {
            config,
            room,
            balls,
            steps,
        })
    }

    /// Steps the world and checks the invariants; panics on a violation.
    pub fn check(&self) -> u64 {
        let mut sig = Signature::default();
        if let Err(e) = self.config.validate() {
            assert!(!e.to_string().is_empty());
            sig.add_text(e.to_string().split(' ').next().unwrap_or(""));
            return sig.finish();
        }
        let mut soup: Soup = box_room(Vec3::new(4.0, 2.0, 4.0));
        // The room's floor at y = 0.
        for p in &mut soup.positions {
            p.y += 2.0;
        }
        let room = MeshCollider::build(&soup.positions, &soup.triangles).expect("the room builds");
        let mut slab = Soup::default();
        slab.cuboid(Vec3::new(-1.0, -0.1, -1.0), Vec3::new(1.0, 0.1, 1.0));
        let platform = MeshCollider::build(&slab.positions, &slab.triangles).expect("the platform builds");
        let analytic = AnalyticSolids::new(&[
            (
                AnalyticShape::Plane(Plane::new(Vec3::ZERO, Vec3::Y).expect("a plane")),
                1.0,
            ),
            (
                AnalyticShape::Cylinder(
                    Cylinder::new(Vec3::new(1.5, 0.0, 0.0), Vec3::Y, 3.0, 0.5).expect("a cylinder"),
                ),
                0.5,
            ),
        ]);

        let mut world = BallSimulation::new(self.config);
        world.balls = self.balls.clone();
        let sane = |b: &Ball| {
            b.position.is_finite()
                && b.velocity.is_finite()
                && b.velocity.length() <= 1e3
                && b.radius.is_finite()
                && (0.01..=2.0).contains(&b.radius)
        };
        let all_sane = world.balls.iter().all(sane);
        let mut time = 0.0f32;
        for &dt in &self.steps {
            let lift = Pose::from_translation(Vec3::new(0.0, 0.3 + (time * 2.0).sin() * 0.2, 0.0));
            let step = if dt.is_finite() && dt > 0.0 { dt } else { 1.0 / 60.0 };
            let lift_next = Pose::from_translation(Vec3::new(0.0, 0.3 + ((time + step) * 2.0).sin() * 0.2, 0.0));
            let colliders = [
                PlacedCollider::fixed(&room),
                PlacedCollider::from_poses(&platform, lift, lift_next, step),
            ];
            let free_before: Vec<bool> = world
                .balls
                .iter()
                .map(|b| {
                    sane(b)
                        && Ellipsoid::sphere(b.radius)
                            .is_ok_and(|s| penetration_depth(&s, b.position, &colliders[..1]) == 0.0)
                })
                .collect();
            // Up to five players about the room, walking different ways
            // (body numbers 7 …); the first as when there was one.
            let players: Vec<MovingCapsule> = PLAYERS
                .iter()
                .take(match self.room {
                    Room::Mesh { players, .. } => players.into(),
                    _ => 0,
                })
                .zip(7..)
                .map(|(&(centre, velocity), body)| {
                    MovingCapsule::around_ellipsoid(centre, Vec3::new(0.4, 0.9, 0.4), Vec3::Y, velocity, body)
                })
                .collect();
            let report = match self.room {
                Room::Mesh { platform, players: n } => {
                    let placed = if platform { &colliders[..] } else { &colliders[..1] };
                    let mesh = MeshSolids::new(placed);
                    if n > 0 {
                        world.step(dt, &(mesh, players.as_slice()))
                    } else {
                        world.step(dt, &mesh)
                    }
                }
                Room::Analytic => world.step(dt, &analytic),
                Room::Open => world.step(dt, &NoSolids),
            };
            for i in &report.impacts {
                if let ImpactKind::Body(body) = i.kind {
                    assert!(
                        players.iter().any(|p| p.body == body),
                        "impact with body {body}, not one of the {} players: {i:?}",
                        players.len()
                    );
                }
                if all_sane {
                    assert!(
                        i.point.is_finite() && i.normal.is_finite() && i.impulse.is_finite() && i.time.is_finite(),
                        "impact {i:?}"
                    );
                }
            }
            sig.add(report.impacts.len().min(16) as u64);
            if all_sane && dt.is_finite() {
                for (k, b) in world.balls.iter().enumerate() {
                    assert!(
                        b.position.is_finite() && b.velocity.is_finite(),
                        "ball {k} after a step of {dt} s: {b:?}"
                    );
                }
            }
            if all_sane
                && self.room
                    == (Room::Mesh {
                        platform: false,
                        players: 0,
                    })
                && dt.is_finite()
            {
                for (k, b) in world.balls.iter().enumerate() {
                    if free_before.get(k) == Some(&true) {
                        let s = Ellipsoid::sphere(b.radius).expect("sane radius");
                        let depth = penetration_depth(&s, b.position, &colliders[..1]);
                        assert!(
                            depth <= 1e-3,
                            "ball {k} ended {depth} (of its radius) inside the room's walls: {b:?}"
                        );
                    }
                }
            }
            time += step;
        }
        sig.finish()
    }
}
