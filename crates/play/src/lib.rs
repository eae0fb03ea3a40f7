//! slidewalk's game rules that need no engine, so they test in seconds:
//! the script format (scripted walks and recordings of play), how doors
//! respond to the player (trigger distance, the use key, turning back on a
//! squeeze), the heading → walking direction mapping and the summary a
//! headless run prints, the command line. The Bevy game (`src/`) drives
//! these each tick.
#![deny(missing_docs)]

mod doors;
mod heading;
mod options;
mod script;
mod spawn;
mod summary;

pub use doors::DoorControl;
pub use heading::{heading_direction, walk_direction};
pub use options::{Options, USAGE};
pub use script::{Buttons, Recorder, Script, ScriptError, ScriptPlayer, Step, TickInput};
pub use spawn::spawn_point;
pub use summary::Summary;
