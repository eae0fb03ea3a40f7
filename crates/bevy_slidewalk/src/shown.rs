//! Which events a tick already wrote, so that a tick simulated again (a
//! rollback's re-simulation) writes only what it did differently: each
//! event once per tick, character and kind, the first time it happens.

use bevy::ecs::message::Message;
use bevy::prelude::*;
use std::any::TypeId;
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

/// The events written for each recent tick. Without a tick number (no
/// rollback: [`ShownEvents::set_tick`] never called) every event is
/// written and nothing is kept. Not rolled back: it is what was shown.
#[derive(Resource, Default, Debug)]
pub struct ShownEvents {
    /// The number of the tick being simulated, if the app numbers them.
    tick: Option<i64>,
    /// For each recent tick, newest last: its number and what it wrote.
    written: VecDeque<(i64, Vec<Shown>)>,
}

impl ShownEvents {
    /// The tick about to be simulated is number `tick` (numbers grow by one
    /// a tick; a smaller or equal one is a tick simulated again).
    pub fn set_tick(&mut self, tick: i64) {
        self.tick = Some(tick);
        let oldest = self.written.front().map(|(t, _)| *t);
        if oldest.is_some_and(|o| tick < o) {
            // Numbered from the start again (a new session): nothing
            // written before is this tick's.
            self.written.clear();
        }
        let newest = self.written.back().map(|(t, _)| *t);
        if newest.is_none_or(|n| tick > n) {
            self.written.push_back((tick, Vec::new()));
            while self.written.len() > REMEMBERED_TICKS {
                self.written.pop_front();
            }
        }
    }

    /// Whether the tick simulated now writes an event of `kind` for
    /// `character` about `about`: the first time this tick does (and then
    /// it is remembered).
    fn first(&mut self, shown: Shown) -> bool {
        let Some(tick) = self.tick else {
            return true;
        };
        let Some((_, written)) = self.written.iter_mut().rev().find(|(t, _)| *t == tick) else {
            // Older than anything remembered: shown long ago.
            return false;
        };
        if written.contains(&shown) {
            return false;
        }
        written.push(shown);
        true
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
