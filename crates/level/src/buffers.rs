//! Resolving a glTF's buffers to bytes: the GLB binary chunk, `data:` URIs
//! (base64) and external `.bin` files next to the level.

use crate::error::LevelError;
use base64::Engine;
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
        let data = match buffer.source() {
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
                let file = base_dir.unwrap_or(Path::new(".")).join(percent_decode(uri));
                std::fs::read(&file).map_err(|source| LevelError::MissingBuffer {
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
    Ok(out)
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
    fn percent_decoding() {
        assert_eq!(percent_decode("my%20level.bin"), "my level.bin");
        assert_eq!(percent_decode("plain.bin"), "plain.bin");
        assert_eq!(percent_decode("odd%2"), "odd%2");
    }
}
