//! What a [`MeshCollider`](super::MeshCollider) build kept and rejected
//! ([`BuildReport`]), and why a build failed ([`BuildError`]).

use std::fmt;

/// What [`MeshCollider::build`](super::MeshCollider::build) kept and rejected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Triangles in the input.
    pub input_triangles: usize,
    /// Triangles kept for collision.
    pub triangles: usize,
    /// Triangles rejected because a coordinate was NaN or infinite.
    pub rejected_non_finite: usize,
    /// Triangles rejected because they had (nearly) zero area.
    pub rejected_degenerate: usize,
}

/// Why a [`MeshCollider`](super::MeshCollider) could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A triangle refers to a vertex that does not exist.
    IndexOutOfRange {
        /// The triangle's index in the input.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// No usable triangle is left (the input was empty or all were rejected).
    NoTriangles(BuildReport),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::IndexOutOfRange {
                triangle,
                index,
                vertex_count,
            } => {
                write!(
                    f,
                    "triangle {triangle} uses vertex {index}, but there are only {vertex_count} vertices"
                )
            }
            Self::NoTriangles(r) => write!(
                f,
                "no usable triangles: {} in the input, {} rejected as non-finite, {} as degenerate",
                r.input_triangles, r.rejected_non_finite, r.rejected_degenerate
            ),
        }
    }
}

impl std::error::Error for BuildError {}
