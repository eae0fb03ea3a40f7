//! The `world` target's recorders: two systems in the plugin's schedule
//! that copy what each tick began and ended with (the characters, the
//! colliders' transforms and rules, the sensor messages) for the
//! reference to check.

use super::scene::Shaped;
use super::shapes::ShapeData;
use bevy::prelude::*;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk::{CharacterState, sweep};
use glam::Affine3A;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A collider as a tick ended with it.
#[derive(Clone)]
pub struct ColliderSeen {
    pub entity: Entity,
    pub shape: Arc<ShapeData>,
    /// Its `GlobalTransform`.
    pub global: Affine3A,
    /// Its `Transform` composed with its ancestors': what the
    /// `GlobalTransform` must be once the plugin's tick propagated it.
    pub expected: Affine3A,
    pub layers: sweep::CollisionLayers,
    /// `OneWay::direction`, local.
    pub one_way: Option<Vec3>,
    pub sensor: bool,
}

/// A character as a tick began and ended with it.
#[derive(Clone)]
pub struct CharacterSeen {
    pub entity: Entity,
    pub active: bool,
    /// The state the tick started from (after the plugin's `Prepare`), and
    /// whether the game wrote its transform or config since the last
    /// tick (the plugin then changes the state before the move: a
    /// teleport of the centre, a reshape).
    pub before: Option<(CharacterState, bool)>,
    pub after: CharacterState,
    pub config_valid: bool,
    pub report: MovementReport,
    pub layers: sweep::CollisionLayers,
}

/// One tick, as recorded after the plugin's `Step`.
pub struct TickSeen {
    pub colliders: Vec<ColliderSeen>,
    pub characters: Vec<CharacterSeen>,
    /// (sensor, character), in the order written.
    pub entered: Vec<(Entity, Entity)>,
    pub left: Vec<(Entity, Entity)>,
}

/// Ticks recorded since the driver last took them.
#[derive(Resource, Default)]
pub(super) struct Recorded(pub Vec<TickSeen>);

/// Characters whose transform or config the game wrote since their last
/// tick.
#[derive(Resource, Default)]
pub(super) struct Unsure(pub HashSet<Entity>);

/// Each character's state at the start of this tick's step.
#[derive(Resource, Default)]
pub(super) struct Befores(HashMap<Entity, (CharacterState, bool)>);

pub(super) fn record_before(
    characters: Query<(Entity, &MovementState, &CharacterController)>,
    mut unsure: ResMut<Unsure>,
    mut befores: ResMut<Befores>,
) {
    befores.0.clear();
    for (e, state, controller) in &characters {
        // An inactive character takes its new config when it is active again.
        let unsure = if controller.active {
            unsure.0.remove(&e)
        } else {
            unsure.0.contains(&e)
        };
        befores.0.insert(e, (state.0, unsure));
    }
}

type ColliderRow<'a> = (
    Entity,
    &'a Shaped,
    &'a GlobalTransform,
    Option<&'a SlidewalkLayers>,
    Option<&'a OneWay>,
    Has<SlidewalkSensor>,
);

type CharacterRow<'a> = (
    Entity,
    &'a CharacterController,
    &'a MovementState,
    &'a MovementReport,
    Option<&'a SlidewalkLayers>,
);

pub(super) fn record_after(
    colliders: Query<ColliderRow>,
    nodes: Query<(&Transform, Option<&ChildOf>)>,
    characters: Query<CharacterRow>,
    mut entered: MessageReader<EnteredSensor>,
    mut left: MessageReader<LeftSensor>,
    befores: Res<Befores>,
    mut recorded: ResMut<Recorded>,
) {
    let expected = |e: Entity| {
        let mut chain = Vec::new();
        let mut at = Some(e);
        while let Some(e) = at {
            let Ok((t, parent)) = nodes.get(e) else { break };
            chain.push(*t);
            at = parent.map(ChildOf::parent);
        }
        let mut global = GlobalTransform::IDENTITY;
        for t in chain.iter().rev() {
            global = global.mul_transform(*t);
        }
        global.affine()
    };
    let colliders = colliders
        .iter()
        .map(|(entity, shape, global, layers, one_way, sensor)| ColliderSeen {
            entity,
            shape: shape.0.clone(),
            global: global.affine(),
            expected: expected(entity),
            layers: layers.copied().unwrap_or_default().core(),
            one_way: one_way.map(|o| o.direction),
            sensor,
        })
        .collect();
    let characters = characters
        .iter()
        .map(|(entity, controller, state, report, layers)| CharacterSeen {
            entity,
            active: controller.active,
            before: befores.0.get(&entity).copied(),
            after: state.0,
            config_valid: controller.config.validate().is_ok(),
            report: report.clone(),
            layers: layers.copied().unwrap_or_default().core(),
        })
        .collect();
    recorded.0.push(TickSeen {
        colliders,
        characters,
        entered: entered.read().map(|m| (m.sensor, m.character)).collect(),
        left: left.read().map(|m| (m.sensor, m.character)).collect(),
    });
}
