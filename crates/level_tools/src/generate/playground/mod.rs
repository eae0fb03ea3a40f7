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
//! | −37 … −29.75 | the moves course: `moves_shaft` x −37.25…−34.75 (open at z −31, `moves_shaft_top` behind it), `moves_ledge_090`, `moves_ledge_130`, `moves_ledge_180` −30…−15.5, `moves_ladder` −12…−9 | `moves_air_jump` −1.5…1.5 | `moves_launch_pad` 7.25…8.75 (z −31.25…−29.75), `moves_launch_top` 6.5…9.5 behind it |
//! | −26 … −6 | `UpperFloor` −26…−16 (4.2 m, `Beacon` and the `Checkpoint` sensor on it), `Lift` at x −14.75, z −21 | `Rooms` −4…4 (room B z −22…−14, `Door` at z −14, room A z −14…−6) | `BallRoom` 10…22, z −22…−10 (the `BallRoomSensor` in it, `crowd_barrier` across its entrance at z −9.85, the `grate` in its +x wall at z −18…−14); the moves course's dash gap x 31…34, along −z from z −5.75: `moves_dash_ramp`, `moves_dash_from`, the gap, `moves_dash_to` (z −21…−25) |
//! | 0 … 10 | the one-way stack `OneWay_080`, `OneWay_160`, `OneWay_240` at x −33…−30, z 0…6; ramps climbing along −z to platforms at z 0…4: 55° at −22.5, 40° at −17.5, 30° at −12.5, 15° at −7.5 | open | `Pillars` 7…14.5, `ThinWall` 18…22 (z 6), `NarrowCorridor` x 26 (z 2…10), `LowCeiling` x 32 (z 4…8) |
//! | 18 … 24 | `Ledge_070` −21…−17, `Stairs_030` −15…−12, `Stairs_015` −10…−7 (up along −z from z 24) | open | `FineGrid` 6…10, `BumpyPatch` 13…19, `IcePatch` 22…28 |
//! | 30 | | `Spawn` (0, 0, 30) on the `StartPad` | |
//!
//! Under it all, the `KillZone` sensor (y −22…−20, x and z −60…60).
//!
//! The nodes with the filtering extras come last
//! (`docs/levels.md`, "One-way platforms, collision layers and sensors"):
//!
//! | node | extras | what it does |
//! |---|---|---|
//! | `OneWay_080`, `OneWay_160`, `OneWay_240` | `"one_way": true` | 3 × 0.2 × 3 m platforms with tops at 0.8, 1.6 and 2.4 m, each overlapping the one below by half: jumped up through and landed on, dropped down through |
//! | `crowd_barrier` | `"layers": {"collides": ["crowd", "balls"]}` | across the ball room's entrance: the crowd and the balls are stopped, the player walks through |
//! | `grate` | `"layers": {"collides": ["player", "crowd"]}` | 15 bars in a 4 m window of the ball room's +x wall: the player and the crowd are stopped, the balls fly through |
//! | `KillZone` | `"sensor": "kill"` | 20 m under the ground: a player who falls out respawns |
//! | `Checkpoint` | `"sensor": "checkpoint"` | on the upper floor by the lift: the player respawns there from then on |
//! | `BallRoomSensor` | `"sensor": "ball room"` | the ball room's inside: an event when entered, shown in the HUD |
//!
//! The moves course comes after them (`moves`; `MOVES_*` in `layout`):
//! a piece for each move of the character's, every one facing +z (walked
//! up to along −z, yaw 0) with clear floor in front: a 1.5 m chimney 9 m
//! tall with a platform at 7 m behind it, ledges with tops at 0.9, 1.3 and
//! 1.8 m, a 4 m wall with `"climbable": true`, two 1 m platforms 8.5 m
//! apart to dash across, a 1.9 m platform for an air jump, and a launch
//! pad (`"launch": [0.0, 12.0, 0.0]`) 1.5 m in front of a 6 m platform.
//!
//! The feel course comes last (`feel`; `FEEL_*` in `feel_layout`): behind
//! the spawn, the two walkways (`"conveyor"` ±2 m/s along x, x 6 … 18, z
//! 26.5 … 30.5), the 2.5 m ledge to hang from (x 21 … 27, z 27.5 … 30) and
//! the strafe-jump run (1.5 m platforms over a 5.8 m pit, x −16 … 22.8, z
//! 35 … 39); at the back left, the 60° surf ramp (x −31 … −17, z 29.5 …
//! 33.25) between its stairs (2.5 m) and its landing; down the left side,
//! the slide under a low bar (x −38 … −35, z 14 … 28) and the pool (3 m of
//! `"water": true` in walls 3.5 m high, x −31.5 … −24.5, z 11 … 21).
//! Nothing 2.65 m high or more stands within 8 m of the boundary walls:
//! from there a jump and a step up would reach their tops.
//!
//! Every feature is its own named node with its own material (one base
//! colour per feature kind, no textures, not metallic). The level carries no
//! lights: the game adds its own (a sun and ambient light); the colours are
//! mid-tones chosen to stay distinct under any white light (the crowd
//! barrier and the sensors' volumes see-through). Every solid is
//! closed; floor patches fill holes in the ground slab exactly, so the ground
//! is one closed solid too. All positions below are where the geometry is,
//! for tests and scripted walks.
//!
//! The shapes features are described by are in `shapes`, where each one is
//! in `layout`, their colours in `materials`, and the document built from
//! them in `build` (the nodes with filtering extras in `filtering`, the
//! moves course in `moves`, the feel course in `feel`).

mod build;
mod feel;
mod feel_layout;
mod filtering;
mod layout;
mod materials;
mod moves;
mod nodes;
mod shapes;

pub use build::document;
pub use feel_layout::*;
pub use layout::*;
pub use shapes::{Flight, Ramp, Rect};
