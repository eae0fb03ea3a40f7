//! Recording play as a script, tick by tick (runs of identical input merged
//! into one step).

use crate::buttons::Buttons;
use crate::script::{Script, Step};
use glam::{Vec2, Vec3};

/// Records play, tick by tick, as a script (runs of identical input
/// merged into one step).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    script: Script,
    last: Option<(Vec2, f64, f64, Buttons)>,
    dt: f64,
    exact: bool,
}

impl Recorder {
    /// A recorder for ticks of `dt` seconds, made on `level` from `spawn` (the feet).
    pub fn new(dt: f32, level: Option<String>, spawn: Option<Vec3>) -> Self {
        Self {
            script: Script {
                steps: Vec::new(),
                level,
                spawn,
                // 1/dt to a thousandth: 60 Hz is written as 60, not 60.000002.
                tick_hz: Some(((1.0 / dt as f64) * 1000.0).round() as f32 / 1000.0),
                controller: None,
                start: None,
            },
            last: None,
            dt: dt as f64,
            exact: false,
        }
    }

    /// A recorder that keeps headings and pitches exactly (for a replay
    /// that must end where the original did) instead of to a thousandth of
    /// a degree.
    pub fn exact(self) -> Self {
        Self { exact: true, ..self }
    }

    /// Adds one tick: [right, forward], heading and pitch (radians), buttons held.
    pub fn record(&mut self, movement: Vec2, yaw: f32, pitch: f32, held: Buttons) {
        // Angles to a thousandth of a degree: steady looks merge.
        let degrees = |radians: f32| {
            let d = (radians as f64).to_degrees();
            if self.exact { d } else { (d * 1000.0).round() / 1000.0 }
        };
        let (yaw_deg, pitch_deg) = (degrees(yaw), degrees(pitch));
        let now = (movement, yaw_deg, pitch_deg, held);
        // The pitch is written when it changes (a script starts level).
        let pitch_before = self.last.map_or(0.0, |l| l.2);
        if self.last == Some(now)
            && let Some(step) = self.script.steps.last_mut()
        {
            step.for_s += self.dt;
            return;
        }
        self.last = Some(now);
        self.script.steps.push(Step {
            for_s: self.dt,
            movement: Some(movement),
            yaw_deg: Some(yaw_deg),
            pitch_deg: (pitch_deg != pitch_before).then_some(pitch_deg),
            buttons: [
                Some(held.jump),
                Some(held.crouch),
                Some(held.sprint),
                Some(held.use_key),
                Some(held.throw),
                Some(held.drop),
                Some(held.dash),
            ],
        });
    }

    /// The script recorded so far.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// The script recorded, to keep.
    pub fn into_script(self) -> Script {
        self.script
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{ScriptPlayer, TickInput};

    #[test]
    fn a_recording_plays_back_the_same_inputs() {
        let mut rec = Recorder::new(1.0 / 60.0, Some("levels/x.glb".into()), Some(Vec3::new(1.0, 0.0, 2.0)));
        let mut inputs = Vec::new();
        for k in 0..200 {
            let held = Buttons {
                jump: (50..55).contains(&k),
                sprint: k > 100,
                ..Buttons::default()
            };
            let movement = if k < 150 {
                Vec2::new(0.0, 1.0)
            } else {
                Vec2::new(-0.5, 0.5)
            };
            let yaw = if k < 120 { 0.0 } else { 0.5 };
            let pitch = if (60..90).contains(&k) { -0.7 } else { 0.0 };
            rec.record(movement, yaw, pitch, held);
            inputs.push((movement, yaw, pitch, held));
        }
        let text = rec.script().to_json();
        let script = Script::parse(&text).unwrap();
        assert_eq!(script.spawn, Some(Vec3::new(1.0, 0.0, 2.0)));
        assert!(script.steps.len() < 10, "{} steps", script.steps.len());
        let played: Vec<TickInput> = ScriptPlayer::new(&script, 1.0 / 60.0, 0.0).collect();
        assert_eq!(played.len(), 200);
        for (p, (m, y, pitch, h)) in played.iter().zip(&inputs) {
            assert_eq!((p.movement, p.held), (*m, *h));
            assert!((p.yaw - y).abs() < 1e-4);
            assert!((p.pitch - pitch).abs() < 1e-4);
        }
        // Written only where it changes: looking down and level again.
        let pitches: Vec<_> = script.steps.iter().filter_map(|s| s.pitch_deg).collect();
        assert_eq!(pitches.len(), 2, "{pitches:?}");
    }
}
