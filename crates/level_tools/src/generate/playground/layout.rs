//! Where every feature of the playground is (metres, y up), and the bumpy
//! patch's height function: the numbers the level is built from and tests
//! and scripted walks rely on.

use super::shapes::{Flight, Ramp, Rect};
use glam::Vec3;

/// Where the feet stand at the start (the `Spawn` node); the view is along −z.
pub const SPAWN: Vec3 = Vec3::new(0.0, 0.0, 30.0);
/// The coloured floor patch around the spawn point.
pub const START_PAD: Rect = Rect::new(-2.0, 28.0, 2.0, 32.0);

/// The ground: a 1 m thick slab whose top is y = 0.
pub const GROUND: Rect = Rect::new(-40.0, -40.0, 40.0, 40.0);
/// Thickness of the ground slab (its bottom is at −this).
pub const GROUND_DEPTH: f32 = 1.0;
/// Height of the walls around the ground (too tall to jump).
pub const BOUNDARY_HEIGHT: f32 = 4.0;
/// Thickness of the boundary walls, inside the ground's edge: the walkable
/// area is `GROUND` shrunk by this on every side.
pub const BOUNDARY_THICKNESS: f32 = 0.5;

/// Stairs the default ellipsoid rolls over (0.15 m risers, 0.3 m treads), up along −z.
pub const STAIRS_015: Flight = Flight {
    name: "Stairs_015",
    base: Vec3::new(-8.5, 0.0, 24.0),
    dir: Vec3::NEG_Z,
    width: 3.0,
    rise: 0.15,
    run: 0.3,
    steps: 8,
    landing: 3.0,
};

/// Stairs that need a step-up (0.30 m risers, 0.4 m treads), up along −z.
pub const STAIRS_030: Flight = Flight {
    name: "Stairs_030",
    base: Vec3::new(-13.5, 0.0, 24.0),
    dir: Vec3::NEG_Z,
    width: 3.0,
    rise: 0.3,
    run: 0.4,
    steps: 5,
    landing: 3.0,
};

/// A block too tall to step onto (needs a jump): corners of the box, its
/// front face (z = 24) faces the spawn.
pub const LEDGE_070: (Vec3, Vec3) = (Vec3::new(-21.0, 0.0, 21.0), Vec3::new(-17.0, 0.7, 24.0));

/// The finely tessellated floor: `FINE_GRID_CELLS`² cells of 0.1 m at y = 0.
pub const FINE_GRID: Rect = Rect::new(6.0, 19.0, 10.0, 23.0);
/// Cells along each side of [`FINE_GRID`].
pub const FINE_GRID_CELLS: u32 = 40;

/// The bumpy patch: a low heightfield, zero at its border (see [`bump_height`]).
pub const BUMPY_PATCH: Rect = Rect::new(13.0, 18.0, 19.0, 24.0);
/// Cells along each side of [`BUMPY_PATCH`] (0.2 m cells).
pub const BUMPY_CELLS: u32 = 30;

/// A slippery floor patch at y = 0 (node `IcePatch`, extras `{"friction":0.05}`).
pub const ICE_PATCH: Rect = Rect::new(22.0, 18.0, 28.0, 24.0);
/// The ice patch's friction.
pub const ICE_FRICTION: f32 = 0.05;

/// The four ramps, all climbing along −z to 4 m deep platforms over z ∈ [0, 4]:
/// 15°, 30° (its 2.5 m platform is the ledge to fall from), 40°, and 55° (too steep).
pub const RAMPS: [Ramp; 4] = [
    Ramp {
        name: "Ramp_15deg",
        platform_name: "Platform_15deg",
        platform_foot: Vec3::new(-7.5, 0.0, 4.0),
        dir: Vec3::NEG_Z,
        width: 3.0,
        angle_deg: 15.0,
        height: 1.5,
        platform_depth: 4.0,
        walkable: true,
    },
    Ramp {
        name: "Ramp_30deg",
        platform_name: "Platform_30deg",
        platform_foot: Vec3::new(-12.5, 0.0, 4.0),
        dir: Vec3::NEG_Z,
        width: 3.0,
        angle_deg: 30.0,
        height: 2.5,
        platform_depth: 4.0,
        walkable: true,
    },
    Ramp {
        name: "Ramp_40deg",
        platform_name: "Platform_40deg",
        platform_foot: Vec3::new(-17.5, 0.0, 4.0),
        dir: Vec3::NEG_Z,
        width: 3.0,
        angle_deg: 40.0,
        height: 2.0,
        platform_depth: 4.0,
        walkable: true,
    },
    Ramp {
        name: "Ramp_55deg",
        platform_name: "Platform_55deg",
        platform_foot: Vec3::new(-22.5, 0.0, 4.0),
        dir: Vec3::NEG_Z,
        width: 3.0,
        angle_deg: 55.0,
        height: 2.0,
        platform_depth: 4.0,
        walkable: false,
    },
];

