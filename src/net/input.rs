//! What crosses the network each tick: a player's input ([`NetInput`]),
//! taken from the local controls (or a script) once a tick, and given to
//! every player's character as its [`PlayerInput`] when the tick runs.

use crate::sim::input::{HeadingTakenIn, PlayerInput};
use crate::sim::launch::LaunchOptions;
use crate::sim::level::CurrentLevel;
use crate::sim::player::{Controlled, LocalPlayer, Player};
use bevy::prelude::*;
use bevy_slidewalk::bevy_ggrs::ggrs::InputStatus;
use bevy_slidewalk::bevy_ggrs::{LocalInputs, LocalPlayers, PlayerInputs, RollbackFrameCount};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use slidewalk_play::{Buttons, Script, ScriptPlayer};
use std::collections::VecDeque;

use super::NetConfig;

/// The largest turn one tick's input may carry, radians (two whole turns:
/// more than any hand makes in a tick).
pub const MAX_TURN_PER_TICK: f32 = 4.0 * std::f32::consts::PI;

/// One player's input for one tick, as it crosses the network: numbers by
/// their bits, so every peer simulates the same values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetInput {
    /// [right, forward], each −1..1 (f32 bits).
    movement: [u32; 2],
    /// The turn since the last tick, radians (f32 bits): the heading is
    /// state, which a rotating platform or a respawn also changes.
    turn: u32,
    /// Look up (+) or down (−), radians (f32 bits).
    pitch: u32,
    /// Buttons held, one bit each (`Buttons` order).
    held: u8,
    /// Buttons pressed since the last tick.
    pressed: u8,
    /// 1: respawn asked for; 2: fly mode toggled.
    asks: u8,
}

fn button_bits(b: Buttons) -> u8 {
    [b.jump, b.crouch, b.sprint, b.use_key, b.throw, b.drop, b.dash]
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &on)| bits | (u8::from(on) << i))
}

fn buttons(bits: u8) -> Buttons {
    let on = |i: u8| bits & (1 << i) != 0;
    Buttons {
        jump: on(0),
        crouch: on(1),
        sprint: on(2),
        use_key: on(3),
        throw: on(4),
        drop: on(5),
        dash: on(6),
    }
}

impl NetInput {
    /// The input of `controls` for one tick, having turned `turn` radians
    /// since the last.
    pub fn new(controls: &PlayerInput, turn: f32) -> Self {
        Self {
            movement: [controls.movement.x.to_bits(), controls.movement.y.to_bits()],
            turn: turn.to_bits(),
            pitch: controls.pitch.to_bits(),
            held: button_bits(controls.held),
            pressed: button_bits(controls.pressed),
            asks: u8::from(controls.respawn) | (u8::from(controls.toggle_fly) << 1),
        }
    }

    /// The next tick's input guessed from this one while the player's
    /// real one is late: the same stick, look, turn and buttons held, but
    /// no new press and no respawn or fly toggle (those happen on one
    /// tick; repeated, a late player would jump, respawn or switch fly
    /// on every predicted tick).
    pub fn predicted(&self) -> Self {
        Self {
            pressed: 0,
            asks: 0,
            ..*self
        }
    }

    /// Given to a player's `input` for the tick about to run. The numbers
    /// came over the network, maybe from a hostile peer: each is taken
    /// within its range (the stick's −1..1, a turn of at most
    /// [`MAX_TURN_PER_TICK`], the pitch's ±90°; not finite: 0), the same
    /// way on every peer, so no input can put a NaN into the simulation.
    pub fn apply(&self, input: &mut PlayerInput) {
        let f = |bits: u32, limit: f32| {
            let v = f32::from_bits(bits);
            if v.is_finite() { v.clamp(-limit, limit) } else { 0.0 }
        };
        input.movement = Vec2::new(f(self.movement[0], 1.0), f(self.movement[1], 1.0));
        input.yaw += f(self.turn, MAX_TURN_PER_TICK);
        input.pitch = f(self.pitch, std::f32::consts::FRAC_PI_2);
        input.held = buttons(self.held);
        input.pressed = buttons(self.pressed);
        input.respawn = self.asks & 1 != 0;
        input.toggle_fly = self.asks & 2 != 0;
    }
}

/// Scripts played over the network: the local players' input comes from
/// them (the first local player's from the first script, and so on,
/// round), one tick each time the session asks. Their headings are
/// absolute, as on one machine: each starts from the spawn's.
#[derive(Resource)]
pub struct NetScript {
    scripts: Vec<Script>,
    /// The tick's length, seconds.
    dt: f32,
    /// The scripts being played (made when the level is in: they start
    /// from the spawn's heading).
    players: Vec<ScriptPlayer>,
}

impl NetScript {
    /// Plays `scripts` at ticks of `dt` seconds.
    pub fn new(scripts: Vec<Script>, dt: f32) -> Self {
        Self {
            scripts,
            dt,
            players: Vec::new(),
        }
    }

    /// Ticks of the longest script.
    pub fn ticks(&self) -> u64 {
        self.scripts
            .iter()
            .map(|s| ScriptPlayer::new(s, self.dt, 0.0).total_ticks())
            .max()
            .unwrap_or(0)
    }
}

/// What this machine has given the session of its local players' input.
#[derive(Resource, Default)]
pub(super) struct LocalReads {
    /// The heading sent so far for each local player (the controls' or
    /// the script's), radians: the next input sends the turn from it.
    heading: Vec<Option<f32>>,
    /// The controls' turns sent and maybe not simulated yet (an input
    /// read at tick number N is simulated by tick N + input delay + 1),
    /// oldest first: the tick number read at and the turn, radians.
    in_flight: VecDeque<(i32, f32)>,
    /// The first local player's input comes from the controls.
    from_controls: bool,
    /// The tick number of the last read and the inputs it gave.
    last: Option<(i32, Vec<(usize, NetInput)>)>,
}

