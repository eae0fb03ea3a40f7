//! Playing over the network with rollback (`--p2p LOCAL_PORT --peer
//! ADDR[:PORT]`): two peers meet ([`connect`]), then bevy_ggrs runs the
//! simulation's fixed tick in its own schedule, each player's input
//! crossing the network ([`input`]), every piece of state registered for
//! snapshots ([`rollback`]). [`headless`] plays a script this way and
//! prints the summary with the final state's checksum.

pub mod connect;
pub mod headless;
pub mod input;
pub mod rollback;
pub mod watch;
pub mod window;

use crate::sim::launch::LaunchOptions;
use crate::sim::level::CurrentLevel;
use crate::sim::player::RunStats;
use bevy::app::{FixedMain, RunFixedMainLoopSystems};
use bevy::prelude::*;
use bevy_slidewalk::SlidewalkRollbackPlugin;
use bevy_slidewalk::bevy_ggrs::ggrs::{Config, InputPredictor, P2PSession};
use bevy_slidewalk::bevy_ggrs::{
    ConfirmedFrameCount, GgrsPlugin, GgrsSchedule, ReadInputs, RollbackFrameCount, RollbackFrameRate, Session,
};
use input::NetInput;
use slidewalk_play::Summary;
use std::collections::BTreeMap;
use std::net::SocketAddr;

/// The session's types: each player's input (a late one predicted by
/// [`NetInput::predicted`]), peers by socket address.
#[derive(Debug)]
pub struct NetConfig;

impl Config for NetConfig {
    type Input = NetInput;
    type InputPredictor = NetConfig;
    type State = u8;
    type Address = SocketAddr;
}

impl InputPredictor<NetInput> for NetConfig {
    fn predict(previous: NetInput) -> NetInput {
        previous.predicted()
    }
}

/// The session met the peer but waits for the level: given to bevy_ggrs
/// once the level's entities exist, so every snapshot holds them.
#[derive(Resource)]
pub struct PendingSession(pub Option<P2PSession<NetConfig>>);

/// How the network game goes.
#[derive(Resource, Debug)]
pub struct NetStatus {
    /// The peer's address.
    pub peer: SocketAddr,
    /// The session is synchronized and ticking.
    pub running: bool,
    /// The peer disconnected (or stopped answering): this machine plays on alone.
    pub disconnected: bool,
    /// Ticks at which the peers' checksums differed.
    pub desyncs: Vec<i32>,
    /// When the session was started (it waits for the peer to synchronize).
    pub started: Option<std::time::Instant>,
    /// The peer never synchronized: this machine plays alone, ticked by
    /// the fixed loop again.
    pub alone: bool,
    /// What arrives on the socket (`None` in tests that build a session
    /// without [`connect`]).
    pub traffic: Option<slidewalk_net::TrafficHandle>,
    /// What a player feels of the connection, counted as the game goes.
    pub figures: watch::NetFigures,
}

impl NetStatus {
    /// The status of a session with `peer`, not started yet.
    pub fn new(peer: SocketAddr) -> Self {
        Self {
            peer,
            running: false,
            disconnected: false,
            desyncs: Vec::new(),
            started: None,
            alone: false,
            traffic: None,
            figures: watch::NetFigures::default(),
        }
    }

    /// The same, counting what arrives on the socket `traffic` belongs to.
    pub fn with_traffic(mut self, traffic: slidewalk_net::TrafficHandle) -> Self {
        self.traffic = Some(traffic);
        self
    }
}

/// The state's digest and the run's summary after each recent tick
/// (overwritten when a tick is simulated again; final once the tick is
/// confirmed), kept by a headless run (which inserts it).
#[derive(Resource, Default, Debug)]
pub struct TickDigests(pub BTreeMap<i32, (u64, Summary)>);

/// Ticks of digests kept.
const DIGESTS_KEPT: i32 = 600;