/// Centres (on the ground) of the four round pillars of the `Pillars` node.
pub const PILLARS: [Vec3; 4] = [
    Vec3::new(7.0, 0.0, 8.0),
    Vec3::new(9.5, 0.0, 6.0),
    Vec3::new(12.0, 0.0, 8.0),
    Vec3::new(14.5, 0.0, 6.0),
];
/// Radius of the free-standing pillars.
pub const PILLAR_RADIUS: f32 = 0.3;
/// Height of the free-standing pillars.
pub const PILLAR_HEIGHT: f32 = 3.0;
/// Sides of every round pillar.
pub const PILLAR_SEGMENTS: u32 = 20;

/// The 1 cm thin wall (a closed box), 4 m long along x, 2.5 m high.
pub const THIN_WALL: (Vec3, Vec3) = (Vec3::new(18.0, 0.0, 5.995), Vec3::new(22.0, 2.5, 6.005));

/// The narrow corridor's free floor (0.95 m wide in x, 8 m long in z),
/// between two walls [`PASSAGE_WALL`] thick and [`CORRIDOR_HEIGHT`] high; open above.
pub const NARROW_CORRIDOR: Rect = Rect::new(25.525, 2.0, 26.475, 10.0);
/// Height of the narrow corridor's walls.
pub const CORRIDOR_HEIGHT: f32 = 2.5;
/// Thickness of the corridor's and the low passage's walls and roof.
pub const PASSAGE_WALL: f32 = 0.3;

/// The low-ceiling passage's free floor (2.5 m wide in x, 4 m long in z);
/// its ceiling is at [`LOW_CEILING_HEIGHT`] (crouch), a slab [`PASSAGE_WALL`] thick on side walls.
pub const LOW_CEILING: Rect = Rect::new(30.75, 4.0, 33.25, 8.0);
/// Clear height under the low ceiling.
pub const LOW_CEILING_HEIGHT: f32 = 1.3;

/// Inside of the two rooms (node `Rooms`): room A is z ∈ [−14, −6] (entered
/// through a gap x ∈ [−1, 1] in its front wall at z = −6), room B is
/// z ∈ [−22, −14]; they share the wall at [`DIVIDER_Z`] with the doorway.
pub const ROOMS: Rect = Rect::new(-4.0, -22.0, 4.0, -6.0);
/// Height of the rooms' walls (open above).
pub const ROOM_WALL_HEIGHT: f32 = 3.0;
/// Thickness of the rooms' walls.
pub const ROOM_WALL: f32 = 0.2;
/// Half width of room A's entrance gap (centred on x = 0).
pub const ROOM_ENTRANCE_HALF_WIDTH: f32 = 1.0;
/// Centre plane of the wall between the rooms.
pub const DIVIDER_Z: f32 = -14.0;
/// The doorway in the divider: width (centred on x = 0) and height.
pub const DOORWAY: (f32, f32) = (1.3, 2.3);
/// The door node's origin: the hinge, on the doorway's −x side, at the
/// divider's centre plane. The leaf spans local x ∈ [0, 1.2],
/// y ∈ [0.01, 2.21], z ∈ [−0.05, 0.05]; it swings about +y into room B.
pub const DOOR_HINGE: Vec3 = Vec3::new(-0.6, 0.0, DIVIDER_Z);
/// The door leaf: width, height, thickness.
pub const DOOR_SIZE: Vec3 = Vec3::new(1.2, 2.2, 0.1);
/// Opening angle (positive about +y: the leaf turns towards −z, into room B).
pub const DOOR_ANGLE_DEG: f32 = 90.0;
/// Seconds to open the door.
pub const DOOR_OPEN_S: f32 = 1.0;
/// The door opens while the player is this close, metres.
pub const DOOR_TRIGGER_M: f32 = 2.5;

