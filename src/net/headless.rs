//! `slidewalk --headless --p2p PORT --peer ADDR --script FILE`: a script
//! played over the network, paced in real time, until both peers have
//! confirmed its last tick; the summary carries that tick's checksum.

use super::connect::{ConnectError, connect};
use super::input::NetScript;
use super::{NetStatus, PendingSession, TickDigests, confirmed_tick};
use crate::sim;
use crate::sim::launch::LaunchOptions;
use crate::sim::schedule::tick_length;
use crate::sim::script::{options_for_script, read_script};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use slidewalk_play::{Options, Summary};
use std::time::{Duration, Instant};

/// How long past its script a run waits for the peer to confirm the last
/// tick before it gives up, seconds.
const CONFIRM_WAIT_S: f64 = 20.0;

/// How long a peer goes on after it has confirmed the last tick, so that
/// its last datagrams reach the other even when some are lost.
const FAREWELL: Duration = Duration::from_millis(1500);

/// Why a headless network run did not end with a summary.
pub enum RunError {
    /// Bad input or a refused peer: exit status 2.
    Refused(String),
    /// The peer never answered, or stopped before the end: exit status 1.
    NoPeer(String),
}

/// Plays `--script` over the network and returns the summary, its
/// `checksum` the state's digest after the script's last tick.
pub fn run(options: &Options) -> Result<Summary, RunError> {
    let refused = RunError::Refused;
    let path = options
        .script
        .as_ref()
        .ok_or(refused("--headless needs --script FILE".into()))?;
    let script = read_script(path).map_err(refused)?;
    super::check_script(&script).map_err(|line| refused(format!("{}: {line}", path.display())))?;
    let settings = match &options.settings {
        Some(file) => slidewalk_play::Settings::read(file).map_err(refused)?,
        None => slidewalk_play::Settings::default(),
    };
    let options = options_for_script(options, &script);
    let level_path = options.level.clone().unwrap_or_else(sim::level::demo_level_path);
    slidewalk_level::load(&level_path).map_err(|e| refused(e.to_string()))?;
    let connected = connect(&options, &level_path, &settings.controller).map_err(|e| match e {
        ConnectError::Refused(line) => RunError::Refused(line),
        ConnectError::NoAnswer(line) => RunError::NoPeer(line),
    })?;
    let tick = tick_length(options.tick_hz());
    let net_script = NetScript::new(vec![script.clone()], tick.as_secs_f32());
    let last_tick = net_script.ticks() as i32;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LaunchOptions(options.clone()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(tick))
        .insert_resource(connected.players)
        .insert_resource(PendingSession(Some(connected.session)))
        .insert_resource(NetStatus::new(connected.peer).with_traffic(connected.traffic.clone()))
        .insert_resource(net_script)
        .init_resource::<TickDigests>()
        .add_plugins((sim::plugin, super::plugin));
    crate::headless::finish_headless(&mut app);
    let started = Instant::now();
    let limit = Duration::from_secs_f64(script.seconds() + f64::from(options.peer_wait) + CONFIRM_WAIT_S);
    let mut next = Instant::now();
    let mut finished: Option<(Summary, Instant)> = None;
    loop {
        app.update();
        let world = app.world();
        let status = world.resource::<NetStatus>();
        if status.alone {
            return Err(RunError::NoPeer(format!(
                "the peer at {} answered the handshake but never joined the game",
                connected.peer
            )));
        }
        if status.disconnected && finished.is_none() {
            return Err(RunError::NoPeer(format!(
                "the peer at {} left before the script's last tick ({last_tick}; confirmed: {})",
                connected.peer,
                confirmed_tick(world)
            )));
        }
        if finished.is_none()
            && confirmed_tick(world) >= last_tick
            && let Some((digest, summary)) = world.resource::<TickDigests>().0.get(&last_tick)
        {
            let mut summary = summary.clone();
            summary.ticks = last_tick as u64;
            summary.checksum = Some(format!("{digest:016x}"));
            if !status.desyncs.is_empty() {
                eprintln!("slidewalk: the peers went out of step at ticks {:?}", status.desyncs);
            }
            finished = Some((summary, Instant::now()));
        }
        // Confirmed here: a while longer, so that the peer hears the
        // last inputs too (ggrs sends them again until acknowledged).
        if let Some((summary, at)) = &finished
            && at.elapsed() >= FAREWELL
        {
            let status = world.resource::<NetStatus>();
            let traffic = status.traffic.as_ref().map(|t| t.counts());
            eprintln!(
                "slidewalk: {}",
                status.figures.line(started.elapsed().as_secs_f64(), traffic)
            );
            return Ok(summary.clone());
        }
        if started.elapsed() > limit {
            return Err(RunError::NoPeer(format!(
                "the peer at {} did not confirm the script's last tick ({last_tick}) in {:.0} s \
                 (confirmed: {})",
                connected.peer,
                limit.as_secs_f64(),
                confirmed_tick(world)
            )));
        }
        // Real time: the peer and ggrs's clocks run at the tick's pace.
        next += tick;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else {
            next = now;
        }
    }
}