/// The session asks for this machine's input (bevy_ggrs's `ReadInputs`):
/// each local player's input since the last tick, from the controls or
/// its script; the controls' presses are then taken. While the session
/// waits for the peer (its prediction window full) it keeps the input it
/// was given and drops any other for that tick: the same input is given
/// again and nothing is taken from the controls or the scripts, so no
/// turn, press or script tick is lost.
pub(super) fn read_local_input(
    local: Res<LocalPlayers>,
    frame: Res<RollbackFrameCount>,
    current: Res<CurrentLevel>,
    script: Option<ResMut<NetScript>>,
    mut reads: ResMut<LocalReads>,
    mut controls: Query<&mut PlayerInput, With<Controlled>>,
    mut commands: Commands,
) {
    if let Some((read_at, inputs)) = &reads.last
        && *read_at == frame.0
    {
        commands.insert_resource(LocalInputs::<NetConfig>(inputs.iter().copied().collect()));
        return;
    }
    let mut from_controls = controls.iter_mut().next();
    let spawn_yaw = current.respawn_point().yaw;
    let mut script = script.filter(|s| !s.scripts.is_empty());
    if let Some(script) = &mut script
        && script.players.is_empty()
    {
        let dt = script.dt;
        script.players = script
            .scripts
            .iter()
            .map(|s| ScriptPlayer::new(s, dt, spawn_yaw))
            .collect();
    }
    let reads = &mut *reads;
    let mut inputs = Vec::with_capacity(local.0.len());
    for (k, &handle) in local.0.iter().enumerate() {
        if reads.heading.len() <= k {
            reads.heading.resize(k + 1, None);
        }
        let asked = match (&mut script, &mut from_controls) {
            (Some(script), _) => {
                let n = script.players.len();
                match script.players[k % n].next() {
                    Some(tick) => PlayerInput {
                        movement: tick.movement,
                        yaw: tick.yaw,
                        held: tick.held,
                        pressed: tick.pressed,
                        ..PlayerInput::default()
                    },
                    // Past its end: standing still, facing where it was.
                    None => PlayerInput {
                        yaw: reads.heading[k].unwrap_or(0.0),
                        ..PlayerInput::default()
                    },
                }
            }
            (None, Some(controls)) => **controls,
            (None, None) => PlayerInput::default(),
        };
        // The heading is sent as the turn since the last tick (a script's
        // from the spawn's heading, where the player starts).
        let start = if script.is_some() { spawn_yaw } else { asked.yaw };
        let from = *reads.heading[k].get_or_insert(start);
        let turn = asked.yaw - from;
        reads.heading[k] = Some(asked.yaw);
        inputs.push((handle, NetInput::new(&asked, turn)));
        if k == 0 {
            reads.from_controls = script.is_none() && from_controls.is_some();
            reads.in_flight.push_back((frame.0, turn));
        }
    }
    if let Some(controls) = &mut from_controls {
        controls.pressed = Buttons::default();
        controls.respawn = false;
        controls.toggle_fly = false;
    }
    commands.insert_resource(LocalInputs::<NetConfig>(inputs.iter().copied().collect()));
    reads.last = Some((frame.0, inputs));
}

/// How much of the controls' heading the newest simulated tick has taken
/// in ([`HeadingTakenIn`], for the view): the heading sent less the turns
/// the session has not simulated yet. Run after the session's ticks.
pub(super) fn note_heading_taken_in(
    frame: Res<RollbackFrameCount>,
    options: Option<Res<LaunchOptions>>,
    mut reads: ResMut<LocalReads>,
    mut taken_in: ResMut<HeadingTakenIn>,
) {
    let delay = options.map_or(0, |o| o.0.input_delay) as i32;
    // Read at tick N, simulated once the tick count reaches N + delay + 1.
    while reads
        .in_flight
        .front()
        .is_some_and(|&(read_at, _)| read_at + delay < frame.0)
    {
        reads.in_flight.pop_front();
    }
    taken_in.0 = match reads.heading.first() {
        Some(&Some(sent)) if reads.from_controls => {
            Some(sent - reads.in_flight.iter().map(|(_, turn)| turn).sum::<f32>())
        }
        _ => None,
    };
}

/// Every player's input for the tick about to run, from the session (a
/// disconnected player's: standing still).
pub(super) fn apply_inputs(inputs: Res<PlayerInputs<NetConfig>>, mut players: Query<(&Player, &mut PlayerInput)>) {
    for (player, mut input) in &mut players {
        let Some(&(net, status)) = inputs.get(player.slot) else {
            continue;
        };
        let net = if status == InputStatus::Disconnected {
            NetInput::default()
        } else {
            net
        };
        net.apply(&mut input);
    }
}

/// The peer never came: the local player is played from the controls on
/// this machine's fixed tick, as on one machine.
pub(super) fn play_alone(
    mut reads: ResMut<LocalReads>,
    mut controls: Query<&mut PlayerInput, (With<Controlled>, Without<LocalPlayer>)>,
    mut players: Query<&mut PlayerInput, With<LocalPlayer>>,
) {
    let (Some(mut controls), Some(mut input)) = (controls.iter_mut().next(), players.iter_mut().next()) else {
        return;
    };
    if reads.heading.is_empty() {
        reads.heading.push(None);
    }
    let from = *reads.heading[0].get_or_insert(controls.yaw);
    NetInput::new(&controls, controls.yaw - from).apply(&mut input);
    reads.heading[0] = Some(controls.yaw);
    reads.from_controls = true;
    controls.pressed = Buttons::default();
    controls.respawn = false;
    controls.toggle_fly = false;
}
