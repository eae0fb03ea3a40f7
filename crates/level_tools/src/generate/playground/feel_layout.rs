//! Where the feel course is (metres, y up): the pieces for the moves of
//! Quake's and Source's feel (surfing, strafe jumping, swimming and the
//! water jump, the crouch-slide, hanging from a ledge, conveyors), nodes
//! `feel_*`, behind the spawn (z 26.5 … 39) and down the left side (x −38
//! … −24.5, z 11 … 28), each a metre or more from everything else (the
//! scripts in `assets/scripts/` that play them rely on these numbers).

use super::shapes::{Flight, Ramp};
use glam::Vec3;

/// The stairs up to the surf start (node `feel_surf_stairs`): 0.25 m
/// risers and 0.3 m treads up along +x from x −36.7, z 29.3 … 32.3; their
/// 3 m landing at 2.5 m (x −34 … −31) is where a surf starts, beside the
/// ramp's near end. (No higher: from 2.65 m up, a jump and a step up reach
/// the top of the 4 m boundary walls.)
pub const FEEL_SURF_STAIRS: Flight = Flight {
    name: "feel_surf_stairs",
    base: Vec3::new(-36.7, 0.0, 30.8),
    dir: Vec3::X,
    width: 3.0,
    rise: 0.25,
    run: 0.3,
    steps: 10,
    landing: 3.0,
};

/// The surf ramp (node `feel_surf_ramp`): a 60° slope 14 m long (x −31
/// … −17) facing −z, rising from the floor at z ≈ 29.5 to 6.5 m at z
/// 33.25, with a vertical back. Too steep to stand on: a body in the air
/// against it keeps its speed along it, and strafing into it holds it up.
/// `platform_depth` is 0: there is no platform behind it.
pub const FEEL_SURF_RAMP: Ramp = Ramp {
    name: "feel_surf_ramp",
    platform_name: "",
    platform_foot: Vec3::new(-24.0, 0.0, 33.25),
    dir: Vec3::Z,
    width: 14.0,
    angle_deg: 60.0,
    height: 6.5,
    platform_depth: 0.0,
    walkable: false,
};

/// The landing beyond the surf ramp's far end (node `feel_surf_landing`):
/// 8 m long, top at 0.5 m, against the ramp's end.
pub const FEEL_SURF_LANDING: (Vec3, Vec3) = (Vec3::new(-17.0, 0.0, 29.0), Vec3::new(-9.0, 0.5, 34.0));

/// The stairs up to the strafe-jump run (node `feel_strafe_stairs`): 0.25
/// m risers and 0.3 m treads up along +x from x −17.8 to its first
/// platform, z 35 … 39.
pub const FEEL_STRAFE_STAIRS: Flight = Flight {
    name: "feel_strafe_stairs",
    base: Vec3::new(-17.8, 0.0, 37.0),
    dir: Vec3::X,
    width: 4.0,
    rise: 0.25,
    run: 0.3,
    steps: 6,
    landing: 0.3,
};
/// The strafe-jump run's first platform (node `feel_strafe_from`): 1.5 m
/// high (beyond a jump and a step up from the floor: the gap is a pit to
/// a character that does not mantle), 4 m wide, 25 m of run-up along +x
/// to the gap, behind the spawn.
pub const FEEL_STRAFE_FROM: (Vec3, Vec3) = (Vec3::new(-16.0, 0.0, 35.0), Vec3::new(9.0, 1.5, 39.0));
/// The gap between the strafe-jump platforms along +x, metres (the floor
/// below it): beyond a jump at walking speed.
pub const FEEL_STRAFE_GAP: f32 = 5.8;
/// The platform across the gap (node `feel_strafe_to`): 1.5 m high, 8 m long.
pub const FEEL_STRAFE_TO: (Vec3, Vec3) = (Vec3::new(14.8, 0.0, 35.0), Vec3::new(22.8, 1.5, 39.0));

/// The centre of the strafe-jump gap on the floor, where the node
/// `feel_strafe_gap` (without a mesh) stands.
pub fn feel_strafe_gap_centre() -> Vec3 {
    let (from, to) = (FEEL_STRAFE_FROM, FEEL_STRAFE_TO);
    Vec3::new((from.1.x + to.0.x) / 2.0, 0.0, (from.0.z + from.1.z) / 2.0)
}

