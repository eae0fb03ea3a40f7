//! `MeshCollider`: validated triangles in BVH order over shared vertices,
//! and `PlacedCollider`, a collider placed in the world by a rigid pose
//! (static level, door, lift).

mod build;

use crate::aabb::Aabb;
use crate::bvh::{Bvh, BvhStats};
use crate::prefetch::prefetch;
use glam::{Quat, Vec3};
use std::fmt;

/// A static triangle mesh ready for sweeps: degenerate and non-finite
/// triangles removed, the rest stored in BVH leaf order as three indices
/// into shared vertices.
///
/// Layout, per triangle: 16 bytes for its slot (three vertex indices and
/// the input index, together on one cache line), 12 bytes per vertex
/// (shared: as many vertices as the input's
/// indices share, or fewer where corners at the same position are used
/// close together in leaf order; those of rejected triangles dropped; in
/// the order the leaves first use them), and the BVH's 128-byte 4-wide
/// nodes (one per three or so leaves; leaves of up to eight triangles,
/// about three on average), and for 4,096 triangles or more the BVH's
/// entry grid (a node per cell with triangles near it, a cell per 256
/// triangles or so: under 1 byte per triangle).
#[derive(Clone, Debug)]
pub struct MeshCollider {
    /// Vertex positions (the collider's local frame, metres), in the order
    /// the leaf slots first use them.
    vertices: Vec<Vec3>,
    /// Each leaf slot's triangle: three indices into `vertices` and its
    /// index in the input.
    slots: Vec<Slot>,
    bvh: Bvh,
    bounds: Aabb,
    report: BuildReport,
}

/// Colliders of at least this many triangles (about 3 MB, beyond a
/// core's second-level cache) fetch ahead in sweeps (see
/// [`MeshCollider::query_swept`]).
const FETCH_AHEAD_TRIANGLES: usize = 65_536;

/// One leaf slot's triangle: its corners as indices into the collider's
/// shared vertices and its index in the input, side by side (16 bytes, on
/// one cache line: a sweep reads a candidate's input index right after its
/// corners).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
struct Slot {
    corners: [u32; 3],
    input: u32,
}

/// What [`MeshCollider::build`] kept and rejected.
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

/// Why a [`MeshCollider`] could not be built.
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

impl MeshCollider {
    /// Builds a collider from vertex positions (metres) and triangles given
    /// as three vertex indices each. Triangles with a NaN/infinite corner or
    /// (nearly) zero area are skipped and counted in [`MeshCollider::report`].
    ///
    /// The checks and the BVH build run on as many threads as the machine
    /// has; the collider is the same for any number of threads.
    pub fn build(positions: &[Vec3], triangles: &[[u32; 3]]) -> Result<Self, BuildError> {
        Self::build_with_threads(positions, triangles, crate::parallel::available_threads())
    }

    /// [`MeshCollider::build`] on up to `threads` threads (1: the calling
    /// thread only). The result does not depend on `threads`.
    pub fn build_with_threads(positions: &[Vec3], triangles: &[[u32; 3]], threads: usize) -> Result<Self, BuildError> {
        let built = build::build(positions, triangles, threads)?;
        Ok(Self {
            vertices: built.vertices,
            slots: built.slots,
            bvh: built.bvh,
            bounds: built.bounds,
            report: built.report,
        })
    }

    /// Builds from a flat triangle list (three consecutive positions per
    /// triangle), as produced by non-indexed meshes. Bit-identical corners
    /// become one shared vertex.
    pub fn from_triangles(triangles: &[[Vec3; 3]]) -> Result<Self, BuildError> {
        let (positions, indices) = build::weld(triangles);
        Self::build(&positions, &indices)
    }

    /// What was kept and rejected.
    pub fn report(&self) -> &BuildReport {
        &self.report
    }

