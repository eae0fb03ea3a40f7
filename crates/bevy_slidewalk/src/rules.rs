//! What meets what: [`SlidewalkLayers`] on colliders and characters,
//! [`OneWay`] on a collider (solid from one side), and [`SlidewalkSensor`] on a
//! collider (not solid: it reports the characters entering and leaving
//! it); and what a collider does to a character: [`Climbable`],
//! [`LaunchPad`], [`Conveyor`], [`Water`].

use bevy::prelude::*;
use glam::Vec3;
use slidewalk_sweep::CollisionLayers as CoreLayers;

/// Collision layers of a collider or a character, as a component: the
/// collision core's [`slidewalk_sweep::CollisionLayers`] (32 memberships
/// and a filter mask, Rapier's collision-groups rule: a character and a
/// collider meet when each one's memberships meet the other's filter).
/// Without the component an entity is [`SlidewalkLayers::ALL`]: a member
/// of every layer, meeting every layer.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_slidewalk::prelude::*;
/// const WORLD: u32 = 1 << 0;
/// const PLAYER: u32 = 1 << 1;
/// const CROWD: u32 = 1 << 2;
/// fn spawn(mut commands: Commands) {
///     // A barrier only the crowd meets: the player walks through it.
///     commands.spawn((SlidewalkCollider::triangles(vec![], vec![]), SlidewalkLayers::new(WORLD, CROWD)));
///     // A villager: a member of the crowd, meeting everything.
///     commands.spawn((CharacterController::default(), SlidewalkLayers::new(CROWD, u32::MAX)));
/// }
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deref, DerefMut)]
#[reflect(Component, Default, Debug, Clone)]
pub struct SlidewalkLayers(pub CoreLayers);

impl SlidewalkLayers {
    /// Member of every layer, meeting every layer (what no component means).
    pub const ALL: Self = Self(CoreLayers::ALL);
    /// Member of none, meeting none: meets nothing.
    pub const NONE: Self = Self(CoreLayers::NONE);

    /// Layers from a membership mask and a filter mask.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self(CoreLayers::new(memberships, filters))
    }

    /// Whether `self` and `other` meet.
    pub const fn interacts_with(self, other: Self) -> bool {
        self.0.interacts_with(other.0)
    }

    /// The same layers as the collision core takes them.
    pub const fn core(self) -> CoreLayers {
        self.0
    }
}

impl From<CoreLayers> for SlidewalkLayers {
    fn from(layers: CoreLayers) -> Self {
        Self(layers)
    }
}

/// Makes a collider one-way: solid only from the side `direction` points
/// to (in the entity's local frame, +Y by default), and only for a body
/// that starts a move wholly on that side. A platform modelled as a box
/// is then stood on from above and passed through from below, from inside
/// and from its sides; a character jumping up through it lands on top,
/// and one standing on it drops through it with
/// [`MovementIntent::drop`](crate::MovementIntent::drop) (or jump while
/// crouching). Only the collider's triangles whose winding (counter-clockwise
/// seen from the front) faces less than 90° from `direction` stop anything,
/// so its bottom and sides never do.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct OneWay {
    /// The solid side, a direction in the entity's local frame (need not
    /// be unit; zero makes the collider solid from every side).
    pub direction: Vec3,
}

impl Default for OneWay {
    /// One-way along the entity's local +Y.
    fn default() -> Self {
        Self { direction: Vec3::Y }
    }
}

/// Makes a collider a sensor: not solid (nothing collides with it), and
/// every tick the plugin writes [`EnteredSensor`](crate::EnteredSensor) and
/// [`LeftSensor`](crate::LeftSensor) for the characters that came to
/// overlap it and stopped overlapping it (its [`SlidewalkLayers`] against
/// theirs decide which characters count). Its triangles should close a
/// volume (a box, any watertight mesh): a character wholly inside counts.
/// [`CollisionWorld::overlapping_sensors`](crate::CollisionWorld::overlapping_sensors)
/// asks the same for any ellipsoid.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct SlidewalkSensor;

/// Makes a collider climbable: a character with a
/// [`climb_speed`](slidewalk_controller::ControllerConfig::climb_speed)
/// moving into one of its faces steeper than the walkable slope climbs it
/// (forward up, back down, sideways along it), steps onto its top, lets go
/// with jump. A climbable collider keeps a structure of its own (it is
/// never merged with other resting ones).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct Climbable;

