//! Queries: the one-triangle narrow phase and the collider sweep.

pub mod sphere_triangle;
pub mod sweep;