/// Inside of the ball room (walls [`BALL_ROOM_WALL`] high,
/// [`BALL_ROOM_WALL_THICKNESS`] thick, open above), entered through a gap
/// [`BALL_ROOM_ENTRANCE`] in its +z wall, with a window [`GRATE_OPENING`]
/// in its +x wall that the [`GRATE`] fills.
pub const BALL_ROOM: Rect = Rect::new(10.0, -22.0, 22.0, -10.0);
/// Height of the ball room's walls.
pub const BALL_ROOM_WALL: f32 = 2.0;
/// Thickness of the ball room's walls (outside [`BALL_ROOM`]).
pub const BALL_ROOM_WALL_THICKNESS: f32 = 0.3;
/// The ball room's entrance: the x range of the gap in its +z wall.
pub const BALL_ROOM_ENTRANCE: (f32, f32) = (15.2, 16.8);
/// Centres (on the ground) of the ball room's pillars (radius 0.4 m, 2 m high).
pub const BALL_ROOM_PILLARS: [Vec3; 3] = [
    Vec3::new(13.0, 0.0, -14.0),
    Vec3::new(19.0, 0.0, -15.0),
    Vec3::new(15.5, 0.0, -19.0),
];

/// The upper floor: a solid block whose top is at [`UPPER_FLOOR_HEIGHT`],
/// with 1 m railings along its edges except where the lift arrives (its
/// +x edge, z ∈ [−22.4, −19.6]). Reachable only by the lift.
pub const UPPER_FLOOR: Rect = Rect::new(-26.0, -26.0, -16.0, -16.0);
/// Height of the upper floor's top.
pub const UPPER_FLOOR_HEIGHT: f32 = 4.2;
/// Where the beacon (something to walk to on the upper floor) stands.
pub const BEACON: Vec3 = Vec3::new(-23.0, UPPER_FLOOR_HEIGHT, -23.0);

/// The lift node's rest position: the centre of the platform's bottom, on the ground.
pub const LIFT_REST: Vec3 = Vec3::new(-14.75, 0.0, -21.0);
/// The lift platform's size (its top is 0.2 m above the ground at rest).
pub const LIFT_SIZE: Vec3 = Vec3::new(2.4, 0.2, 2.4);
/// From rest to the top: the platform's top arrives flush with the upper floor.
pub const LIFT_TRAVEL: Vec3 = Vec3::new(0.0, 4.0, 0.0);
/// Lift speed, m/s.
pub const LIFT_SPEED: f32 = 1.5;
/// Lift wait at each end, seconds.
pub const LIFT_PAUSE_S: f32 = 2.0;

/// The stack of one-way platforms (extras `{"one_way":true}`), lowest
/// first: each its own node (name, and the corners of its 3 × 0.2 × 3 m
/// box). Their tops are 0.8 m apart (a jump raises the feet 1.0 m), each
/// overlapping the one below by half along −z, so the player jumps up
/// through each from below the next and drops back down through them; the
/// ground cannot be jumped from onto the second. Left of the ramps.
pub const ONE_WAY_STACK: [(&str, Vec3, Vec3); 3] = [
    ("OneWay_080", Vec3::new(-33.0, 0.6, 3.0), Vec3::new(-30.0, 0.8, 6.0)),
    ("OneWay_160", Vec3::new(-33.0, 1.4, 1.5), Vec3::new(-30.0, 1.6, 4.5)),
    ("OneWay_240", Vec3::new(-33.0, 2.2, 0.0), Vec3::new(-30.0, 2.4, 3.0)),
];

/// The kill zone (node `KillZone`, extras `{"sensor":"kill"}`): a 2 m
/// thick slab whose top is 20 m below the ground's top, 20 m beyond the
/// ground on every side, so a player who falls out of the level respawns.
pub const KILL_ZONE: (Vec3, Vec3) = (Vec3::new(-60.0, -22.0, -60.0), Vec3::new(60.0, -20.0, 60.0));

/// The checkpoint (node `Checkpoint`, extras `{"sensor":"checkpoint"}`):
/// a 2 × 2.5 × 2 m volume standing on the upper floor, 2 m in from where
/// the lift arrives, so riding the lift up and stepping off moves the
/// player's respawn point up there.
pub const CHECKPOINT: (Vec3, Vec3) = (
    Vec3::new(-20.0, UPPER_FLOOR_HEIGHT, -22.0),
    Vec3::new(-18.0, UPPER_FLOOR_HEIGHT + 2.5, -20.0),
);

