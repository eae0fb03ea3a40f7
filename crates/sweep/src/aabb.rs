//! Axis-aligned bounding boxes: the BVH's bounding volume and the sweep's broad-phase query.

use glam::Vec3;

/// An axis-aligned box, `min <= max` component-wise when not empty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Aabb {
    /// The empty box: the identity of [`Aabb::union`].
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::INFINITY,
        max: Vec3::NEG_INFINITY,
    };

    /// The box spanning two corners given in any order.
    #[inline]
    pub fn from_corners(a: Vec3, b: Vec3) -> Self {
        Self {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The box of a set of points.
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Self {
        points.into_iter().fold(Self::EMPTY, |b, p| b.grow(p))
    }

    /// This box grown to contain `p`.
    #[inline]
    pub fn grow(self, p: Vec3) -> Self {
        Self {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The smallest box containing both.
    #[inline]
    pub fn union(self, o: Aabb) -> Self {
        Self {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// This box grown by `margin` on every side.
    #[inline]
    pub fn expand(self, margin: Vec3) -> Self {
        Self {
            min: self.min - margin,
            max: self.max + margin,
        }
    }

    /// Whether the two boxes touch or overlap.
    #[inline]
    pub fn intersects(&self, o: &Aabb) -> bool {
        self.min.cmple(o.max).all() && o.min.cmple(self.max).all()
    }

    /// Centre point.
    #[inline]
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Edge lengths.
    #[inline]
    pub fn size(&self) -> Vec3 {
        self.max - self.min
    }

    /// Surface area (the SAH cost weight); 0 for an empty box.
    #[inline]
    pub fn surface_area(&self) -> f32 {
        let s = self.size();
        if s.min_element() < 0.0 {
            return 0.0;
        }
        2.0 * (s.x * s.y + s.y * s.z + s.z * s.x)
    }

    /// The eight corners.
    pub fn corners(&self) -> [Vec3; 8] {
        let (a, b) = (self.min, self.max);
        [
            Vec3::new(a.x, a.y, a.z),
            Vec3::new(b.x, a.y, a.z),
            Vec3::new(a.x, b.y, a.z),
            Vec3::new(b.x, b.y, a.z),
            Vec3::new(a.x, a.y, b.z),
            Vec3::new(b.x, a.y, b.z),
            Vec3::new(a.x, b.y, b.z),
            Vec3::new(b.x, b.y, b.z),
        ]
    }
}
