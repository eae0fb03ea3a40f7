//! From one character's tick to its movement events: one function per
//! event, each reading the tick's facts and the plugin's memory of the
//! character; the moves' events, straight from the tick's report, in
//! `moves`.

mod moves;

use crate::events::{BoardedMover, ConfigRefused, Crushed, Footstep, HitWall, Jumped, Landed, LeftMover, SteppedUp};
use crate::memory::EventMemory;
use crate::report::MovementReport;
use crate::shown::ShownEvents;
use crate::world::CollisionWorld;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use glam::Vec3;
use moves::{MoveWriters, moves};
use slidewalk_controller::{CharacterState, ControllerConfig, Pass, PassContact};

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
    pub(crate) config_refused: MessageWriter<'w, ConfigRefused>,
    moves: MoveWriters<'w>,
    /// What this tick already wrote (a tick simulated again writes only
    /// what it did differently).
    pub(crate) shown: ResMut<'w, ShownEvents>,
}

/// What one character's tick did.
pub(crate) struct TickFacts<'a> {
    pub character: Entity,
    pub before: &'a CharacterState,
    pub after: &'a CharacterState,
    pub report: &'a MovementReport,
    pub config: &'a ControllerConfig,
    pub stride: f32,
    pub world: &'a CollisionWorld,
    /// The tick's length, seconds.
    pub dt: f32,
}

impl TickFacts<'_> {
    fn up(&self) -> Vec3 {
        self.after.up
    }

    /// Whether it stood on ground when the tick's moves were decided: as
    /// the tick began, or, [`placed`](CharacterState::placed), on the
    /// ground the tick found under it first.
    fn stood_at_start(&self) -> bool {
        if self.before.placed {
            self.report.tick.found_ground
        } else {
            self.before.grounded()
        }
    }

    /// The motion of the tick that was the character's own (not carried,
    /// not pushed), metres.
    fn own_motion(&self) -> Vec3 {
        let tick = &self.report.tick;
        self.after.position - self.before.position - tick.carried - tick.pushed
    }
}

/// Writes the events of one character's tick; keeps what they need
/// between ticks (distance walked, the wall touched, the mover ridden) in
/// its memory.
pub(crate) fn emit(w: &mut EventWriters, f: &TickFacts, memory: &mut EventMemory) {
    jumped(w, f);
    landed(w, f);
    stepped_up(w, f);
    footstep(w, f, &mut memory.walked);
    hit_wall(w, f, &mut memory.touching_wall);
    crushed(w, f);
    boarded_or_left(w, f, &mut memory.riding);
    moves(w, f);
}

fn jumped(w: &mut EventWriters, f: &TickFacts) {
    if f.report.tick.jumped {
        w.shown.write(
            &mut w.jumped,
            f.character,
            None,
            Jumped {
                character: f.character,
                speed: f.config.jump_speed(),
                in_air: f.report.tick.air_jump,
            },
        );
    }
}

/// Exact for constant gravity: the speed before the tick and the height
/// fallen within it until touching down.
fn landed(w: &mut EventWriters, f: &TickFacts) {
    if !f.report.tick.landed {
        return;
    }
    let up = f.up();
    let start = f.report.tick.launched.unwrap_or(f.before.velocity);
    let falling = (-start.dot(up)).max(0.0);
    let fallen = (-f.own_motion().dot(up)).max(0.0);
    let impact = (falling * falling + 2.0 * f.config.gravity.length() * fallen).sqrt();
    let ground = f.report.ground.as_ref();
    w.shown.write(
        &mut w.landed,
        f.character,
        None,
        Landed {
            character: f.character,
            impact_speed: impact,
            surface: ground.map(|g| g.surface.clone()).unwrap_or_default(),
            ground: ground.and_then(|g| g.entity),
            hard: f.report.tick.hard_landing,
        },
    );
}

fn stepped_up(w: &mut EventWriters, f: &TickFacts) {
    if f.report.tick.stepped {
        w.shown.write(
            &mut w.stepped,
            f.character,
            None,
            SteppedUp {
                character: f.character,
                height: f.own_motion().dot(f.up()).max(0.0),
            },
        );
    }
}

/// Footsteps by distance walked on the ground.
fn footstep(w: &mut EventWriters, f: &TickFacts, walked: &mut f32) {
    let Some(ground) = &f.report.ground else {
        *walked = 0.0;
        return;
    };
    if !f.stood_at_start() || f.report.tick.landed {
        return;
    }
    let up = f.up();
    let own = f.own_motion();
    *walked += (own - up * own.dot(up)).length();
    let speed = (f.after.velocity - up * f.after.velocity.dot(up)).length();
    if *walked >= f.stride && f.stride > 0.0 {
        *walked %= f.stride;
        if speed >= FOOTSTEP_MIN_SPEED {
            w.shown.write(
                &mut w.footstep,
                f.character,
                None,
                Footstep {
                    character: f.character,
                    surface: ground.surface.clone(),
                    speed,
                    position: f.after.feet(),
                },
            );
        }
    }
}

