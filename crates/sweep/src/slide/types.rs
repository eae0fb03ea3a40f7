//! What a collide-and-slide call is told and tells back: its options and
//! what counts as ground, the contacts it meets, its result and the
//! caller's response to a contact.

use crate::filter::{CollisionLayers, StandardRules};
use crate::triangle::Feature;
use glam::Vec3;

/// Tunables of [`collide_and_slide`](super::collide_and_slide). Distances
/// are in eSpace units, i.e. fractions of the ellipsoid's radius along each
/// axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideOptions {
    /// Gap kept between the ellipsoid and any surface (Fauerby's
    /// `veryCloseDistance`), eSpace units. Raise it if float error lets the
    /// ellipsoid touch; lower it if the gap is visible. Far from the origin it
    /// is raised automatically to stay above f32 resolution.
    pub skin: f32,
    /// Most sweeps per call (each hit costs one). 4–6 handles creases and
    /// corners; motion still left after the last is dropped.
    pub max_iterations: u32,
    /// Most passes of the depenetration solver per call.
    pub depenetration_iterations: u32,
    /// When set, a contact with walkable ground ends the call: the rest of
    /// the motion is dropped instead of slid along the slope. Meant for the
    /// gravity pass, so a player standing on a walkable ramp stays put; leave
    /// it `None` for the move pass.
    pub stop_on_ground: Option<Ground>,
    /// The moving body's collision layers: colliders whose layers do not
    /// interact with them are not met ([`CollisionLayers::ALL`] by default).
    pub layers: CollisionLayers,
    /// How far below a one-way surface (metres along the collider's
    /// one-way direction) the body may start and still count as in front
    /// of it, so the surface stops it (and pushes it out on top). A
    /// walking character gives its step height: a low one-way platform is
    /// then stepped onto rather than walked into. 0 by default.
    pub one_way_step: f32,
}

impl Default for SlideOptions {
    fn default() -> Self {
        Self {
            skin: 1e-3,
            max_iterations: 5,
            depenetration_iterations: 8,
            stop_on_ground: None,
            layers: CollisionLayers::ALL,
            one_way_step: 0.0,
        }
    }
}

impl SlideOptions {
    /// The built-in contact rules these options ask for: the body's
    /// layers and its one-way step allowance.
    pub fn rules(&self) -> StandardRules {
        StandardRules {
            layers: self.layers,
            one_way_step: self.one_way_step,
        }
    }
}

/// What counts as walkable ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// World up (unit): the opposite of gravity.
    pub up: Vec3,
    /// Steepest walkable slope, radians from horizontal (e.g. 45°–50°).
    pub max_slope: f32,
}

impl Ground {
    /// Walkable ground for the given steepest slope (radians), y up.
    pub fn y_up(max_slope: f32) -> Self {
        Self { up: Vec3::Y, max_slope }
    }

    /// Whether a surface with world normal `normal` is walkable.
    #[inline]
    pub fn supports(&self, normal: Vec3) -> bool {
        normal.dot(self.up) >= libm::cosf(self.max_slope)
    }
}

/// The plane the motion slides on after a contact (world space): through the
/// contact point, normal from the surface towards the ellipsoid centre.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlidePlane {
    /// A point of the plane (the contact point), metres.
    pub origin: Vec3,
    /// Unit normal.
    pub normal: Vec3,
}

/// One contact met during a [`collide_and_slide`](super::collide_and_slide) call.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Contact point on the surface, metres.
    pub point: Vec3,
    /// Unit world normal from the surface towards the ellipsoid.
    pub normal: Vec3,
    /// The plane the remaining motion was projected on.
    pub plane: SlidePlane,
    /// Fraction of that iteration's motion at which the contact happened
    /// (0 for depenetration contacts).
    pub time: f32,
    /// Sweep iteration (0-based) that met the contact.
    pub iteration: u32,
    /// Index of the collider in the slice given to the call.
    pub collider: usize,
    /// Index of the triangle in that collider's input.
    pub triangle: u32,
    /// Which part of the triangle was touched.
    pub feature: Feature,
    /// Velocity of the collider's surface at the contact, m/s.
    pub surface_velocity: Vec3,
    /// The ellipsoid overlapped this triangle at the start and was pushed out.
    pub depenetration: bool,
}

/// The outcome of [`collide_and_slide`](super::collide_and_slide).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlideResult {
    /// Final centre, metres.
    pub position: Vec3,
    /// Push applied before moving to leave overlapping geometry, metres.
    pub depenetration: Vec3,
    /// Every contact, in the order met.
    pub contacts: Vec<Contact>,
    /// Sweeps performed.
    pub iterations: u32,
    /// Some of the motion could not be done: it went head-on into a surface,
    /// into a corner of three planes, or ran out of iterations.
    pub blocked: bool,
    /// The start overlapped geometry that depenetration could not clear (for
    /// example squeezed between a closing door and a wall).
    pub unresolved_overlap: bool,
}

impl SlideResult {
    /// Contacts with walkable ground (for a controller's "grounded" state).
    pub fn ground_contacts<'a>(&'a self, ground: &'a Ground) -> impl Iterator<Item = &'a Contact> {
        self.contacts.iter().filter(|c| ground.supports(c.normal))
    }
}

/// How the motion continues after a contact, decided by the caller of
/// [`collide_and_slide_with`](super::collide_and_slide_with).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ContactResponse {
    /// Slide along the contact's own plane (what
    /// [`collide_and_slide`](super::collide_and_slide) does).
    Slide,
    /// Slide as if the surface's normal were this unit world vector as well:
    /// the motion enters neither the contact's own plane nor this one. A
    /// character controller turns a too-steep slope into a wall this way
    /// (its normal with the "up" part removed), so walking into it does not
    /// climb it.
    SlideAlso(Vec3),
    /// Stop here: the rest of the motion is dropped.
    Stop,
}
