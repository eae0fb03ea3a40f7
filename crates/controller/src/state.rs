//! What the controller reads each tick (`Intent`), keeps between ticks
//! (`CharacterState`) and tells about a tick (`TickReport`).

use glam::Vec3;
use slidewalk_sweep::Contact;

/// What the input asked for this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Intent {
    /// Desired walking direction, world space, with a magnitude 0..1 (the
    /// fraction of the top speed). Its part along "up" is ignored; longer
    /// vectors are shortened to 1, non-finite ones count as zero.
    pub direction: Vec3,
    /// Jump was pressed this tick (an edge, not "held": holding the key
    /// should not jump again on landing unless the game wants bunny hops).
    pub jump: bool,
    /// Crouch is held.
    pub crouch: bool,
    /// Sprint is held.
    pub sprint: bool,
    /// Drop down through the one-way platform stood on was pressed this
    /// tick (an edge). Jump pressed while crouch is held does the same on
    /// a one-way platform. Ignored anywhere else.
    pub drop: bool,
    /// Jump is held (for the variable jump height,
    /// [`crate::ControllerConfig::min_jump_height`]: letting go while rising
    /// cuts the jump). A tick with `jump` pressed counts as held.
    pub jump_held: bool,
    /// Dash was pressed this tick (an edge; see
    /// [`crate::ControllerConfig::dash_distance`]).
    pub dash: bool,
    /// Where the character faces, world space (any length; its part along
    /// "up" is ignored): a dash with no walking direction goes this way.
    pub facing: Vec3,
    /// A change of velocity from outside (a knockback, an explosion), m/s,
    /// applied at the tick's start: it leaves the ground for as long as it
    /// carries the character up. Zero (or non-finite) = none.
    pub launch: Vec3,
    /// The look's pitch, radians above the horizon (negative: looking
    /// down), read only while swimming: walking forward (along `facing`)
    /// swims that way, so looking down and pressing forward dives.
    /// Non-finite counts as 0; it is clamped to ±90°.
    pub pitch: f32,
}

/// The surface the character stands on.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct GroundContact {
    /// Contact point, metres.
    pub point: Vec3,
    /// Normal of the walkable surface (for an edge or a corner, the normal of
    /// the walkable face it belongs to), unit.
    pub normal: Vec3,
    /// The contact's own normal (from the touched feature to the centre), unit.
    pub contact_normal: Vec3,
    /// Index of the collider in [`crate::Surroundings::colliders`].
    pub collider: usize,
    /// Triangle of that collider (its input index).
    pub triangle: u32,
    /// Surface friction, 0 (ice) … 1 (normal grip).
    pub friction: f32,
    /// Velocity of the surface at the contact, m/s (a lift's or a door's).
    pub velocity: Vec3,
    /// Standing on an edge of walkable ground with the contact's own normal
    /// steeper than walkable (a stair nose, a ledge's rim).
    pub on_edge: bool,
}

/// Everything the controller keeps between ticks. Plain data: copy it to
/// rewind, compare it to test.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct CharacterState {
    /// Centre of the ellipsoid, metres.
    pub position: Vec3,
    /// Own velocity, m/s: relative to the ground while standing (a lift's
    /// motion is not in it), world velocity in the air.
    pub velocity: Vec3,
    /// World up (unit), the opposite of gravity; kept when gravity is zero.
    pub up: Vec3,
    /// The crouched shape is in use.
    pub crouched: bool,
    /// Radii of the ellipsoid in use on the world axes, metres (the
    /// standing or crouched radii of the config, turned to "up"). A shape
    /// change (crouch, stand up, new gravity, new config) takes effect only
    /// where the new shape fits.
    pub radii: Vec3,
    /// The ground stood on after the last tick, if any (not known while
    /// [`placed`](Self::placed)).
    pub ground: Option<GroundContact>,
    /// Placed since its last tick (made by [`standing_at`](Self::standing_at),
    /// moved by [`teleport`](Self::teleport): a spawn, a respawn): the
    /// ground under it is not known yet. The next tick finds it before it
    /// decides anything else (a jump, a dash, a crouch): ground within the
    /// snap distance below, while not moving up off it, is stood on from
    /// that tick's start (the centre put down onto it, no landing
    /// reported; [`TickReport::found_ground`]); none, and it is in the air
    /// with no coyote time. A placed character is not carried by the
    /// motion its ground made before it was there, and its velocity counts
    /// as relative to that ground (placed at rest on a moving platform, it
    /// rides it). The tick clears it.
    pub placed: bool,
    /// Seconds since the character last stood on ground (0 while standing).
    pub air_time: f32,
    /// A jump may still start from coyote time (cleared by jumping).
    pub coyote_jump: bool,
    /// Seconds left in which a jump pressed earlier still fires.
    pub jump_buffer: f32,
    /// Dropping through a one-way platform: the height (metres along "up",
    /// `up · feet`) the feet were at when the drop began. One-way
    /// surfaces reaching that height are passed through until the whole
    /// body is below it or it stands on ground again.
    pub drop_through: Option<f32>,
    /// The moves beyond walking under way (dash, mantle, climb, wall touch)
    /// and their counters.
    pub moves: crate::moves::MoveState,
}

