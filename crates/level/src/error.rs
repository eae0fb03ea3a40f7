//! Typed level-loading errors that say what went wrong and where.

use std::path::PathBuf;
use thiserror::Error;

/// Why a level could not be loaded.
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
        /// What the glTF parser said.
        reason: String,
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
    #[error("{path} has no usable triangles ({triangles} read, {rejected} rejected as degenerate or non-finite)")]
    NoTriangles {
        /// The level file.
        path: PathBuf,
        /// Triangles read.
        triangles: usize,
        /// Triangles rejected.
        rejected: usize,
    },
}