/// Makes a collider a launch pad: a character standing on it is given
/// `velocity` (world, m/s) at the start of the next tick, off the ground
/// for as long as it carries the character up. It keeps a structure of its
/// own (never merged). For a push from anything else, a knockback, an
/// explosion, use [`MovementIntent::impulse`](crate::MovementIntent::impulse).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct LaunchPad {
    /// The velocity given, world frame, m/s.
    pub velocity: Vec3,
}

/// Makes a collider a conveyor: its surface moves at this velocity (m/s,
/// in the entity's local frame: it turns with the entity) while the
/// collider stays where it is, and a character standing on it is carried
/// at that velocity along the surface (its part along the ground's normal
/// is dropped), as on a moving platform. It keeps a structure of its own
/// (never merged).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_slidewalk::prelude::*;
/// fn spawn(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
///     // A belt 10 m long along x, moving things along +x at 2 m/s.
///     commands.spawn((
///         Mesh3d(meshes.add(Cuboid::new(10.0, 0.2, 2.0))),
///         SlidewalkCollider::mesh(),
///         Conveyor(Vec3::new(2.0, 0.0, 0.0)),
///     ));
/// }
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, Clone)]
pub struct Conveyor(pub Vec3);

/// Makes a sensor a volume of water (adding it adds [`SlidewalkSensor`]:
/// water is never solid). The water fills the collider's bounding box in
/// the entity's local frame (its scale applied), placed by the entity's
/// rotation and translation; the box's top is the surface. A point's
/// depth is how far it is below the surface along the character's "up":
/// from the point along "up" to where that ray leaves the water (through
/// touching or stacked water boxes, to the last one's side or top).
/// What wading, swimming and diving do is the character controller's
/// ([`ControllerConfig::swim_speed`](slidewalk_controller::ControllerConfig::swim_speed));
/// the characters whose [`SlidewalkLayers`] do not meet the water's are
/// dry in it. [`CollisionWorld::water_depth`](crate::CollisionWorld::water_depth)
/// asks for any point.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, Clone)]
#[require(SlidewalkSensor)]
pub struct Water;

/// The rule components of a collider entity, as the world's sync reads them.
pub(crate) type RuleComponents<'a> = (
    Option<&'a OneWay>,
    Option<&'a SlidewalkSensor>,
    Option<&'a Climbable>,
    Option<&'a LaunchPad>,
    Option<&'a Conveyor>,
    Option<&'a Water>,
);

/// A collider's rules as the world keeps them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ColliderRules {
    pub layers: CoreLayers,
    /// In the entity's local frame.
    pub one_way: Option<Vec3>,
    pub sensor: bool,
    pub climbable: bool,
    /// World velocity, m/s.
    pub launch: Option<Vec3>,
    /// Surface velocity in the entity's local frame, m/s.
    pub conveyor: Option<Vec3>,
    /// A sensor that is water.
    pub water: bool,
}

impl Default for ColliderRules {
    fn default() -> Self {
        Self {
            layers: CoreLayers::ALL,
            one_way: None,
            sensor: false,
            climbable: false,
            launch: None,
            conveyor: None,
            water: false,
        }
    }
}

impl ColliderRules {
    /// The rules an entity's components give.
    pub fn of(
        layers: Option<&SlidewalkLayers>,
        (one_way, sensor, climbable, launch, conveyor, water): RuleComponents,
    ) -> Self {
        Self {
            layers: layers.copied().unwrap_or_default().core(),
            one_way: one_way.and_then(|o| o.direction.try_normalize()),
            sensor: sensor.is_some(),
            climbable: climbable.is_some(),
            launch: launch.map(|l| l.velocity).filter(|v| v.is_finite() && *v != Vec3::ZERO),
            conveyor: conveyor.map(|c| c.0).filter(|v| v.is_finite() && *v != Vec3::ZERO),
            // Only a sensor is water (one whose sensor was taken away is solid).
            water: water.is_some() && sensor.is_some(),
        }
    }

    /// Whether it keeps a structure of its own rather than merging with
    /// other resting colliders: a sensor, a climbable face, a launch pad,
    /// a conveyor (the characters ask for these by collider index).
    pub fn stands_alone(&self) -> bool {
        self.sensor || self.climbable || self.launch.is_some() || self.conveyor.is_some()
    }
}
