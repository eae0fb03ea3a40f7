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
//! * Two such contacts together can hold the character up: wedged in a V
//!   of two steep slopes, or between a steep slope and a wall, it cannot
//!   slide anywhere but along their crease. When that crease is walkable
//!   it stands there, on a floor through the crease (so it can jump out
//!   rather than being stuck in the air at the bottom of a trough).

use crate::frame::horizontal;
use crate::state::GroundContact;
use crate::surroundings::Surroundings;
use glam::Vec3;
use slidewalk_sweep::{Aabb, Contact, ContactResponse, Feature, closest_point_on_triangle};

/// The support rules for one ellipsoid shape in one frame.
pub(crate) struct Support<'w> {
    pub up: Vec3,
    pub cos_walkable: f32,
    pub step_height: f32,
    /// World radii of the ellipsoid, metres.
    pub radii: Vec3,
    /// Centre-to-feet distance along `up`, metres.
    pub extent: f32,
    pub world: &'w Surroundings<'w>,
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
            velocity: c.surface_velocity + self.world.belt(c.collider, normal),
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

    /// Ground made by contacts together, when none holds the character up
    /// alone: two faces it still touches at `centre` whose crease is
    /// walkable and which together hold it up (the floor through the
    /// crease, across it, lies between their normals), as in a V-shaped
    /// trough of slopes too steep to stand on; else three whose normals mix
    /// positively to "up". The ground's normal is that floor's (for three,
    /// "up"); its point, the middle of the contacts; its friction and
    /// velocity, the lowest of theirs and the first contact's.
    pub fn wedge_of<'c>(&self, contacts: impl IntoIterator<Item = &'c Contact>, centre: Vec3) -> Option<GroundContact> {
        let touching: Vec<&Contact> = contacts
            .into_iter()
            .filter(|c| !c.depenetration && self.touches(c, centre))
            .collect();
        for (i, a) in touching.iter().enumerate() {
            for b in &touching[i + 1..] {
                let crease = a.normal.cross(b.normal);
                if crease.length_squared() < 1e-4 {
                    continue; // (nearly) parallel faces make no crease
                }
                let along = crease.normalize();
                let floor = (self.up - along * self.up.dot(along)).normalize_or_zero();
                if floor.dot(self.up) < self.cos_walkable {
                    continue;
                }
                // floor = s·a + t·b (all three are across the crease): held
                // up when both shares are positive.
                let det = crease.dot(along);
                let s = floor.cross(b.normal).dot(along) / det;
                let t = a.normal.cross(floor).dot(along) / det;
                if s <= 0.0 || t <= 0.0 {
                    continue;
                }
                let friction = self
                    .world
                    .friction_of(a.collider, a.triangle)
                    .min(self.world.friction_of(b.collider, b.triangle));
                return Some(GroundContact {
                    point: (a.point + b.point) * 0.5,
                    normal: floor,
                    contact_normal: floor,
                    collider: a.collider,
                    triangle: a.triangle,
                    friction,
                    velocity: a.surface_velocity,
                    on_edge: false,
                });
            }
        }
        // Three faces around it (jammed in a slot narrower than its body,
        // resting on an edge): held up when "up" is a positive mix of their
        // normals, so gravity cannot move it any way; it stands level.
        for (i, a) in touching.iter().enumerate() {
            for (j, b) in touching.iter().enumerate().skip(i + 1) {
                for c in &touching[j + 1..] {
                    let det = a.normal.dot(b.normal.cross(c.normal));
                    if det.abs() < 1e-3 {
                        continue;
                    }
                    // Cramer's rule for up = x·a + y·b + z·c.
                    let x = self.up.dot(b.normal.cross(c.normal)) / det;
                    let y = a.normal.dot(self.up.cross(c.normal)) / det;
                    let z = a.normal.dot(b.normal.cross(self.up)) / det;
                    if x <= 0.0 || y <= 0.0 || z <= 0.0 {
                        continue;
                    }
                    let friction = [a, b, c]
                        .iter()
                        .map(|k| self.world.friction_of(k.collider, k.triangle))
                        .fold(1.0, f32::min);
                    return Some(GroundContact {
                        point: (a.point + b.point + c.point) / 3.0,
                        normal: self.up,
                        contact_normal: self.up,
                        collider: a.collider,
                        triangle: a.triangle,
                        friction,
                        velocity: a.surface_velocity,
                        on_edge: false,
                    });
                }
            }
        }
        None
    }

    /// Whether the ellipsoid centred at `centre` still touches a contact's
    /// plane (within 1% of its radius there).
    fn touches(&self, c: &Contact, centre: Vec3) -> bool {
        let n_e = (c.normal * self.radii).normalize_or_zero();
        ((centre - c.point) / self.radii).dot(n_e) <= 1.01
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
