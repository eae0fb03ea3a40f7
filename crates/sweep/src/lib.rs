//! Swept-ellipsoid collide-and-slide against triangle meshes, engine independent.
//!
//! This crate is the collision core of slidewalk. It depends on `glam` only
//! (the version Bevy 0.19 uses, so `bevy::math::Vec3` is [`glam::Vec3`]) and
//! does no I/O.
//!
//! # The algorithm
//!
//! Kasper Fauerby, *Improved Collision detection and Response* (2003):
//!
//! 1. **eSpace.** Divide every point and vector by the ellipsoid's radii: the
//!    ellipsoid becomes a unit sphere ([`Ellipsoid::to_espace`]). Planes stay
//!    planes; normals return to world space by the inverse transpose
//!    ([`Ellipsoid::normal_from_espace`]).
//! 2. **Swept sphere vs triangle** ([`query::sphere_triangle`]): the time
//!    interval `[t0, t1]` in which the sphere is within 1 of the triangle's
//!    plane; if the plane contact point at `t0` lies inside the triangle that
//!    is the hit; otherwise the smallest root of `|B + tV − P|² = 1` over the
//!    three vertices and of "distance to the edge line is 1 with the foot on
//!    the segment" over the three edges. Triangles are two-sided.
//! 3. **Broad phase** ([`Bvh`]): a binned-SAH bounding volume hierarchy
//!    answers which triangles the swept ellipsoid may touch; only those reach
//!    step 2 (never all triangles). The binary tree the builder makes is
//!    collapsed into 4-wide nodes whose four boxes are tested at once
//!    (SIMD lanes), and walked in eSpace, nearest box first: a box is
//!    entered only if the capsule around the remaining
//!    motion reaches its box, the motion goes towards it far enough, and the
//!    motion enters it (slab test) no later than the earliest hit found so
//!    far, which shrinks the walk as hits are found. Each candidate then
//!    meets cheap rejects before the exact test: its box against the
//!    sweep's, then two separating axes, the triangle's normal and the
//!    direction to its closest point (the neighbours of a resting contact on a
//!    finely tessellated prop lie within a few percent of the radius, yet
//!    the motion rarely goes towards them). Every reject is conservative
//!    with a margin for rounding, so the first contact is the one the
//!    narrow phase gives on all triangles; contacts at the same time go to
//!    the earlier collider, then to the lower input triangle index
//!    (`tests/broad_phase.rs` checks all this against brute force). Rotated
//!    colliders (doors) are asked for the box swept by the ellipsoid in
//!    their frame instead. On a collider larger than the caches the walk
//!    asks for nodes and triangles before it reads them (a hint only).
//! 4. **Collide and slide** ([`collide_and_slide`]): move to a skin short of
//!    the first contact, project the remaining motion onto the sliding plane
//!    (through the contact, normal towards the centre), repeat a bounded
//!    number of times. Gravity is a second, separate call.
//!
//! # Memory and build
//!
//! A [`MeshCollider`] stores its triangles in BVH leaf order as three
//! 32-bit indices into shared vertices (the vertices of rejected triangles
//! dropped; the others in the order the leaves first use them, a vertex at
//! the very position of one used shortly before merged into it), the input
//! index of each, and the BVH's 4-wide nodes (128 bytes: four children's
//! boxes as structure of arrays, tested together in SIMD lanes) whose
//! leaves hold a few triangles (the SAH weighs a node visit as two
//! triangle tests). On the generated levels that is about 44 bytes per
//! triangle, against 70 for triangles stored as three positions with
//! leaves of one or two.
//!
//! [`MeshCollider::build`] checks the triangles in runs spread over the
//! machine's cores, then builds the BVH with binned SAH (one pass bins a
//! range along the three axes, a second moves it to its side of the split,
//! ping-ponging between two buffers); ranges of at least 8,192 triangles
//! may have their halves built on two threads (`std::thread::scope`). The
//! collider is the same for any number of threads: each split depends on
//! its own range only, and the blocks of nodes built apart are laid out in
//! one fixed order ([`MeshCollider::build_with_threads`] takes the count).
//!
//! Known weaknesses of the papers' version are handled on purpose: creases
//! and acute corners (planes met in one call stay active and the motion
//! follows their crease, Quake-style), starting embedded (explicit
//! depenetration rather than a "last safe position"), triangles of either
//! winding, degenerate and non-finite triangles (rejected and counted at
//! build time, [`BuildReport`]; one that a pose far from the origin rounds
//! into a line is still met at its edges and corners), and floats far from
//! the origin (triangles
//! are taken relative to the ellipsoid before dividing, and the skin is kept
//! above f32 resolution).
//!
//! Spheres (bouncing balls) can also meet *analytic colliders*, an infinite
//! one-sided [`Plane`] and a solid capped [`Cylinder`], swept exactly
//! ([`query::analytic`]); a level keeps their triangles for the ellipsoid
//! and a [`ContactFilter`] given to [`sweep_with`] lets a sphere sweep skip them.
//!
//! Every query honours each collider's [`CollisionLayers`] against the
//! body's (Rapier's collision-groups rule) and its one-way direction
//! ([`PlacedCollider::one_way`]: solid only from the front, for a body
//! that starts in front), and takes a game's own [`ContactFilter`]: a
//! vetoed collider is skipped whole, a vetoed triangle is as if it were
//! not there. Unused, they cost one mask test per collider.
//!
//! Volumes (sensors, trigger zones) are closed meshes a body overlaps
//! or not ([`ellipsoid_overlaps_volume`]); a [`BoxGrid`] over their boxes
//! finds the few near a body among thousands.
//!
//! Moving geometry (doors, lifts) is a [`PlacedCollider`] with a rigid
//! [`Pose`] and velocities. The ellipsoid is never moved into a rotated
//! collider's frame (it would no longer be axis-aligned there): candidate
//! triangles are brought to world space and then to eSpace.
//!
//! # References
//!
//! * K. Fauerby, *Improved Collision detection and Response*, 2003.
//! * K. Fauerby, *Collision detection and response*, 2000 (gravity pass,
//!   moving geometry).
//! * P. Nettle, *General Collision Detection for Games Using Ellipsoids*.
//! * C. Ericson, *Real-Time Collision Detection*, 2005 (closest point on a
//!   triangle, BVHs).
//!
//! # Example
//!
//! ```
//! use glam::Vec3;
//! use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider, SlideOptions, collide_and_slide};
//!
//! // A 20 m square floor at y = 0.
//! let floor = MeshCollider::build(
//!     &[Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 0.0, -10.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(-10.0, 0.0, 10.0)],
//!     &[[0, 1, 2], [0, 2, 3]],
//! )
//! .unwrap();
//! let player = Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).unwrap();
//! let world = [PlacedCollider::fixed(&floor)];
//! // Walk forward and down into the floor: the downward part is removed.
//! let step = collide_and_slide(&player, Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, -0.5, 0.0), &world, &SlideOptions::default());
//! assert!((step.position.x - 1.0).abs() < 0.01);
//! assert!(step.position.y >= 0.9);
//! assert_eq!(step.contacts.len(), 1);
//! ```
// docs.rs (nightly, `--cfg docsrs`) labels each item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
// One exception, earned by the crowd benchmark: `prefetch`.
#![deny(unsafe_code)]

