//! Rewind: every tick goes into a ring of the last 10 s (input, report,
//! the whole state after it). P pauses the simulation (virtual time stops,
//! so no ticks pile up); the panel's slider and ← / → pick a tick to view;
//! resuming goes on from the live state. "Save these ticks" writes them as
//! a script with the state they start from, which replays headless.

use super::feedback::Feedback;
use super::input::PlayerInput;
use super::launch::LaunchOptions;
use super::level::CurrentLevel;
use super::level::MoverBody;
use super::movers::LevelClock;
use super::player::LastTick;
use super::player::Player;
use super::schedule::SimSet;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::{CharacterController, MovementState};
use slidewalk_play::{History, TickInput, TickRecord, WorldState};
use std::path::PathBuf;

/// Seconds of ticks kept.
pub const REWIND_SECONDS: f32 = 10.0;

/// The rewind buffer and what is being viewed.
#[derive(Resource, Debug)]
pub struct Rewind {
    /// The last ticks.
    pub history: History,
    /// The simulation is paused.
    pub paused: bool,
    /// The tick viewed (index in `history`); `None`: the live one.
    pub viewing: Option<usize>,
    generation: u32,
}

impl Rewind {
    /// The tick to draw: the one viewed, else the newest.
    pub fn shown(&self) -> Option<&TickRecord> {
        match self.viewing {
            Some(i) => self.history.get(i),
            None => self.history.latest(),
        }
    }

    /// Index of the tick shown.
    pub fn shown_index(&self) -> Option<usize> {
        self.viewing.or(self.history.len().checked_sub(1))
    }
}

/// What the player asks of the rewind.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum RewindRequest {
    /// Pause (true) or resume (false).
    Pause(bool),
    /// View the tick this many ticks later (negative: earlier); pauses.
    Step(i64),
    /// View the tick at this index; pauses.
    View(usize),
    /// Write the ticks from the oldest to the one viewed as a script here.
    Save(PathBuf),
}

pub(super) fn plugin(app: &mut App) {
    let dt = app
        .world()
        .get_resource::<Time<Fixed>>()
        .map_or(1.0 / 60.0, |t| t.timestep().as_secs_f32());
    app.insert_resource(Rewind {
        history: History::new(REWIND_SECONDS, dt),
        paused: false,
        viewing: None,
        generation: 0,
    })
    .add_message::<RewindRequest>()
    .add_systems(
        FixedUpdate,
        record_tick.in_set(SimSet::Record).run_if(super::launch::on_one_machine),
    )
    .add_systems(
        Update,
        (pause_at_launch, handle_requests)
            .chain()
            .run_if(super::launch::on_one_machine),
    );
}

fn record_tick(
    mut rewind: ResMut<Rewind>,
    current: Res<CurrentLevel>,
    clock: Res<LevelClock>,
    feedback: Res<Feedback>,
    players: Query<(&CharacterController, &MovementState, &PlayerInput, &LastTick), With<Player>>,
    movers: Query<&MoverBody>,
) {
    let Some(level) = &current.level else { return };
    if rewind.generation != current.generation {
        rewind.generation = current.generation;
        rewind.history.clear();
        rewind.viewing = None;
    }
    let Some((body, state, input, last)) = players.iter().next() else {
        return;
    };
    let mut doors = vec![None; level.movers.len()];
    let mut lifts = vec![None; level.movers.len()];
    let mut poses: Vec<slidewalk_sweep::Pose> = level.movers.iter().map(|m| m.rest).collect();
    for m in &movers {
        if m.index < doors.len() {
            doors[m.index] = m.door;
            lifts[m.index] = m.lift_s;
            poses[m.index] = m.pose;
        }
    }
    let tick = rewind.history.latest().map_or(1, |r| r.tick + 1);
    let used = &last.input;
    rewind.history.push(TickRecord {
        tick,
        input: TickInput {
            movement: used.movement,
            yaw: used.yaw,
            pitch: used.pitch,
            held: used.held,
            pressed: used.pressed,
        },
        pitch: input.pitch,
        report: last.report.clone(),
        micros: last.micros,
        sweep_micros: last.sweep_micros,
        after: WorldState {
            player: state.0,
            flying: super::player::flying(body),
            clock_s: clock.seconds,
            doors,
            lifts,
            mover_poses: poses,
            squeezed: feedback.squeezing_movers.clone(),
        },
    });
}

/// `--rewind AT,BACK`: pause after AT seconds and view BACK seconds earlier.
fn pause_at_launch(
    options: Option<Res<LaunchOptions>>,
    clock: Res<LevelClock>,
    fixed: Res<Time<Fixed>>,
    mut requests: MessageWriter<RewindRequest>,
    mut done: Local<bool>,
) {
    let Some((at, back)) = options.and_then(|o| o.0.rewind) else {
        return;
    };
    if !*done && clock.seconds >= at as f64 {
        *done = true;
        requests.write(RewindRequest::Pause(true));
        let ticks = (back as f64 / fixed.timestep().as_secs_f64()).round() as i64;
        requests.write(RewindRequest::Step(-ticks));
    }
}

#[allow(clippy::too_many_arguments)]
fn handle_requests(
    mut requests: MessageReader<RewindRequest>,
    mut rewind: ResMut<Rewind>,
    mut time: ResMut<Time<Virtual>>,
    fixed: Res<Time<Fixed>>,
    current: Res<CurrentLevel>,
    options: Option<Res<LaunchOptions>>,
    players: Query<&CharacterController, With<Player>>,
    mut notices: ResMut<Notices>,
) {
    for request in requests.read() {
        let last = rewind.history.len().saturating_sub(1);
        match request {
            RewindRequest::Pause(true) => rewind.paused = true,
            RewindRequest::Pause(false) => {
                rewind.paused = false;
                rewind.viewing = None;
            }
            RewindRequest::Step(by) => {
                rewind.paused = true;
                let at = rewind.shown_index().unwrap_or(0) as i64 + by;
                rewind.viewing = Some(at.clamp(0, last as i64) as usize);
            }
            RewindRequest::View(i) => {
                rewind.paused = true;
                rewind.viewing = Some((*i).min(last));
            }
            RewindRequest::Save(path) => {
                let Some(body) = players.iter().next() else { continue };
                let upto = rewind.shown_index().unwrap_or(0);
                let hz = options
                    .as_ref()
                    .and_then(|o| o.0.tick_hz)
                    .unwrap_or_else(|| (1.0 / fixed.timestep().as_secs_f64()) as f32);
                let level = current.path.as_ref().map(|p| p.display().to_string());
                let script = rewind
                    .history
                    .script(upto, level, Some(current.spawn.position), hz, body.config);
                match script {
                    None => notices.error("nothing to save yet: the rewind holds fewer than two ticks"),
                    Some(script) => match std::fs::write(path, script.to_json()) {
                        Ok(()) => notices.info(format!(
                            "saved {:.1} s of ticks to {}; replay: slidewalk --headless --script {}",
                            script.seconds(),
                            path.display(),
                            path.display()
                        )),
                        Err(e) => notices.error(format!("cannot save {}: {e}", path.display())),
                    },
                }
            }
        }
        if rewind.paused != time.is_paused() {
            if rewind.paused {
                time.pause();
            } else {
                time.unpause();
            }
        }
    }
}
