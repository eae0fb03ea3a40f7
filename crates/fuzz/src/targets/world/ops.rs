//! The operations a `world` case is made of, drawn from the fuzzer's bytes:
//! what a game does to the plugin's entities between frames, and the
//! frames themselves.

use crate::draw;
use arbitrary::{Result, Unstructured};
use glam::{Quat, Vec3};

/// Most operations in one case (the rest of the bytes is ignored).
pub const MAX_OPS: usize = 48;
/// Most fixed ticks in one case, all `Frames` operations together.
pub const MAX_TICKS: u32 = 160;
/// Most colliders alive at once (spawns past it are skipped).
pub const MAX_COLLIDERS: usize = 20;
/// Most characters alive at once (the plugin steps 64 or more on worker
/// threads; the target stays on one).
pub const MAX_CHARACTERS: usize = 5;

/// A collider's geometry, in its entity's local frame (metres).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A closed box of explicit triangles, faces wound outward.
    Box { half: Vec3 },
    /// Bevy's `Cuboid` mesh (`Mesh3d` with `SlidewalkCollider::mesh()`).
    MeshCuboid { half: Vec3 },
    /// A box built once by `sweep` and shared (`SlidewalkCollider::from_mesh_collider`).
    SharedBox,
    /// A one-sided quad facing +Y.
    Slab { half_x: f32, half_z: f32 },
    /// A closed wedge rising along +X (a ramp of `angle_deg`).
    Ramp { half: Vec3, angle_deg: f32 },
    /// Loose triangles; `bad` more that the build must leave out (a
    /// repeated corner, a NaN corner, an index past the corners).
    Soup { triangles: Vec<[Vec3; 3]>, bad: u8 },
}

/// A collider's rule component given or taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    OneWay(Option<Vec3>),
    Layers(Option<(u32, u32)>),
    Sensor(bool),
    Climbable(bool),
    LaunchPad(Option<Vec3>),
}

/// A character's configuration, as a game would choose it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Config {
    Default,
    EveryMove,
    /// The default with its radii scaled (both standing and crouched).
    Scaled(f32),
    /// Every move on, the standing radii these.
    Radii(Vec3),
    /// An invalid value in one field (refused, the last valid one kept).
    Invalid(u8),
}

/// What a character is asked to do (`MovementIntent`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Intent {
    pub direction: Vec3,
    pub jump: bool,
    pub jump_held: bool,
    pub crouch: bool,
    pub sprint: bool,
    pub drop: bool,
    pub dash: bool,
    pub impulse: Vec3,
}

/// How the frames of a `Frames` operation fall on the fixed tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pacing {
    /// Each frame lasts `ticks / frames` fixed ticks (4 frames per tick …
    /// 4 ticks per frame, odd ratios too).
    pub ticks: u32,
    pub frames: u32,
}

/// One operation. Colliders, parents and characters are named by their
/// index (modulo the number alive) in the order they were spawned.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A collider, maybe under a parent (a collider or a plain entity).
    Spawn {
        shape: Shape,
        translation: Vec3,
        rotation: Quat,
        scale: Vec3,
        parent: Option<u8>,
        rules: Vec<Rule>,
    },
    /// A plain entity (a `Transform`, no collider) to parent colliders to.
    SpawnPivot {
        translation: Vec3,
        rotation: Quat,
        scale: Vec3,
    },
    /// Despawns a collider or a pivot (and what is under it).
    Despawn(u8),
    /// Takes `SlidewalkCollider` off an entity (it stays, with its children).
    TakeCollider(u8),
    Translate(u8, Vec3),
    Rotate(u8, Quat),
    Scale(u8, Vec3),
    /// Parents collider `0` under collider-or-pivot `1`, or makes it a root.
    Reparent(u8, Option<u8>),
    /// Moves a collider or pivot every tick (before the plugin's
    /// `Prepare`) or every frame (in `Update`): a lift, a door.
    Drift {
        target: u8,
        velocity: Vec3,
        spin: Vec3,
        per_frame: bool,
    },
    Rule(u8, Rule),
    SpawnCharacter {
        feet: Vec3,
        config: Config,
        layers: Option<(u32, u32)>,
    },
    DespawnCharacter(u8),
    Configure(u8, Config),
    CharacterLayers(u8, Option<(u32, u32)>),
    /// `MovementState::teleport_feet`.
    TeleportFeet(u8, Vec3),
    /// The character's `Transform` translation written (a teleport of the centre).
    TeleportTransform(u8, Vec3),
    /// `MovementState::teleport` to a collider's centre (into it, or where it was).
    TeleportInto(u8, u8),
    Intent(u8, Intent),
    Active(u8, bool),
    Frames {
        count: u32,
        pacing: Pacing,
    },
}

