//! The operations an `engine` case is made of, drawn from the fuzzer's
//! bytes: Avian bodies of every kind and shape the mirror handles, what a
//! game does to them and to its characters between frames, and the frames.

use super::shapes::{Shape, shape, solid_shape};
use crate::draw;
use arbitrary::{Result, Unstructured};
use glam::{Quat, Vec3};

/// Most operations in one case (the rest of the bytes is ignored).
pub const MAX_OPS: usize = 40;
/// Most fixed ticks in one case, all `Frames` operations together.
pub const MAX_TICKS: u32 = 300;
/// Most bodies alive at once (spawns past it are skipped).
pub const MAX_BODIES: usize = 8;
/// Most characters alive at once.
pub const MAX_CHARACTERS: usize = 3;
/// Fastest a kinematic body's point moves, m/s (its speed plus its spin
/// times its reach): 15 cm a tick at 60 Hz, well under the smallest
/// character's half width, so no kinematic body passes through one
/// between two ticks.
pub const KINEMATIC_TOP_SPEED: f32 = 9.0;

/// How an Avian body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Static,
    /// Moved by its velocity only (set by the case, never teleported).
    Kinematic,
    Dynamic,
}

/// A collider on a child entity of its body: the child's transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child {
    pub offset: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

/// A body and its collider.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec {
    pub kind: Kind,
    pub shape: Shape,
    /// In the arena, or (a third of it) from character `near`'s centre.
    pub translation: Vec3,
    pub near: Option<u8>,
    pub rotation: Quat,
    /// The collider entity's scale (1 on the body when the collider is a child).
    pub scale: Vec3,
    pub child: Option<Child>,
    /// Linear and angular velocity (zero for a static body).
    pub velocity: Vec3,
    pub spin: Vec3,
    /// `Mass`, kg (else Avian's from the shape's volume).
    pub mass: Option<f32>,
    /// Avian `CollisionLayers` (memberships, filters).
    pub layers: Option<(u32, u32)>,
    pub sensor: bool,
    pub ignored: bool,
}

/// A character's configuration, as a game would choose it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Config {
    Default,
    EveryMove,
    /// The default's radii, step and snap scaled.
    Scaled(f32),
    /// Mass (kg) and most push force (N).
    Pushy(f32, f32),
}

/// What a character is asked to do (`MovementIntent`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Intent {
    pub direction: Vec3,
    pub jump: bool,
    pub jump_held: bool,
    pub crouch: bool,
    pub sprint: bool,
    pub dash: bool,
}

/// How the frames fall on the fixed tick, as tests/avian paces them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacing {
    /// 1, 2 or 4 frames a tick.
    FramesPerTick(u32),
    /// 3 ticks a frame.
    TicksPerFrame(u32),
}

/// One operation. Bodies and characters are named by their index (modulo
/// the number alive) in the order they were spawned.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Spawn(Box<BodySpec>),
    /// A dynamic body thrown at a character from `from` (relative to its
    /// centre) at `speed`.
    Throw {
        at: u8,
        shape: Shape,
        from: Vec3,
        speed: f32,
        mass: Option<f32>,
    },
    /// Body `0` (a dynamic or kinematic one) sent at character `1` at
    /// `speed` (a kinematic one no faster than its top speed).
    Hurl(u8, u8, f32),
    /// A kinematic or dynamic body's velocity and spin set.
    Velocity(u8, Vec3, Vec3),
    /// The body (and its collider) despawned.
    Despawn(u8),
    /// Avian's `Collider` taken off (the entity stays).
    RemoveCollider(u8),
    /// A new `Collider` put on the collider entity.
    Reshape(u8, Shape),
    Sensor(u8, bool),
    Ignored(u8, bool),
    SpawnCharacter {
        feet: Vec3,
        config: Config,
        /// `InnerBody` with this knock-back.
        inner: Option<f32>,
        layers: Option<(u32, u32)>,
    },
    DespawnCharacter(u8),
    /// `InnerBody` given (with this knock-back) or taken.
    Inner(u8, Option<f32>),
    Intent(u8, Intent),
    Frames {
        count: u32,
        pacing: Pacing,
    },
}

/// A whole case: the floor, the first character and the operations.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// 0: none, 1: a 40 m static box, 2: a static half-space.
    pub floor: u8,
    pub ops: Vec<Op>,
}

