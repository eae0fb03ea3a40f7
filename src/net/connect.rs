//! Meeting the peer before the game starts: the UDP port bound, a
//! handshake that both run the same game, level, tick rate and
//! simulation settings, and ggrs's peer-to-peer session started on it.

use super::NetConfig;
use crate::sim::launch::NetPlayers;
use bevy_slidewalk::bevy_ggrs::ggrs::{DesyncDetection, P2PSession, PlayerType, SessionBuilder};
use slidewalk_controller::ControllerConfig;
use slidewalk_net::{
    Agreement, Digest, HandshakeError, Hello, NetSocket, PROTOCOL, TrafficHandle, handshake, parse_peer,
};
use slidewalk_play::Options;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

/// Ticks a peer may run ahead of what it has heard from the other
/// (ggrs's prediction window).
pub const PREDICTION_WINDOW: usize = 8;

/// How long a silent peer is waited for before it counts as gone and
/// this machine plays on alone.
pub const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a network game did not start.
#[derive(Debug)]
pub enum ConnectError {
    /// Something given or found is wrong (a port in use, an address that
    /// does not parse, a peer running another level, version or
    /// settings): one line, exit status 2.
    Refused(String),
    /// The peer never answered in the wait given: one line; a window
    /// plays on alone, a headless run exits with status 1.
    NoAnswer(String),
}

/// A session ready to start, and who is who in it.
pub struct Connected {
    /// ggrs's session, synchronizing with the peer.
    pub session: P2PSession<NetConfig>,
    /// The players and which is this machine's.
    pub players: NetPlayers,
    /// The peer's address.
    pub peer: SocketAddr,
    /// What arrives on the socket and what becomes of it.
    pub traffic: TrafficHandle,
}

/// The environment variable that fixes this peer's handshake nonce (a
/// decimal `u64`) instead of drawing it: the lower nonce is player 0, so
/// two runs given the same nonces play the same roles. For tests.
pub const NONCE_VARIABLE: &str = "SLIDEWALK_NET_NONCE";

/// This run's nonce: [`NONCE_VARIABLE`]'s if set, else a random one.
fn nonce() -> Result<u64, String> {
    match std::env::var(NONCE_VARIABLE) {
        Err(_) => Ok(slidewalk_net::random_nonce()),
        Ok(text) => text
            .trim()
            .parse()
            .map_err(|_| format!("{NONCE_VARIABLE} needs a whole number from 0 to 2^64 - 1, got {text:?}")),
    }
}

/// The simulation's settings by name, as the handshake compares them:
/// every field of the controller config.
pub fn settings_pairs(config: &ControllerConfig) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = slidewalk_play::tuning::TUNABLES
        .iter()
        .map(|t| (t.key.to_string(), t.get(config).to_string()))
        .collect();
    pairs.push((
        "standing_radii".into(),
        format!("{:?}", config.standing_radii.to_array()),
    ));
    pairs.push((
        "crouched_radii".into(),
        format!("{:?}", config.crouched_radii.to_array()),
    ));
    pairs.push(("gravity".into(), format!("{:?}", config.gravity.to_array())));
    pairs
}

/// A stable digest of the settings' pairs (bit for bit: the text of each
/// number is its shortest exact form).
fn digest_pairs(pairs: &[(String, String)]) -> u64 {
    let mut d = Digest::new();
    for (k, v) in pairs {
        d.write_str(k);
        d.write_str(v);
    }
    d.finish()
}

/// The level file's digest (its bytes), or an error naming it.
fn level_digest(path: &Path) -> Result<u64, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read the level {}: {e}", path.display()))?;
    let mut d = Digest::new();
    d.write_bytes(&bytes);
    Ok(d.finish())
}

/// Binds `--p2p`'s port, meets `--peer` (waiting `--peer-wait`), and
/// starts the session for the level at `level` with `config`.
pub fn connect(options: &Options, level: &Path, config: &ControllerConfig) -> Result<Connected, ConnectError> {
    let refused = ConnectError::Refused;
    let (Some(port), Some(peer_text)) = (options.p2p, options.peer.as_deref()) else {
        return Err(refused("--p2p needs --peer".into()));
    };
    let hz = options.tick_hz();
    if hz.fract() != 0.0 {
        return Err(refused(format!(
            "--p2p needs a whole number of ticks per second, got {hz} (the session counts whole ticks)"
        )));
    }
    let peer = parse_peer(peer_text, port).map_err(refused)?;
    let mut socket = NetSocket::bind(port).map_err(|e| refused(e.to_string()))?;
    if options.net_loss > 0.0 {
        socket = socket.with_loss(options.net_loss, u64::from(port));
    }
    socket = socket.with_jitter(Duration::from_millis(options.net_jitter_ms.into()));
    let traffic = socket.traffic();
    let mut settings = settings_pairs(config);
    // Where the players start is part of the simulation too.
    settings.push(("spawn".into(), format!("{:?}", options.spawn.map(|s| s.to_array()))));
    settings.push(("yaw".into(), format!("{:?}", options.yaw_deg)));
    let ours = Hello {
        protocol: PROTOCOL,
        game_version: env!("CARGO_PKG_VERSION").to_string(),
        level: level
            .file_name()
            .map_or_else(|| level.display().to_string(), |n| n.to_string_lossy().into()),
        level_digest: level_digest(level).map_err(refused)?,
        settings_digest: digest_pairs(&settings),
        settings,
        tick_hz_millis: (hz * 1000.0).round() as u32,
        nonce: nonce().map_err(refused)?,
    };
    let wait = Duration::from_secs_f32(options.peer_wait);
    eprintln!(
        "slidewalk: waiting for the peer at {peer} (up to {} s)",
        options.peer_wait
    );
    let Agreement {
        local_handle,
        remote_handle,
    } = handshake(&mut socket, peer, &ours, wait).map_err(|e| match e {
        HandshakeError::NoAnswer { .. } | HandshakeError::NotHeard { .. } => ConnectError::NoAnswer(e.to_string()),
        e => refused(e.to_string()),
    })?;
    let ggrs_error = |e: bevy_slidewalk::bevy_ggrs::ggrs::GgrsError| refused(format!("the network session: {e}"));
    let session = SessionBuilder::<NetConfig>::new()
        .with_num_players(2)
        .map_err(ggrs_error)?
        .with_fps(hz as usize)
        .map_err(ggrs_error)?
        .with_input_delay(options.input_delay)
        .with_max_prediction_window(PREDICTION_WINDOW)
        .with_desync_detection_mode(DesyncDetection::On { interval: 10 })
        // A slow frame (a software-rendered window) is not a departure.
        .with_disconnect_notify_delay(Duration::from_secs(3))
        .with_disconnect_timeout(DISCONNECT_TIMEOUT)
        .add_player(PlayerType::Local, local_handle)
        .map_err(ggrs_error)?
        .add_player(PlayerType::Remote(peer), remote_handle)
        .map_err(ggrs_error)?
        .start_p2p_session(socket)
        .map_err(ggrs_error)?;
    Ok(Connected {
        session,
        players: NetPlayers {
            count: 2,
            local: local_handle,
        },
        peer,
        traffic,
    })
}
