//! Sensors reported: after every tick, each character's overlapping
//! [`SlidewalkSensor`](crate::SlidewalkSensor)s are found and compared with
//! the last tick's, and [`EnteredSensor`] and [`LeftSensor`] written for
//! what changed, exactly once each: walking in and out, spawned inside,
//! teleported out, a sensor moving away or despawned, a character
//! despawned. What each character overlaps now is read from
//! [`SensorOverlaps`], so a game that needs it every tick (say, with
//! rollback, where the messages are not written again) does not ask the
//! collision world a second time.

use crate::character::MovementState;
use crate::rules::SlidewalkLayers;
use crate::shown::ShownEvents;
use crate::world::CollisionWorld;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use slidewalk_sweep::Ellipsoid;

/// A character came to overlap a sensor this tick (or was spawned
/// overlapping it).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnteredSensor {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The character's entity.
    pub character: Entity,
}

/// A character stopped overlapping a sensor this tick: it moved out (or
/// was moved), the sensor moved away or lost its rules, or either was
/// despawned (the entity named may no longer exist).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeftSensor {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The character's entity.
    pub character: Entity,
}

/// The sensors each character overlaps, as the plugin found them at the
/// end of the last tick ([`SlidewalkSystems::Step`](crate::SlidewalkSystems::Step)):
/// read it from systems after that set. It is what [`EnteredSensor`] and
/// [`LeftSensor`] are found against, so it always agrees with them (a
/// character is in a sensor from its `EnteredSensor` until its
/// `LeftSensor`), and it is kept even when a rollback simulates a tick
/// again and those messages are not written twice.
#[derive(Resource, Clone, Debug, Default)]
pub struct SensorOverlaps {
    by_character: HashMap<Entity, Vec<Entity>>,
}

impl SensorOverlaps {
    /// The sensors `character` overlaps, in the order the collision world
    /// gives them (`CollisionWorld::overlapping_sensors`; the same on every
    /// machine); empty for a character in none, for an entity that is not
    /// a character and for one that is not yet ticked.
    pub fn of(&self, character: Entity) -> &[Entity] {
        self.by_character.get(&character).map_or(&[], Vec::as_slice)
    }
}

/// Finds every character's sensors now and writes what changed: for each
/// character in entity order, what it left, then what it entered.
pub(crate) fn detect_sensors(
    world: Res<CollisionWorld>,
    characters: Query<(Entity, &MovementState, Option<&SlidewalkLayers>)>,
    mut overlaps: ResMut<SensorOverlaps>,
    mut entered: MessageWriter<EnteredSensor>,
    mut left: MessageWriter<LeftSensor>,
    mut shown: ResMut<ShownEvents>,
) {
    if world.sensor_count() == 0 && overlaps.by_character.is_empty() {
        return;
    }
    let mut now: HashMap<Entity, Vec<Entity>> = HashMap::default();
    for (character, state, layers) in &characters {
        let Ok(ellipsoid) = Ellipsoid::new(state.radii) else {
            continue;
        };
        let mut inside = Vec::new();
        world.overlapping_sensors(
            &ellipsoid,
            state.position,
            layers.copied().unwrap_or_default(),
            &mut inside,
        );
        if !inside.is_empty() {
            now.insert(character, inside);
        }
    }
    let mut touched: Vec<Entity> = now.keys().chain(overlaps.by_character.keys()).copied().collect();
    touched.sort_unstable();
    touched.dedup();
    let none = Vec::new();
    for character in touched {
        let (was, is) = (
            overlaps.by_character.get(&character).unwrap_or(&none),
            now.get(&character).unwrap_or(&none),
        );
        for &sensor in was.iter().filter(|s| !is.contains(s)) {
            shown.write(&mut left, character, Some(sensor), LeftSensor { sensor, character });
        }
        for &sensor in is.iter().filter(|s| !was.contains(s)) {
            shown.write(
                &mut entered,
                character,
                Some(sensor),
                EnteredSensor { sensor, character },
            );
        }
    }
    overlaps.by_character = now;
}
