//! A character's public components: [`CharacterController`] (what it is:
//! its config), [`MovementState`] (where it is and how it moves) and
//! [`MovementIntent`] (what the game asks of it); the plugin keeps its own
//! memory of each character beside them ([`crate::memory`]).

use crate::events::FootstepStride;
use crate::memory::CharacterMemory;
use crate::report::MovementReport;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use glam::Vec3;
use slidewalk_controller::{CharacterState, ConfigError, ControllerConfig};

/// A character: an ellipsoid that walks, climbs stairs, jumps, crouches
/// and rides moving geometry, moved each fixed tick by
/// [`SlidewalkPlugin`](crate::SlidewalkPlugin). Adding it adds the
/// character's other components: [`MovementState`], [`MovementIntent`],
/// [`MovementReport`], [`FootstepStride`].
///
/// The entity's `Transform` translation is the ellipsoid's centre: spawn
/// the character where it should start (its first tick finds the ground
/// under it, within the snap distance, before anything else: a jump or a
/// dash asked for on that tick starts from the ground), or by its feet with
/// [`transform_at_feet`](CharacterController::transform_at_feet). The
/// plugin writes the translation (interpolated between ticks) and leaves
/// the rotation to the game; a translation the game writes itself is
/// taken as a teleport at the next tick, however many frames come before
/// it. Keep the character a root entity.
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
#[require(
    MovementState,
    MovementIntent,
    MovementReport,
    FootstepStride,
    CharacterMemory,
    Transform,
    Visibility
)]
#[component(on_add = place_new_character)]
pub struct CharacterController {
    /// The tunables (metres, seconds, m/s, m/s², degrees; see
    /// [`ControllerConfig`]). This field is the one way to change them, at
    /// any time: the next tick takes the change in, fitting the state to
    /// new radii where the new shape fits. An invalid value, or radii that
    /// do not fit where the character is, is refused: the tick logs an
    /// error naming the field, writes a
    /// [`ConfigRefused`](crate::ConfigRefused) message, and puts the last
    /// valid config back here.
    pub config: ControllerConfig,
    /// Moved by the plugin (true). False: the plugin leaves it alone (a
    /// fly or noclip mode, a cutscene): no tick, no report, no events; the
    /// transform still follows the [`MovementState`]'s position, which the
    /// game may move.
    pub active: bool,
}

impl CharacterController {
    /// A character with `config`, or the first invalid field.
    pub fn new(config: ControllerConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Self { config, active: true })
    }

    /// The transform that puts this character's feet at `feet` (metres),
    /// standing: a level's spawn point gives the feet, the transform is
    /// the centre. `commands.spawn((character.transform_at_feet(spawn),
    /// character))`.
    pub fn transform_at_feet(&self, feet: Vec3) -> Transform {
        Transform::from_translation(CharacterState::standing_at(feet, &self.config).position)
    }
}

impl Default for CharacterController {
    fn default() -> Self {
        Self {
            config: ControllerConfig::default(),
            active: true,
        }
    }
}

/// Where the character is and how it moves (centre, velocity, radii,
/// ground, jump timers), as of the last tick: the controller's
/// [`CharacterState`], plain data. Read it anywhere; save it with a copy.
///
/// Writing it is how the game moves a character by its state (a respawn, a
/// rewind, a replay, a fly mode): the next tick starts from what was
/// written, and an active character is drawn there without interpolating
/// from where it was. The ground it names keeps its collider index (that
/// of [`CollisionWorld::placed`](crate::CollisionWorld::placed) when the
/// state was saved). The plugin knows it was written by its value: a
/// state other than the one the last tick left (writing the same one
/// changes nothing, and a rollback that restores the state with the
/// plugin's memory of it is no teleport).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Component, Default, Debug, Clone)]
pub struct MovementState(pub CharacterState);

impl Default for MovementState {
    fn default() -> Self {
        Self(CharacterState::standing_at(Vec3::ZERO, &ControllerConfig::default()))
    }
}

