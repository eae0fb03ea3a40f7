//! The demo level, `playground.glb`: one of every feature the character
//! controller has to handle, laid out on an 80 × 80 m walled ground plane.
//!
//! Metres, y up. The player spawns at [`SPAWN`] looking along −z: the low
//! features (stairs, the 0.7 m ledge, floor patches) are nearest, the ramps,
//! pillars, thin wall and passages in the middle, the tall ones (rooms with
//! the door, the ball room, the lift and its upper floor) at the back, so
//! every feature is in sight from the spawn.
//!
//! Seen from the spawn, far to near (x ranges in metres; −x is left):
//!
//! | z | left (x < 0) | centre | right (x > 0) |
//! |---|---|---|---|
//! | −26 … −6 | `UpperFloor` −26…−16 (4.2 m, `Beacon` on it), `Lift` at x −14.75, z −21 | `Rooms` −4…4 (room B z −22…−14, `Door` at z −14, room A z −14…−6) | `BallRoom` 10…22, z −22…−10 |
//! | 0 … 10 | ramps climbing along −z to platforms at z 0…4: 55° at −22.5, 40° at −17.5, 30° at −12.5, 15° at −7.5 | open | `Pillars` 7…14.5, `ThinWall` 18…22 (z 6), `NarrowCorridor` x 26 (z 2…10), `LowCeiling` x 32 (z 4…8) |
//! | 18 … 24 | `Ledge_070` −21…−17, `Stairs_030` −15…−12, `Stairs_015` −10…−7 (up along −z from z 24) | open | `FineGrid` 6…10, `BumpyPatch` 13…19, `IcePatch` 22…28 |
//! | 30 | | `Spawn` (0, 0, 30) on the `StartPad` | |
//!
//! Every feature is its own named node with its own material (one base
//! colour per feature kind, no textures, not metallic). The level carries no
//! lights: the game adds its own (a sun and ambient light); the colours are
//! mid-tones chosen to stay distinct under any white light. Every solid is
//! closed; floor patches fill holes in the ground slab exactly, so the ground
//! is one closed solid too. All positions below are where the geometry is,
//! for tests and scripted walks.

use super::glb::{Document, NodeDef};
use super::mesh::MeshData;
use glam::{Vec2, Vec3};

/// An axis-aligned rectangle on the ground: `min`/`max` are (x, z) in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Smallest (x, z).
    pub min: Vec2,
    /// Largest (x, z).
    pub max: Vec2,
}

impl Rect {
    /// The rectangle from (`x0`, `z0`) to (`x1`, `z1`).
    pub const fn new(x0: f32, z0: f32, x1: f32, z1: f32) -> Self {
        Self {
            min: Vec2::new(x0, z0),
            max: Vec2::new(x1, z1),
        }
    }

    /// Its centre on the ground (y = 0).
    pub fn centre(&self) -> Vec3 {
        let c = (self.min + self.max) / 2.0;
        Vec3::new(c.x, 0.0, c.y)
    }
}

/// A flight of stairs ending in a landing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    /// Node name.
    pub name: &'static str,
    /// Centre of the foot of the first riser (on the ground).
    pub base: Vec3,
    /// Horizontal unit direction going up.
    pub dir: Vec3,
    /// Width across `dir`, metres.
    pub width: f32,
    /// Height of each riser, metres.
    pub rise: f32,
    /// Depth of each tread (except the landing), metres.
    pub run: f32,
    /// Number of risers (the last step is the landing).
    pub steps: u32,
    /// Depth of the landing (the top step), metres.
    pub landing: f32,
}

impl Flight {
    /// Height of the landing.
    pub fn top(&self) -> f32 {
        self.steps as f32 * self.rise
    }

    /// Horizontal distance from the first riser to the back of the landing.
    pub fn length(&self) -> f32 {
        (self.steps - 1) as f32 * self.run + self.landing
    }

    /// Centre of the top of step `i` (0 = lowest; `steps - 1` = the landing).
    pub fn tread_centre(&self, i: u32) -> Vec3 {
        let u0 = i as f32 * self.run;
        let u1 = if i + 1 == self.steps {
            u0 + self.landing
        } else {
            u0 + self.run
        };
        self.base + self.dir * ((u0 + u1) / 2.0) + Vec3::Y * ((i + 1) as f32 * self.rise)
    }
}

