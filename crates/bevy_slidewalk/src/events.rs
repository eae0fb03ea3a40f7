//! Movement events, written as Bevy messages by the tick that caused them,
//! the same for every character: read them with a `MessageReader` in any
//! system after [`SlidewalkSystems::Step`](crate::SlidewalkSystems::Step)
//! (or in `Update`) to play footsteps, kick up dust or shake the camera.

use crate::collider::Surface;
use crate::world::CollisionWorld;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use controller::{CharacterState, Pass, TickReport};
use glam::Vec3;

/// Distance walked on the ground between two [`Footstep`]s, metres (0.8
/// by default; a component every character has, change it per
/// character).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct FootstepStride(pub f32);

impl Default for FootstepStride {
    fn default() -> Self {
        Self(0.8)
    }
}

/// A jump started this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Jumped {
    /// The character.
    pub character: Entity,
    /// Take-off speed along "up", m/s (√(2·g·jump height)).
    pub speed: f32,
}

/// The character landed on ground this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Landed {
    /// The character.
    pub character: Entity,
    /// Speed into the ground at the moment of touching it, m/s (√(2gh)
    /// after a fall of h metres from rest).
    pub impact_speed: f32,
    /// The surface landed on.
    pub surface: Surface,
    /// The collider entity landed on.
    pub ground: Option<Entity>,
}

/// The character climbed by a step-up this tick (a riser taller than
/// the ellipsoid's curve rolls over; one may take a few ticks, each
/// reported with its own rise).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SteppedUp {
    /// The character.
    pub character: Entity,
    /// How far the feet rose, metres.
    pub height: f32,
}

/// A footstep: one each [`FootstepStride`] walked on the ground (the
/// first after the first stride; not while carried, nor under 0.5 m/s).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Footstep {
    /// The character.
    pub character: Entity,
    /// The surface stepped on (its tag picks the sound).
    pub surface: Surface,
    /// Walking speed over the ground, m/s.
    pub speed: f32,
    /// Where the feet are, metres.
    pub position: Vec3,
}

/// The character ran into a wall (or anything too steep to stand on):
/// written when a touch starts, not for every tick of leaning on it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct HitWall {
    /// The character.
    pub character: Entity,
    /// The wall's normal, unit, towards the character.
    pub normal: Vec3,
    /// Speed into the wall at the moment of the hit (relative to the wall,
    /// gravity's pull during the tick until then included), m/s.
    pub speed: f32,
    /// The collider entity hit.
    pub wall: Option<Entity>,
}

/// The character is squeezed: something moved into it and it could not
/// get out of the way. Written every tick it lasts; turn back what
/// pushes.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Crushed {
    /// The character.
    pub character: Entity,
    /// The colliders that moved into it.
    pub by: Vec<Entity>,
}

/// The character stepped onto a mover (a collider that has moved) and is
/// carried by it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct BoardedMover {
    /// The character.
    pub character: Entity,
    /// The mover.
    pub mover: Entity,
}

/// The character is no longer standing on the mover it rode.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LeftMover {
    /// The character.
    pub character: Entity,
    /// The mover.
    pub mover: Entity,
}

/// The walking speed (m/s) under which no footstep sounds.
const FOOTSTEP_MIN_SPEED: f32 = 0.5;

/// The writers of every movement event.
#[derive(SystemParam)]
pub(crate) struct EventWriters<'w> {
    jumped: MessageWriter<'w, Jumped>,
    landed: MessageWriter<'w, Landed>,
    stepped: MessageWriter<'w, SteppedUp>,
    footstep: MessageWriter<'w, Footstep>,
    hit_wall: MessageWriter<'w, HitWall>,
    crushed: MessageWriter<'w, Crushed>,
    boarded: MessageWriter<'w, BoardedMover>,
    left: MessageWriter<'w, LeftMover>,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Jumped>()
        .add_message::<Landed>()
        .add_message::<SteppedUp>()
        .add_message::<Footstep>()
        .add_message::<HitWall>()
        .add_message::<Crushed>()
        .add_message::<BoardedMover>()
        .add_message::<LeftMover>();
}

/// What one character's tick did.
pub(crate) struct TickFacts<'a> {
    pub character: Entity,
    pub before: &'a CharacterState,
    pub after: &'a CharacterState,
    pub tick: &'a TickReport,
    pub ground: Option<&'a crate::report::GroundHit>,
    pub config: &'a controller::ControllerConfig,
    pub stride: f32,
    pub up: Vec3,
    pub world: &'a CollisionWorld,
    /// The tick's length, seconds.
    pub dt: f32,
}

