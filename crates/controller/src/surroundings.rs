//! `Surroundings`: what the controller collides with this tick (placed colliders)
//! and how grippy each surface is.

use crate::scratch::{Slid, spare_contacts};
use glam::Vec3;
use slidewalk_sweep::{
    CollisionLayers, Contact, ContactFilter, ContactResponse, Ellipsoid, PlacedCollider, SlideOptions, SlideResult,
    collide_and_slide_reusing, settle,
};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The colliders of this tick and their surfaces.
///
/// Each collider must be at its pose for the end of this tick, with
/// velocities equal to its motion over this tick (a door's or lift's), and
/// keep its index from tick to tick: the platform stood on is remembered by
/// index and carries the character by its velocity.
#[derive(Clone, Copy)]
pub struct Surroundings<'a> {
    /// The colliders: the static level, doors, lifts.
    pub colliders: &'a [PlacedCollider<'a>],
    /// Friction of a surface, 0 (ice) … 1 (normal grip), by collider index
    /// and triangle (the collider's input index).
    pub friction: &'a dyn Fn(usize, u32) -> f32,
    /// Whether a step-up (up by the step height, forward, down again) is
    /// tried where a collider held the walk back, by collider index (a
    /// crowd says no for the other agents: nobody steps onto them, and
    /// trying costs three more slides each time). All by default.
    pub step_up_onto: &'a dyn Fn(usize) -> bool,
    /// If given, the time spent in collide-and-slide is added to it (a
    /// profiler's readout; costs two clock reads per pass).
    pub sweep_time: Option<&'a Cell<Duration>>,
    /// The character's collision layers: colliders whose layers do not
    /// interact with them are walked through. All by default.
    pub layers: CollisionLayers,
    /// Whether a collider's steep faces can be climbed, by collider index
    /// (see [`crate::ControllerConfig::climb_speed`]). None by default.
    pub climbable: &'a dyn Fn(usize) -> bool,
    /// The velocity (world, m/s) a collider gives a character standing on
    /// it, by collider index: a launch pad. None by default.
    pub launch_pad: &'a dyn Fn(usize) -> Option<Vec3>,
    /// The velocity (world, m/s) of a collider's surface beyond its own
    /// motion, by collider index: a conveyor. A character standing on it
    /// is carried at that velocity along the surface (its part along the
    /// ground's normal is dropped). `None` (the default): no conveyors,
    /// nothing looked up.
    pub conveyor: Option<&'a dyn Fn(usize) -> Option<Vec3>>,
    /// Water: for a point (world, metres) and "up" (unit), how deep the
    /// point is below the water's surface (metres along "up", above 0),
    /// or `None` when the point is not in water. `None` (the default): no
    /// water anywhere, nothing looked up.
    pub water: Option<&'a dyn Fn(Vec3, Vec3) -> Option<f32>>,
}

fn full_grip(_: usize, _: u32) -> f32 {
    1.0
}

fn any_collider(_: usize) -> bool {
    true
}

fn no_collider(_: usize) -> bool {
    false
}

fn no_launch(_: usize) -> Option<Vec3> {
    None
}