impl CharacterState {
    /// A character whose feet are at `feet` (metres), standing, at rest,
    /// "up" against `config`'s gravity. It is [`placed`](Self::placed): its
    /// first tick finds the ground under it before anything else.
    pub fn standing_at(feet: Vec3, config: &crate::config::ControllerConfig) -> Self {
        let up = crate::frame::up_from_gravity(config.gravity, Vec3::Y);
        let radii = crate::frame::world_radii(config.standing_radii, up);
        // A hair above the feet, so the first tick lands cleanly.
        let extent = crate::frame::extent_along(radii, up);
        Self {
            position: feet + up * extent * (1.0 + 4.0 * config.skin),
            velocity: Vec3::ZERO,
            up,
            crouched: false,
            radii,
            ground: None,
            placed: true,
            air_time: 0.0,
            coyote_jump: false,
            jump_buffer: 0.0,
            drop_through: None,
            moves: crate::moves::MoveState::new(feet.dot(up)),
        }
    }

    /// Puts the centre at `centre` (metres), at rest, [`placed`](Self::placed):
    /// its next tick finds the ground under it first. A dash, mantle or
    /// climb under way, the wall touched or last jumped off and a rising
    /// jump do not follow it, and the height it last pushed off from is
    /// the new one; the shape, the air jumps and dashes used and the
    /// cooldowns do follow it.
    pub fn teleport(&mut self, centre: Vec3) {
        self.position = centre;
        self.velocity = Vec3::ZERO;
        self.ground = None;
        self.placed = true;
        self.air_time = 0.0;
        self.coyote_jump = false;
        let feet = self.feet().dot(self.up);
        let moves = &mut self.moves;
        moves.under_way = None;
        moves.wall = None;
        moves.wall_jumped_off = None;
        moves.jump_cut = None;
        moves.push_off_height = feet;
    }

    /// Where the feet are (the ellipsoid's lowest point along "up"), metres.
    pub fn feet(&self) -> Vec3 {
        self.position - self.up * crate::frame::extent_along(self.radii, self.up)
    }

    /// Whether it stands on ground.
    pub fn grounded(&self) -> bool {
        self.ground.is_some()
    }

    /// Velocity in the world frame, m/s: own velocity plus the ground's.
    pub fn world_velocity(&self) -> Vec3 {
        self.velocity + self.ground.map_or(Vec3::ZERO, |g| g.velocity)
    }
}

/// Which pass of a tick met a contact.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// Being carried by the platform stood on.
    Carry,
    /// The walking move along the ground.
    Move,
    /// The step-up's up leg.
    StepUp,
    /// The step-up's forward leg.
    StepForward,
    /// The step-up's down leg.
    StepDown,
    /// The search for ground below after a walking move, or under a
    /// [`placed`](CharacterState::placed) character before its tick.
    Snap,
    /// The motion in the air (falling, jumping), gravity included.
    Air,
    /// A dash's move.
    Dash,
    /// Pulling up onto a ledge (a mantle, or the top of a climb).
    Mantle,
    /// Moving on a climbable face.
    Climb,
    /// A change of shape (crouching, standing up, a new "up").
    Shape,
    /// Swimming.
    Swim,
    /// Catching a ledge, or moving along the one hung from.
    Hang,
}

/// A contact with the pass that met it.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassContact {
    /// The pass.
    pub pass: Pass,
    /// The contact (see [`slidewalk_sweep::Contact`]).
    pub contact: Contact,
}

