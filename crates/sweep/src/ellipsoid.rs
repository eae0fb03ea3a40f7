//! The moving body: an axis-aligned ellipsoid and the change of basis to eSpace.

use glam::Vec3;
use std::fmt;

/// An axis-aligned ellipsoid given by its three radii, in metres.
///
/// Dividing every point and vector by the radii (component-wise) maps the
/// ellipsoid to a unit sphere: that space is called *eSpace* (Fauerby 2003,
/// §3). All sweeps run there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipsoid {
    radii: Vec3,
}

/// Why an [`Ellipsoid`] could not be made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EllipsoidError {
    /// A radius was NaN or infinite.
    NonFinite(Vec3),
    /// A radius was zero or negative.
    NotPositive(Vec3),
    /// A radius was below [`Ellipsoid::MIN_RADIUS`] or above
    /// [`Ellipsoid::MAX_RADIUS`]: eSpace coordinates (metres divided by
    /// radii) and their squares would leave f32's range.
    OutOfRange(Vec3),
}

impl fmt::Display for EllipsoidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite(r) => write!(f, "ellipsoid radii must be finite numbers, got {r}"),
            Self::NotPositive(r) => write!(f, "ellipsoid radii must be greater than zero, got {r}"),
            Self::OutOfRange(r) => write!(
                f,
                "ellipsoid radii must be between {} m and {} m, got {r}",
                Ellipsoid::MIN_RADIUS,
                Ellipsoid::MAX_RADIUS
            ),
        }
    }
}

impl std::error::Error for EllipsoidError {}

impl Ellipsoid {
    /// Smallest radius accepted, metres (a micrometre).
    pub const MIN_RADIUS: f32 = 1e-6;
    /// Largest radius accepted, metres (a thousand kilometres).
    pub const MAX_RADIUS: f32 = 1e6;

    /// An ellipsoid with the given radii (metres). Every radius must be finite
    /// and between [`Self::MIN_RADIUS`] and [`Self::MAX_RADIUS`] (outside
    /// them eSpace overflows f32: a subnormal radius once made a hit point
    /// infinite).
    pub fn new(radii: Vec3) -> Result<Self, EllipsoidError> {
        if !radii.is_finite() {
            return Err(EllipsoidError::NonFinite(radii));
        }
        if radii.min_element() <= 0.0 {
            return Err(EllipsoidError::NotPositive(radii));
        }
        if radii.min_element() < Self::MIN_RADIUS || radii.max_element() > Self::MAX_RADIUS {
            return Err(EllipsoidError::OutOfRange(radii));
        }
        Ok(Self { radii })
    }

    /// A sphere of the given radius (metres).
    pub fn sphere(radius: f32) -> Result<Self, EllipsoidError> {
        Self::new(Vec3::splat(radius))
    }

    /// The three radii (metres) along x, y and z.
    pub fn radii(&self) -> Vec3 {
        self.radii
    }

    /// A world-space point or vector expressed in eSpace.
    #[inline]
    pub fn to_espace(&self, v: Vec3) -> Vec3 {
        v / self.radii
    }

    /// An eSpace point or vector expressed in world space (metres).
    #[inline]
    pub fn from_espace(&self, v: Vec3) -> Vec3 {
        v * self.radii
    }

    /// An eSpace normal expressed in world space (inverse transpose of the
    /// eSpace map), normalised. (Within the radii's range its squared
    /// length stays far from f32's limits.)
    #[inline]
    pub fn normal_from_espace(&self, n: Vec3) -> Vec3 {
        (n / self.radii).normalize_or_zero()
    }

    /// A world-space normal expressed in eSpace, normalised.
    #[inline]
    pub fn normal_to_espace(&self, n: Vec3) -> Vec3 {
        (n * self.radii).normalize_or_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_radii() {
        assert!(matches!(
            Ellipsoid::new(Vec3::new(1.0, f32::NAN, 1.0)),
            Err(EllipsoidError::NonFinite(_))
        ));
        assert!(matches!(
            Ellipsoid::new(Vec3::new(1.0, f32::INFINITY, 1.0)),
            Err(EllipsoidError::NonFinite(_))
        ));
        assert!(matches!(
            Ellipsoid::new(Vec3::new(1.0, 0.0, 1.0)),
            Err(EllipsoidError::NotPositive(_))
        ));
        assert!(matches!(
            Ellipsoid::new(Vec3::new(-1.0, 1.0, 1.0)),
            Err(EllipsoidError::NotPositive(_))
        ));
        assert!(Ellipsoid::new(Vec3::new(0.4, 0.9, 0.4)).is_ok());
        // Found by the fuzzer (crates/fuzz): a subnormal radius made eSpace
        // overflow, a hit point infinite and a normal zero.
        for r in [
            Vec3::new(3.7e-39, 1.6, 1e-7),
            Vec3::splat(9.4e-39),
            Vec3::new(0.25, 1.2, f32::MAX),
        ] {
            let e = Ellipsoid::new(r).unwrap_err();
            assert!(matches!(e, EllipsoidError::OutOfRange(_)), "{r}");
            assert!(e.to_string().contains("between 0.000001 m and 1000000 m"), "{e}");
        }
        assert!(Ellipsoid::new(Vec3::new(1e-6, 1e6, 1.0)).is_ok());
        let msg = Ellipsoid::new(Vec3::ZERO).unwrap_err().to_string();
        assert!(msg.contains("greater than zero"), "{msg}");
    }

    #[test]
    fn espace_round_trip_and_normals() {
        let e = Ellipsoid::new(Vec3::new(0.5, 2.0, 0.25)).unwrap();
        let p = Vec3::new(1.0, -3.0, 7.0);
        assert!((e.from_espace(e.to_espace(p)) - p).length() < 1e-6);
        // The surface point on the +y axis has world normal +y.
        assert!((e.normal_from_espace(Vec3::Y) - Vec3::Y).length() < 1e-6);
        // A 45° world plane stays a plane in eSpace; its normals map back.
        let n = Vec3::new(1.0, 1.0, 0.0).normalize();
        assert!((e.normal_from_espace(e.normal_to_espace(n)) - n).length() < 1e-6);
        // The extreme radii still give unit normals.
        let e = Ellipsoid::new(Vec3::new(1e-6, 1e6, 1e-6)).unwrap();
        for n in [Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 1.0).normalize()] {
            assert!((e.normal_from_espace(n).length() - 1.0).abs() < 1e-6, "{n}");
            assert!((e.normal_to_espace(n).length() - 1.0).abs() < 1e-6, "{n}");
        }
    }
}
