//! Movement events, written as Bevy messages by the tick that caused them,
//! the same for every character: read them with a `MessageReader` in any
//! system after [`SlidewalkSystems::Step`](crate::SlidewalkSystems::Step)
//! (or in `Update`) to play footsteps, kick up dust or shake the camera.

use crate::collider::Surface;
use bevy::prelude::*;
use glam::Vec3;
use slidewalk_controller::ReconfigureError;

/// Distance walked on the ground between two [`Footstep`]s, metres (0.8
/// by default; a component every character has, change it per
/// character).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct FootstepStride(pub f32);

impl Default for FootstepStride {
    fn default() -> Self {
        Self(0.8)
    }
}

/// A jump started this tick (from the ground, in coyote time or in the
/// air; a wall jump is [`WallJumped`]).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Jumped {
    /// The character.
    pub character: Entity,
    /// Take-off speed along "up", m/s (√(2·g·jump height)).
    pub speed: f32,
    /// An air jump ([`ControllerConfig::air_jumps`](slidewalk_controller::ControllerConfig::air_jumps)).
    pub in_air: bool,
}

/// A dash started this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Dashed {
    /// The character.
    pub character: Entity,
    /// Its direction, unit, across "up".
    pub direction: Vec3,
    /// Started in the air.
    pub in_air: bool,
}

/// The character started sliding down a wall (falling while pushing into
/// it, the fall capped at the config's `wall_slide_speed`).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct WallSlideStarted {
    /// The character.
    pub character: Entity,
    /// The wall's normal across "up", unit, towards the character.
    pub normal: Vec3,
}

/// A wall jump started this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct WallJumped {
    /// The character.
    pub character: Entity,
    /// The normal of the wall jumped off, across "up", unit.
    pub normal: Vec3,
}

/// A mantle started this tick: the character is pulled up onto a ledge.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Mantled {
    /// The character.
    pub character: Entity,
    /// The ledge's height above the feet, metres.
    pub height: f32,
}

/// A climb on a [`Climbable`](crate::Climbable) face started this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct ClimbStarted {
    /// The character.
    pub character: Entity,
}

/// A climb ended this tick: over the top, down on the ground, let go with
/// jump, or off the face's edge.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct ClimbEnded {
    /// The character.
    pub character: Entity,
}

/// The character was launched this tick: by a [`LaunchPad`](crate::LaunchPad)
/// it stood on or by [`MovementIntent::impulse`](crate::MovementIntent::impulse).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Launched {
    /// The character.
    pub character: Entity,
    /// Its world velocity right after the launch, m/s.
    pub velocity: Vec3,
}

/// A crouch-slide started this tick (crouching while running fast enough,
/// the config's `slide_speed_boost` and `slide_friction`).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SlideStarted {
    /// The character.
    pub character: Entity,
    /// Its speed along the ground as the slide began, m/s.
    pub speed: f32,
}

/// A crouch-slide ended this tick (slowed under the config's
/// `slide_min_speed`, stood up, jumped, or left the ground).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SlideEnded {
    /// The character.
    pub character: Entity,
}

/// A ledge was grabbed this tick (falling past it, or walking off it
/// crouched; the config's `ledge_grab`): the character hangs from it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LedgeGrabbed {
    /// The character.
    pub character: Entity,
    /// The wall's outward normal across "up", unit (the character faces
    /// the other way).
    pub normal: Vec3,
    /// Height of the ledge's top along "up" (`up · point`), metres.
    pub top: f32,
}

/// The ledge hung from was let go of this tick (back or crouch; a pull up
/// onto it is a [`Mantled`]).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LedgeLetGo {
    /// The character.
    pub character: Entity,
}

/// The feet went into [`Water`](crate::Water) this tick, from dry.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct EnteredWater {
    /// The character.
    pub character: Entity,
    /// Where the feet are at the tick's end, metres (a splash goes about there).
    pub position: Vec3,
    /// Speed down into the water (against "up") as the tick began, m/s
    /// (the size of the splash).
    pub speed: f32,
}