/// A ramp leading up to a platform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ramp {
    /// Node name of the ramp.
    pub name: &'static str,
    /// Node name of its platform.
    pub platform_name: &'static str,
    /// Centre of the platform's front edge on the ground (where the ramp's
    /// back face meets the platform).
    pub platform_foot: Vec3,
    /// Horizontal unit direction going up.
    pub dir: Vec3,
    /// Width of ramp and platform, metres.
    pub width: f32,
    /// Slope, degrees from horizontal (= the surface normal's angle from vertical).
    pub angle_deg: f32,
    /// Height of the platform, metres.
    pub height: f32,
    /// Depth of the platform along `dir`, metres.
    pub platform_depth: f32,
    /// Meant to be walked up (drawn in the walkable ramp colour) or too steep.
    pub walkable: bool,
}

impl Ramp {
    /// Horizontal length of the slope.
    pub fn run(&self) -> f32 {
        (self.height as f64 / (self.angle_deg as f64).to_radians().tan()) as f32
    }

    /// Centre of the ramp's low edge (on the ground).
    pub fn base(&self) -> Vec3 {
        self.platform_foot - self.dir * self.run()
    }

    /// The point of the slope on its centre line, `d` metres (horizontally) up from the base.
    pub fn surface_at(&self, d: f32) -> Vec3 {
        let tan = (self.angle_deg as f64).to_radians().tan() as f32;
        self.base() + self.dir * d + Vec3::Y * (d * tan)
    }

    /// The slope's unit surface normal.
    pub fn normal(&self) -> Vec3 {
        let a = (self.angle_deg as f64).to_radians();
        (Vec3::Y * a.cos() as f32 - self.dir * a.sin() as f32).normalize()
    }

    /// Centre of the platform's top.
    pub fn platform_centre(&self) -> Vec3 {
        self.platform_foot + self.dir * (self.platform_depth / 2.0) + Vec3::Y * self.height
    }
}

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

/// Inside of the ball room (walls [`BALL_ROOM_WALL`] high, 0.3 m thick,
/// open above), entered through a gap x ∈ [15.2, 16.8] in its +z wall.
pub const BALL_ROOM: Rect = Rect::new(10.0, -22.0, 22.0, -10.0);
/// Height of the ball room's walls.
pub const BALL_ROOM_WALL: f32 = 2.0;
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

/// The playground's materials, in the order the document lists them.
struct Materials {
    ground: usize,
    boundary: usize,
    start: usize,
    stairs: usize,
    ledge: usize,
    fine: usize,
    bumpy: usize,
    ice: usize,
    ramp: usize,
    steep: usize,
    platform: usize,
    pillar: usize,
    thin: usize,
    corridor: usize,
    low: usize,
    room: usize,
    door: usize,
    ball: usize,
    upper: usize,
    beacon: usize,
    lift: usize,
}