impl<'a> Surroundings<'a> {
    /// Colliders whose surfaces all have friction 1.
    pub fn new(colliders: &'a [PlacedCollider<'a>]) -> Self {
        Self {
            colliders,
            friction: &full_grip,
            step_up_onto: &any_collider,
            sweep_time: None,
            layers: CollisionLayers::ALL,
            climbable: &no_collider,
            launch_pad: &no_launch,
            conveyor: None,
            water: None,
        }
    }

    /// The same colliders, moving what stands on one for which
    /// `conveyor` (by index) gives a surface velocity (world, m/s).
    pub fn with_conveyors(self, conveyor: &'a dyn Fn(usize) -> Option<Vec3>) -> Self {
        Self {
            conveyor: Some(conveyor),
            ..self
        }
    }

    /// The same colliders with water where `water` (a point, "up") gives
    /// the point's depth below the surface (metres).
    pub fn with_water(self, water: &'a dyn Fn(Vec3, Vec3) -> Option<f32>) -> Self {
        Self {
            water: Some(water),
            ..self
        }
    }

    /// The same colliders, climbable where `climbable` (by index) says so.
    pub fn with_climbable(self, climbable: &'a dyn Fn(usize) -> bool) -> Self {
        Self { climbable, ..self }
    }

    /// The same colliders, launching a character that stands on one for
    /// which `launch_pad` (by index) gives a velocity (world, m/s).
    pub fn with_launch_pads(self, launch_pad: &'a dyn Fn(usize) -> Option<Vec3>) -> Self {
        Self { launch_pad, ..self }
    }

    /// The same colliders, met by a character with `layers`.
    pub fn with_layers(self, layers: CollisionLayers) -> Self {
        Self { layers, ..self }
    }

    /// The same colliders with a friction per surface.
    pub fn with_friction(self, friction: &'a dyn Fn(usize, u32) -> f32) -> Self {
        Self { friction, ..self }
    }

    /// The same colliders, with a step-up tried only where one that
    /// `step_up_onto` accepts (by index) held the walk back.
    pub fn with_step_up_onto(self, step_up_onto: &'a dyn Fn(usize) -> bool) -> Self {
        Self { step_up_onto, ..self }
    }

    /// The same colliders, adding the time spent sweeping to `total`.
    pub fn with_sweep_timer(self, total: &'a Cell<Duration>) -> Self {
        Self {
            sweep_time: Some(total),
            ..self
        }
    }

    /// One collide-and-slide against these colliders, timed if a timer was
    /// given, into a contact list from the thread's spares.
    pub(crate) fn slide(
        &self,
        e: &Ellipsoid,
        start: Vec3,
        motion: Vec3,
        options: &SlideOptions,
        filter: impl ContactFilter,
        respond: impl FnMut(&Contact) -> ContactResponse,
    ) -> Slid {
        let contacts = spare_contacts();
        Slid(
            self.timed(|| {
                collide_and_slide_reusing(e, start, motion, self.colliders, options, filter, respond, contacts)
            }),
        )
    }

    /// [`settle`]: the answer of [`Surroundings::slide`] with every contact
    /// stopping when its contact comes within `reach` (eSpace units), found
    /// among the triangles near without a sweep, or `None` (timed as the
    /// slides are).
    pub(crate) fn settle(
        &self,
        e: &Ellipsoid,
        start: Vec3,
        motion: Vec3,
        options: &SlideOptions,
        filter: impl ContactFilter,
        reach: f32,
    ) -> Option<Slid> {
        let settled = self.timed(|| settle(e, start, motion, self.colliders, options, filter, reach))?;
        let mut contacts = spare_contacts();
        contacts.push(settled.contact);
        Some(Slid(SlideResult {
            position: settled.position,
            contacts,
            ..SlideResult::default()
        }))
    }

    /// `query`'s answer, its time added to the sweep timer if one was given.
    fn timed<T>(&self, query: impl FnOnce() -> T) -> T {
        let started = self.sweep_time.map(|_| Instant::now());
        let answer = query();
        if let (Some(total), Some(started)) = (self.sweep_time, started) {
            total.set(total.get() + started.elapsed());
        }
        answer
    }

    /// A conveyor's surface velocity along ground of `normal` (m/s; zero
    /// when the collider is not a conveyor).
    pub(crate) fn belt(&self, collider: usize, normal: Vec3) -> Vec3 {
        match self.conveyor.and_then(|conveyor| conveyor(collider)) {
            Some(v) if v.is_finite() => v - normal * v.dot(normal),
            _ => Vec3::ZERO,
        }
    }

    /// The depth of `point` below the water's surface along `up`, if it is in water.
    pub(crate) fn depth_in_water(&self, point: Vec3, up: Vec3) -> Option<f32> {
        (self.water?)(point, up).filter(|d| d.is_finite() && *d > 0.0)
    }

    /// Friction at a contact, clamped to 0..1 (non-finite counts as 1).
    pub fn friction_of(&self, collider: usize, triangle: u32) -> f32 {
        let f = (self.friction)(collider, triangle);
        if f.is_finite() { f.clamp(0.0, 1.0) } else { 1.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CharacterState, Controller, ControllerConfig, Intent};

    #[test]
    fn the_sweep_timer_adds_up_the_time_in_collide_and_slide() {
        let mut soup = slidewalk_sweep::test_util::Soup::default();
        crate::test_util::slab(&mut soup, 10.0, 0.0);
        let collider = slidewalk_sweep::MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let placed = [PlacedCollider::fixed(&collider)];
        let total = Cell::new(Duration::ZERO);
        let world = Surroundings::new(&placed).with_sweep_timer(&total);
        let controller = Controller::new(ControllerConfig::default()).unwrap();
        let mut state = CharacterState::standing_at(Vec3::ZERO, controller.config());
        let started = Instant::now();
        let intent = Intent {
            direction: Vec3::X,
            ..Intent::default()
        };
        let mut sweeps = 0;
        for _ in 0..100 {
            sweeps += controller.tick(&mut state, &intent, &world, 1.0 / 60.0).unwrap().sweeps;
        }
        assert!(sweeps > 100);
        assert!(total.get() > Duration::ZERO && total.get() <= started.elapsed());
    }

    /// A walker against a 0.3 m step: a step-up takes it up (the
    /// report says it stepped), unless the step's collider is not one to
    /// step up onto; then it never steps (it rides up the edge, which
    /// counts as ground within the step height).
    #[test]
    fn a_step_up_is_tried_only_onto_the_colliders_accepted() {
        let mut soup = slidewalk_sweep::test_util::Soup::default();
        crate::test_util::slab(&mut soup, 10.0, 0.0);
        let floor = slidewalk_sweep::MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let mut soup = slidewalk_sweep::test_util::Soup::default();
        soup.cuboid(Vec3::new(1.0, 0.0, -2.0), Vec3::new(9.5, 0.3, 2.0));
        let step = slidewalk_sweep::MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
        let placed = [PlacedCollider::fixed(&floor), PlacedCollider::fixed(&step)];
        let controller = Controller::new(ControllerConfig::default()).unwrap();
        let intent = Intent {
            direction: Vec3::X,
            ..Intent::default()
        };
        let not_the_step = |c: usize| c != 1;
        for (world, steps) in [
            (Surroundings::new(&placed), true),
            (Surroundings::new(&placed).with_step_up_onto(&not_the_step), false),
        ] {
            let mut state = CharacterState::standing_at(Vec3::ZERO, controller.config());
            let mut stepped = false;
            for _ in 0..60 {
                stepped |= controller
                    .tick(&mut state, &intent, &world, 1.0 / 60.0)
                    .unwrap()
                    .stepped;
            }
            assert_eq!(stepped, steps);
            let feet = state.feet();
            assert!(feet.x > 1.5 && (feet.y - 0.3).abs() < 0.01, "feet at {feet}");
        }
    }
}
