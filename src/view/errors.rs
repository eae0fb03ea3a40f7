//! Errors logged anywhere in the game, Bevy's renderer included, are also
//! shown on screen: a tracing layer (installed with Bevy's `LogPlugin`)
//! passes every ERROR event to the HUD's notices, in one line (the rest is
//! in the log); a glTF the loader refuses is the level's drawing's to
//! report (`view::scene`). A shader that fails to
//! compile is one of them; it also sets [`ShaderFailure`], and the level
//! goes back to its own materials instead of missing meshes.

use crate::notices::Notices;
use bevy::log::tracing::{self, Subscriber};
use bevy::log::tracing_subscriber::{Layer, layer::Context};
use bevy::log::{BoxedLayer, Level};
use bevy::prelude::*;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};

/// Lines of a long error (a shader's, with its source excerpt) shown on screen.
const SHOWN_LINES: usize = 8;

/// An ERROR event: where it was logged (the module path) and what it said.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedError {
    /// The event's target, e.g. `bevy_render::render_resource::pipeline_cache`.
    pub target: String,
    /// The message.
    pub message: String,
}

/// The receiving end of the errors the layer saw.
#[derive(Resource)]
pub struct ErrorLog(Mutex<Receiver<LoggedError>>);

impl ErrorLog {
    /// A log and the sender that feeds it (the layer's, or a test's).
    pub fn channel() -> (Sender<LoggedError>, ErrorLog) {
        let (sender, receiver) = channel();
        (sender, ErrorLog(Mutex::new(receiver)))
    }
}

/// The first shader compilation error, if any (the grid is then not used).
#[derive(Resource, Default, Debug)]
pub struct ShaderFailure(pub Option<String>);

/// For `LogPlugin::custom_layer`: the layer, and its [`ErrorLog`] in the app.
pub fn capture_layer(app: &mut App) -> Option<BoxedLayer> {
    let (sender, log) = ErrorLog::channel();
    app.insert_resource(log);
    Some(Box::new(ErrorLayer(sender)))
}

/// Forwards ERROR events to the [`ErrorLog`].
struct ErrorLayer(Sender<LoggedError>);

impl<S: Subscriber> Layer<S> for ErrorLayer {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if *event.metadata().level() != Level::ERROR {
            return;
        }
        let mut message = String::new();
        event.record(&mut MessageField(&mut message));
        // The game may be shutting down; nothing to do then.
        let _ = self.0.send(LoggedError {
            target: event.metadata().target().to_owned(),
            message,
        });
    }
}

/// Reads an event's `message` field.
struct MessageField<'a>(&'a mut String);

impl tracing::field::Visit for MessageField<'_> {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "message" {
            value.clone_into(self.0);
        }
    }

    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            *self.0 = format!("{value:?}");
        }
    }
}

/// The [`ShaderFailure`] flag and the errors' way to the screen.
pub fn plugin(app: &mut App) {
    app.init_resource::<ShaderFailure>()
        .add_systems(PreUpdate, show_logged_errors);
}

/// Whether an error is a shader failing to compile (Bevy's pipeline cache
/// logs "failed to process shader" / "failed to create shader module").
pub fn is_shader_error(error: &LoggedError) -> bool {
    error.message.contains("shader")
        && (error.target.starts_with("bevy_render") || error.target.starts_with("bevy_shader"))
}

/// Whether an error is Bevy's glTF loader refusing a file: the level's,
/// which the level's drawing reports itself.
pub fn is_level_load_error(error: &LoggedError) -> bool {
    error.target.starts_with("bevy_asset") && error.message.contains("bevy_gltf::loader::GltfLoader")
}

/// The text with box-drawing characters (naga's source excerpts), which
/// egui's default fonts lack, drawn with ASCII.
fn plain_glyphs(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '│' | '┃' | '║' => '|',
            '─' | '━' | '═' => '-',
            '\u{2500}'..='\u{257F}' => '+',
            c => c,
        })
        .collect()
}

/// Moves logged errors onto the screen.
pub fn show_logged_errors(
    log: Option<Res<ErrorLog>>,
    mut notices: ResMut<Notices>,
    mut failure: ResMut<ShaderFailure>,
) {
    let Some(log) = log else { return };
    let Ok(receiver) = log.0.lock() else { return };
    for error in receiver.try_iter() {
        if is_level_load_error(&error) {
            continue; // said in one line by the level's drawing (`view::scene`)
        }
        if !is_shader_error(&error) {
            notices.show_logged_error(slidewalk_play::messages::one_line(&error.message));
            continue;
        }
        let mut lines: Vec<&str> = error.message.lines().filter(|l| !l.trim().is_empty()).collect();
        let more = lines.len().saturating_sub(SHOWN_LINES);
        lines.truncate(SHOWN_LINES);
        let mut text = plain_glyphs(&lines.join("\n"));
        if more > 0 {
            text += &format!("\n… {more} more lines in the log");
        }
        if failure.0.is_none() {
            failure.0 = Some(error.message.clone());
        }
        text = format!("a shader failed to compile; the level is drawn with its own materials:\n{text}");
        notices.show_logged_error(text);
    }
}
