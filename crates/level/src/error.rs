//! Typed level-loading errors that say what went wrong and where.

use std::path::PathBuf;
use thiserror::Error;

/// Longest reason a [`LevelError::NotGltf`] line quotes from the parser, characters.
const MAX_REASON: usize = 160;

/// Why a level could not be loaded. Every message is one line; where there
/// is more to say, [`LevelError::details`] has it.
#[derive(Debug, Error)]
pub enum LevelError {
    /// The file could not be read (missing, a directory, no permission).
    #[error("cannot read level {path}: {source}")]
    Io {
        /// The level file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not glTF (`.glb` or `.gltf` JSON) or its JSON is invalid.
    #[error("{path} is not a valid glTF file: {reason}")]
    NotGltf {
        /// The level file.
        path: PathBuf,
        /// The first problem the glTF parser or validator found, and how
        /// many more there are (one line).
        reason: String,
        /// Every problem found, one per line (for a log).
        problems: Vec<String>,
    },
    /// An external buffer file named by the glTF is missing or unreadable.
    #[error("{path}: buffer {buffer} refers to {uri:?}, which cannot be read: {source}")]
    MissingBuffer {
        /// The level file.
        path: PathBuf,
        /// Buffer index.
        buffer: usize,
        /// The URI as written in the file.
        uri: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// A buffer holds fewer bytes than the file declares (truncated file).
    #[error("{path}: buffer {buffer} is truncated: {actual} bytes, {expected} declared")]
    TruncatedBuffer {
        /// The level file.
        path: PathBuf,
        /// Buffer index.
        buffer: usize,
        /// Declared `byteLength`.
        expected: usize,
        /// Bytes present.
        actual: usize,
    },
    /// A buffer's data could not be decoded (bad `data:` URI, missing GLB chunk, unsupported URI).
    #[error("{path}: buffer {buffer}: {reason}")]
    BadBuffer {
        /// The level file.
        path: PathBuf,
        /// Buffer index.
        buffer: usize,
        /// What is wrong.
        reason: String,
    },
    /// An accessor reaches outside its buffer view or has an unusable type.
    #[error("{path}: mesh {mesh:?} primitive {primitive}: {reason}")]
    BadAccessor {
        /// The level file.
        path: PathBuf,
        /// Mesh name (or `mesh N`).
        mesh: String,
        /// Primitive index in the mesh.
        primitive: usize,
        /// What is wrong.
        reason: String,
    },
    /// A triangle refers to a vertex that does not exist.
    #[error("{path}: mesh {mesh:?} primitive {primitive}: index {index} is out of range ({vertex_count} vertices)")]
    IndexOutOfRange {
        /// The level file.
        path: PathBuf,
        /// Mesh name (or `mesh N`).
        mesh: String,
        /// Primitive index in the mesh.
        primitive: usize,
        /// The offending index.
        index: u32,
        /// Vertices in the primitive.
        vertex_count: usize,
    },
    /// A node's level conventions are invalid (for example a negative lift speed).
    #[error("{path}: node {node:?}: {reason}")]
    BadConvention {
        /// The level file.
        path: PathBuf,
        /// Node name (or `node N`).
        node: String,
        /// What is wrong.
        reason: String,
    },
    /// Nothing to collide with: no triangle in the whole file survived.
    #[error("{path} has no usable triangles ({triangles} read, {rejected} rejected as degenerate or non-finite){}", why.as_ref().map_or(String::new(), |w| format!("; {w}")))]
    NoTriangles {
        /// The level file.
        path: PathBuf,
        /// Triangles read.
        triangles: usize,
        /// Triangles rejected.
        rejected: usize,
        /// What the loader left out, if anything (the first of its notices).
        why: Option<String>,
    },
}

impl LevelError {
    /// A file the glTF parser or validator refused for `problems` (at least one).
    pub(crate) fn not_gltf(path: &std::path::Path, problems: Vec<String>) -> Self {
        let first = problems.first().map_or("", String::as_str);
        let mut reason: String = first.chars().take(MAX_REASON).collect();
        if reason.len() < first.len() {
            reason.push('…');
        }
        if problems.len() > 1 {
            reason.push_str(&format!(" (and {} more problems)", problems.len() - 1));
        }
        LevelError::NotGltf {
            path: path.to_owned(),
            reason,
            problems,
        }
    }

    /// Everything known about the error, one item per line, for a log: every
    /// problem the validator found, where the message names only the first.
    pub fn details(&self) -> Vec<String> {
        match self {
            LevelError::NotGltf { problems, .. } => problems.clone(),
            other => vec![other.to_string()],
        }
    }
}
