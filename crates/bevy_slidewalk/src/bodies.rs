//! What a bridge to a physics engine (`bevy_slidewalk_avian`,
//! `bevy_slidewalk_rapier`, or a game's own) takes from the characters,
//! engine-free: the pushes and weights they put on the engine's dynamic
//! bodies after their tick (from `ControllerConfig::mass` and
//! `max_push_force`, as Jolt's `CharacterVirtual`), the knock-back a
//! body's hit gives them, and curved shapes as polyhedra that hold them.
//! The bridge finds the bodies and applies the impulses in its engine.

use crate::{CharacterController, MovementIntent, MovementReport, MovementState, SlidewalkSystems};
use bevy::ecs::schedule::InternedScheduleLabel;
use bevy::prelude::*;

/// A character's velocity as its tick began (world, m/s): what it
/// brought into the bodies it met (the tick takes the speed into a wall
/// away). Given to every character by [`BodyBridgePlugin`].
#[derive(Component, Clone, Copy, Default, Debug)]
pub struct VelocityBefore(pub Vec3);

/// Pushes and weights the characters put on bodies at the last tick, for
/// figures and tests.
#[derive(Resource, Clone, Copy, Default, Debug)]
pub struct PushFigures {
    /// Bodies pushed (one per character and body).
    pub pushes: u32,
    /// Bodies pressed by a character standing on them.
    pub weights: u32,
}

/// Records each character's [`VelocityBefore`] between
/// `SlidewalkSystems::Prepare` and `Step` in `schedule`. A bridge adds it
/// (once, whichever bridge comes first).
#[derive(Clone, Debug)]
pub struct BodyBridgePlugin {
    /// The schedule the characters move in.
    pub schedule: InternedScheduleLabel,
}

impl Plugin for BodyBridgePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PushFigures>()
            .add_observer(give_velocity_before)
            .add_systems(
                self.schedule,
                record_velocities
                    .after(SlidewalkSystems::Prepare)
                    .before(SlidewalkSystems::Step),
            );
    }
}

fn give_velocity_before(add: On<Add, CharacterController>, mut commands: Commands) {
    commands.entity(add.entity).try_insert(VelocityBefore::default());
}

fn record_velocities(mut characters: Query<(&MovementState, &mut VelocityBefore)>) {
    for (state, mut before) in &mut characters {
        before.0 = state.0.world_velocity();
    }
}

/// A dynamic body of the engine, as a push sees it at one point.
#[derive(Clone, Copy, Debug)]
pub struct DynamicBody {
    /// The body's entity.
    pub body: Entity,
    /// kg (0 or not finite: treated as the character's own, the push
    /// then moves the two as one).
    pub mass: f32,
    /// The body's velocity at the point, m/s.
    pub velocity: Vec3,
}

/// An impulse for one body, to apply at `point`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Push {
    /// The body.
    pub body: Entity,
    /// N·s, world.
    pub impulse: Vec3,
    /// Where it acts, world metres.
    pub point: Vec3,
}

/// What the pushes read of a character.
pub type Pusher = (
    &'static CharacterController,
    &'static MovementState,
    &'static MovementReport,
    &'static MovementIntent,
    &'static VelocityBefore,
);

