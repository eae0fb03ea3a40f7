//! Which colliders and triangles a body meets: collision layers (Rapier's
//! collision-groups rule), one-way colliders, and the contact filter hook
//! through which both are applied and a game adds its own rules. Every
//! query honours them: the sweep, collide-and-slide, depenetration and
//! the penetration check.

use crate::collider::PlacedCollider;
use glam::Vec3;

/// Collision layers: 32 memberships and a 32-bit filter mask.
///
/// Two things interact when each one's memberships meet the other's
/// filter (Rapier's collision-groups rule):
/// `a.memberships & b.filters != 0 && b.memberships & a.filters != 0`.
/// [`CollisionLayers::ALL`] (the default) is a member of every layer and
/// meets every layer: it interacts with anything that is a member of at
/// least one layer and filters at least one.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionLayers {
    /// The layers this is a member of (bit `k` = layer `k`).
    pub memberships: u32,
    /// The layers this meets (bit `k` = layer `k`).
    pub filters: u32,
}

impl CollisionLayers {
    /// Member of every layer, meets every layer (the default).
    pub const ALL: Self = Self::new(u32::MAX, u32::MAX);
    /// Member of none, meets none: interacts with nothing.
    pub const NONE: Self = Self::new(0, 0);

    /// Layers from a membership mask and a filter mask.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self { memberships, filters }
    }

    /// Whether `self` and `other` interact (each one's memberships meet
    /// the other's filter).
    #[inline]
    pub const fn interacts_with(self, other: Self) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

/// How far (eSpace units, a fraction of the radius) a body may already
/// overlap a one-way surface and still count as on its front side: a body
/// resting on a one-way platform sunk by rounding, or lifted by a one-way
/// lift that rose into it this tick, is still held; one whose lowest point
/// is deeper than this below the surface is passing through it.
pub const ONE_WAY_SLACK: f32 = 0.1;

/// The least cosine between a one-way collider's direction and a
/// triangle's normal for the triangle to count as facing it (about
/// 0.006° off a right angle): faces at right angles to the direction, a
/// one-way box's sides, never stop a body, whatever rounding makes of
/// them at the collider's pose.
pub const ONE_WAY_MIN_FACING: f32 = 1e-4;

/// A triangle a query may touch, offered to a [`ContactFilter`]: which
/// collider and triangle it is, and where the body starts.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'q, 'a> {
    collider: usize,
    placed: &'q PlacedCollider<'a>,
    slot: usize,
    triangle: u32,
    espace: [Vec3; 3],
    start: Vec3,
    move_start: Vec3,
    radii: Vec3,
}

impl<'q, 'a> Candidate<'q, 'a> {
    /// A candidate as a query offers it: the triangle in BVH slot `slot`
    /// of collider `collider` (`placed`), `espace` the triangle in eSpace
    /// relative to the body's centre `start` (metres), with `radii` the
    /// body's radii (brute-force references in tests build their own).
    #[inline]
    pub fn new(
        collider: usize,
        placed: &'q PlacedCollider<'a>,
        slot: usize,
        espace: [Vec3; 3],
        start: Vec3,
        radii: Vec3,
    ) -> Self {
        Self {
            collider,
            placed,
            slot,
            triangle: placed.mesh.input_index(slot),
            espace,
            start,
            move_start: start,
            radii,
        }
    }

    /// The same candidate in a query that is part of a longer move which
    /// started with the body centred at `move_start` (metres): the one-way
    /// rule judges from there (a collide-and-slide call's sweeps and
    /// depenetration judge from the call's start).
    #[inline]
    pub fn in_move_from(self, move_start: Vec3) -> Self {
        Self { move_start, ..self }
    }

    /// Index of the collider in the slice given to the query.
    pub fn collider(&self) -> usize {
        self.collider
    }

    /// The collider, at its pose, with its layers and one-way direction.
    pub fn placed(&self) -> &'q PlacedCollider<'a> {
        self.placed
    }

    /// Index of the triangle in the collider's input (as in
    /// [`crate::SweepHit::triangle`]).
    pub fn triangle(&self) -> u32 {
        self.triangle
    }

    /// The triangle's BVH slot in the collider (for
    /// [`crate::MeshCollider::triangle`]).
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// The body's centre at the start of the query, metres.
    pub fn start(&self) -> Vec3 {
        self.start
    }

    /// The body's centre at the start of the move the query is part of
    /// (the query's own start unless [`Candidate::in_move_from`] said
    /// otherwise), metres.
    pub fn move_start(&self) -> Vec3 {
        self.move_start
    }

    /// The triangle's corners in world space, metres.
    pub fn corners(&self) -> [Vec3; 3] {
        self.espace.map(|p| self.start + p * self.radii)
    }

    /// The triangle's unit normal in world space by its winding
    /// (counter-clockwise seen from the front), zero for a triangle that
    /// rounding made degenerate.
    pub fn winding_normal(&self) -> Vec3 {
        let [a, b, c] = self.espace;
        // eSpace normals return to world space divided by the radii.
        ((b - a).cross(c - a) / self.radii).normalize_or_zero()
    }