/// A position in the 20 m arena, metres.
fn place(u: &mut Unstructured<'_>) -> Result<Vec3> {
    let v = draw::sane_vec3(u, 10.0)?;
    Ok(Vec3::new(v.x, v.y.abs() * 0.5, v.z))
}

fn scale(u: &mut Unstructured<'_>) -> Result<Vec3> {
    Ok(match u.int_in_range(0u8..=4)? {
        0 => Vec3::splat(draw::in_range(u, 0.5, 2.0)?),
        1 => Vec3::new(
            draw::in_range(u, 0.5, 2.0)?,
            draw::in_range(u, 0.5, 2.0)?,
            draw::in_range(u, 0.5, 2.0)?,
        ),
        _ => Vec3::ONE,
    })
}

/// A mask of few layers, so that masks meet and miss alike.
fn layers(u: &mut Unstructured<'_>) -> Result<Option<(u32, u32)>> {
    let mask = |u: &mut Unstructured<'_>| -> Result<u32> {
        Ok(match u.int_in_range(0u8..=3)? {
            0 => u32::MAX,
            _ => u.int_in_range(1u32..=3)?,
        })
    };
    Ok(if u.ratio(2u8, 3)? {
        None
    } else {
        Some((mask(u)?, mask(u)?))
    })
}

/// A velocity of at most `top` / 2 m/s and a spin of at most `top` / 2 rad/s.
fn motion(u: &mut Unstructured<'_>, top: f32) -> Result<(Vec3, Vec3)> {
    let velocity = draw::sane_vec3(u, 1.0)?.clamp_length_max(1.0) * draw::in_range(u, 0.0, top * 0.5)?;
    let spin = if u.ratio(1u8, 2)? {
        Vec3::ZERO
    } else {
        draw::sane_vec3(u, 1.0)?.clamp_length_max(1.0) * draw::in_range(u, 0.0, 0.5 * top)?
    };
    Ok((velocity, spin))
}

fn body(u: &mut Unstructured<'_>) -> Result<BodySpec> {
    let kind = match u.int_in_range(0u8..=2)? {
        0 => Kind::Static,
        1 => Kind::Kinematic,
        _ => Kind::Dynamic,
    };
    let shape = if kind == Kind::Dynamic {
        solid_shape(u)?
    } else {
        shape(u)?
    };
    let translation = place(u)?;
    let near = if u.ratio(1u8, 2)? { Some(u.arbitrary()?) } else { None };
    let rotation = draw::rotation(u)?;
    let mut scale = scale(u)?;
    let child = if u.ratio(1u8, 4)? {
        Some(Child {
            offset: draw::sane_vec3(u, 1.0)?,
            rotation: draw::rotation(u)?,
            scale,
        })
    } else {
        None
    };
    if !shape.scale_ok(scale) {
        scale = Vec3::ONE;
    }
    let child = child.map(|c| Child { scale, ..c });
    let (velocity, spin) = match kind {
        Kind::Static => (Vec3::ZERO, Vec3::ZERO),
        // Slowed by the scene to its reach.
        Kind::Kinematic => motion(u, KINEMATIC_TOP_SPEED)?,
        Kind::Dynamic => motion(u, 16.0)?,
    };
    Ok(BodySpec {
        kind,
        shape,
        translation,
        near,
        rotation,
        scale,
        child,
        velocity,
        spin,
        mass: if u.ratio(1u8, 2)? {
            Some(draw::in_range(u, 1.0, 2000.0)?)
        } else {
            None
        },
        layers: layers(u)?,
        sensor: u.ratio(1u8, 10)?,
        ignored: u.ratio(1u8, 12)?,
    })
}

fn config(u: &mut Unstructured<'_>) -> Result<Config> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 | 1 => Config::Default,
        2 => Config::EveryMove,
        3 => Config::Scaled(draw::in_range(u, 0.6, 1.6)?),
        4 => Config::Pushy(
            draw::in_range(u, 1.0, 1000.0)?,
            *u.choose(&[0.0, 100.0, 500.0, 5e3, 1e6, 1e9])?,
        ),
        _ => Config::Default,
    })
}

fn intent(u: &mut Unstructured<'_>) -> Result<Intent> {
    let bits: u8 = u.arbitrary()?;
    let direction = if u.ratio(1u8, 4)? {
        Vec3::ZERO
    } else {
        let d = draw::sane_vec3(u, 1.2)?;
        Vec3::new(d.x, 0.0, d.z)
    };
    Ok(Intent {
        direction,
        jump: bits & 1 != 0,
        jump_held: bits & 2 != 0,
        crouch: bits & 4 != 0 && bits & 64 != 0,
        sprint: bits & 8 != 0,
        dash: bits & 16 != 0 && bits & 128 != 0,
    })
}

