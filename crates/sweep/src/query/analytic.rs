//! Analytic colliders: exact swept-sphere tests against an infinite plane
//! and a solid capped cylinder, for bodies that are spheres (the bouncing
//! balls). Units are metres and seconds throughout: a sphere of `radius`
//! metres whose centre starts at `centre` and moves at `velocity` (m/s) is
//! swept over `t ∈ [0, t_max]` seconds, and the first contact is an
//! [`AnalyticHit`] with its time in seconds.
//!
//! # Method
//!
//! The sphere touches a solid `S` when its centre touches the Minkowski sum
//! of `S` and a ball of the sphere's radius, i.e. when the distance from the
//! centre to `S` equals the radius.
//!
//! * **Plane** ([`sweep_sphere_plane`]): the sum is the plane moved out by
//!   the radius; one division.
//! * **Cylinder** ([`sweep_sphere_cylinder`]): the sum is the union of the
//!   side slab (radius `R + r` over the axial range `[0, h]`), the two cap
//!   slabs (radius `R`, `r` beyond each end disk) and two tori (major radius
//!   `R`, tube radius `r`) around the rim circles. The side is a quadratic
//!   in the motion perpendicular to the axis and each cap a plane, solved in
//!   closed form. The tori (a quartic) are handled by *convex advancement*:
//!   the distance from a point moving on a line to a convex solid is a
//!   convex function of time, differentiable outside the solid with slope
//!   `v · n` (`n` the unit normal from the closest point), so each Newton
//!   step `t += (d − r) / (−v · n)` lands on or before the first contact and
//!   never past it, and a non-negative slope at a positive gap proves there
//!   is no contact at all. The closest point uses the closed-form distance
//!   to the cylinder (side, cap disks, rim circles), so the iteration is
//!   exact up to its stopping rule: a step shorter than
//!   [`ADVANCE_TOLERANCE`] metres of travel. It also certifies that no rim
//!   contact comes before a closed-form side or cap contact.
//!
//! Everything is computed in `f64` from the exact `f32` inputs; contact
//! times are rounded down to `f32`, so rounding never makes a contact late.
//!
//! # References
//!
//! * C. Ericson, *Real-Time Collision Detection*, 2005, §5.3.7 (segment
//!   against a cylinder) and §5.5.3 (moving sphere against a plane).
//! * B. Mirtich, *Impulse-based Dynamic Simulation of Rigid Body Systems*,
//!   PhD thesis, 1996 (conservative advancement).
//! * D. Christopoulos, NeHe lesson 30, *Collision Detection and Physically
//!   Based Modeling* (the room of planes and cylinders this serves).

mod cylinder;
mod hit;
mod plane;

pub use cylinder::{ADVANCE_TOLERANCE, Cylinder, sweep_sphere_cylinder};
pub use hit::AnalyticHit;
pub use plane::{Plane, sweep_sphere_plane};

use crate::aabb::Aabb;
use glam::{Affine3A, Vec3};

/// An analytic collider: one of the shapes with an exact sphere sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnalyticShape {
    /// A one-sided infinite plane (solid behind it).
    Plane(Plane),
    /// A solid capped cylinder.
    Cylinder(Cylinder),
}

impl AnalyticShape {
    /// The first contact of a sphere of `radius` (metres) whose centre
    /// starts at `centre` and moves at `velocity` (m/s), over `t_max`
    /// seconds. See [`sweep_sphere_plane`] and [`sweep_sphere_cylinder`].
    pub fn sweep_sphere(&self, centre: Vec3, radius: f32, velocity: Vec3, t_max: f32) -> Option<AnalyticHit> {
        match self {
            Self::Plane(p) => sweep_sphere_plane(p, centre, radius, velocity, t_max),
            Self::Cylinder(c) => sweep_sphere_cylinder(c, centre, radius, velocity, t_max),
        }
    }

    /// Signed distance (metres) from `p` to the surface: positive outside
    /// the solid (in front of a plane), negative inside it.
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        match self {
            Self::Plane(s) => s.signed_distance(p),
            Self::Cylinder(s) => s.signed_distance(p),
        }
    }

    /// The point of the surface closest to `p`, metres.
    pub fn closest_point(&self, p: Vec3) -> Vec3 {
        match self {
            Self::Plane(s) => s.closest_point(p),
            Self::Cylinder(s) => s.closest_point(p),
        }
    }

    /// The shape moved by `transform`, which must be a similarity: a
    /// rotation (or reflection), a uniform scale and a translation, as a
    /// level node's transform usually is. `None` when the scale is not
    /// uniform (to 1e-4 relative) or there is shear: the image of a
    /// cylinder would then not be a circular cylinder.
    pub fn transformed(&self, transform: &Affine3A) -> Option<Self> {
        Some(match self {
            Self::Plane(s) => Self::Plane(s.transformed(transform)?),
            Self::Cylinder(s) => Self::Cylinder(s.transformed(transform)?),
        })
    }

    /// The box around the shape, `None` for the unbounded plane.
    pub fn bounds(&self) -> Option<Aabb> {
        match self {
            Self::Plane(_) => None,
            Self::Cylinder(c) => Some(c.bounds()),
        }
    }
}

impl From<Plane> for AnalyticShape {
    fn from(p: Plane) -> Self {
        Self::Plane(p)
    }
}

impl From<Cylinder> for AnalyticShape {
    fn from(c: Cylinder) -> Self {
        Self::Cylinder(c)
    }
}
