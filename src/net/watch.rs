//! What the network game tells the player: the session's news (the peer
//! joined, went quiet, left; a desync), the datagrams the socket dropped
//! (counted and summarised, never a line each), and the figures a player
//! feels (rollbacks, ticks simulated again, frames waited).

use super::{NetConfig, NetStatus};
use crate::notices::Notices;
use crate::sim::launch::LaunchOptions;
use bevy::prelude::*;
use bevy_slidewalk::bevy_ggrs::ggrs::{GgrsEvent, SessionState};
use bevy_slidewalk::bevy_ggrs::{RollbackFrameCount, Session};
use slidewalk_net::TrafficCounts;
use std::time::{Duration, Instant};

/// Shortest time between two lines about dropped datagrams: a flood of
/// junk is one line when it starts, then one at most this often.
pub const JUNK_REPORT_EVERY: Duration = Duration::from_secs(10);

/// What a player feels of the connection, counted since the session started.
#[derive(Clone, Debug, Default)]
pub struct NetFigures {
    /// Ticks simulated, those simulated again included.
    pub ticks: u64,
    /// Times the session went back to an earlier tick (a rollback).
    pub rollbacks: u64,
    /// Ticks simulated again after a rollback.
    pub resimulated: u64,
    /// Frames in which the session did not tick: it waited for the peer
    /// (its prediction window full) or to let the peer catch up.
    pub frames_waited: u64,
    /// The last tick simulated (0 until the first is counted).
    last_tick: i32,
    /// The latest tick simulated so far.
    latest_tick: i32,
    /// The tick counter at the previous frame.
    tick_at_last_frame: i32,
    /// Dropped datagrams already reported, and when the last line was.
    junk_reported: u64,
    junk_line_at: Option<Instant>,
}

impl NetFigures {
    /// The figures in one line, for `seconds` of play.
    pub fn line(&self, seconds: f64, traffic: Option<TrafficCounts>) -> String {
        let per_second = |n: u64| n as f64 / seconds.max(1e-9);
        let mut line = format!(
            "network: {} ticks in {seconds:.0} s, {} rollbacks ({:.1} a second), {} ticks simulated again, \
             {} frames waited",
            self.ticks,
            self.rollbacks,
            per_second(self.rollbacks),
            self.resimulated,
            self.frames_waited
        );
        if let Some(t) = traffic {
            line += &format!(", {} datagrams from the peer, {} ignored", t.accepted, t.ignored());
        }
        line
    }
}

/// Counts a tick about to be simulated (in the session's schedule):
/// one before the last is a rollback.
pub fn count_tick(frame: Res<RollbackFrameCount>, status: Option<ResMut<NetStatus>>) {
    let Some(mut status) = status else { return };
    let figures = &mut status.figures;
    let tick = frame.0;
    if figures.ticks > 0 {
        if tick <= figures.last_tick {
            figures.rollbacks += 1;
        }
        if tick <= figures.latest_tick {
            figures.resimulated += 1;
        }
    }
    figures.ticks += 1;
    figures.last_tick = tick;
    figures.latest_tick = figures.latest_tick.max(tick);
}

/// Counts the frames in which a running session did not tick.
pub fn count_waits(
    session: Option<Res<Session<NetConfig>>>,
    frame: Option<Res<RollbackFrameCount>>,
    status: Option<ResMut<NetStatus>>,
) {
    let (Some(session), Some(frame), Some(mut status)) = (session, frame, status) else {
        return;
    };
    let Session::P2P(session) = &*session else { return };
    let figures = &mut status.figures;
    if session.current_state() == SessionState::Running && frame.0 == figures.tick_at_last_frame && figures.ticks > 0 {
        figures.frames_waited += 1;
    }
    figures.tick_at_last_frame = frame.0;
}

/// Says on stderr that the socket drops datagrams: a line when the first
/// come, then at most one every [`JUNK_REPORT_EVERY`] while more come,
/// each with the count since the last and why they were dropped.
pub fn report_junk(status: Option<ResMut<NetStatus>>) {
    let Some(mut status) = status else { return };
    let Some(counts) = status.traffic.as_ref().map(|t| t.counts()) else {
        return;
    };
    let figures = &mut status.figures;
    let ignored = counts.ignored();
    let due = figures.junk_line_at.is_none_or(|at| at.elapsed() >= JUNK_REPORT_EVERY);
    if ignored > figures.junk_reported && due {
        eprintln!("slidewalk: {}", junk_line(ignored - figures.junk_reported, &counts));
        figures.junk_reported = ignored;
        figures.junk_line_at = Some(Instant::now());
    }
}

/// The line about `new` dropped datagrams, with the totals by reason.
pub fn junk_line(new: u64, c: &TrafficCounts) -> String {
    format!(
        "ignored {new} datagrams that are not the peer's game ({} in all: {} from other addresses, \
         {} unreadable, {} too long, {} past a full queue)",
        c.ignored(),
        c.from_strangers,
        c.undecodable,
        c.too_long,
        c.queue_full
    )
}

/// The session's news on screen (and on stderr): synchronized, the peer
/// gone quiet or disconnected, a desync.
pub fn watch_session(
    session: Option<ResMut<Session<NetConfig>>>,
    status: Option<ResMut<NetStatus>>,
    options: Option<Res<LaunchOptions>>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    let (Some(mut session), Some(mut status)) = (session, status) else {
        return;
    };
    let Session::P2P(session) = &mut *session else { return };
    let wait = options.map_or(15.0, |o| o.0.peer_wait);
    if !status.running && status.started.is_some_and(|t| t.elapsed().as_secs_f32() > wait) {
        let line = format!("the peer at {} never joined the game: playing alone", status.peer);
        eprintln!("slidewalk: {line}");
        notices.error(line);
        status.alone = true;
        commands.remove_resource::<Session<NetConfig>>();
        return;
    }
    if !status.running && session.current_state() == SessionState::Running {
        status.running = true;
        notices.info(format!("playing with the peer at {}", status.peer));
    }
    for event in session.events() {
        let line = match event {
            GgrsEvent::Disconnected { addr } => {
                status.disconnected = true;
                // An error notice: it stays on screen (and is logged as a
                // warning). A headless run ends on it with its own line.
                notices.error(format!("the peer at {addr} left the game: playing on alone"));
                continue;
            }
            GgrsEvent::NetworkInterrupted {
                addr,
                disconnect_timeout,
            } => {
                format!(
                    "the peer at {addr} stopped answering (dropped in {} s if it stays silent)",
                    disconnect_timeout / 1000
                )
            }
            GgrsEvent::NetworkResumed { addr } => format!("the peer at {addr} answers again"),
            GgrsEvent::DesyncDetected { frame, addr, .. } => {
                status.desyncs.push(frame);
                format!("the game with {addr} went out of step at tick {frame}")
            }
            _ => continue,
        };
        eprintln!("slidewalk: {line}");
        notices.info(line);
    }
}