/// The pushes and weights of every active character's last tick of `dt`
/// seconds, appended to `out` (cleared first); `dynamic_body(collider,
/// point)` names the dynamic body a collider belongs to, or `None`.
///
/// * A body met during the move (not as ground) is pushed along the
///   contact by the speed the character brought into it (its
///   [`VelocityBefore`] or the speed its input asks for, whichever goes
///   further in) less the body's own, times the reduced mass of the two
///   (as two bodies that end up moving together; the body's own mass if
///   `ControllerConfig::pushed_mass_slows` is false), at most
///   `max_push_force` × `dt`; one push per character and body, at its
///   strongest contact.
/// * A body stood on is pressed at the ground point by `mass` ×
///   `gravity` × `dt`.
pub fn pushes(
    dt: f32,
    characters: &Query<Pusher>,
    mut dynamic_body: impl FnMut(Entity, Vec3) -> Option<DynamicBody>,
    out: &mut Vec<Push>,
) -> PushFigures {
    out.clear();
    let mut figures = PushFigures::default();
    if dt <= 0.0 || !dt.is_finite() {
        return figures;
    }
    for (controller, state, report, intent, before) in characters {
        if !controller.active {
            continue;
        }
        let c = &controller.config;
        let up = state.0.up;
        let cos_walkable = c.walkable_slope_deg.to_radians().cos();
        // What the input asks, across "up" as the controller takes it.
        let across = intent.direction - up * intent.direction.dot(up);
        let wish = across.clamp_length_max(1.0) * c.top_speed(state.0.crouched, intent.sprint);
        let first = out.len();
        for (pc, entity) in report.tick.contacts.iter().zip(&report.contact_entities) {
            let Some(entity) = *entity else { continue };
            let ct = &pc.contact;
            // Ground is pressed by the weight below, not pushed.
            if ct.normal.dot(up) >= cos_walkable {
                continue;
            }
            let Some(body) = dynamic_body(entity, ct.point) else {
                continue;
            };
            let into = -ct.normal;
            let approach = before.0.dot(into).max(wish.dot(into)) - body.velocity.dot(into);
            let impulse = push_impulse(c.mass, body.mass, approach, c.max_push_force * dt, c.pushed_mass_slows);
            if impulse <= 0.0 {
                continue;
            }
            let push = Push {
                body: body.body,
                impulse: into * impulse,
                point: ct.point,
            };
            match out[first..].iter_mut().find(|p| p.body == body.body) {
                Some(p) if p.impulse.length_squared() < push.impulse.length_squared() => *p = push,
                Some(_) => {}
                None => out.push(push),
            }
        }
        figures.pushes += (out.len() - first) as u32;
        if let Some(ground) = report.tick.ground
            && let Some(entity) = report.ground.as_ref().and_then(|g| g.entity)
            && let Some(body) = dynamic_body(entity, ground.point)
        {
            let weight = c.gravity * c.mass * dt;
            if weight.is_finite() && weight != Vec3::ZERO {
                out.push(Push {
                    body: body.body,
                    impulse: weight,
                    point: ground.point,
                });
                figures.weights += 1;
            }
        }
    }
    figures
}

/// The impulse (N·s) a character of `mass` kg coming at `approach` m/s
/// into a body of `body_mass` kg gives it, at most `most`; 0 when it is
/// not coming in. `mass_slows`: the reduced mass × the speed (what leaves
/// the two moving together); otherwise the body's mass × the speed (the
/// body brought up to the character's speed).
pub fn push_impulse(mass: f32, body_mass: f32, approach: f32, most: f32, mass_slows: bool) -> f32 {
    if approach <= 0.0 || !approach.is_finite() {
        return 0.0;
    }
    let pushed = if !(body_mass.is_finite() && body_mass > 0.0) {
        mass
    } else if mass_slows {
        mass * body_mass / (mass + body_mass)
    } else {
        body_mass
    };
    let impulse = (pushed * approach).min(most);
    if impulse.is_finite() { impulse.max(0.0) } else { 0.0 }
}

/// The velocity (m/s) a hit adds to a character of `mass` kg: the engine's
/// contact gave the body of `body_mass` kg `impulse` (N·s, pointing away
/// from the character), the character gets the opposite, shared as
/// between free bodies and scaled by `factor`. `None` if not finite.
pub fn knocked_velocity(impulse: Vec3, mass: f32, body_mass: f32, factor: f32) -> Option<Vec3> {
    let knocked = -impulse * factor / (mass + body_mass);
    knocked.is_finite().then_some(knocked)
}

/// `positions` of a convex polyhedron with its corners on a convex shape
/// whose farthest point along a unit direction is `support(direction)`,
/// scaled about their centre until every face of `triangles` is on or
/// outside the shape (each face's plane at least as far out as the
/// shape's support along its normal): a character resting on the faces
/// is never inside the true shape.
pub fn holding(positions: Vec<Vec3>, triangles: &[[u32; 3]], support: impl Fn(Vec3) -> Vec3) -> Vec<Vec3> {
    if positions.is_empty() {
        return positions;
    }
    let centre = positions.iter().copied().sum::<Vec3>() / positions.len() as f32;
    let mut scale: f32 = 1.0;
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let Some(normal) = (b - a).cross(c - a).try_normalize() else {
            continue;
        };
        // Outward: away from the centre.
        let normal = if (a - centre).dot(normal) < 0.0 {
            -normal
        } else {
            normal
        };
        let face = (a - centre).dot(normal);
        let reach = (support(normal) - centre).dot(normal);
        if face > 0.0 && reach > face {
            scale = scale.max(reach / face);
        }
    }
    // A hair more, so rounding never leaves a face inside.
    let scale = scale * (1.0 + 1e-5);
    positions.into_iter().map(|p| centre + (p - centre) * scale).collect()
}

/// How far inside a character's ellipsoid its inner body stays, metres.
pub const INNER_INSET: f32 = 0.02;