/// A whole case: the tick, the scene's start and the operations.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Fixed ticks per second.
    pub hz: u32,
    /// A 40 m floor slab under everything from the start.
    pub floor: bool,
    pub ops: Vec<Op>,
}

/// A sane position in the 40 m arena, metres.
fn place(u: &mut Unstructured<'_>) -> Result<Vec3> {
    let v = draw::sane_vec3(u, 12.0)?;
    Ok(Vec3::new(v.x, v.y.abs() * 0.5, v.z))
}

/// A scale: 1, uniform, per axis, mirrored.
fn scale(u: &mut Unstructured<'_>) -> Result<Vec3> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 => Vec3::splat(draw::in_range(u, 0.3, 3.0)?),
        1 => Vec3::new(
            draw::in_range(u, 0.3, 3.0)?,
            draw::in_range(u, 0.3, 3.0)?,
            draw::in_range(u, 0.3, 3.0)?,
        ),
        2 => Vec3::new(-1.0, 1.0, 1.0) * draw::in_range(u, 0.5, 2.0)?,
        3 => Vec3::new(1.0, -1.0, 1.0),
        _ => Vec3::ONE,
    })
}

fn half(u: &mut Unstructured<'_>) -> Result<Vec3> {
    Ok(Vec3::new(
        draw::in_range(u, 0.1, 4.0)?,
        draw::in_range(u, 0.05, 2.0)?,
        draw::in_range(u, 0.1, 4.0)?,
    ))
}

fn shape(u: &mut Unstructured<'_>) -> Result<Shape> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 | 1 => Shape::Box { half: half(u)? },
        2 => Shape::MeshCuboid { half: half(u)? },
        3 => Shape::SharedBox,
        4 => Shape::Slab {
            half_x: draw::in_range(u, 0.2, 6.0)?,
            half_z: draw::in_range(u, 0.2, 6.0)?,
        },
        5 => Shape::Ramp {
            half: half(u)?,
            angle_deg: draw::in_range(u, 5.0, 80.0)?,
        },
        _ => {
            let n = u.int_in_range(1u8..=6)?;
            let triangles = (0..n)
                .map(|_| {
                    Ok([
                        draw::sane_vec3(u, 3.0)?,
                        draw::sane_vec3(u, 3.0)?,
                        draw::sane_vec3(u, 3.0)?,
                    ])
                })
                .collect::<Result<Vec<_>>>()?;
            Shape::Soup {
                triangles,
                bad: u.int_in_range(0u8..=3)?,
            }
        }
    })
}

fn layers(u: &mut Unstructured<'_>) -> Result<Option<(u32, u32)>> {
    // Few layers, so that masks meet and miss alike.
    let mask = |u: &mut Unstructured<'_>| -> Result<u32> {
        Ok(match u.int_in_range(0u8..=4)? {
            0 => u32::MAX,
            1 => 0,
            _ => u.int_in_range(1u32..=7)?,
        })
    };
    Ok(if u.ratio(1u8, 3)? {
        None
    } else {
        Some((mask(u)?, mask(u)?))
    })
}

fn rule(u: &mut Unstructured<'_>) -> Result<Rule> {
    let on = u.ratio(2u8, 3)?;
    Ok(match u.int_in_range(0u8..=4)? {
        0 => Rule::OneWay(if on {
            Some(match u.int_in_range(0u8..=3)? {
                0 => draw::sane_vec3(u, 1.0)?,
                1 => Vec3::ZERO,
                _ => Vec3::Y,
            })
        } else {
            None
        }),
        1 => Rule::Layers(if on { layers(u)?.or(Some((1, 1))) } else { None }),
        2 => Rule::Sensor(on),
        3 => Rule::Climbable(on),
        _ => Rule::LaunchPad(if on { Some(draw::sane_vec3(u, 15.0)?) } else { None }),
    })
}

fn config(u: &mut Unstructured<'_>) -> Result<Config> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 | 1 => Config::Default,
        2 | 3 => Config::EveryMove,
        4 => Config::Scaled(draw::in_range(u, 0.3, 2.5)?),
        5 => Config::Radii(Vec3::new(
            draw::in_range(u, 0.15, 1.5)?,
            draw::in_range(u, 0.3, 2.0)?,
            draw::in_range(u, 0.15, 1.5)?,
        )),
        6 => Config::Invalid(u.arbitrary()?),
        _ => Config::Default,
    })
}