/// What happened in one tick.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TickReport {
    /// Every contact of every pass, in order. Contacts of step-up attempts
    /// that were not taken are left out.
    pub contacts: Vec<PassContact>,
    /// The ground stood on at the end of the tick.
    pub ground: Option<GroundContact>,
    /// The character was [`placed`](CharacterState::placed) and ground was
    /// found under it before anything else: it stood from the tick's start
    /// (not a landing).
    pub found_ground: bool,
    /// Climbed by an explicit step-up (up, forward, down).
    pub stepped: bool,
    /// Pulled down onto the ground after the move (more than the skin).
    pub snapped: bool,
    /// Landed this tick.
    pub landed: bool,
    /// A jump started this tick.
    pub jumped: bool,
    /// A drop through the one-way platform stood on started this tick.
    pub dropped: bool,
    /// Pushed out of geometry that moved into it (a door), metres.
    pub pushed: Vec3,
    /// Squeezed: an overlap could not be resolved (between a closing door
    /// and a wall, or a lift and a ceiling). The game should stop or reverse
    /// what is moving.
    pub crushed: bool,
    /// Crouch was released but standing up is blocked by something above.
    pub stand_blocked: bool,
    /// Moved by the platform stood on, metres.
    pub carried: Vec3,
    /// Turn about "up" given by a rotating platform this tick, radians
    /// (counter-clockwise seen from above); the game adds it to the heading.
    pub heading_delta: f32,
    /// Sweeps run by all passes (cost): the collide-and-slide iterations.
    pub sweeps: u32,
    /// Snaps answered by a settle onto the ground near (a box query of the
    /// triangles within a few skins and their exact sweeps; see
    /// `slidewalk_sweep::settle`) instead of a sweep (cost, beside `sweeps`).
    pub settles: u32,
    /// The jump this tick was in the air (an air jump; `jumped` is set too).
    pub air_jump: bool,
    /// A dash started this tick: its direction (unit, across "up").
    pub dashed: Option<Vec3>,
    /// A wall slide started this tick (falling while pushing into a wall).
    pub wall_slide_started: bool,
    /// Sliding down a wall (the fall capped) this tick.
    pub wall_sliding: bool,
    /// A wall jump started this tick: the normal (unit, across "up") of
    /// the wall jumped off.
    pub wall_jumped: Option<Vec3>,
    /// A mantle started this tick: the ledge's height above the feet, metres.
    pub mantled: Option<f32>,
    /// A climb started this tick.
    pub climb_started: bool,
    /// Climbing this tick (moving on a climbable face; the pull over its
    /// top is not counted).
    pub climbing: bool,
    /// A climb ended this tick (at the top, on the ground, let go, lost).
    pub climb_ended: bool,
    /// The velocity was changed from outside (`Intent::launch`) or by a
    /// launch pad stood on, this tick: the world velocity right after, m/s.
    pub launched: Option<Vec3>,
    /// How deep in water the character is at the tick's end.
    pub water: crate::moves::WaterLevel,
    /// Swimming this tick (the waist in water, `swim_speed` above 0).
    pub swimming: bool,
    /// The feet went into water this tick (from dry).
    pub entered_water: bool,
    /// The last of the body left the water this tick.
    pub left_water: bool,
    /// The eyes went under water this tick.
    pub submerged: bool,
    /// A jump out of the water onto a ledge started this tick (Quake's water jump).
    pub water_jumped: bool,
    /// A crouch-slide started this tick.
    pub slide_started: bool,
    /// A crouch-slide ended this tick.
    pub slide_ended: bool,
    /// A ledge was grabbed this tick (falling past it, or walking off it crouched).
    pub ledge_grabbed: bool,
    /// The ledge hung from was let go of this tick (back or crouch; a pull
    /// up onto it reports [`mantled`](Self::mantled) instead).
    pub ledge_let_go: bool,
    /// Landed this tick faster than the config's `hard_landing_speed`:
    /// jumps are stopped and walking slowed for `hard_landing_time`.
    pub hard_landing: bool,
}

impl TickReport {
    /// The colliders that pushed the character out of their way this tick
    /// with their own motion (a door swinging into it, a lift coming down
    /// on it): those of its depenetration contacts whose surface moved
    /// into it. Each once, in order. When the tick reports it
    /// [`crushed`](Self::crushed), these are what should turn back; one
    /// moving away from it (a door it is still inside while the door
    /// opens again) is not among them.
    pub fn pushing_colliders(&self) -> Vec<usize> {
        let mut pushing: Vec<usize> = self
            .contacts
            .iter()
            .filter(|c| c.contact.depenetration && c.contact.surface_velocity.dot(c.contact.normal) > 0.0)
            .map(|c| c.contact.collider)
            .collect();
        pushing.sort_unstable();
        pushing.dedup();
        pushing
    }
}

/// Fastest own velocity a state may hold, m/s: far above anything the
/// configuration allows (1000 m/s at most), far below what overflows f32
/// in a tick (the fuzzer's 3.4e38 m/s became infinite).
pub const MAX_STATE_SPEED: f32 = 1e4;

/// Whether a state can be ticked: finite numbers, a speed up to
/// [`MAX_STATE_SPEED`], times not negative (a negative `air_time` would
/// stretch the coyote time: the fuzzer found one kept negative), valid
/// radii.
pub(crate) fn state_is_valid(state: &CharacterState) -> bool {
    state.position.is_finite()
        && state.velocity.is_finite()
        && state.velocity.length() <= MAX_STATE_SPEED
        && state.up.is_finite()
        && state.air_time.is_finite()
        && state.air_time >= 0.0
        && state.jump_buffer.is_finite()
        && state.jump_buffer >= 0.0
        && state.drop_through.is_none_or(f32::is_finite)
        && state.moves.is_valid()
        && slidewalk_sweep::Ellipsoid::new(state.radii).is_ok()
}
