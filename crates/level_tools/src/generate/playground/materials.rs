//! The playground's materials: one base colour per feature kind (no
//! textures, not metallic), mid-tones that stay distinct under any white
//! light; the crowd barrier and the sensors' volumes are see-through.

use crate::generate::glb::Document;

/// The playground's materials, in the order the document lists them
/// (each an index into the document's materials).
pub(super) struct Materials {
    pub(super) ground: usize,
    pub(super) boundary: usize,
    pub(super) start: usize,
    pub(super) stairs: usize,
    pub(super) ledge: usize,
    pub(super) fine: usize,
    pub(super) bumpy: usize,
    pub(super) ice: usize,
    pub(super) ramp: usize,
    pub(super) steep: usize,
    pub(super) platform: usize,
    pub(super) pillar: usize,
    pub(super) thin: usize,
    pub(super) corridor: usize,
    pub(super) low: usize,
    pub(super) room: usize,
    pub(super) door: usize,
    pub(super) ball: usize,
    pub(super) upper: usize,
    pub(super) beacon: usize,
    pub(super) lift: usize,
    pub(super) one_way: usize,
    pub(super) barrier: usize,
    pub(super) grate: usize,
    pub(super) kill: usize,
    pub(super) checkpoint: usize,
    pub(super) area: usize,
    pub(super) moves: usize,
    pub(super) climbable: usize,
    pub(super) launch: usize,
    pub(super) feel: usize,
    pub(super) surf: usize,
    pub(super) water: usize,
    pub(super) bar: usize,
    pub(super) walkway: usize,
    pub(super) arrows: usize,
}

impl Materials {
    /// Adds them to `doc`, in order.
    pub(super) fn add(doc: &mut Document) -> Self {
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
        let one_way = doc.material("OneWay", [0.60, 0.85, 0.20]);
        // Layered and sensor volumes are see-through: the player walks
        // through the barrier and into the sensors.
        let barrier = doc.translucent_material("CrowdBarrier", [0.35, 0.30, 0.95], 0.5);
        let grate = doc.material("Grate", [0.18, 0.20, 0.24]);
        let kill = doc.translucent_material("KillZone", [0.90, 0.10, 0.10], 0.35);
        let checkpoint = doc.translucent_material("Checkpoint", [0.20, 0.95, 0.45], 0.35);
        let area = doc.translucent_material("SensorArea", [1.00, 0.95, 0.55], 0.15);
        // The moves course: one colour for its pieces, its own for what
        // gives a move (the climbable wall, the launch pad).
        let moves = doc.material("MovesCourse", [0.20, 0.50, 0.45]);
        let climbable = doc.material("Climbable", [0.95, 0.62, 0.22]);
        let launch = doc.material("LaunchPad", [1.00, 0.20, 0.60]);
        doc.materials[launch].emissive = [0.6, 0.1, 0.35];
        // The feel course: one colour for its pieces, its own for the surf
        // ramp, the water (see-through), the low bar, the walkways and the
        // chevrons on them (pointing the way they move).
        let feel = doc.material("FeelCourse", [0.62, 0.52, 0.78]);
        let surf = doc.material("SurfRamp", [0.95, 0.55, 0.35]);
        let water = doc.translucent_material("Water", [0.10, 0.45, 0.85], 0.45);
        doc.materials[water].roughness = 0.1;
        let bar = doc.material("LowBar", [0.98, 0.78, 0.05]);
        let walkway = doc.material("Walkway", [0.24, 0.26, 0.30]);
        let arrows = doc.material("WalkwayArrow", [0.95, 0.95, 0.92]);
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
            one_way,
            barrier,
            grate,
            kill,
            checkpoint,
            area,
            moves,
            climbable,
            launch,
            feel,
            surf,
            water,
            bar,
            walkway,
            arrows,
        }
    }
}