/// A script played over the network must start where both peers start:
/// refused (with the line to print) if it sets a start state or
/// controller settings.
pub fn check_script(script: &slidewalk_play::Script) -> Result<(), String> {
    if script.start.is_some() || script.controller.is_some() {
        return Err(
            "a script played over the network cannot set a start state or controller settings \
                    (both peers start from the level's spawn with their settings)"
                .into(),
        );
    }
    Ok(())
}

/// The network game's plugins and systems (added instead of the fixed
/// loop's ticking: bevy_ggrs runs `FixedMain` once per session tick).
pub fn plugin(app: &mut App) {
    let hz = app
        .world()
        .get_resource::<LaunchOptions>()
        .map_or(60.0, |o| o.0.tick_hz());
    app.add_plugins((GgrsPlugin::<NetConfig>::default(), SlidewalkRollbackPlugin))
        .insert_resource(RollbackFrameRate(hz as usize))
        .init_resource::<input::LocalReads>()
        .init_resource::<crate::sim::input::HeadingTakenIn>()
        .add_systems(ReadInputs, input::read_local_input)
        .add_systems(
            GgrsSchedule,
            (
                input::apply_inputs,
                watch::count_tick,
                run_tick,
                // Only a headless run prints a tick's digest.
                record_digest.run_if(resource_exists::<TickDigests>),
            )
                .chain(),
        )
        .add_systems(
            Update,
            (
                start_session,
                watch::watch_session,
                watch::count_waits,
                watch::report_junk,
                input::note_heading_taken_in,
            ),
        )
        .add_systems(
            FixedUpdate,
            input::play_alone
                .in_set(crate::sim::schedule::SimSet::Input)
                .run_if(playing_alone),
        );
    rollback::register(app);
    // The session's ticks are the simulation's: the fixed loop stays
    // still, unless the peer never came.
    app.configure_sets(
        RunFixedMainLoop,
        RunFixedMainLoopSystems::FixedMainLoop.run_if(playing_alone),
    );
}

/// One tick of the simulation: the fixed schedules (`FixedUpdate`, and
/// `FixedPostUpdate`, where Bevy signals that message buffers may be
/// swapped), inside the session's.
/// The tick's clock is the fixed one, as in Bevy's fixed loop: every
/// system sees the same tick length as on one machine (bevy_ggrs's own
/// clock counts whole nanoseconds from the tick number, so its ticks
/// alternate between two lengths that differ in the last bit).
fn run_tick(world: &mut World) {
    let step = world.resource::<Time<Fixed>>().timestep();
    world.resource_mut::<Time<Fixed>>().advance_by(step);
    let fixed = world.resource::<Time<Fixed>>().as_generic();
    *world.resource_mut::<Time>() = fixed;
    world.run_schedule(FixedMain);
}

/// The state's digest and the summary after this tick.
fn record_digest(world: &mut World) {
    let digest = rollback::state_digest(world);
    let summary = world.resource::<RunStats>().summary.clone();
    let frame = world.resource::<RollbackFrameCount>().0;
    let digests = &mut world.resource_mut::<TickDigests>().0;
    digests.insert(frame, (digest, summary));
    while digests
        .first_key_value()
        .is_some_and(|(&f, _)| f < frame - DIGESTS_KEPT)
    {
        digests.pop_first();
    }
}

/// Whether the peer never synchronized and this machine plays alone.
fn playing_alone(status: Option<Res<NetStatus>>) -> bool {
    status.is_some_and(|s| s.alone)
}

/// The level is in and its entities exist: the session starts.
fn start_session(
    mut pending: ResMut<PendingSession>,
    current: Res<CurrentLevel>,
    status: Option<ResMut<NetStatus>>,
    mut commands: Commands,
) {
    if current.level.is_some()
        && let Some(session) = pending.0.take()
    {
        commands.insert_resource(Session::P2P(session));
        if let Some(mut status) = status {
            status.started = Some(std::time::Instant::now());
        }
    }
}

/// The tick both peers have confirmed (−1 before the first).
pub fn confirmed_tick(world: &World) -> i32 {
    world.get_resource::<ConfirmedFrameCount>().map_or(-1, |c| c.0)
}