impl Materials {
    fn add(doc: &mut Document) -> Self {
        let ground = doc.material("Ground", [0.40, 0.44, 0.38]);
        let boundary = doc.material("BoundaryWall", [0.55, 0.50, 0.45]);
        let start = doc.material("StartPad", [0.95, 0.80, 0.20]);
        let stairs = doc.material("Stairs", [0.90, 0.50, 0.15]);
        let ledge = doc.material("Ledge", [0.60, 0.28, 0.12]);
        let fine = doc.material("FineGrid", [0.65, 0.72, 0.85]);
        let bumpy = doc.material("Bumpy", [0.80, 0.68, 0.45]);
        let ice = doc.material("Ice", [0.80, 0.95, 1.00]);
        doc.materials[ice].roughness = 0.1;
        let ramp = doc.material("Ramp", [0.30, 0.65, 0.30]);
        let steep = doc.material("SteepRamp", [0.85, 0.15, 0.15]);
        let platform = doc.material("Platform", [0.55, 0.58, 0.66]);
        let pillar = doc.material("Pillar", [0.88, 0.88, 0.82]);
        let thin = doc.material("ThinWall", [0.20, 0.80, 0.85]);
        let corridor = doc.material("Corridor", [0.20, 0.35, 0.80]);
        let low = doc.material("LowCeiling", [0.55, 0.25, 0.75]);
        let room = doc.material("RoomWall", [0.90, 0.84, 0.72]);
        let door = doc.material("Door", [0.45, 0.26, 0.12]);
        let ball = doc.material("BallRoom", [0.92, 0.45, 0.65]);
        let upper = doc.material("UpperFloor", [0.32, 0.38, 0.52]);
        let beacon = doc.material("Beacon", [1.00, 0.35, 0.05]);
        doc.materials[beacon].emissive = [1.0, 0.35, 0.05];
        let lift = doc.material("Lift", [1.00, 0.82, 0.10]);
        Self {
            ground,
            boundary,
            start,
            stairs,
            ledge,
            fine,
            bumpy,
            ice,
            ramp,
            steep,
            platform,
            pillar,
            thin,
            corridor,
            low,
            room,
            door,
            ball,
            upper,
            beacon,
            lift,
        }
    }
}

/// A node of `primitives` (material, mesh) called `name`.
fn node(name: &str, primitives: Vec<(usize, MeshData)>) -> NodeDef {
    NodeDef {
        name: name.into(),
        primitives,
        ..Default::default()
    }
}

/// A mesh built by `f`.
fn one(f: &dyn Fn(&mut MeshData)) -> MeshData {
    let mut m = MeshData::default();
    f(&mut m);
    m
}

/// The playground as a glTF document.
pub fn document() -> Document {
    let mut doc = Document {
        scene_name: "Playground".into(),
        ..Default::default()
    };
    let materials = Materials::add(&mut doc);
    ground_and_start(&mut doc, &materials);
    near_row(&mut doc, &materials);
    ramps(&mut doc, &materials);
    obstacles(&mut doc, &materials);
    rooms_and_door(&mut doc, &materials);
    ball_room(&mut doc, &materials);
    upper_floor_and_lift(&mut doc, &materials);
    doc
}