/// The name of the sensor over the ball room (node `BallRoomSensor`,
/// extras `{"sensor":"ball room"}`): an event, shown in the HUD.
pub const BALL_ROOM_SENSOR: &str = "ball room";
/// The ball room sensor's volume: the room's inside, 2.5 m high.
pub const BALL_ROOM_AREA: (Vec3, Vec3) = (Vec3::new(10.0, 0.0, -22.0), Vec3::new(22.0, 2.5, -10.0));

/// The crowd barrier (node `crowd_barrier`, extras
/// `{"layers":{"collides":["crowd","balls"]}}`): a 0.1 m panel across the
/// ball room's entrance, as high as its walls (1 cm short of each side of
/// the gap). It keeps the crowd out and the balls in; the player walks
/// through it.
pub const CROWD_BARRIER: (Vec3, Vec3) = (
    Vec3::new(BALL_ROOM_ENTRANCE.0 + 0.01, 0.0, BALL_ROOM.max.y + 0.1),
    Vec3::new(BALL_ROOM_ENTRANCE.1 - 0.01, BALL_ROOM_WALL, BALL_ROOM.max.y + 0.2),
);

/// The window in the ball room's +x wall (its z range) that the grate fills.
pub const GRATE_OPENING: (f32, f32) = (-18.0, -14.0);
/// The grate (node `grate`, extras `{"layers":{"collides":["player","crowd"]}}`):
/// the box it fills in the ball room's +x wall, x ∈ [22.12, 22.18]: 15
/// square bars [`GRATE_BAR`] wide, 0.25 m apart (0.19 m clear), under a
/// 0.1 m top rail across the window. It stops the player and the crowd;
/// the balls fly through it, out of the ball room.
pub const GRATE: (Vec3, Vec3) = (
    Vec3::new(22.12, 0.0, GRATE_OPENING.0),
    Vec3::new(22.18, BALL_ROOM_WALL, GRATE_OPENING.1),
);
/// Width of the grate's bars (and of its rail), metres.
pub const GRATE_BAR: f32 = 0.06;
/// Distance between the grate's bars' centres, metres.
pub const GRATE_PITCH: f32 = 0.25;

/// The moves course (nodes `moves_*`, materials `MovesCourse`,
/// `Climbable` and `LaunchPad`): a piece for each move of the character's,
/// each facing +z (approached walking along −z, yaw 0) with clear floor in
/// front. All but the dash gap stand in a row behind the back row (z −39.5
/// … −26, from the left wall to the launch pad at x 9.5); the dash gap runs
/// along −z on the right (x 31 … 34, z −5.75 … −25).
///
/// The chimney: two 9 m walls [`MOVES_SHAFT_WALL`] thick either side of a
/// clear space 1.5 m wide and 2.5 m deep (this box; open at the front,
/// z = −31), closed at the back by a wall 7 m tall, as tall as
/// [`MOVES_SHAFT_TOP`] behind it (node `moves_shaft`: the walls and the
/// back wall).
pub const MOVES_SHAFT: (Vec3, Vec3) = (Vec3::new(-36.75, 0.0, -33.5), Vec3::new(-35.25, 9.0, -31.0));
/// Thickness of the shaft's three walls, metres.
pub const MOVES_SHAFT_WALL: f32 = 0.5;
/// The platform behind the shaft (node `moves_shaft_top`): a block whose
/// top (7 m) continues the shaft's back wall's top, so a character that
/// has climbed the shaft steps back onto it from the shaft's inner space.
pub const MOVES_SHAFT_TOP: (Vec3, Vec3) = (Vec3::new(-37.25, 0.0, -37.0), Vec3::new(-34.75, 7.0, -34.0));

/// Three ledges to climb onto (nodes, boxes 2.5 m wide and 2 m deep,
/// fronts at z = −33), tops at 0.9, 1.3 and 1.8 m, 3.5 m apart, with
/// 7 m of clear floor in front (to the upper floor's back at z = −26).
pub const MOVES_LEDGES: [(&str, Vec3, Vec3); 3] = [
    (
        "moves_ledge_090",
        Vec3::new(-30.0, 0.0, -35.0),
        Vec3::new(-27.5, 0.9, -33.0),
    ),
    (
        "moves_ledge_130",
        Vec3::new(-24.0, 0.0, -35.0),
        Vec3::new(-21.5, 1.3, -33.0),
    ),
    (
        "moves_ledge_180",
        Vec3::new(-18.0, 0.0, -35.0),
        Vec3::new(-15.5, 1.8, -33.0),
    ),
];

