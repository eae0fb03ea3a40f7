//! The level's sensors in play, found right after each player's tick
//! (the plugin's [`SensorOverlaps`], found from where the player is now,
//! against the sensors it was in, kept in [`InSensors`] so a rollback
//! restores them; the plugin's messages are for what is shown and are not
//! written again when a rollback simulates a tick again): a kill zone respawns the
//! player (at the next tick, through
//! [`Feedback`](super::feedback::Feedback)), a checkpoint moves the
//! respawn point, any other sensor is told on screen and listed while the
//! player is in it, and a door's trigger zone opens the door while the
//! player is in it. Every change goes into the run's summary.

use super::feedback::PlayerFeedback;
use super::level::{CurrentLevel, DoorTrigger, LevelSensor};
use super::player::{LocalPlayer, Player, RunStats, after_tick};
use super::schedule::SimSet;
use crate::notices::TickNotices;
use bevy::prelude::*;
use bevy_slidewalk::{SensorOverlaps, SlidewalkSystems};
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

/// The sensors a player overlapped at the end of the last tick (in the
/// order the collision world gives them): state, so that entering and
/// leaving are found again the same way when a tick is simulated again.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct InSensors(pub Vec<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayerSensors>()
        .register_required_components::<Player, InSensors>()
        .add_systems(
            FixedUpdate,
            on_sensors
                .after(SlidewalkSystems::Step)
                .after(after_tick)
                .in_set(SimSet::Player),
        );
}

/// A player's components [`on_sensors`] reads and writes.
type PlayerInSensors<'a> = (
    Entity,
    &'a Player,
    &'a mut InSensors,
    &'a mut PlayerFeedback,
    Has<LocalPlayer>,
);

/// What each player's entering and leaving sensors this tick does (found
/// from the sensors the plugin found each player in after this tick, not
/// from its messages, which a tick simulated again does not write twice).
#[allow(clippy::too_many_arguments)]
fn on_sensors(
    overlaps: Res<SensorOverlaps>,
    mut players: Query<PlayerInSensors>,
    sensors: Query<&LevelSensor>,
    mut triggers: Query<(Entity, &mut DoorTrigger)>,
    mut current: ResMut<CurrentLevel>,
    mut stats: ResMut<RunStats>,
    mut inside: ResMut<PlayerSensors>,
    mut notices: TickNotices,
) {
    if inside.generation != current.generation {
        // Another level: its sensors are not the last one's.
        *inside = PlayerSensors {
            names: Vec::new(),
            generation: current.generation,
        };
    }
    let mut occupied = Vec::new();
    // In slot order: the same on every peer of a network game (the last
    // checkpoint entered in a tick is the one kept).
    let mut players: Vec<_> = players.iter_mut().collect();
    players.sort_by_key(|p| p.1.slot);
    for (entity, _, mut was, mut feedback, local) in players {
        let now = overlaps.of(entity);
        let changes: Vec<(Entity, bool)> = was
            .0
            .iter()
            .filter(|s| !now.contains(s))
            .map(|&s| (s, false))
            .chain(now.iter().filter(|s| !was.0.contains(s)).map(|&s| (s, true)))
            .collect();
        occupied.extend(now.iter().copied().filter(|s| triggers.contains(*s)));
        if was.0 != now {
            was.0 = now.to_vec();
        }
        for (sensor, is_in) in changes {
            if triggers.contains(sensor) {
                continue;
            }
            let Ok(s) = sensors.get(sensor) else { continue };
            if local {
                let tick = stats.summary.ticks;
                stats
                    .summary
                    .sensor_events
                    .push((s.kind.word().to_string(), is_in, tick));
            }
            match (&s.kind, is_in) {
                (SensorKind::Kill, true) => {
                    feedback.killed = true;
                    if local {
                        stats.summary.respawns += 1;
                        notices.info(format!("{}: back at the respawn point", s.node));
                    }
                }
                (SensorKind::Checkpoint, true) => {
                    let yaw = current.respawn_point().yaw;
                    current.checkpoint = Some(Spawn { position: s.base, yaw });
                    if local {
                        stats.summary.checkpoint = Some(s.base);
                        notices.info(format!("checkpoint {}: you will respawn here", s.node));
                    }
                }
                (SensorKind::Named(name), true) if local => {
                    inside.names.push(name.clone());
                    notices.info(format!("entered {name}"));
                }
                (SensorKind::Named(name), false) if local => inside.names.retain(|n| n != name),
                _ => {}
            }
        }
    }
    // A door's zone is occupied while any player is in it.
    for (entity, mut trigger) in &mut triggers {
        let is_in = occupied.contains(&entity);
        if trigger.occupied != is_in {
            trigger.occupied = is_in;
        }
    }
}