fn intent(u: &mut Unstructured<'_>) -> Result<Intent> {
    let bits: u8 = u.arbitrary()?;
    Ok(Intent {
        direction: if u.ratio(1u8, 4)? {
            Vec3::ZERO
        } else {
            draw::sane_vec3(u, 1.2)?
        },
        jump: bits & 1 != 0,
        jump_held: bits & 2 != 0,
        crouch: bits & 4 != 0 && bits & 64 != 0,
        sprint: bits & 8 != 0,
        drop: bits & 16 != 0 && bits & 128 != 0,
        dash: bits & 32 != 0 && bits & 128 != 0,
        impulse: if u.ratio(1u8, 6)? {
            draw::sane_vec3(u, 20.0)?
        } else {
            Vec3::ZERO
        },
    })
}

fn op(u: &mut Unstructured<'_>) -> Result<Op> {
    let k = |u: &mut Unstructured<'_>| u.arbitrary::<u8>();
    Ok(match u.int_in_range(0u8..=23)? {
        0..=2 => Op::Spawn {
            shape: shape(u)?,
            translation: place(u)?,
            rotation: draw::rotation(u)?,
            scale: scale(u)?,
            parent: if u.ratio(1u8, 4)? { Some(k(u)?) } else { None },
            rules: {
                let n = u.int_in_range(0u8..=2)?;
                (0..n).map(|_| rule(u)).collect::<Result<_>>()?
            },
        },
        3 => Op::SpawnPivot {
            translation: place(u)?,
            rotation: draw::rotation(u)?,
            scale: scale(u)?,
        },
        4 => Op::Despawn(k(u)?),
        5 => {
            if u.ratio(1u8, 3)? {
                Op::TakeCollider(k(u)?)
            } else {
                Op::Despawn(k(u)?)
            }
        }
        6 => Op::Translate(k(u)?, place(u)?),
        7 => Op::Rotate(k(u)?, draw::rotation(u)?),
        8 => Op::Scale(k(u)?, scale(u)?),
        9 => Op::Reparent(k(u)?, if u.ratio(1u8, 3)? { None } else { Some(k(u)?) }),
        10 => Op::Drift {
            target: k(u)?,
            velocity: draw::sane_vec3(u, 3.0)?,
            spin: if u.ratio(1u8, 2)? {
                Vec3::ZERO
            } else {
                draw::sane_vec3(u, 2.0)?
            },
            per_frame: u.arbitrary()?,
        },
        11 | 12 => Op::Rule(k(u)?, rule(u)?),
        13 => Op::SpawnCharacter {
            feet: place(u)?,
            config: config(u)?,
            layers: layers(u)?,
        },
        14 => Op::DespawnCharacter(k(u)?),
        15 => Op::Configure(k(u)?, config(u)?),
        16 => Op::CharacterLayers(k(u)?, layers(u)?),
        17 => Op::TeleportFeet(k(u)?, place(u)?),
        18 => Op::TeleportTransform(k(u)?, place(u)?),
        19 => Op::TeleportInto(k(u)?, k(u)?),
        20 => Op::Active(k(u)?, u.ratio(3u8, 4)?),
        21 => Op::Intent(k(u)?, intent(u)?),
        _ => Op::Frames {
            count: u.int_in_range(1u32..=12)?,
            pacing: Pacing {
                ticks: u.int_in_range(1u32..=4)?,
                frames: u.int_in_range(1u32..=4)?,
            },
        },
    })
}

impl Case {
    /// Draws a case from the bytes: the tick, the floor, then operations
    /// until the bytes or [`MAX_OPS`] run out (a run of frames is always
    /// added at the end, so every case ticks), the frames adding up to at
    /// most [`MAX_TICKS`] ticks.
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let hz = *u.choose(&[60, 60, 30, 64, 144])?;
        let floor = !u.ratio(1u8, 8)?;
        let mut ops = Vec::new();
        // Ticks the frames so far add up to, in quarters of a tick
        // (rounded up: a frame of a third of a tick counts a half).
        let mut quarters = 0;
        while !u.is_empty() && ops.len() < MAX_OPS {
            let mut op = op(u)?;
            if let Op::Frames { count, pacing } = &mut op {
                let per_frame = (4 * pacing.ticks).div_ceil(pacing.frames);
                *count = (*count).min((4 * MAX_TICKS - quarters) / per_frame);
                quarters += *count * per_frame;
                if *count == 0 {
                    continue;
                }
            }
            ops.push(op);
        }
        let left = 8.min(MAX_TICKS - quarters.div_ceil(4));
        if left > 0 {
            ops.push(Op::Frames {
                count: left,
                pacing: Pacing { ticks: 1, frames: 1 },
            });
        }
        Ok(Self { hz, floor, ops })
    }
}
