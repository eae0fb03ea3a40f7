//! What holds the character up: which contacts are ground and which are
//! walls, the rule that turns collide-and-slide into walking.
//!
//! * A contact whose normal is within the walkable slope of "up" is ground.
//! * An edge or corner of walkable ground (a stair nose, a ledge's rim, a
//!   ramp's crest) is ground while the feet hang at most the step height
//!   below it, even though the round bottom touches it at a steep angle:
//!   the round bottom must not act as a slope (no creeping off ledges), and
//!   risers up to the step height are stood on and climbed the same way at
//!   any tick rate. Its ground normal is the walkable face's.
//! * Anything else facing up (a slope steeper than walkable, a riser taller
//!   than the step height) is a wall while walking: its normal with the "up"
//!   part removed is slid along as well, so walking into it never climbs it.

use crate::frame::horizontal;
use crate::state::GroundContact;
use crate::world::World;
use glam::Vec3;
use sweep::{Aabb, Contact, ContactResponse, Feature, closest_point_on_triangle};

/// The support rules for one ellipsoid shape in one frame.
pub(crate) struct Support<'w> {
    pub up: Vec3,
    pub cos_walkable: f32,
    pub step_height: f32,
    /// World radii of the ellipsoid, metres.
    pub radii: Vec3,
    /// Centre-to-feet distance along `up`, metres.
    pub extent: f32,
    pub world: &'w World<'w>,
}

impl Support<'_> {
    /// The ground a contact offers, if it holds the character up.
    pub fn ground_of(&self, c: &Contact) -> Option<GroundContact> {
        let up_dot = c.normal.dot(self.up);
        let ground = |normal: Vec3, on_edge: bool| GroundContact {
            point: c.point,
            normal,
            contact_normal: c.normal,
            collider: c.collider,
            triangle: c.triangle,
            friction: self.world.friction_of(c.collider, c.triangle),
            velocity: c.surface_velocity,
            on_edge,
        };
        if up_dot >= self.cos_walkable {
            let normal = match c.feature {
                Feature::Face => c.normal,
                _ => self.walkable_face_at(c).unwrap_or(c.normal),
            };
            return Some(ground(normal, false));
        }
        if c.feature == Feature::Face || up_dot <= 0.0 {
            return None;
        }
        // The contact point is the ellipsoid's surface point with eSpace
        // normal -n_e: its height above the feet along up.
        let n_e = (c.normal * self.radii).normalize_or_zero();
        let height = self.extent - (self.radii * n_e).dot(self.up);
        if height > self.step_height + 1e-4 {
            return None;
        }
        self.walkable_face_at(c).map(|face| ground(face, true))
    }

    /// How a walking move continues after a contact: along ground and
    /// ceilings as usual, along walls and too-steep slopes as if they were
    /// vertical.
    pub fn walk_response(&self, c: &Contact) -> ContactResponse {
        if c.normal.dot(self.up) < 0.0 || self.ground_of(c).is_some() {
            ContactResponse::Slide
        } else {
            ContactResponse::SlideAlso(horizontal(c.normal, self.up).normalize_or(c.normal))
        }
    }

    /// The most level walkable face (normal turned towards the character)
    /// that passes through the contact point, in the contact's collider.
    fn walkable_face_at(&self, c: &Contact) -> Option<Vec3> {
        let collider = self.world.colliders.get(c.collider)?;
        let eps = 2e-3 * self.radii.min_element();
        let query = Aabb::from_corners(c.point - Vec3::splat(eps), c.point + Vec3::splat(eps));
        let mut best: Option<Vec3> = None;
        collider.query_world(&query, |_, [a, b, t]| {
            let n = (b - a).cross(t - a).normalize_or_zero();
            let n = if n.dot(c.normal) < 0.0 { -n } else { n };
            if n.dot(self.up) < self.cos_walkable || best.is_some_and(|m| m.dot(self.up) >= n.dot(self.up)) {
                return;
            }
            if (closest_point_on_triangle(c.point, a, b, t) - c.point).length_squared() <= eps * eps {
                best = Some(n);
            }
        });
        best
    }
}