fn pacing(u: &mut Unstructured<'_>) -> Result<Pacing> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => Pacing::FramesPerTick(1),
        1 => Pacing::FramesPerTick(2),
        2 => Pacing::FramesPerTick(4),
        _ => Pacing::TicksPerFrame(3),
    })
}

fn knock_back(u: &mut Unstructured<'_>) -> Result<Option<f32>> {
    Ok(if u.ratio(1u8, 2)? {
        Some(*u.choose(&[1.0, 0.0, 0.5, 3.0])?)
    } else {
        None
    })
}

fn op(u: &mut Unstructured<'_>) -> Result<Op> {
    let k = |u: &mut Unstructured<'_>| u.arbitrary::<u8>();
    Ok(match u.int_in_range(0u8..=17)? {
        0..=3 => Op::Spawn(Box::new(body(u)?)),
        4 => Op::Throw {
            at: k(u)?,
            shape: solid_shape(u)?,
            from: {
                let d = draw::sane_vec3(u, 1.0)?.try_normalize().unwrap_or(Vec3::X);
                Vec3::new(d.x, d.y.abs() * 0.5, d.z) * draw::in_range(u, 2.0, 8.0)?
            },
            speed: draw::in_range(u, 2.0, 20.0)?,
            mass: if u.ratio(1u8, 2)? {
                Some(draw::in_range(u, 0.5, 500.0)?)
            } else {
                None
            },
        },
        5 => Op::Hurl(k(u)?, k(u)?, draw::in_range(u, 1.0, 20.0)?),
        6 => {
            let (velocity, spin) = motion(u, KINEMATIC_TOP_SPEED)?;
            Op::Velocity(k(u)?, velocity, spin)
        }
        7 => Op::Despawn(k(u)?),
        8 => Op::RemoveCollider(k(u)?),
        9 => Op::Reshape(k(u)?, solid_shape(u)?),
        10 => Op::Sensor(k(u)?, u.arbitrary()?),
        11 => Op::Ignored(k(u)?, u.arbitrary()?),
        12 => Op::SpawnCharacter {
            feet: place(u)?,
            config: config(u)?,
            inner: knock_back(u)?,
            layers: layers(u)?,
        },
        13 => {
            if u.ratio(1u8, 3)? {
                Op::DespawnCharacter(k(u)?)
            } else {
                Op::Inner(k(u)?, knock_back(u)?)
            }
        }
        14 | 15 => Op::Intent(k(u)?, intent(u)?),
        _ => Op::Frames {
            count: u.int_in_range(1u32..=40)?,
            pacing: pacing(u)?,
        },
    })
}

impl Pacing {
    /// A frame's length in quarters of a tick (rounded up).
    fn quarters(self) -> u32 {
        match self {
            Pacing::FramesPerTick(n) => 4 / n,
            Pacing::TicksPerFrame(n) => 4 * n,
        }
    }
}

impl Case {
    /// Draws a case from the bytes: the floor, a first character, then
    /// operations until the bytes or [`MAX_OPS`] run out (a run of frames
    /// is always added at the end, so every case ticks), the frames adding
    /// up to at most [`MAX_TICKS`] ticks.
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let floor = *u.choose(&[1u8, 1, 1, 1, 1, 2, 2, 0])?;
        let mut ops = vec![Op::SpawnCharacter {
            feet: place(u)?,
            config: config(u)?,
            inner: knock_back(u)?,
            layers: None,
        }];
        let mut quarters = 0;
        while !u.is_empty() && ops.len() < MAX_OPS {
            let mut op = op(u)?;
            if let Op::Frames { count, pacing } = &mut op {
                let per_frame = pacing.quarters();
                *count = (*count).min((4 * MAX_TICKS - quarters) / per_frame);
                quarters += *count * per_frame;
                if *count == 0 {
                    continue;
                }
            }
            ops.push(op);
        }
        let left = 30.min(MAX_TICKS - quarters.div_ceil(4));
        if left > 0 {
            ops.push(Op::Frames {
                count: left,
                pacing: Pacing::FramesPerTick(1),
            });
        }
        Ok(Self { floor, ops })
    }
}