mod aabb;
mod bvh;
mod cell_hasher;
mod collider;
pub mod counts;
mod ellipsoid;
mod filter;
mod parallel;
mod prefetch;
pub mod proxy;
pub mod query;
mod slide;
#[cfg(any(test, feature = "test-util"))]
pub mod test_util;
mod triangle;
mod volume;

pub use aabb::Aabb;
pub use bvh::{Bvh, BvhStats, VisitedNode};
pub use cell_hasher::CellHasher;
pub use collider::{BuildError, BuildReport, MeshCollider, PlacedCollider, Pose};
pub use ellipsoid::{Ellipsoid, EllipsoidError};
pub use filter::{
    Candidate, CollisionLayers, ContactFilter, KeepTriangles, ONE_WAY_MIN_FACING, ONE_WAY_SLACK, StandardRules,
};
pub use query::analytic::{AnalyticHit, AnalyticShape, Cylinder, Plane, sweep_sphere_cylinder, sweep_sphere_plane};
pub use query::sweep::{SweepHit, sweep, sweep_with};
pub use slide::{
    Contact, ContactResponse, Ground, Settled, SlideOptions, SlidePlane, SlideResult, collide_and_slide,
    collide_and_slide_filtered, collide_and_slide_reusing, collide_and_slide_with, depenetrate, penetration_depth,
    penetration_depth_with, settle,
};
pub use triangle::{
    Feature, TriangleDefect, closest_point_on_triangle, distance_to_triangle, projects_onto_triangle,
    segment_crosses_triangle, triangle_defect,
};
pub use volume::{BoxGrid, contains_point, ellipsoid_overlaps_volume};
