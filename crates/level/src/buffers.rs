//! Resolving a glTF's buffers to bytes: the GLB binary chunk, `data:` URIs
//! (base64) and external `.bin` files next to the level; buffer views
//! compressed by `EXT_meshopt_compression` are decoded (`meshoptimizer-rs`,
//! pure Rust) into the fallback buffer they stand for.

use crate::error::LevelError;
use crate::extensions::MESHOPT;
use base64::Engine;
use std::io::Read;
use std::path::Path;

/// The bytes of every buffer of `gltf`, in buffer order, each checked to
/// hold at least its declared `byteLength`.
pub(crate) fn load_buffers(
    gltf: &gltf::Gltf,
    base_dir: Option<&Path>,
    path: &Path,
) -> Result<Vec<Vec<u8>>, LevelError> {
    let mut out = Vec::new();
    for buffer in gltf.buffers() {
        let index = buffer.index();
        let bad = |reason: String| LevelError::BadBuffer {
            path: path.to_owned(),
            buffer: index,
            reason,
        };
        let meshopt_fallback = buffer
            .extension_value(MESHOPT)
            .and_then(|e| e.get("fallback"))
            .and_then(serde_json::Value::as_bool)
            == Some(true);
        let data = match buffer.source() {
            // Filled by the compressed views decoded below.
            gltf::buffer::Source::Bin if meshopt_fallback => vec![0; buffer.length()],
            gltf::buffer::Source::Bin => gltf
                .blob
                .clone()
                .ok_or_else(|| bad("refers to the GLB binary chunk, but the file has none".into()))?,
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                let (_, payload) = uri
                    .split_once(";base64,")
                    .ok_or_else(|| bad("data: URI is not base64".into()))?;
                base64::engine::general_purpose::STANDARD
                    .decode(payload)
                    .map_err(|e| bad(format!("data: URI is not valid base64: {e}")))?
            }
            gltf::buffer::Source::Uri(uri) => {
                if uri.contains("://") {
                    return Err(bad(format!("only files next to the level can be read, not {uri:?}")));
                }
                let relative = percent_decode(uri);
                if Path::new(&relative).is_absolute() {
                    return Err(bad(format!(
                        "buffer files are named relative to the level, not by an absolute path like {uri:?}"
                    )));
                }
                let file = base_dir.unwrap_or(Path::new(".")).join(relative);
                read_buffer_file(&file, buffer.length()).map_err(|source| LevelError::MissingBuffer {
                    path: path.to_owned(),
                    buffer: index,
                    uri: uri.to_owned(),
                    source,
                })?
            }
        };
        if data.len() < buffer.length() {
            return Err(LevelError::TruncatedBuffer {
                path: path.to_owned(),
                buffer: index,
                expected: buffer.length(),
                actual: data.len(),
            });
        }
        out.push(data);
    }
    decode_meshopt_views(gltf, &mut out).map_err(|(buffer, reason)| LevelError::BadBuffer {
        path: path.to_owned(),
        buffer,
        reason,
    })?;
    Ok(out)
}

/// Decodes every buffer view compressed by `EXT_meshopt_compression` into
/// the bytes of the buffer it names as its own (the fallback). On error,
/// the buffer the view reads from and what is wrong.
fn decode_meshopt_views(gltf: &gltf::Gltf, buffers: &mut [Vec<u8>]) -> Result<(), (usize, String)> {
    use meshoptimizer_rs::codec::{BufferView, Filter, Mode};
    let mut workspace = meshoptimizer_rs::Workspace::default();
    for view in gltf.views() {
        let Some(ext) = view.extension_value(MESHOPT) else {
            continue;
        };
        let number = |key: &str| ext.get(key).and_then(serde_json::Value::as_u64).map(|v| v as usize);
        let text =
            |key: &str, default: &'static str| ext.get(key).and_then(serde_json::Value::as_str).unwrap_or(default);
        let source_buffer = number("buffer").unwrap_or(usize::MAX);
        let at = source_buffer.min(buffers.len().saturating_sub(1));
        let fail = |reason: String| (at, format!("{MESHOPT} buffer view {}: {reason}", view.index()));
        let (offset, length) = (number("byteOffset").unwrap_or(0), number("byteLength").unwrap_or(0));
        let (count, stride) = (number("count").unwrap_or(0), number("byteStride").unwrap_or(0));
        let layout = Mode::parse(text("mode", ""))
            .and_then(|mode| Ok((mode, Filter::parse(text("filter", "NONE"))?)))
            .and_then(|(mode, filter)| BufferView::new(mode, filter, count, stride))
            .map_err(|e| fail(format!("mode, filter, count or byteStride is not valid: {e}")))?;
        let source = buffers
            .get(source_buffer)
            .and_then(|b| b.get(offset..offset.checked_add(length)?))
            .ok_or_else(|| fail("the compressed bytes reach outside their buffer".into()))?;
        // A decoder's panic on hostile data is a refusal too, never a crash.
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| layout.decode(source, &mut workspace)))
            .map_err(|_| fail("the compressed data is corrupt (the decoder failed on it)".into()))?
            .map_err(|e| fail(format!("the compressed data cannot be decoded: {e}")))?;
        let target = buffers
            .get_mut(view.buffer().index())
            .and_then(|b| b.get_mut(view.offset()..view.offset().checked_add(decoded.len())?))
            .ok_or_else(|| fail("the decoded data does not fit the view's own buffer".into()))?;
        target.copy_from_slice(&decoded);
    }
    Ok(())
}

/// Reads at most `length` bytes of an external buffer file, which must be
/// a regular file: a device or a pipe may never end (the fuzzer's
/// `"uri": "/dev/zero"` read until memory ran out).
fn read_buffer_file(file: &Path, length: usize) -> std::io::Result<Vec<u8>> {
    let handle = std::fs::File::open(file)?;
    if !handle.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut data = Vec::new();
    handle.take(length as u64).read_to_end(&mut data)?;
    Ok(data)
}

/// Decodes `%XX` escapes of a relative URI (spaces are often written `%20`).
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(v) = u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"), 16)
        {
            out.push(v);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_buffers_are_regular_files_named_relatively() {
        // Found by the fuzzer (crates/fuzz): "/dev/zero" read without end.
        let err = read_buffer_file(Path::new("/dev/zero"), 16).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
        let json = br#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"/dev/zero"}]}"#;
        let gltf = gltf::Gltf::from_slice(json).unwrap();
        let err = load_buffers(&gltf, Some(Path::new("/tmp")), Path::new("a.gltf")).unwrap_err();
        assert!(err.to_string().contains("relative to the level"), "{err}");
        let json = br#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"../../../../../../dev/zero"}]}"#;
        let gltf = gltf::Gltf::from_slice(json).unwrap();
        let err = load_buffers(&gltf, Some(Path::new("/tmp")), Path::new("a.gltf")).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("my%20level.bin"), "my level.bin");
        assert_eq!(percent_decode("plain.bin"), "plain.bin");
        assert_eq!(percent_decode("odd%2"), "odd%2");
    }
}
