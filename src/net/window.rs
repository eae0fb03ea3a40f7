//! The window game over the network: the peer met before the window
//! opens (a refusal exits with status 2; no answer plays alone), the
//! session's resources put in the app.

use super::connect::{ConnectError, Connected, connect};
use super::{NetStatus, PendingSession};
use bevy::prelude::*;
use slidewalk_play::{Options, Settings};

/// Meets `--peer` for the window game. `Ok(None)`: the peer never
/// answered; the game is played alone (said on stderr).
pub fn meet_peer(options: &Options) -> Result<Option<Connected>, String> {
    let level = options.level.clone().unwrap_or_else(crate::sim::level::demo_level_path);
    let settings_path = options
        .settings
        .clone()
        .or_else(slidewalk_play::settings::default_settings_path);
    let config = settings_path.map_or_else(|| Settings::default().controller, |p| Settings::load(&p).0.controller);
    match connect(options, &level, &config) {
        Ok(connected) => Ok(Some(connected)),
        Err(ConnectError::Refused(line)) => Err(line),
        Err(ConnectError::NoAnswer(line)) => {
            eprintln!("slidewalk: {line}: playing alone");
            Ok(None)
        }
    }
}

impl Connected {
    /// The session and who is who, into `app` (before its plugins).
    pub fn insert_into(self, app: &mut App) {
        app.insert_resource(self.players)
            .insert_resource(NetStatus::new(self.peer).with_traffic(self.traffic))
            .insert_resource(PendingSession(Some(self.session)));
    }
}
