//! Errors from elsewhere (Bevy's asset loader, the renderer) said to the
//! player in one line: the first line of the message, shortened, and for a
//! level Bevy cannot draw, what it lacks.

/// Longest line shown on screen for an error logged elsewhere, characters.
pub const MAX_LINE: usize = 200;

/// The first non-empty line of `message`, at most [`MAX_LINE`] characters
/// (cut with `…`), and ` (more in the log)` when anything was left out.
pub fn one_line(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    let mut line: String = first.chars().take(MAX_LINE).collect();
    let cut = line.len() < first.len();
    if cut {
        line.push('…');
    }
    if cut || lines.next().is_some() {
        line.push_str(" (more in the log)");
    }
    line
}

/// What to say when Bevy cannot draw the level `file` (its loader's error
/// `error`): the level is drawn from its collision geometry instead. Names
/// the extension Bevy does not support when that is why.
pub fn level_not_drawn(file: &str, error: &str) -> String {
    let reason = unsupported_extension(error)
        .map(|name| format!("it needs {name}, which Bevy's glTF loader does not support"))
        .unwrap_or_else(|| {
            let line = one_line(error);
            // Bevy's message starts with the asset path and loader: the reason follows.
            match line.rsplit_once("': ") {
                Some((_, reason)) => reason.to_owned(),
                None => line,
            }
        });
    format!("{file}: Bevy cannot draw this file ({reason}); drawing its collision geometry instead")
}

/// The extension a glTF validator refused as unsupported, from its message
/// (`extensionsRequired[0] = "NAME": Unsupported extension`).
fn unsupported_extension(error: &str) -> Option<&str> {
    let at = error.find("\": Unsupported extension")?;
    let start = error[..at].rfind('"')? + 1;
    Some(&error[start..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_error_is_one_short_line() {
        assert_eq!(one_line("device lost"), "device lost");
        let bevy = "Failed to load asset 'disk://tmp/a.gltf' with asset loader 'bevy_gltf::loader::GltfLoader': \
                    invalid glTF file: invalid glTF: accessors[0].bufferView: Missing data; \
                    extensionsRequired[0] = \"KHR_draco_mesh_compression\": Unsupported extension;\n   \
                    1: <L as bevy_asset::loader::ErasedAssetLoader>::load::{{closure}}\n   2: ...";
        let line = one_line(bevy);
        assert!(!line.contains('\n') && line.chars().count() <= MAX_LINE + 20, "{line}");
        assert!(line.ends_with("(more in the log)"), "{line}");
        let said = level_not_drawn("a.gltf", bevy);
        assert_eq!(
            said,
            "a.gltf: Bevy cannot draw this file (it needs KHR_draco_mesh_compression, which Bevy's glTF \
             loader does not support); drawing its collision geometry instead"
        );
        let other = level_not_drawn(
            "b.glb",
            "Failed to load asset 'disk://b.glb' with asset loader 'x': bad header",
        );
        assert!(other.contains("(bad header)"), "{other}");
    }
}