/// The character's velocity at the moment of contact `k` of the tick
/// (world space, m/s). In the air, gravity pulls through the tick: the
/// contact's time is the fraction of the motion its iteration met it at,
/// each iteration taking what remained of the previous one's. On the
/// ground, the walk's velocity at the start of the tick.
fn velocity_at_contact(f: &TickFacts, k: usize) -> Vec3 {
    let start = f.before.world_velocity();
    let hit = &f.tick.contacts[k];
    if hit.pass != Pass::Air {
        return start;
    }
    let up = f.up;
    let start = if f.tick.jumped {
        start - up * start.dot(up) + up * f.config.jump_speed()
    } else {
        start
    };
    // The fraction of the tick gone when the hit's iteration began: each
    // earlier iteration ended at its first contact.
    let mut gone = 0.0f32;
    let mut counted = None;
    for c in f.tick.contacts[..k]
        .iter()
        .filter(|c| c.pass == Pass::Air && !c.contact.depenetration && c.contact.iteration < hit.contact.iteration)
    {
        if counted != Some(c.contact.iteration) {
            counted = Some(c.contact.iteration);
            gone += (1.0 - gone) * c.contact.time.clamp(0.0, 1.0);
        }
    }
    let t = (gone + (1.0 - gone) * hit.contact.time.clamp(0.0, 1.0)) * f.dt;
    let mut v = start + f.config.gravity * t;
    let fall = -v.dot(up);
    if fall > f.config.max_fall_speed {
        v += up * (fall - f.config.max_fall_speed);
    }
    v
}

/// Writes the events of one character's tick; keeps what they need
/// between ticks (distance walked, the wall touched, the mover ridden).
pub(crate) fn emit(
    w: &mut EventWriters,
    f: TickFacts,
    walked: &mut f32,
    touching_wall: &mut bool,
    riding: &mut Option<Entity>,
) {
    let character = f.character;
    let up = f.up;
    let walkable_cos = f.config.walkable_slope_deg.to_radians().cos();
    // The motion of the tick that was the character's own.
    let own = f.after.position - f.before.position - f.tick.carried - f.tick.pushed;
    if f.tick.jumped {
        w.jumped.write(Jumped {
            character,
            speed: f.config.jump_speed(),
        });
    }
    if f.tick.landed {
        // Exact for constant gravity: the speed before the tick and the
        // height fallen within it until touching down.
        let falling = (-f.before.velocity.dot(up)).max(0.0);
        let fallen = (-own.dot(up)).max(0.0);
        let impact = (falling * falling + 2.0 * f.config.gravity.length() * fallen).sqrt();
        w.landed.write(Landed {
            character,
            impact_speed: impact,
            surface: f.ground.map(|g| g.surface.clone()).unwrap_or_default(),
            ground: f.ground.and_then(|g| g.entity),
        });
    }
    if f.tick.stepped {
        w.stepped.write(SteppedUp {
            character,
            height: own.dot(up).max(0.0),
        });
    }
    // Footsteps by distance walked on the ground.
    match f.ground {
        Some(g) if f.before.grounded() && !f.tick.landed => {
            let across = own - up * own.dot(up);
            *walked += across.length();
            let speed = (f.after.velocity - up * f.after.velocity.dot(up)).length();
            if *walked >= f.stride && f.stride > 0.0 {
                *walked %= f.stride;
                if speed >= FOOTSTEP_MIN_SPEED {
                    w.footstep.write(Footstep {
                        character,
                        surface: g.surface.clone(),
                        speed,
                        position: f.after.feet(),
                    });
                }
            }
        }
        Some(_) => {}
        None => *walked = 0.0,
    }
    // A wall: the steepest non-walkable contact of the walking or falling
    // move, reported when the touch starts.
    let wall = f
        .tick
        .contacts
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.pass, Pass::Move | Pass::Air | Pass::StepForward) && !c.contact.depenetration)
        .filter(|(_, c)| c.contact.normal.dot(up) < walkable_cos && c.contact.normal.dot(up) > -walkable_cos)
        .min_by(|(_, a), (_, b)| {
            a.contact
                .normal
                .dot(up)
                .abs()
                .total_cmp(&b.contact.normal.dot(up).abs())
        });
    match wall {
        Some((k, c)) => {
            if !*touching_wall {
                let v = velocity_at_contact(&f, k) - c.contact.surface_velocity;
                w.hit_wall.write(HitWall {
                    character,
                    normal: c.contact.normal,
                    speed: (-v.dot(c.contact.normal)).max(0.0),
                    wall: f.world.entity(c.contact.collider, c.contact.triangle),
                });
            }
            *touching_wall = true;
        }
        None => *touching_wall = false,
    }
    if f.tick.crushed {
        let by = f
            .tick
            .pushing_colliders()
            .into_iter()
            .filter_map(|i| {
                // The pushing contact's triangle names the entity.
                let c = f.tick.contacts.iter().find(|c| c.contact.collider == i)?;
                f.world.entity(i, c.contact.triangle)
            })
            .collect();
        w.crushed.write(Crushed { character, by });
    }
    // Riding: standing on a collider that moves.
    let now = f.ground.filter(|g| g.entity.is_some()).and_then(|g| {
        let i = f.tick.ground.map(|t| t.collider)?;
        f.world.is_mover(i).then_some(g.entity).flatten()
    });
    if now != *riding {
        if let Some(mover) = *riding {
            w.left.write(LeftMover { character, mover });
        }
        if let Some(mover) = now {
            w.boarded.write(BoardedMover { character, mover });
        }
        *riding = now;
    }
}
