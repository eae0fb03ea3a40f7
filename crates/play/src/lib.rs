//! slidewalk's game rules that need no engine, so they test in seconds:
//! the script format (scripted walks and recordings of play, with the
//! state they start from), the heading → walking direction mapping, the
//! summary a headless run prints, the command line, the tuning panel's
//! checked changes, the settings file, the rewind buffer and errors from
//! elsewhere said in one line. The Bevy game (`src/`) drives these each
//! tick.
//!
//! # Example
//!
//! ```
//! use slidewalk_play::{Script, ScriptPlayer};
//!
//! // Half a second turned to face −z, then three seconds walking forward.
//! let script = Script::parse(r#"{"steps": [
//!     {"for_s": 0.5, "yaw_deg": 0.0},
//!     {"for_s": 3.0, "move": [0.0, 1.0]}
//! ]}"#).unwrap();
//! let player = ScriptPlayer::new(&script, 1.0 / 60.0, 0.0);
//! assert_eq!(player.total_ticks(), 210);
//! assert!(Script::parse(r#"{"steps": [{"for_s": -1}]}"#).is_err());
//! ```
#![deny(missing_docs)]

mod buttons;
mod heading;
pub mod messages;
mod options;
mod player;
mod recorder;
pub mod rewind;
mod script;
pub mod settings;
mod spawn;
mod start;
mod summary;
pub mod tuning;

pub use buttons::Buttons;
pub use heading::{heading_direction, walk_direction};
pub use options::{
    MAX_CROWD, MAX_INPUT_DELAY, MAX_NET_JITTER_MS, Options, PEER_WAIT_LIMITS_S, USAGE, check_output, text_args,
};
pub use player::{ScriptPlayer, TickInput};
pub use recorder::Recorder;
pub use rewind::{History, TickRecord, WorldState};
pub use script::{Script, ScriptError, Step};
pub use settings::{Overlay, Settings};
pub use spawn::{
    MAX_SPAWN_LIFT, PLAYER_GAP, PlacedBody, above_the_level, clear_of_geometry, place_apart, place_asked_spawn,
};
pub use start::Start;
pub use summary::Summary;