/// A wall: the steepest non-walkable contact of the walking or falling
/// move, reported when the touch starts.
fn hit_wall(w: &mut EventWriters, f: &TickFacts, touching_wall: &mut bool) {
    if f.report.tick.contacts.is_empty() {
        *touching_wall = false;
        return;
    }
    let up = f.up();
    let walkable_cos = libm::cosf(f.config.walkable_slope_deg.to_radians());
    let wall = f
        .report
        .tick
        .contacts
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            matches!(c.pass, Pass::Move | Pass::Air | Pass::StepForward | Pass::Dash) && !c.contact.depenetration
        })
        .filter(|(_, c)| c.contact.normal.dot(up) < walkable_cos && c.contact.normal.dot(up) > -walkable_cos)
        .min_by(|(_, a), (_, b)| {
            a.contact
                .normal
                .dot(up)
                .abs()
                .total_cmp(&b.contact.normal.dot(up).abs())
        });
    let Some((k, c)) = wall else {
        *touching_wall = false;
        return;
    };
    if !*touching_wall {
        let v = if c.pass == Pass::Dash {
            // A dash moves at its own speed, gravity suspended.
            let dash = f.after.moves.dash().or(f.before.moves.dash());
            dash.map_or(f.after.velocity, |d| d.direction * d.speed)
        } else {
            velocity_at_contact(f, k)
        } - c.contact.surface_velocity;
        w.shown.write(
            &mut w.hit_wall,
            f.character,
            None,
            HitWall {
                character: f.character,
                normal: c.contact.normal,
                speed: (-v.dot(c.contact.normal)).max(0.0),
                wall: f.report.contact_entities.get(k).copied().flatten(),
            },
        );
    }
    *touching_wall = true;
}

/// The character's velocity at the moment of contact `k` of the tick
/// (world space, m/s). In the air, gravity pulls through the tick: the
/// contact's time is the fraction of the motion its iteration met it at,
/// each iteration taking what remained of the previous one's. On the
/// ground, the walk's velocity at the start of the tick.
fn velocity_at_contact(f: &TickFacts, k: usize) -> Vec3 {
    // A launch (an impulse, a pad) set the velocity at the tick's start.
    let start = f.report.tick.launched.unwrap_or_else(|| f.before.world_velocity());
    let contacts = &f.report.tick.contacts;
    let hit = &contacts[k];
    if hit.pass != Pass::Air {
        return start;
    }
    let up = f.up();
    let start = if f.report.tick.jumped {
        start - up * start.dot(up) + up * f.config.jump_speed()
    } else {
        start
    };
    let gone = fraction_gone(&contacts[..k], hit);
    let t = (gone + (1.0 - gone) * hit.contact.time.clamp(0.0, 1.0)) * f.dt;
    let mut v = start + f.config.gravity * t;
    let fall = -v.dot(up);
    if fall > f.config.max_fall_speed {
        v += up * (fall - f.config.max_fall_speed);
    }
    v
}

/// The fraction of the tick gone when `hit`'s iteration began: each
/// earlier iteration of the fall ended at its first contact.
fn fraction_gone(earlier: &[PassContact], hit: &PassContact) -> f32 {
    let mut gone = 0.0f32;
    let mut counted = None;
    for c in earlier
        .iter()
        .filter(|c| c.pass == Pass::Air && !c.contact.depenetration && c.contact.iteration < hit.contact.iteration)
    {
        if counted != Some(c.contact.iteration) {
            counted = Some(c.contact.iteration);
            gone += (1.0 - gone) * c.contact.time.clamp(0.0, 1.0);
        }
    }
    gone
}

fn crushed(w: &mut EventWriters, f: &TickFacts) {
    let tick = &f.report.tick;
    if !tick.crushed {
        return;
    }
    let by = tick
        .pushing_colliders()
        .into_iter()
        .filter_map(|i| {
            // The pushing contact names the entity.
            let k = tick.contacts.iter().position(|c| c.contact.collider == i)?;
            f.report.contact_entities.get(k).copied().flatten()
        })
        .collect();
    w.shown.write(
        &mut w.crushed,
        f.character,
        None,
        Crushed {
            character: f.character,
            by,
        },
    );
}

/// Riding: standing on a collider that moves.
fn boarded_or_left(w: &mut EventWriters, f: &TickFacts, riding: &mut Option<Entity>) {
    let character = f.character;
    let now = f.report.ground.as_ref().and_then(|g| {
        let i = f.report.tick.ground.map(|t| t.collider)?;
        f.world.is_mover(i).then_some(g.entity).flatten()
    });
    if now != *riding {
        if let Some(mover) = *riding {
            w.shown
                .write(&mut w.left, character, Some(mover), LeftMover { character, mover });
        }
        if let Some(mover) = now {
            w.shown.write(
                &mut w.boarded,
                character,
                Some(mover),
                BoardedMover { character, mover },
            );
        }
        *riding = now;
    }
}