    /// Number of triangles kept.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a collider has at least one triangle.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Local-frame bounds of all triangles.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Triangle at a leaf slot (local frame).
    #[inline]
    pub fn triangle(&self, slot: usize) -> [Vec3; 3] {
        self.slots[slot].corners.map(|i| self.vertices[i as usize])
    }

    /// All triangles, in slot order (local frame).
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = [Vec3; 3]> + Clone + '_ {
        self.slots.iter().map(|t| t.corners.map(|i| self.vertices[i as usize]))
    }

    /// Number of shared vertices stored.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// The input triangle index of a leaf slot (what [`crate::SweepHit::triangle`] reports).
    #[inline]
    pub fn input_index(&self, slot: usize) -> u32 {
        self.slots[slot].input
    }

    /// Calls `visit(slot)` for each triangle whose BVH leaf overlaps `query`
    /// (local frame). A superset of the triangles touching the box.
    #[inline]
    pub fn query(&self, query: &Aabb, visit: impl FnMut(usize)) {
        self.bvh.query(query, visit)
    }

    /// The swept-sphere query of the BVH (see `Bvh::query_swept`): slots a
    /// sphere of radius `reach` in eSpace may touch, nearest first, the
    /// search shrinking to the time `visit` returns. `origin` is in the
    /// local frame (metres).
    #[inline]
    pub(crate) fn query_swept(
        &self,
        origin: Vec3,
        inv_radii: Vec3,
        v: Vec3,
        reach: f32,
        t_max: f32,
        mut visit: impl FnMut(usize) -> f32,
    ) {
        // On a collider larger than the caches, the walk fetches ahead:
        // a leaf's slots start loading when the walk decides to visit it,
        // and its corners once its turn comes, all at once rather than
        // each after the one before. (On a small one that costs more
        // than it saves.)
        let fetch = self.fetches_ahead();
        let entered = |first: usize, count: u32| {
            if fetch {
                prefetch(&self.slots[first..first + count as usize]);
            }
        };
        let leaf = |slots: std::ops::Range<usize>, mut t_max: f32| {
            if fetch {
                self.fetch_corners(slots.clone());
            }
            for slot in slots {
                t_max = visit(slot);
            }
            t_max
        };
        self.bvh
            .query_swept(origin, inv_radii, v, reach, t_max, fetch, entered, leaf)
    }

    /// Whether the collider is larger than the caches (65,536 triangles or
    /// more): its sweeps then fetch ahead, and [`MeshCollider::fetch_near`]
    /// does something.
    #[inline]
    pub fn fetches_ahead(&self) -> bool {
        self.slots.len() >= FETCH_AHEAD_TRIANGLES
    }

    /// Starts loading what sweeps and queries near each of `boxes` (local
    /// frame, metres) will read: the tree's nodes a level at a time for all
    /// the boxes together, then their leaves' triangles and corners. A hint
    /// only (no answer depends on it), for a caller about to tick many
    /// characters in different places of a collider larger than the caches,
    /// as a crowd does: their loads are then under way together instead of
    /// one after another. Does nothing on a smaller collider.
    pub fn fetch_near(&self, boxes: &[Aabb]) {
        if !self.fetches_ahead() {
            return;
        }
        let mut leaves = Vec::new();
        self.bvh.fetch_near(boxes, |first, count| {
            let slots = first..first + count as usize;
            prefetch(&self.slots[slots.clone()]);
            leaves.push(slots);
        });
        for slots in leaves {
            self.fetch_corners(slots);
        }
    }

    /// Starts loading the corners of the triangles in `slots` (their slots
    /// read: loaded, or waited for).
    #[inline(always)]
    fn fetch_corners(&self, slots: std::ops::Range<usize>) {
        for slot in &self.slots[slots] {
            for i in slot.corners {
                prefetch(std::slice::from_ref(&self.vertices[i as usize]));
            }
        }
    }

    /// The BVH nodes a [`MeshCollider::query`] with `query` (local frame)
    /// tests, each with whether it went inside (debug drawing).
    pub fn trace_query(&self, query: &Aabb, visit: impl FnMut(crate::bvh::VisitedNode)) {
        self.bvh.trace(query, visit)
    }

    /// BVH shape figures.
    pub fn bvh_stats(&self) -> BvhStats {
        self.bvh.stats()
    }

    /// Heap bytes used (vertices, slots, BVH).
    pub fn memory_bytes(&self) -> usize {
        self.vertices.len() * std::mem::size_of::<Vec3>()
            + self.slots.len() * std::mem::size_of::<Slot>()
            + self.bvh.memory_bytes()
    }
}

