//! Playing a script back one fixed tick at a time: what each tick asks for
//! (move, heading, look up or down, buttons held and newly pressed).

use crate::buttons::Buttons;
use crate::script::{Script, Step};
use glam::Vec2;

/// What the script asks for in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickInput {
    /// [right, forward], each −1..1.
    pub movement: Vec2,
    /// Heading, radians.
    pub yaw: f32,
    /// The look's pitch, radians above the horizon (swimming goes that way).
    pub pitch: f32,
    /// Buttons held this tick.
    pub held: Buttons,
    /// Buttons pressed this tick (held now, not held the tick before).
    pub pressed: Buttons,
}

/// Plays a script back one tick at a time.
#[derive(Clone, Debug)]
pub struct ScriptPlayer {
    /// Step boundaries: tick index at which each step ends.
    ends: Vec<u64>,
    steps: Vec<Step>,
    /// The step being played (the first whose end is after `tick`).
    index: usize,
    tick: u64,
    current: TickInput,
}

impl ScriptPlayer {
    /// Plays `script` at ticks of `dt` seconds, starting with the heading
    /// `start_yaw` radians, looking level, no move and every button up (or as held in the
    /// script's start). A step lasts the ticks whose start falls within it
    /// (its length rounded to ticks).
    pub fn new(script: &Script, dt: f32, start_yaw: f32) -> Self {
        let mut t = 0.0f64;
        let ends = script
            .steps
            .iter()
            .map(|s| {
                t += s.for_s;
                (t / dt as f64).round() as u64
            })
            .collect();
        Self {
            ends,
            steps: script.steps.clone(),
            index: 0,
            tick: 0,
            current: TickInput {
                yaw: start_yaw,
                held: script.start.as_ref().map(|s| s.held).unwrap_or_default(),
                ..TickInput::default()
            },
        }
    }

    /// Ticks in the whole script.
    pub fn total_ticks(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }
}

impl Iterator for ScriptPlayer {
    type Item = TickInput;

    fn next(&mut self) -> Option<TickInput> {
        // The ends only grow: the step moves forward, never back (a search
        // from the first step each tick made an hour's recording, a step a
        // tick, take 25 s instead of 5 to replay).
        while self.ends.get(self.index).is_some_and(|&end| self.tick >= end) {
            self.index += 1;
        }
        let step = self.steps.get(self.index)?;
        let before = self.current.held;
        let mut now = self.current;
        if let Some(m) = step.movement {
            now.movement = m;
        }
        if let Some(y) = step.yaw_deg {
            // In f64: a heading written by `Recorder::exact` reads back bit for bit.
            now.yaw = y.to_radians() as f32;
        }
        if let Some(p) = step.pitch_deg {
            now.pitch = p.to_radians() as f32;
        }
        for (i, b) in step.buttons.iter().enumerate() {
            if let Some(b) = b {
                now.held.set(i, *b);
            }
        }
        for i in 0..crate::buttons::BUTTON_COUNT {
            now.pressed.set(i, now.held.get(i) && !before.get(i));
        }
        self.current = now;
        self.tick += 1;
        Some(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_plays_with_held_values_and_single_jumps() {
        let s = Script::parse(
            r#"{"steps": [
                {"for_s": 0.5, "move": [0, 1], "jump": true},
                {"for_s": 0.5, "yaw_deg": 90},
                {"for_s": 0.1, "jump": false},
                {"for_s": 0.1, "jump": true}
            ]}"#,
        )
        .unwrap();
        let ticks: Vec<TickInput> = ScriptPlayer::new(&s, 0.1, 0.25).collect();
        assert_eq!(ticks.len(), 12);
        assert_eq!(ticks[0].yaw, 0.25);
        assert!(ticks[0].pressed.jump && ticks[0].held.jump);
        // Held through the second step: no second press; movement kept.
        assert!(ticks[1..10].iter().all(|t| !t.pressed.jump));
        assert_eq!(ticks[7].movement, Vec2::new(0.0, 1.0));
        assert!((ticks[7].yaw - 90f32.to_radians()).abs() < 1e-6);
        assert!(ticks[11].pressed.jump);
    }

    #[test]
    fn steps_shorter_than_a_tick_are_skipped_and_the_rest_play_in_order() {
        let s = Script::parse(
            r#"{"steps": [
                {"for_s": 0.3, "move": [0, 1]},
                {"for_s": 0.001, "move": [1, 0]},
                {"for_s": 0.2, "move": [-1, 0]},
                {"for_s": 1e-9, "jump": true},
                {"for_s": 0.1, "move": [0, -1]}
            ]}"#,
        )
        .unwrap();
        let moves: Vec<Vec2> = ScriptPlayer::new(&s, 0.1, 0.0).map(|t| t.movement).collect();
        let (f, l, b) = (Vec2::new(0.0, 1.0), Vec2::new(-1.0, 0.0), Vec2::new(0.0, -1.0));
        assert_eq!(moves, vec![f, f, f, l, l, b]);
    }
}