/// The pool's inside (node `feel_pool`, the basin: walls 3.5 m high
/// around it, 1 m thick at the sides and the near end, 2 m at the far end,
/// standing on the floor, 8 m from the level's boundary walls: from
/// nearer, a jump off their tops would clear those): 5 × 7 m, x −30.5 …
/// −25.5, z 13 … 20.
pub const FEEL_POOL: (Vec3, Vec3) = (Vec3::new(-30.5, 0.0, 13.0), Vec3::new(-25.5, 3.5, 20.0));
/// The pool's walls: thickness at the sides and near (+z) end, and at the
/// far (−z) end, metres.
pub const FEEL_POOL_WALLS: (f32, f32) = (1.0, 2.0);
/// The water (node `feel_pool_water`, extras `{"water":true}`): the
/// pool's inside up to 3 m, so its surface is 0.5 m below the walls' tops.
pub const FEEL_POOL_WATER: (Vec3, Vec3) = (Vec3::new(-30.5, 0.0, 13.0), Vec3::new(-25.5, 3.0, 20.0));
/// The stairs up to the pool's near wall (node `feel_pool_stairs`): 0.25
/// m risers, 0.4 m treads, up along −z from z 27.2 to the wall at z 21.
pub const FEEL_POOL_STAIRS: Flight = Flight {
    name: "feel_pool_stairs",
    base: Vec3::new(-28.0, 0.0, 27.2),
    dir: Vec3::NEG_Z,
    width: 3.0,
    rise: 0.25,
    run: 0.4,
    steps: 14,
    landing: 1.0,
};

/// The way up to the slide: a 20° ramp up along −z from the floor
/// (z ≈ 28) to a 1.5 m platform with 4 m of run-up, z 23.9 … 19.9 (nodes
/// `feel_slide_up` and `feel_slide_top`), x −38 … −35.
pub const FEEL_SLIDE_UP: Ramp = Ramp {
    name: "feel_slide_up",
    platform_name: "feel_slide_top",
    platform_foot: Vec3::new(-36.5, 0.0, 23.9),
    dir: Vec3::NEG_Z,
    width: 3.0,
    angle_deg: 20.0,
    height: 1.5,
    platform_depth: 4.0,
    walkable: true,
};
/// The slope slid down (node `feel_slide_slope`): 15°, from the platform's
/// far edge (z 19.9) down along −z to the floor (z ≈ 14.3).
pub const FEEL_SLIDE_SLOPE: Ramp = Ramp {
    name: "feel_slide_slope",
    platform_name: "",
    platform_foot: Vec3::new(-36.5, 0.0, 19.9),
    dir: Vec3::Z,
    width: 3.0,
    angle_deg: 15.0,
    height: 1.5,
    platform_depth: 0.0,
    walkable: true,
};
/// The low bar across the slope (node `feel_slide_bar`, with its two
/// posts): 0.3 m deep (z 17 … 17.3), its underside [`FEEL_SLIDE_BAR_CLEAR`]
/// above the slope's surface under its middle.
pub const FEEL_SLIDE_BAR_Z: (f32, f32) = (17.0, 17.3);
/// Clear height under the bar above the slope, metres: below a standing
/// player (1.8 m), above a crouched one (1.1 m).
pub const FEEL_SLIDE_BAR_CLEAR: f32 = 1.45;

/// The ledge to hang from (node `feel_hang_wall`): a block 6 m wide, 2.5
/// m high and 2.5 m deep, its face at z 27.5 facing −z (walked up to
/// along +z, yaw 180°).
pub const FEEL_HANG_WALL: (Vec3, Vec3) = (Vec3::new(21.0, 0.0, 27.5), Vec3::new(27.0, 2.5, 30.0));

/// The moving walkways (nodes `feel_walkway_east` and `feel_walkway_west`,
/// extras `{"conveyor":[2.0,0.0,0.0]}` and `[-2.0,0.0,0.0]`): 12 × 1.5 m,
/// 0.2 m high, side by side along x.
pub const FEEL_WALKWAYS: [(&str, Vec3, Vec3, Vec3); 2] = [
    (
        "feel_walkway_east",
        Vec3::new(6.0, 0.0, 26.5),
        Vec3::new(18.0, 0.2, 28.0),
        Vec3::new(2.0, 0.0, 0.0),
    ),
    (
        "feel_walkway_west",
        Vec3::new(6.0, 0.0, 29.0),
        Vec3::new(18.0, 0.2, 30.5),
        Vec3::new(-2.0, 0.0, 0.0),
    ),
];
