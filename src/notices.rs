//! Messages for the player: errors (a level that cannot be opened, a
//! drawing that failed) and short notes (respawned, fly mode), shown on
//! screen by the HUD and logged. A note from inside the simulated tick
//! goes through [`TickNotices`], so that a rollback simulating its tick
//! again does not show and log it again.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_slidewalk::ShownEvents;

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

/// A note from inside the simulated tick (a respawn, a checkpoint reached,
/// a throw refused), written once per tick ([`TickNotices`]) and shown
/// and logged by [`Notices::info`] after the tick.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TickNotice(pub String);

/// Where the simulated tick's notes go: each written once, even when a
/// rollback simulates its tick again (the same text from the same tick is
/// the same note: [`ShownEvents::write_once`]).
#[derive(SystemParam)]
pub struct TickNotices<'w> {
    writer: MessageWriter<'w, TickNotice>,
    shown: ResMut<'w, ShownEvents>,
}

impl TickNotices<'_> {
    /// A short note, unless an earlier simulation of this tick wrote it.
    pub fn info(&mut self, text: impl Into<String>) {
        self.shown
            .write_once(&mut self.writer, TickNotice(text.into()), |a, b| a == b);
    }
}

/// The notices, and the tick's notes shown once the tick is over.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Notices>()
        .add_message::<TickNotice>()
        .add_systems(Update, show_tick_notices);
}

/// The notes the ticks since the last frame wrote, on screen and in the log.
fn show_tick_notices(mut written: MessageReader<TickNotice>, mut notices: ResMut<Notices>) {
    for TickNotice(text) in written.read() {
        notices.info(text.clone());
    }
}