/// A rigid transform: rotate, then translate (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Rotation (unit quaternion).
    pub rotation: Quat,
    /// Translation, metres.
    pub translation: Vec3,
}

impl Pose {
    /// The identity pose.
    pub const IDENTITY: Pose = Pose {
        rotation: Quat::IDENTITY,
        translation: Vec3::ZERO,
    };

    /// A pure translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            rotation: Quat::IDENTITY,
            translation,
        }
    }

    /// Local point to world.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// World point to local.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.translation)
    }

    /// The world box holding the local box `b` at this pose (its eight
    /// corners transformed), metres.
    pub fn transform_aabb(&self, b: Aabb) -> Aabb {
        Aabb::from_points(b.corners().map(|p| self.transform_point(p)))
    }

    /// The local box holding the world box `b` (its eight corners brought
    /// to the local frame), metres.
    pub fn inverse_transform_aabb(&self, b: Aabb) -> Aabb {
        Aabb::from_points(b.corners().map(|p| self.inverse_transform_point(p)))
    }
}

/// A [`MeshCollider`] placed in the world: the static level (identity pose),
/// or a door or lift (moving pose with its velocity).
///
/// Sweeps never move the ellipsoid into a collider's local frame (a rotated
/// frame would make the ellipsoid non-axis-aligned): the world-space query box
/// is brought to the local frame for the BVH only, and each candidate triangle
/// is brought to world space, then to eSpace.
#[derive(Clone, Copy, Debug)]
pub struct PlacedCollider<'a> {
    /// The triangles.
    pub mesh: &'a MeshCollider,
    /// Where the collider is this tick.
    pub pose: Pose,
    /// Linear velocity of the pose's origin, m/s (for riding and pushing).
    pub linear_velocity: Vec3,
    /// Angular velocity about the pose's origin, rad/s (axis × rate).
    pub angular_velocity: Vec3,
}

impl<'a> PlacedCollider<'a> {
    /// The world box of the collider at its pose, metres.
    pub fn world_bounds(&self) -> Aabb {
        self.pose.transform_aabb(self.mesh.bounds())
    }

