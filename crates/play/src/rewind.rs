//! The rewind buffer: the last seconds of ticks — the input each used, the
//! controller's report (contacts, slide planes) and the whole state after
//! it (player, lifts' clock, doors, mover poses) — in a ring, and the
//! ticks in it as a script that replays them headless from the same state.

use crate::buttons::Buttons;
use crate::player::TickInput;
use crate::recorder::Recorder;
use crate::script::Script;
use crate::start::Start;
use glam::Vec3;
use slidewalk_controller::{CharacterState, ControllerConfig, TickReport};
use slidewalk_level::DoorControl;
use slidewalk_sweep::Pose;
use std::collections::VecDeque;

/// The simulation state at the end of a tick.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldState {
    /// The player's controller state.
    pub player: CharacterState,
    /// Fly mode was on.
    pub flying: bool,
    /// The lifts' clock, seconds since the level was opened.
    pub clock_s: f64,
    /// Each mover's door state, by mover index (`None`: a lift).
    pub doors: Vec<Option<DoorControl>>,
    /// Each lift's place on its schedule, seconds, by mover index (`None`: a door).
    pub lifts: Vec<Option<f64>>,
    /// Each mover's pose, by mover index.
    pub mover_poses: Vec<Pose>,
    /// Movers that squeezed the player this tick.
    pub squeezed: Vec<usize>,
}

/// One tick as it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct TickRecord {
    /// Ticks since the level was opened (1 = the first).
    pub tick: u64,
    /// The input the tick used (heading in radians).
    pub input: TickInput,
    /// Where the view looked up or down, radians (the tick's own look, which
    /// swimming reads, is `input.pitch`).
    pub pitch: f32,
    /// What the controller reported.
    pub report: TickReport,
    /// Wall-clock time of the player's tick, microseconds.
    pub micros: f32,
    /// Of which in collide-and-slide, microseconds.
    pub sweep_micros: f32,
    /// Everything after the tick.
    pub after: WorldState,
}

impl TickRecord {
    /// The buttons as a script holds them: a press between two ticks
    /// counts as held for the tick that used it.
    pub fn script_buttons(&self) -> Buttons {
        let i = &self.input;
        Buttons {
            jump: i.held.jump || i.pressed.jump,
            use_key: i.held.use_key || i.pressed.use_key,
            throw: i.held.throw || i.pressed.throw,
            drop: i.held.drop || i.pressed.drop,
            dash: i.held.dash || i.pressed.dash,
            ..i.held
        }
    }
}

/// The last ticks, oldest first, at most `capacity` of them.
#[derive(Clone, Debug)]
pub struct History {
    records: VecDeque<TickRecord>,
    capacity: usize,
}

impl History {
    /// A buffer for `seconds` of ticks of `dt` seconds (plus the tick
    /// before the first, whose state the first starts from).
    pub fn new(seconds: f32, dt: f32) -> Self {
        let capacity = (seconds / dt).ceil().max(1.0) as usize + 1;
        Self {
            records: VecDeque::with_capacity(capacity),
            capacity,
        }
    }

    /// How many ticks it keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Adds the newest tick, dropping the oldest when full.
    pub fn push(&mut self, record: TickRecord) {
        if self.records.len() == self.capacity {
            self.records.pop_front();
        }
        self.records.push_back(record);
    }

    /// Ticks held.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Holds no tick.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Forgets every tick (a new level).
    pub fn clear(&mut self) {
        self.records.clear();
    }

    /// The tick at `index` (0 = the oldest held).
    pub fn get(&self, index: usize) -> Option<&TickRecord> {
        self.records.get(index)
    }

    /// The newest tick.
    pub fn latest(&self) -> Option<&TickRecord> {
        self.records.back()
    }

