//! The summary a headless run prints as one JSON object.

use glam::Vec3;
use serde_json::json;

/// What a headless run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Fixed ticks simulated.
    pub ticks: u64,
    /// Where the feet ended, metres.
    pub final_position: Vec3,
    /// Standing on ground at the end.
    pub grounded: bool,
    /// Ticks spent in the air.
    pub airborne_ticks: u64,
    /// Deepest penetration after any tick, eSpace units (fraction of the radius).
    pub max_penetration: f32,
    /// Fell below the level's bounds at least once.
    pub fell_out: bool,
    /// Times the player was put back at the spawn point.
    pub respawns: u32,
    /// Contacts met, all passes of all ticks.
    pub contacts: u64,
    /// Wall-clock time per tick (the whole simulation schedule), microseconds.
    pub micros_per_tick: f64,
    /// Time per tick spent in the player's tick (controller, squeezes,
    /// bookkeeping), microseconds; the rest of `micros_per_tick` is the engine.
    pub player_micros_per_tick: f64,
    /// Step-ups taken.
    pub step_ups: u64,
    /// Jumps (from the ground and in the air; wall jumps are counted apart).
    pub jumps: u64,
    /// Jumps in the air.
    pub air_jumps: u64,
    /// Dashes started.
    pub dashes: u64,
    /// Wall jumps.
    pub wall_jumps: u64,
    /// Mantles started.
    pub mantles: u64,
    /// Ticks spent climbing.
    pub climb_ticks: u64,
    /// Launches (a launch pad, a knockback).
    pub launches: u64,
    /// Ticks in which the controller reported the player crushed.
    pub crushed_ticks: u64,
    /// Highest the feet got, metres along y.
    pub max_height: f32,
    /// Largest horizontal world speed reached at a tick's end (the speed
    /// across "up", the ground's own included), m/s.
    pub max_horizontal_speed: f32,
    /// Ticks spent swimming.
    pub swim_ticks: u64,
    /// Jumps out of the water onto a ledge (Quake's water jump).
    pub water_jumps: u64,
    /// Crouch-slides started.
    pub slides: u64,
    /// Ledges grabbed.
    pub ledge_grabs: u64,
    /// Landings faster than the hard landing speed.
    pub hard_landings: u64,
    /// Agents of the crowd at the end (`--crowd N`).
    pub crowd_agents: usize,
    /// Mean wall-clock time of a crowd step over the ticks that had
    /// agents, microseconds (0 without agents).
    pub crowd_micros_per_step: f64,
    /// The player entering and leaving the level's sensors, in order:
    /// the sensor's name (its `"sensor"` extras: `kill`, `checkpoint` or
    /// the level's own), whether it was entered (`true`) or left, and the
    /// tick (1 = the first).
    pub sensor_events: Vec<(String, bool, u64)>,
    /// Where the last checkpoint reached put the respawn point (the feet),
    /// metres; `None` when none was reached.
    pub checkpoint: Option<Vec3>,
    /// A digest of the simulation's state at the end (hexadecimal): equal
    /// on two peers of a network game that agree, and on two builds that
    /// simulate the same.
    pub checksum: Option<String>,
}

impl Summary {
    /// The summary as a JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        let p = self.final_position;
        json!({
            "ticks": self.ticks,
            "final_position": [p.x, p.y, p.z],
            "grounded": self.grounded,
            "airborne_ticks": self.airborne_ticks,
            "max_penetration": self.max_penetration,
            "fell_out": self.fell_out,
            "respawns": self.respawns,
            "contacts": self.contacts,
            "micros_per_tick": self.micros_per_tick,
            "player_micros_per_tick": self.player_micros_per_tick,
            "step_ups": self.step_ups,
            "jumps": self.jumps,
            "air_jumps": self.air_jumps,
            "dashes": self.dashes,
            "wall_jumps": self.wall_jumps,
            "mantles": self.mantles,
            "climb_ticks": self.climb_ticks,
            "launches": self.launches,
            "crushed_ticks": self.crushed_ticks,
            "max_height": self.max_height,
            "max_horizontal_speed": self.max_horizontal_speed,
            "swim_ticks": self.swim_ticks,
            "water_jumps": self.water_jumps,
            "slides": self.slides,
            "ledge_grabs": self.ledge_grabs,
            "hard_landings": self.hard_landings,
            "crowd_agents": self.crowd_agents,
            "crowd_micros_per_step": self.crowd_micros_per_step,
            "sensor_events": self
                .sensor_events
                .iter()
                .map(|(name, entered, tick)| json!([name, if *entered { "entered" } else { "left" }, tick]))
                .collect::<Vec<_>>(),
            "checkpoint": self.checkpoint.map(|c| [c.x, c.y, c.z]),
            "checksum": self.checksum,
        })
    }
}