/// The ground slab (with holes the floor patches fill), its boundary walls,
/// the spawn node and the start pad.
fn ground_and_start(doc: &mut Document, materials: &Materials) {
    let holes = [START_PAD, FINE_GRID, BUMPY_PATCH, ICE_PATCH];
    doc.nodes.push(node(
        "Ground",
        vec![(materials.ground, one(&|m| ground_slab(m, GROUND, GROUND_DEPTH, &holes)))],
    ));
    doc.nodes.push(node(
        "BoundaryWalls",
        vec![(
            materials.boundary,
            one(&|m| {
                let (g, t, h) = (GROUND, BOUNDARY_THICKNESS, BOUNDARY_HEIGHT);
                m.cuboid(Vec3::new(g.min.x, 0.0, g.min.y), Vec3::new(g.max.x, h, g.min.y + t));
                m.cuboid(Vec3::new(g.min.x, 0.0, g.max.y - t), Vec3::new(g.max.x, h, g.max.y));
                m.cuboid(
                    Vec3::new(g.min.x, 0.0, g.min.y + t),
                    Vec3::new(g.min.x + t, h, g.max.y - t),
                );
                m.cuboid(
                    Vec3::new(g.max.x - t, 0.0, g.min.y + t),
                    Vec3::new(g.max.x, h, g.max.y - t),
                );
            }),
        )],
    ));
    doc.nodes.push(NodeDef {
        name: "Spawn".into(),
        translation: Some(SPAWN),
        extras: Some(r#"{"slidewalk":"spawn"}"#.into()),
        ..Default::default()
    });
    doc.nodes.push(node(
        "StartPad",
        vec![(materials.start, one(&|m| flat_patch(m, START_PAD, 1)))],
    ));
}

/// The near row: the two flights of stairs, the 0.7 m ledge and the floor
/// patches (fine grid, bumps, ice).
fn near_row(doc: &mut Document, materials: &Materials) {
    for flight in [STAIRS_015, STAIRS_030] {
        let mesh = one(&|m| {
            m.stairs(
                flight.base,
                flight.dir,
                flight.width,
                flight.rise,
                flight.run,
                flight.steps,
                flight.landing,
            )
        });
        doc.nodes.push(node(flight.name, vec![(materials.stairs, mesh)]));
    }
    doc.nodes.push(node(
        "Ledge_070",
        vec![(materials.ledge, one(&|m| m.cuboid(LEDGE_070.0, LEDGE_070.1)))],
    ));
    doc.nodes.push(node(
        "FineGrid",
        vec![(materials.fine, one(&|m| flat_patch(m, FINE_GRID, FINE_GRID_CELLS)))],
    ));
    doc.nodes.push(node(
        "BumpyPatch",
        vec![(
            materials.bumpy,
            one(&|m| {
                let r = BUMPY_PATCH;
                m.heightfield((r.min.x, r.min.y), (r.max.x, r.max.y), BUMPY_CELLS, bump_height);
            }),
        )],
    ));
    doc.nodes.push(NodeDef {
        extras: Some(format!(r#"{{"friction":{ICE_FRICTION}}}"#)),
        ..node("IcePatch", vec![(materials.ice, one(&|m| flat_patch(m, ICE_PATCH, 1)))])
    });
}

/// The middle row: the ramps and the platforms at their tops.
fn ramps(doc: &mut Document, materials: &Materials) {
    for ramp in RAMPS {
        let material = if ramp.walkable { materials.ramp } else { materials.steep };
        let wedge = one(&|m| m.wedge(ramp.platform_foot, ramp.dir, ramp.width, ramp.height, ramp.run()));
        doc.nodes.push(node(ramp.name, vec![(material, wedge)]));
        let platform = one(&|m| {
            let far = ramp.platform_foot + ramp.dir * ramp.platform_depth;
            let side = Vec3::Y.cross(ramp.dir) * (ramp.width / 2.0);
            let (a, b) = (ramp.platform_foot - side, far + side + Vec3::Y * ramp.height);
            m.cuboid(a.min(b), a.max(b));
        });
        doc.nodes
            .push(node(ramp.platform_name, vec![(materials.platform, platform)]));
    }
}

/// The middle row, right: pillars, the thin wall, the narrow corridor and
/// the low passage.
fn obstacles(doc: &mut Document, materials: &Materials) {
    let pillars = one(&|m| {
        for p in PILLARS {
            m.cylinder(p, PILLAR_RADIUS, PILLAR_HEIGHT, PILLAR_SEGMENTS);
        }
    });
    doc.nodes.push(node("Pillars", vec![(materials.pillar, pillars)]));
    doc.nodes.push(node(
        "ThinWall",
        vec![(materials.thin, one(&|m| m.cuboid(THIN_WALL.0, THIN_WALL.1)))],
    ));
    let corridor = one(&|m| {
        let (r, t, h) = (NARROW_CORRIDOR, PASSAGE_WALL, CORRIDOR_HEIGHT);
        m.cuboid(Vec3::new(r.min.x - t, 0.0, r.min.y), Vec3::new(r.min.x, h, r.max.y));
        m.cuboid(Vec3::new(r.max.x, 0.0, r.min.y), Vec3::new(r.max.x + t, h, r.max.y));
    });
    doc.nodes
        .push(node("NarrowCorridor", vec![(materials.corridor, corridor)]));
    let low = one(&|m| {
        let (r, t, h) = (LOW_CEILING, PASSAGE_WALL, LOW_CEILING_HEIGHT);
        m.cuboid(Vec3::new(r.min.x - t, 0.0, r.min.y), Vec3::new(r.min.x, h, r.max.y));
        m.cuboid(Vec3::new(r.max.x, 0.0, r.min.y), Vec3::new(r.max.x + t, h, r.max.y));
        m.cuboid(
            Vec3::new(r.min.x - t, h, r.min.y),
            Vec3::new(r.max.x + t, h + t, r.max.y),
        );
    });
    doc.nodes.push(node("LowCeiling", vec![(materials.low, low)]));
}

/// The back row: the two rooms and the hinged door between them.
fn rooms_and_door(doc: &mut Document, materials: &Materials) {
    let rooms = one(&|m| {
        let (r, t, h) = (ROOMS, ROOM_WALL, ROOM_WALL_HEIGHT);
        let (e, (dw, dh)) = (ROOM_ENTRANCE_HALF_WIDTH, DOORWAY);
        let b = |x0: f32, y0: f32, z0: f32, x1: f32, y1: f32, z1: f32| (Vec3::new(x0, y0, z0), Vec3::new(x1, y1, z1));
        let walls = [
            b(r.min.x - t, 0.0, r.min.y - t, r.min.x, h, r.max.y + t), // −x
            b(r.max.x, 0.0, r.min.y - t, r.max.x + t, h, r.max.y + t), // +x
            b(r.min.x, 0.0, r.min.y - t, r.max.x, h, r.min.y),         // back (−z)
            b(r.min.x, 0.0, r.max.y, -e, h, r.max.y + t),              // front, left of the entrance
            b(e, 0.0, r.max.y, r.max.x, h, r.max.y + t),               // front, right of the entrance
            b(r.min.x, 0.0, DIVIDER_Z - t / 2.0, -dw / 2.0, h, DIVIDER_Z + t / 2.0), // divider, left
            b(dw / 2.0, 0.0, DIVIDER_Z - t / 2.0, r.max.x, h, DIVIDER_Z + t / 2.0), // divider, right
            b(-dw / 2.0, dh, DIVIDER_Z - t / 2.0, dw / 2.0, h, DIVIDER_Z + t / 2.0), // lintel
        ];
        for (lo, hi) in walls {
            m.cuboid(lo, hi);
        }
    });
    doc.nodes.push(node("Rooms", vec![(materials.room, rooms)]));
    let leaf = one(&|m| {
        let s = DOOR_SIZE;
        m.cuboid(Vec3::new(0.0, 0.01, -s.z / 2.0), Vec3::new(s.x, 0.01 + s.y, s.z / 2.0));
    });
    doc.nodes.push(NodeDef {
        name: "Door".into(),
        translation: Some(DOOR_HINGE),
        extras: Some(format!(
            r#"{{"slidewalk":"door","door":"hinge","axis":[0,1,0],"angle_deg":{DOOR_ANGLE_DEG},"open_s":{DOOR_OPEN_S},"trigger_m":{DOOR_TRIGGER_M}}}"#
        )),
        primitives: vec![(materials.door, leaf)],
        ..Default::default()
    });
}

/// The back row, right: the ball room.
fn ball_room(doc: &mut Document, materials: &Materials) {
    let ball_walls = one(&|m| {
        let (r, t, h) = (BALL_ROOM, 0.3, BALL_ROOM_WALL);
        let (g0, g1) = (15.2, 16.8);
        m.cuboid(
            Vec3::new(r.min.x - t, 0.0, r.min.y - t),
            Vec3::new(r.min.x, h, r.max.y + t),
        );
        m.cuboid(
            Vec3::new(r.max.x, 0.0, r.min.y - t),
            Vec3::new(r.max.x + t, h, r.max.y + t),
        );
        m.cuboid(Vec3::new(r.min.x, 0.0, r.min.y - t), Vec3::new(r.max.x, h, r.min.y));
        m.cuboid(Vec3::new(r.min.x, 0.0, r.max.y), Vec3::new(g0, h, r.max.y + t));
        m.cuboid(Vec3::new(g1, 0.0, r.max.y), Vec3::new(r.max.x, h, r.max.y + t));
    });
    let ball_pillars = one(&|m| {
        for p in BALL_ROOM_PILLARS {
            m.cylinder(p, 0.4, BALL_ROOM_WALL, PILLAR_SEGMENTS);
        }
    });
    doc.nodes.push(node(
        "BallRoom",
        vec![(materials.ball, ball_walls), (materials.pillar, ball_pillars)],
    ));
}

/// The back row, left: the upper floor, its beacon, and the lift up to it.
fn upper_floor_and_lift(doc: &mut Document, materials: &Materials) {
    let upper = one(&|m| {
        let (r, y) = (UPPER_FLOOR, UPPER_FLOOR_HEIGHT);
        let (t, rail) = (0.2, y + 1.0);
        m.cuboid(Vec3::new(r.min.x, 0.0, r.min.y), Vec3::new(r.max.x, y, r.max.y));
        m.cuboid(Vec3::new(r.min.x, y, r.min.y), Vec3::new(r.max.x, rail, r.min.y + t));
        m.cuboid(
            Vec3::new(r.min.x, y, r.min.y + t),
            Vec3::new(r.min.x + t, rail, r.max.y),
        );
        m.cuboid(
            Vec3::new(r.min.x + t, y, r.max.y - t),
            Vec3::new(r.max.x, rail, r.max.y),
        );
        let (gap0, gap1) = (
            LIFT_REST.z - LIFT_SIZE.z / 2.0 - 0.2,
            LIFT_REST.z + LIFT_SIZE.z / 2.0 + 0.2,
        );
        m.cuboid(Vec3::new(r.max.x - t, y, r.min.y + t), Vec3::new(r.max.x, rail, gap0));
        m.cuboid(Vec3::new(r.max.x - t, y, gap1), Vec3::new(r.max.x, rail, r.max.y - t));
    });
    doc.nodes.push(node("UpperFloor", vec![(materials.upper, upper)]));
    doc.nodes.push(node(
        "Beacon",
        vec![(materials.beacon, one(&|m| m.cylinder(BEACON, 0.5, 1.2, 24)))],
    ));
    let platform = one(&|m| {
        let h = LIFT_SIZE * Vec3::new(0.5, 1.0, 0.5);
        m.cuboid(Vec3::new(-h.x, 0.0, -h.z), h);
    });
    doc.nodes.push(NodeDef {
        name: "Lift".into(),
        translation: Some(LIFT_REST),
        extras: Some(format!(
            r#"{{"slidewalk":"lift","travel":[{},{},{}],"speed":{LIFT_SPEED},"pause_s":{LIFT_PAUSE_S}}}"#,
            LIFT_TRAVEL.x, LIFT_TRAVEL.y, LIFT_TRAVEL.z
        )),
        primitives: vec![(materials.lift, platform)],
        ..Default::default()
    });
}

/// A flat floor patch at y = 0 over `r`, `cells × cells` squares.
fn flat_patch(m: &mut MeshData, r: Rect, cells: u32) {
    m.grid((r.min.x, r.min.y), (r.max.x, r.max.y), 0.0, cells);
}

/// The ground slab over `outer`, `depth` thick, top at y = 0, with
/// rectangular holes in its top (to be filled by floor patches). The top is
/// split into rectangles along the holes' x edges.
fn ground_slab(m: &mut MeshData, outer: Rect, depth: f32, holes: &[Rect]) {
    let mut xs = vec![outer.min.x, outer.max.x];
    xs.extend(holes.iter().flat_map(|h| [h.min.x, h.max.x]));
    xs.sort_by(f32::total_cmp);
    xs.dedup();
    let quad = |m: &mut MeshData, x0: f32, z0: f32, x1: f32, z1: f32| {
        let p = |x, z| Vec3::new(x, 0.0, z);
        m.polygon(&[p(x0, z0), p(x1, z0), p(x1, z1), p(x0, z1)], Vec3::Y);
    };
    for w in xs.windows(2) {
        let (x0, x1) = (w[0], w[1]);
        let mut cuts: Vec<(f32, f32)> = holes
            .iter()
            .filter(|h| h.min.x <= x0 && h.max.x >= x1)
            .map(|h| (h.min.y, h.max.y))
            .collect();
        cuts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut z = outer.min.y;
        for (z0, z1) in cuts {
            if z0 > z {
                quad(m, x0, z, x1, z0);
            }
            z = z.max(z1);
        }
        if outer.max.y > z {
            quad(m, x0, z, x1, outer.max.y);
        }
    }
    m.box_faces(
        Vec3::new(outer.min.x, -depth, outer.min.y),
        Vec3::new(outer.max.x, 0.0, outer.max.y),
        false,
    );
}
