//! Which events a tick already wrote, so that a tick simulated again (a
//! rollback's re-simulation) writes only what it did differently: each
//! event once per tick, character and kind, the first time it happens;
//! a game's own messages once per tick and likeness ([`ShownEvents::write_once`]).

use bevy::ecs::message::Message;
use bevy::prelude::*;
use std::any::{Any, TypeId};
use std::collections::VecDeque;

/// How many ticks back a re-simulation is remembered (more than any
/// rollback window: bevy_ggrs's prediction window is at most 8 to 16
/// ticks by default; a re-simulated tick older than this writes nothing).
const REMEMBERED_TICKS: usize = 128;

/// One event written: the character, the message type and what else it
/// names (the mover boarded, the sensor entered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    character: Entity,
    kind: TypeId,
    about: Option<Entity>,
}

/// A game's message written, with the simulation of its tick that wrote
/// it and the last one that met one like it (and so wrote none).
struct ShownMessage {
    /// The pass ([`ShownEvents::set_tick`] call) that wrote it.
    written_in: u64,
    /// The last pass that met one like it (and so did not write it).
    met_in: u64,
    message: Box<dyn Any + Send + Sync>,
}

/// What one tick wrote.
#[derive(Default)]
struct TickShown {
    tick: i64,
    events: Vec<Shown>,
    messages: Vec<ShownMessage>,
}

/// The events written for each recent tick. Without a tick number (no
/// rollback: [`ShownEvents::set_tick`] never called) every event is
/// written and nothing is kept. Not rolled back: it is what was shown.
#[derive(Resource, Default)]
pub struct ShownEvents {
    /// The number of the tick being simulated, if the app numbers them.
    tick: Option<i64>,
    /// How many times a tick was begun ([`ShownEvents::set_tick`] calls):
    /// tells one simulation of a tick from another.
    pass: u64,
    /// For each recent tick, newest last: its number and what it wrote.
    written: VecDeque<TickShown>,
}

impl std::fmt::Debug for ShownEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShownEvents")
            .field("tick", &self.tick)
            .field("ticks_remembered", &self.written.len())
            .finish()
    }
}

impl ShownEvents {
    /// The tick about to be simulated is number `tick` (numbers grow by one
    /// a tick; a smaller or equal one is a tick simulated again).
    pub fn set_tick(&mut self, tick: i64) {
        self.tick = Some(tick);
        self.pass += 1;
        let oldest = self.written.front().map(|t| t.tick);
        if oldest.is_some_and(|o| tick < o) {
            // Numbered from the start again (a new session): nothing
            // written before is this tick's.
            self.written.clear();
        }
        let newest = self.written.back().map(|t| t.tick);
        if newest.is_none_or(|n| tick > n) {
            self.written.push_back(TickShown { tick, ..default() });
            while self.written.len() > REMEMBERED_TICKS {
                self.written.pop_front();
            }
        }
    }

    /// Between sessions: the next tick numbers start again, and until
    /// [`set_tick`](Self::set_tick) is called every event is written.
    #[cfg_attr(
        feature = "ggrs",
        doc = "[`SlidewalkRollbackPlugin`](crate::SlidewalkRollbackPlugin) calls it"
    )]
    #[cfg_attr(
        not(feature = "ggrs"),
        doc = "`SlidewalkRollbackPlugin` (the `ggrs` feature) calls it"
    )]
    /// while no bevy_ggrs session runs.
    pub fn between_sessions(&mut self) {
        self.tick = None;
        self.written.clear();
    }

    /// Whether the tick simulated now writes an event of `kind` for
    /// `character` about `about`: the first time this tick does (and then
    /// it is remembered).
    fn first(&mut self, shown: Shown) -> bool {
        let Some(tick) = self.tick else {
            return true;
        };
        let Some(written) = self.now_written(tick) else {
            // Older than anything remembered: shown long ago.
            return false;
        };
        if written.events.contains(&shown) {
            return false;
        }
        written.events.push(shown);
        true
    }

    /// What tick `tick` wrote, if it is remembered.
    fn now_written(&mut self, tick: i64) -> Option<&mut TickShown> {
        self.written.iter_mut().rev().find(|t| t.tick == tick)
    }

    /// Writes a game's own `message` from a tick that a rollback may
    /// simulate again, unless an earlier simulation of this tick wrote one
    /// that `alike` says is the same (an explosion at about the same
    /// place, say). Each message written before stands for one message of
    /// each later simulation, so two alike in one simulation are both
    /// written the first time and neither the second. Without tick
    /// numbers, `message` is always written.
    pub fn write_once<M: Message + Clone>(
        &mut self,
        writer: &mut MessageWriter<M>,
        message: M,
        alike: impl Fn(&M, &M) -> bool,
    ) {
        let Some(tick) = self.tick else {
            writer.write(message);
            return;
        };
        let pass = self.pass;
        let Some(written) = self.now_written(tick) else {
            return;
        };
        let earlier = written.messages.iter_mut().find(|m| {
            m.written_in != pass
                && m.met_in != pass
                && m.message.downcast_ref::<M>().is_some_and(|m| alike(m, &message))
        });
        if let Some(earlier) = earlier {
            earlier.met_in = pass;
            return;
        }
        written.messages.push(ShownMessage {
            written_in: pass,
            met_in: pass,
            message: Box::new(message.clone()),
        });
        writer.write(message);
    }

    /// Writes `message` (about `character`, and `about` another entity)
    /// with `writer`, unless this tick already wrote one like it.
    pub(crate) fn write<M: Message>(
        &mut self,
        writer: &mut MessageWriter<M>,
        character: Entity,
        about: Option<Entity>,
        message: M,
    ) {
        let shown = Shown {
            character,
            kind: TypeId::of::<M>(),
            about,
        };
        if self.first(shown) {
            writer.write(message);
        }
    }
}
