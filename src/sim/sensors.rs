//! The level's sensors in play, read from the plugin's `EnteredSensor` and
//! `LeftSensor` right after the player's tick: a kill zone respawns the
//! player (at the next tick, through [`Feedback`]), a checkpoint moves the
//! respawn point, any other sensor is told on screen and listed while the
//! player is in it, and a door's trigger zone opens the door while the
//! player is in it. Every change goes into the run's summary.

use super::feedback::Feedback;
use super::level::{CurrentLevel, DoorTrigger, LevelSensor};
use super::player::{Player, RunStats, after_tick};
use super::schedule::SimSet;
use crate::notices::Notices;
use bevy::prelude::*;
use bevy_slidewalk::{EnteredSensor, LeftSensor, SlidewalkSystems};
use slidewalk_level::{SensorKind, Spawn};

/// The named sensors the player is in, in the order entered (the HUD
/// lists them).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PlayerSensors {
    /// Their names.
    pub names: Vec<String>,
    /// The level generation they are in.
    generation: u32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayerSensors>().add_systems(
        FixedUpdate,
        on_sensors
            .after(SlidewalkSystems::Step)
            .after(after_tick)
            .in_set(SimSet::Player),
    );
}

/// What the player's entering and leaving sensors this tick does.
#[allow(clippy::too_many_arguments)]
fn on_sensors(
    mut entered: MessageReader<EnteredSensor>,
    mut left: MessageReader<LeftSensor>,
    players: Query<(), With<Player>>,
    sensors: Query<&LevelSensor>,
    mut triggers: Query<&mut DoorTrigger>,
    mut current: ResMut<CurrentLevel>,
    mut feedback: ResMut<Feedback>,
    mut stats: ResMut<RunStats>,
    mut inside: ResMut<PlayerSensors>,
    mut notices: ResMut<Notices>,
) {
    let changes = left
        .read()
        .map(|m| (m.sensor, m.character, false))
        .chain(entered.read().map(|m| (m.sensor, m.character, true)));
    let changes: Vec<_> = changes.filter(|&(_, c, _)| players.contains(c)).collect();
    if inside.generation != current.generation {
        // Another level: its sensors are not the last one's.
        *inside = PlayerSensors {
            names: Vec::new(),
            generation: current.generation,
        };
    }
    for (sensor, _, is_in) in changes {
        if let Ok(mut trigger) = triggers.get_mut(sensor) {
            trigger.occupied = is_in;
            continue;
        }
        let Ok(s) = sensors.get(sensor) else { continue };
        let word = s.kind.word().to_string();
        let tick = stats.summary.ticks;
        stats.summary.sensor_events.push((word.clone(), is_in, tick));
        match (&s.kind, is_in) {
            (SensorKind::Kill, true) => {
                feedback.killed = true;
                stats.summary.respawns += 1;
                notices.info(format!("{}: back at the respawn point", s.node));
            }
            (SensorKind::Checkpoint, true) => {
                let yaw = current.respawn_point().yaw;
                current.checkpoint = Some(Spawn { position: s.base, yaw });
                stats.summary.checkpoint = Some(s.base);
                notices.info(format!("checkpoint {}: you will respawn here", s.node));
            }
            (SensorKind::Named(name), true) => {
                inside.names.push(name.clone());
                notices.info(format!("entered {name}"));
            }
            (SensorKind::Named(name), false) => inside.names.retain(|n| n != name),
            _ => {}
        }
    }
}