    /// Whether the triangle may stop a body moving through a collider
    /// that is one-way along the world direction `up`: its winding normal
    /// points less than 90° from `up` (by more than
    /// [`ONE_WAY_MIN_FACING`]), and the body started the move
    /// ([`Candidate::move_start`]) wholly on its front side (up to
    /// [`ONE_WAY_SLACK`]), or would be if raised by `step` metres along
    /// `up` ([`crate::SlideOptions::one_way_step`]).
    ///
    /// It is judged from the collider's own triangle at its pose and the
    /// move's start alone, so every query of one move (each sweep of a
    /// collide-and-slide, its depenetration) judges a triangle alike, to
    /// the last bit.
    #[inline]
    pub fn one_way_holds(&self, up: Vec3, step: f32) -> bool {
        let [a, b, c] = self.placed.mesh.triangle(self.slot);
        let pose = self.placed.pose;
        let n = pose.rotation * (b - a).cross(c - a);
        let facing = n.dot(up);
        // At right angles to `up` (a box's sides) rounding alone would
        // decide, turn by turn: such a face never holds.
        if facing <= 0.0
            || facing * facing <= ONE_WAY_MIN_FACING * ONE_WAY_MIN_FACING * n.length_squared() * up.length_squared()
        {
            return false;
        }
        // The centre where the move started (raised by the step) at least
        // 1 − slack in front of the plane in eSpace (where its normal is
        // n ∘ radii): the unit sphere is (nearly) wholly in front.
        let from = self.move_start + up * step;
        (from - pose.transform_point(a)).dot(n) >= (1.0 - ONE_WAY_SLACK) * (n * self.radii).length()
    }
}

/// Vetoes contacts by the game's own rule, asked by every query: first
/// about each collider, then about each triangle the query may touch
/// (only those near the motion, after the cheap rejects). A vetoed
/// triangle is as if it were not there: it is not hit, not pushed out of
/// and not counted as overlapping.
///
/// The built-in rules (layers and one-way colliders, [`StandardRules`])
/// are a filter like this one, applied before the game's.
pub trait ContactFilter {
    /// Whether the body may meet collider `index` at all.
    #[inline]
    fn keeps_collider(&mut self, index: usize, collider: &PlacedCollider<'_>) -> bool {
        let _ = (index, collider);
        true
    }

    /// Whether the body may meet this triangle.
    #[inline]
    fn keeps_triangle(&mut self, candidate: &Candidate<'_, '_>) -> bool {
        let _ = candidate;
        true
    }
}

/// No filter: every contact is kept.
impl ContactFilter for () {}

/// Two filters: a contact is kept when both keep it (the first asked first).
impl<A: ContactFilter, B: ContactFilter> ContactFilter for (A, B) {
    #[inline]
    fn keeps_collider(&mut self, index: usize, collider: &PlacedCollider<'_>) -> bool {
        self.0.keeps_collider(index, collider) && self.1.keeps_collider(index, collider)
    }

    #[inline]
    fn keeps_triangle(&mut self, candidate: &Candidate<'_, '_>) -> bool {
        self.0.keeps_triangle(candidate) && self.1.keeps_triangle(candidate)
    }
}

impl<F: ContactFilter + ?Sized> ContactFilter for &mut F {
    #[inline]
    fn keeps_collider(&mut self, index: usize, collider: &PlacedCollider<'_>) -> bool {
        (**self).keeps_collider(index, collider)
    }

    #[inline]
    fn keeps_triangle(&mut self, candidate: &Candidate<'_, '_>) -> bool {
        (**self).keeps_triangle(candidate)
    }
}

/// A filter from a closure over triangles: `KeepTriangles(|c| ...)`.
#[derive(Clone, Copy, Debug)]
pub struct KeepTriangles<F>(pub F);

impl<F: FnMut(&Candidate<'_, '_>) -> bool> ContactFilter for KeepTriangles<F> {
    #[inline]
    fn keeps_triangle(&mut self, candidate: &Candidate<'_, '_>) -> bool {
        (self.0)(candidate)
    }
}

/// The built-in rules every query applies for a body with `layers`: a
/// collider whose [`PlacedCollider::layers`] do not interact with the
/// body's is skipped whole, and a one-way collider's triangles count only
/// where [`Candidate::one_way_holds`] along its direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StandardRules {
    /// The body's layers.
    pub layers: CollisionLayers,
    /// How far below a one-way surface (metres along its direction) the
    /// body may start and still count as in front of it
    /// ([`crate::SlideOptions::one_way_step`]).
    pub one_way_step: f32,
}

impl StandardRules {
    /// The rules for a body with `layers`, no step allowance.
    pub const fn for_layers(layers: CollisionLayers) -> Self {
        Self {
            layers,
            one_way_step: 0.0,
        }
    }
}

impl ContactFilter for StandardRules {
    #[inline]
    fn keeps_collider(&mut self, _index: usize, collider: &PlacedCollider<'_>) -> bool {
        self.layers.interacts_with(collider.layers)
    }

    #[inline]
    fn keeps_triangle(&mut self, candidate: &Candidate<'_, '_>) -> bool {
        match candidate.placed.one_way {
            None => true,
            Some(local) => candidate.one_way_holds(candidate.placed.pose.rotation * local, self.one_way_step),
        }
    }
}