    /// The ticks, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &TickRecord> + ExactSizeIterator {
        self.records.iter()
    }

    /// The ticks after the oldest up to `last` (an index) as a script made
    /// with `config` at `tick_hz` on `level` (spawn: the level's, for a
    /// respawn), starting from the state after the oldest tick. `None`
    /// when there is no such tick.
    pub fn script(
        &self,
        last: usize,
        level: Option<String>,
        spawn: Option<Vec3>,
        tick_hz: f32,
        config: ControllerConfig,
    ) -> Option<Script> {
        let first = self.records.front()?;
        if last == 0 || last >= self.records.len() {
            return None;
        }
        let mut recorder = Recorder::new(1.0 / tick_hz, level, spawn).exact();
        for r in self.records.range(1..=last) {
            recorder.record(r.input.movement, r.input.yaw, r.input.pitch, r.script_buttons());
        }
        let mut script = recorder.into_script();
        script.tick_hz = Some(tick_hz);
        script.controller = Some(config);
        let after = &first.after;
        script.start = Some(Start {
            state: after.player,
            held: first.script_buttons(),
            clock_s: after.clock_s,
            doors: after.doors.clone(),
            lifts: after.lifts.clone(),
            squeezed: after.squeezed.clone(),
        });
        Some(script)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::ScriptPlayer;
    use glam::Vec2;

    fn record(tick: u64) -> TickRecord {
        let config = ControllerConfig::default();
        let t = tick as f32;
        TickRecord {
            tick,
            input: TickInput {
                movement: Vec2::new((t * 0.37).sin(), 1.0).clamp_length_max(1.0),
                yaw: t * 0.011 + 0.3,
                pitch: (t * 0.05).sin() * 0.6,
                held: Buttons {
                    jump: tick % 40 < 3,
                    sprint: tick > 50,
                    ..Buttons::default()
                },
                pressed: Buttons {
                    jump: tick.is_multiple_of(40),
                    ..Buttons::default()
                },
            },
            pitch: 0.0,
            report: TickReport::default(),
            micros: 1.0,
            sweep_micros: 0.5,
            after: WorldState {
                player: CharacterState::standing_at(Vec3::new(t, 0.0, 0.0), &config),
                flying: false,
                clock_s: tick as f64 / 60.0,
                lifts: vec![],
                doors: vec![None, Some(DoorControl::closed())],
                mover_poses: vec![Pose::IDENTITY; 2],
                squeezed: Vec::new(),
            },
        }
    }

    #[test]
    fn the_ring_keeps_the_last_seconds() {
        let mut h = History::new(10.0, 1.0 / 60.0);
        assert_eq!(h.capacity(), 601);
        for tick in 1..=1000 {
            h.push(record(tick));
        }
        assert_eq!(h.len(), 601);
        assert_eq!(h.get(0).unwrap().tick, 400);
        assert_eq!(h.latest().unwrap().tick, 1000);
        h.clear();
        assert!(h.is_empty() && h.latest().is_none());
    }

    #[test]
    fn saved_ticks_replay_the_same_inputs_from_the_state_before_them() {
        let mut h = History::new(2.0, 1.0 / 60.0);
        for tick in 1..=300 {
            h.push(record(tick));
        }
        let last = h.len() - 11;
        let config = ControllerConfig {
            walk_speed: 3.0,
            ..ControllerConfig::default()
        };
        let script = h.script(last, Some("l.glb".into()), None, 60.0, config).unwrap();
        let text = script.to_json();
        let script = Script::parse(&text).unwrap();
        assert_eq!(script.controller, Some(config));
        assert_eq!(script.tick_hz, Some(60.0));
        let start = script.start.as_ref().unwrap();
        assert_eq!(start.state, h.get(0).unwrap().after.player);
        assert_eq!(start.clock_s, h.get(0).unwrap().after.clock_s);
        let played: Vec<TickInput> = ScriptPlayer::new(&script, 1.0 / 60.0, 0.0).collect();
        assert_eq!(played.len(), last);
        for (p, r) in played.iter().zip(h.iter().skip(1)) {
            assert_eq!(p.movement, r.input.movement, "tick {}", r.tick);
            assert_eq!(p.yaw.to_bits(), r.input.yaw.to_bits(), "tick {}", r.tick);
            assert_eq!(p.pitch.to_bits(), r.input.pitch.to_bits(), "tick {}", r.tick);
            assert_eq!(p.held, r.script_buttons(), "tick {}", r.tick);
            assert_eq!(p.pressed.jump, r.input.pressed.jump, "tick {}", r.tick);
        }
        assert!(h.script(0, None, None, 60.0, config).is_none());
        assert!(h.script(h.len(), None, None, 60.0, config).is_none());
    }
}
