//! Messages for the player: errors (a level that cannot be opened, a
//! drawing that failed) and short notes (respawned, fly mode), shown on
//! screen by the HUD and logged.

use bevy::prelude::*;

/// One message.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// The text.
    pub text: String,
    /// An error (stays until replaced) rather than a note (fades after a few seconds).
    pub error: bool,
    /// Seconds it has been shown.
    pub age: f32,
}

/// Messages waiting to be shown.
#[derive(Resource, Default, Debug)]
pub struct Notices(pub Vec<Notice>);

impl Notices {
    /// A short note (logged at info level).
    pub fn info(&mut self, text: impl Into<String>) {
        let text = text.into();
        info!("{text}");
        self.push(text, false);
    }

    /// An error the player should see (logged as a warning: the game goes on).
    pub fn error(&mut self, text: impl Into<String>) {
        let text = text.into();
        warn!("{text}");
        self.push(text, true);
    }

    /// An error already logged elsewhere (e.g. by Bevy), shown as is.
    pub fn show_logged_error(&mut self, text: impl Into<String>) {
        self.push(text.into(), true);
    }

    fn push(&mut self, text: String, error: bool) {
        self.0.retain(|n| n.text != text);
        self.0.push(Notice { text, error, age: 0.0 });
        if self.0.len() > 6 {
            self.0.remove(0);
        }
    }
}
