//! Queries: the one-triangle narrow phase, the collider sweep and the
//! analytic colliders (exact sphere sweeps against planes and cylinders).

pub mod analytic;
pub mod sphere_triangle;
pub mod sweep;