impl MovementState {
    /// Puts the centre at `centre` (metres), at rest, its ground not yet
    /// known: the next tick finds it before anything else, so a jump or a
    /// dash asked for on that tick starts from the ground it stands on
    /// (see [`CharacterState::teleport`]). A dash, mantle or climb under
    /// way does not follow it (a climb's end is written as a
    /// [`ClimbEnded`](crate::ClimbEnded)), nor the wall touched or last
    /// jumped off, nor a rising jump; the height it last pushed off from
    /// is the new one; the air jumps and dashes used do follow it.
    pub fn teleport(&mut self, centre: Vec3) {
        self.0.teleport(centre);
    }

    /// Puts the feet at `feet` (metres), standing with `config`'s radii, at
    /// rest, its ground not yet known (found first by the next tick, as
    /// for [`teleport`](Self::teleport)): a respawn at a spawn point.
    pub fn teleport_feet(&mut self, feet: Vec3, config: &ControllerConfig) {
        self.0 = CharacterState::standing_at(feet, config);
    }
}

/// What the character is asked to do, written by the game's input system
/// (keyboard, gamepad, AI, a script): the plugin never reads a device.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug, Clone)]
pub struct MovementIntent {
    /// Walking direction in world space, its length 0 … 1 the fraction of
    /// the top speed (longer is shortened to 1; the part along "up" is
    /// ignored). Kept until changed.
    pub direction: Vec3,
    /// A jump was asked for: set it on the press; the next tick takes it
    /// and clears it (so a press between two ticks is neither lost nor
    /// repeated).
    pub jump: bool,
    /// Crouch is held.
    pub crouch: bool,
    /// Sprint is held.
    pub sprint: bool,
    /// Drop down through the one-way platform stood on ([`OneWay`](crate::OneWay)):
    /// set it on the press; the next tick takes it and clears it. Jump
    /// while crouch is held does the same on a one-way platform.
    pub drop: bool,
    /// Velocity to add at the start of the next tick, m/s (a push, a
    /// knockback, an explosion): taken and cleared by that tick, swept like
    /// any motion (so never into geometry); it leaves the ground for as
    /// long as it carries the character up, and a
    /// [`Launched`](crate::Launched) message says so. Add to it; ignored
    /// while the character is not [`active`](CharacterController::active).
    pub impulse: Vec3,
    /// Jump is held: letting go while a jump rises cuts it to the
    /// config's `min_jump_height` (a tap jumps low, a held press high).
    /// Set it while the button is down; `jump` counts as held on its tick.
    pub jump_held: bool,
    /// A dash was asked for: set it on the press; the next tick takes it
    /// and clears it. It goes along `direction`, or `facing` without one.
    pub dash: bool,
    /// Where the character faces, world space (the part along "up" is
    /// ignored): the way a dash goes with no walking direction. Kept until
    /// changed.
    pub facing: Vec3,
    /// The look's pitch, radians above the horizon (negative: looking
    /// down), read only while swimming: walking forward (along `facing`)
    /// swims the way the look points, so looking down and pressing forward
    /// dives. Kept until changed; non-finite counts as 0, clamped to ±90°.
    pub pitch: f32,
}

/// A new character starts at its `Transform`, standing with its config's
/// radii (unless it was spawned with a [`MovementState`] of its own); an
/// invalid config is refused here as at a tick, the default taken instead.
fn place_new_character(mut world: DeferredWorld, context: HookContext) {
    let entity = context.entity;
    let Some(controller) = world.get::<CharacterController>(entity) else {
        return;
    };
    let mut config = controller.config;
    if let Err(e) = config.validate() {
        error!("character {entity}: config refused, the default taken: {e}");
        config = ControllerConfig::default();
        if let Some(mut controller) = world.get_mut::<CharacterController>(entity) {
            controller.config = config;
        }
    }
    let centre = world.get::<Transform>(entity).map_or(Vec3::ZERO, |t| t.translation);
    let Some(mut state) = world.get_mut::<MovementState>(entity) else {
        return;
    };
    if *state == MovementState::default() {
        let standing = CharacterState::standing_at(Vec3::ZERO, &config);
        state.0 = CharacterState {
            position: centre,
            ..standing
        };
    }
    let position = state.position;
    if let Some(mut memory) = world.get_mut::<CharacterMemory>(entity) {
        *memory = CharacterMemory::new(config, position, centre);
    }
}