/// The corners of the convex hull an inner body gives a character of
/// `radii` (metres, its own frame): points on the ellipsoid of `radii`
/// less `inset`, 16 around and 8 from pole to pole, so that the hull is
/// inside the character's ellipsoid everywhere and about `inset` short of
/// it (a capsule inside an ellipsoid leaves its lower part uncovered: a
/// ball rolling at the ankles met the ellipsoid first).
pub fn inner_hull(radii: Vec3, inset: f32) -> Vec<Vec3> {
    let inner = (radii - Vec3::splat(inset)).max(Vec3::splat(0.005));
    let mut out = vec![Vec3::new(0.0, inner.y, 0.0), Vec3::new(0.0, -inner.y, 0.0)];
    for i in 1..8 {
        let polar = std::f32::consts::PI * i as f32 / 8.0;
        for j in 0..16 {
            let azimuth = std::f32::consts::TAU * j as f32 / 16.0;
            let d = Vec3::new(polar.sin() * azimuth.cos(), polar.cos(), polar.sin() * azimuth.sin());
            out.push(d * inner);
        }
    }
    out
}

/// Tiles a side of the square a half-space becomes ([`half_space_square`]).
pub const HALF_SPACE_TILES: u32 = 20;

/// A half-space's boundary as triangles: a square of `2 × half_side`
/// metres on the plane through the origin square to `normal`, facing
/// along it, in `tiles × tiles` squares (the collision core's tolerance
/// for crossing a triangle grows with the distance to its corners: a 2 km
/// triangle under a character lets a push out of a box go through it).
pub fn half_space_square(normal: Vec3, half_side: f32, tiles: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let normal = normal.normalize_or(Vec3::Y);
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let n = tiles.max(1);
    let step = 2.0 * half_side / n as f32;
    let mut positions = Vec::with_capacity(((n + 1) * (n + 1)) as usize);
    for i in 0..=n {
        for j in 0..=n {
            positions.push(u * (-half_side + step * i as f32) + v * (-half_side + step * j as f32));
        }
    }
    let at = |i: u32, j: u32| i * (n + 1) + j;
    let mut triangles = Vec::with_capacity((2 * n * n) as usize);
    for i in 0..n {
        for j in 0..n {
            // Wound so that (b − a) × (c − a) points along `normal`.
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    (positions, triangles)
}

/// The engine's kinematic body that follows a character, on the body's
/// entity (an engine crate's `InnerBody`).
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodyOf(pub Entity);

/// On a character with an inner body: the entity of its body.
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodyEntity(pub Entity);

/// On an inner body: the character's radii its shape was sized for
/// (metres); the shape is rebuilt when they change.
#[derive(Component, Clone, Copy, Debug)]
pub struct InnerBodySizedFor(pub Vec3);

/// Farther than this from its character at a tick (metres), an inner body
/// is put there instead of sent there (a respawn, a teleport).
pub const INNER_TELEPORT: f32 = 1.0;

/// A dynamic body of the engine hit a character's inner body (written the
/// tick the contact began; the knock-back goes on while they press).
#[derive(Message, Clone, Copy, Debug)]
pub struct HitByBody {
    /// The character.
    pub character: Entity,
    /// The body that hit it.
    pub body: Entity,
    /// The impulse the engine's contact gave the body, N·s (towards the
    /// body).
    pub impulse: Vec3,
    /// The velocity the hit added to the character, m/s.
    pub knocked: Vec3,
}

/// Which characters and bodies touched at the last tick and at this one,
/// to write a [`HitByBody`] once per contact, when it begins.
#[derive(Default, Debug)]
pub struct Touching {
    before: bevy::platform::collections::HashSet<(Entity, Entity)>,
    now: bevy::platform::collections::HashSet<(Entity, Entity)>,
}

impl Touching {
    /// A new tick: this tick's contacts become the last tick's.
    pub fn next_tick(&mut self) {
        std::mem::swap(&mut self.before, &mut self.now);
        self.now.clear();
    }

    /// `character` and `body` touch this tick: whether that contact began
    /// now (once per pair and tick, however many colliders touch).
    pub fn began(&mut self, character: Entity, body: Entity) -> bool {
        self.now.insert((character, body)) && !self.before.contains(&(character, body))
    }
}

/// Despawns the inner bodies of characters gone or no longer asking for
/// one (no `Asked` component), and forgets them on the character.
pub fn drop_orphan_inner_bodies<Asked: Component>(
    mut commands: Commands,
    inner_bodies: Query<(Entity, &InnerBodyOf)>,
    owners: Query<(), (With<Asked>, With<InnerBodyEntity>)>,
) {
    for (body, of) in &inner_bodies {
        if owners.get(of.0).is_err() {
            commands.entity(body).despawn();
            if let Ok(mut e) = commands.get_entity(of.0) {
                e.try_remove::<InnerBodyEntity>();
            }
        }
    }
}