/// The climbing wall (node `moves_ladder`, extras `{"climbable":true}`):
/// 3 m wide, 2 m deep, 4 m tall, its front at z = −33; its top is
/// reachable only by climbing.
pub const MOVES_LADDER: (Vec3, Vec3) = (Vec3::new(-12.0, 0.0, -35.0), Vec3::new(-9.0, 4.0, -33.0));

/// The dash gap's ramp and first platform (nodes `moves_dash_ramp` and
/// `moves_dash_from`): a 20° ramp up along −z from the floor at
/// z ≈ −5.75 to the platform's top at 1 m, 3 m wide, 4 m of run-up on it
/// (z −8.5 … −12.5) before the gap.
pub const MOVES_DASH_FROM: Ramp = Ramp {
    name: "moves_dash_ramp",
    platform_name: "moves_dash_from",
    platform_foot: Vec3::new(32.5, 0.0, -8.5),
    dir: Vec3::NEG_Z,
    width: 3.0,
    angle_deg: 20.0,
    height: 1.0,
    platform_depth: 4.0,
    walkable: true,
};
/// The gap between the dash platforms along −z, metres (the floor below it).
pub const MOVES_DASH_GAP: f32 = 8.5;
/// The centre of the dash gap on the floor, where the node
/// `moves_dash_gap` (without a mesh) stands.
pub fn moves_dash_gap_centre() -> Vec3 {
    let r = MOVES_DASH_FROM;
    r.platform_foot + r.dir * (r.platform_depth + MOVES_DASH_GAP / 2.0)
}
/// The platform across the gap (node `moves_dash_to`): 3 m wide, 4 m long, top at 1 m.
pub const MOVES_DASH_TO: (Vec3, Vec3) = (Vec3::new(31.0, 0.0, -25.0), Vec3::new(34.0, 1.0, -21.0));

/// A free-standing platform 3 × 3 m with its top at 1.9 m (node
/// `moves_air_jump`): beyond one jump, within two.
pub const MOVES_AIR_JUMP: (Vec3, Vec3) = (Vec3::new(-1.5, 0.0, -35.0), Vec3::new(1.5, 1.9, -32.0));

/// The launch pad (node `moves_launch_pad`, extras
/// `{"launch":[0.0,12.0,0.0]}`): 1.5 × 1.5 m, 0.1 m thick, on the floor.
pub const MOVES_LAUNCH_PAD: (Vec3, Vec3) = (Vec3::new(7.25, 0.0, -31.25), Vec3::new(8.75, 0.1, -29.75));
/// The launch pad's velocity, m/s (world frame).
pub const MOVES_LAUNCH_VELOCITY: Vec3 = Vec3::new(0.0, 12.0, 0.0);
/// The platform the launch pad throws up to (node `moves_launch_top`):
/// 3 × 3 m, top at 6 m, 1.5 m behind the pad (along −z).
pub const MOVES_LAUNCH_TOP: (Vec3, Vec3) = (Vec3::new(6.5, 0.0, -35.75), Vec3::new(9.5, 6.0, -32.75));

/// The bumpy patch's height and its partial derivatives at (x, z) (f64):
/// two products of sines, ±0.11 m at most, zero on the patch's border.
pub fn bump_height(x: f64, z: f64) -> (f64, f64, f64) {
    let (r, pi) = (BUMPY_PATCH, std::f64::consts::PI);
    let (w, d) = ((r.max.x - r.min.x) as f64, (r.max.y - r.min.y) as f64);
    let (u, v) = ((x - r.min.x as f64) / w, (z - r.min.y as f64) / d);
    let mut y = 0.0;
    let (mut dx, mut dz) = (0.0, 0.0);
    for (amp, ku, kv) in [(0.08, 3.0, 3.0), (0.03, 7.0, 5.0)] {
        let (a, b) = (ku * pi * u, kv * pi * v);
        y += amp * a.sin() * b.sin();
        dx += amp * ku * pi / w * a.cos() * b.sin();
        dz += amp * kv * pi / d * a.sin() * b.cos();
    }
    // sin(kπ) is not exactly 0 in floating point: keep the border on the ground.
    let on_border = u <= 0.0 || u >= 1.0 || v <= 0.0 || v >= 1.0;
    (if on_border { 0.0 } else { y }, dx, dz)
}