    /// The world box of all `colliders` at their poses (empty for none), metres.
    pub fn world_bounds_of(colliders: &[PlacedCollider<'_>]) -> Aabb {
        colliders
            .iter()
            .map(PlacedCollider::world_bounds)
            .fold(Aabb::EMPTY, Aabb::union)
    }

    /// A collider that does not move, at the identity pose.
    pub fn fixed(mesh: &'a MeshCollider) -> Self {
        Self {
            mesh,
            pose: Pose::IDENTITY,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
        }
    }

    /// A collider at `pose` moving with the given velocities.
    pub fn moving(mesh: &'a MeshCollider, pose: Pose, linear_velocity: Vec3, angular_velocity: Vec3) -> Self {
        Self {
            mesh,
            pose,
            linear_velocity,
            angular_velocity,
        }
    }

    /// A collider now at `now` that was at `before` one tick of `dt`
    /// seconds ago: its motion over the tick becomes its velocities (a door
    /// or lift posed each tick by a game or a test).
    pub fn from_poses(mesh: &'a MeshCollider, before: Pose, now: Pose, dt: f32) -> Self {
        let linear = (now.translation - before.translation) / dt;
        let angular = (now.rotation * before.rotation.inverse()).to_scaled_axis() / dt;
        Self::moving(mesh, now, linear, angular)
    }

    /// Velocity (m/s) of the collider's material at world point `p`.
    pub fn velocity_at(&self, p: Vec3) -> Vec3 {
        self.linear_velocity + self.angular_velocity.cross(p - self.pose.translation)
    }

    /// [`MeshCollider::fetch_near`] for world-space `boxes`.
    pub fn fetch_near(&self, boxes: &[Aabb]) {
        if !self.mesh.fetches_ahead() {
            return;
        }
        if self.pose == Pose::IDENTITY {
            self.mesh.fetch_near(boxes);
        } else {
            let local: Vec<Aabb> = boxes.iter().map(|&b| self.pose.inverse_transform_aabb(b)).collect();
            self.mesh.fetch_near(&local);
        }
    }

    /// Calls `visit(slot, world_triangle)` for each triangle whose BVH leaf
    /// overlaps the world-space box `query`.
    #[inline]
    pub fn query_world(&self, query: &Aabb, mut visit: impl FnMut(usize, [Vec3; 3])) {
        if self.pose == Pose::IDENTITY {
            self.mesh.query(query, |slot| visit(slot, self.mesh.triangle(slot)));
        } else {
            let local = self.pose.inverse_transform_aabb(*query);
            self.mesh.query(&local, |slot| {
                visit(slot, self.mesh.triangle(slot).map(|v| self.pose.transform_point(v)));
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_and_counts_bad_triangles() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::NAN, Vec3::X * 2.0];
        let c = MeshCollider::build(&p, &[[0, 1, 2], [0, 1, 3], [0, 1, 4], [1, 1, 2]]).unwrap();
        assert_eq!(
            *c.report(),
            BuildReport {
                input_triangles: 4,
                triangles: 1,
                rejected_non_finite: 1,
                rejected_degenerate: 2
            }
        );
        assert_eq!(c.input_index(0), 0);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = MeshCollider::build(&[Vec3::ZERO, Vec3::X], &[[0, 1, 2]]).unwrap_err();
        assert_eq!(
            e,
            BuildError::IndexOutOfRange {
                triangle: 0,
                index: 2,
                vertex_count: 2
            }
        );
        assert!(e.to_string().contains("only 2 vertices"));
        let e = MeshCollider::build(&[], &[]).unwrap_err();
        assert!(matches!(e, BuildError::NoTriangles(_)));
        let e = MeshCollider::build(&[Vec3::ZERO; 3], &[[0, 1, 2]]).unwrap_err();
        assert!(e.to_string().contains("1 as degenerate"), "{e}");
    }

    #[test]
    fn pose_round_trip() {
        let pose = Pose {
            rotation: Quat::from_rotation_y(0.7),
            translation: Vec3::new(1.0, 2.0, 3.0),
        };
        let p = Vec3::new(-4.0, 5.0, 0.5);
        assert!((pose.inverse_transform_point(pose.transform_point(p)) - p).length() < 1e-5);
        // A box there and back holds the box (grown by the turns).
        let b = Aabb::from_corners(p, p + Vec3::new(1.0, 2.0, 0.5));
        let back = pose.inverse_transform_aabb(pose.transform_aabb(b));
        assert!(
            back.min.cmple(b.min + 1e-5).all() && back.max.cmpge(b.max - 1e-5).all(),
            "{back:?}"
        );
        assert!(back.size().x > b.size().x + 0.1, "turned both ways: {back:?}");
    }

    #[test]
    fn the_collider_is_the_same_for_any_thread_count() {
        // Enough triangles for several check runs and BVH forks.
        let soup = crate::test_util::generated_level(80_000);
        let one = MeshCollider::build_with_threads(&soup.positions, &soup.triangles, 1).unwrap();
        for threads in [2, 3, 8] {
            let many = MeshCollider::build_with_threads(&soup.positions, &soup.triangles, threads).unwrap();
            assert_eq!(many.vertices, one.vertices, "{threads} threads");
            assert_eq!(many.slots, one.slots, "{threads} threads");
            assert_eq!(many.bvh, one.bvh, "{threads} threads");
            assert_eq!(many.bounds, one.bounds);
            assert_eq!(many.report, one.report);
        }
    }

    #[test]
    fn shared_vertices_give_back_the_input_triangles() {
        let mut soup = crate::test_util::dense_level(9_000);
        // A rejected triangle and an unused vertex in the middle.
        soup.positions.push(Vec3::NAN);
        let nan = soup.positions.len() as u32 - 1;
        soup.triangles.insert(5, [0, 1, nan]);
        let c = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        assert_eq!(c.report().rejected_non_finite, 1);
        assert_eq!(c.len(), soup.triangles.len() - 1);
        let mut seen = vec![false; soup.triangles.len()];
        for slot in 0..c.len() {
            let input = c.input_index(slot) as usize;
            assert!(!seen[input]);
            seen[input] = true;
            let expected = soup.triangles[input].map(|i| soup.positions[i as usize]);
            assert_eq!(c.triangle(slot), expected);
        }
        assert_eq!(c.triangles().count(), c.len());
        assert!(c.triangles().enumerate().all(|(slot, t)| t == c.triangle(slot)));
        // Only the used vertices are kept, each position once.
        assert!(c.vertex_count() < soup.positions.len());
        assert!(c.vertices.iter().all(|p| p.is_finite()));
    }

    #[test]
    fn a_placed_collider_s_world_box_holds_its_posed_triangles() {
        let mesh =
            MeshCollider::from_triangles(&[[Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)]]).unwrap();
        let pose = Pose {
            rotation: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            translation: Vec3::new(10.0, 0.0, 0.0),
        };
        let placed = PlacedCollider::moving(&mesh, pose, Vec3::ZERO, Vec3::ZERO);
        let b = placed.world_bounds();
        // x along the local y (0 … 1) mirrored, y along the local x (0 … 2).
        assert!((b.min - Vec3::new(9.0, 0.0, 0.0)).abs().max_element() < 1e-6, "{b:?}");
        assert!((b.max - Vec3::new(10.0, 2.0, 0.0)).abs().max_element() < 1e-6, "{b:?}");
        let both = PlacedCollider::world_bounds_of(&[placed, PlacedCollider::fixed(&mesh)]);
        assert_eq!((both.min.x, both.max.x), (0.0, 10.0));
        assert!(PlacedCollider::world_bounds_of(&[]).min.x.is_infinite());
    }

    #[test]
    fn flat_triangle_lists_share_their_corners() {
        let mut soup = crate::test_util::Soup::default();
        soup.cuboid(Vec3::ZERO, Vec3::ONE);
        let flat = soup.corners();
        let c = MeshCollider::from_triangles(&flat).unwrap();
        assert_eq!(c.len(), 12);
        assert_eq!(c.vertex_count(), 8, "a box has eight corners");
        for slot in 0..c.len() {
            assert_eq!(c.triangle(slot), flat[c.input_index(slot) as usize]);
        }
        // The same corners given through indices are merged as well.
        let indexed = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        assert_eq!(indexed.vertex_count(), 8);
    }

    #[test]
    fn memory_stays_under_48_bytes_per_triangle() {
        for (name, soup) in [
            ("generated", crate::test_util::generated_level(100_000)),
            ("dense", crate::test_util::dense_level(100_000)),
        ] {
            let c = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
            let per_triangle = c.memory_bytes() as f64 / c.len() as f64;
            assert!(per_triangle <= 48.0, "{name}: {per_triangle:.1} bytes per triangle");
        }
    }
}