/// The last of the body left the water this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LeftWater {
    /// The character.
    pub character: Entity,
}

/// The eyes went under water this tick (muffle the sound, tint the view).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Submerged {
    /// The character.
    pub character: Entity,
}

/// A jump out of the water onto a ledge started this tick (Quake's water jump).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct WaterJumped {
    /// The character.
    pub character: Entity,
}

/// The character landed on ground this tick.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Landed {
    /// The character.
    pub character: Entity,
    /// Speed into the ground at the moment of touching it, m/s (√(2gh)
    /// after a fall of h metres from rest).
    pub impact_speed: f32,
    /// The surface landed on.
    pub surface: Surface,
    /// The collider entity landed on.
    pub ground: Option<Entity>,
    /// A hard landing: faster than the config's `hard_landing_speed`, so
    /// jumps are stopped and walking slowed for its `hard_landing_time`
    /// (a heavier thud, a camera dip).
    pub hard: bool,
}

/// The character climbed by a step-up this tick (a riser taller than
/// the ellipsoid's curve rolls over; one may take a few ticks, each
/// reported with its own rise).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SteppedUp {
    /// The character.
    pub character: Entity,
    /// How far the feet rose, metres.
    pub height: f32,
}

/// A footstep: one each [`FootstepStride`] walked on the ground (the
/// first after the first stride; not while carried, nor under 0.5 m/s).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Footstep {
    /// The character.
    pub character: Entity,
    /// The surface stepped on (its tag picks the sound).
    pub surface: Surface,
    /// Walking speed over the ground, m/s.
    pub speed: f32,
    /// Where the feet are, metres.
    pub position: Vec3,
}

/// The character ran into a wall (or anything too steep to stand on):
/// written when a touch starts, not for every tick of leaning on it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct HitWall {
    /// The character.
    pub character: Entity,
    /// The wall's normal, unit, towards the character.
    pub normal: Vec3,
    /// Speed into the wall at the moment of the hit (relative to the wall,
    /// gravity's pull during the tick until then included), m/s.
    pub speed: f32,
    /// The collider entity hit.
    pub wall: Option<Entity>,
}

/// The character is squeezed: something moved into it and it could not
/// get out of the way. Written every tick it lasts; turn back what
/// pushes.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Crushed {
    /// The character.
    pub character: Entity,
    /// The colliders that moved into it.
    pub by: Vec<Entity>,
}

/// The character stepped onto a mover (a collider that has moved) and is
/// carried by it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct BoardedMover {
    /// The character.
    pub character: Entity,
    /// The mover.
    pub mover: Entity,
}

/// The character is no longer standing on the mover it rode.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LeftMover {
    /// The character.
    pub character: Entity,
    /// The mover.
    pub mover: Entity,
}

/// A change of a character's [`CharacterController::config`](crate::CharacterController::config)
/// was refused at the tick (an invalid value, or radii that do not fit
/// where the character is); the last valid config was put back.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct ConfigRefused {
    /// The character.
    pub character: Entity,
    /// Why (its `Display` names the field and the allowed range).
    pub error: ReconfigureError,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Jumped>()
        .add_message::<Landed>()
        .add_message::<SteppedUp>()
        .add_message::<Footstep>()
        .add_message::<HitWall>()
        .add_message::<Crushed>()
        .add_message::<BoardedMover>()
        .add_message::<LeftMover>()
        .add_message::<ConfigRefused>()
        .add_message::<Dashed>()
        .add_message::<WallSlideStarted>()
        .add_message::<WallJumped>()
        .add_message::<Mantled>()
        .add_message::<ClimbStarted>()
        .add_message::<ClimbEnded>()
        .add_message::<Launched>()
        .add_message::<SlideStarted>()
        .add_message::<SlideEnded>()
        .add_message::<LedgeGrabbed>()
        .add_message::<LedgeLetGo>()
        .add_message::<EnteredWater>()
        .add_message::<LeftWater>()
        .add_message::<Submerged>()
        .add_message::<WaterJumped>();
}
