//! The other players of a network game, drawn: each one's ellipsoid as a
//! coloured body where its character is (the plugin's transform), and a
//! line on screen while the session waits for the peer.

use crate::sim::player::{LocalPlayer, Player};
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy_slidewalk::MovementState;

/// The body drawn for another player's character: which one it follows.
#[derive(Component, Debug)]
struct OtherBody(Entity);

/// Colours of the players' bodies, by slot.
const COLOURS: [Color; 4] = [
    Color::srgb(0.95, 0.45, 0.25),
    Color::srgb(0.25, 0.6, 0.95),
    Color::srgb(0.4, 0.85, 0.35),
    Color::srgb(0.9, 0.8, 0.25),
];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        (dress_other_players, follow_others)
            .chain()
            .before(TransformSystems::Propagate),
    );
}

/// Each other player gets a body the first time it is seen (an entity of
/// its own: the character stays a root with no children, as rollback
/// snapshots it).
fn dress_other_players(
    players: Query<(Entity, &Player), Without<LocalPlayer>>,
    bodies: Query<&OtherBody>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut commands: Commands,
) {
    for (entity, player) in &players {
        if bodies.iter().any(|b| b.0 == entity) {
            continue;
        }
        commands.spawn((
            Name::new(format!("body of player {}", player.slot + 1)),
            OtherBody(entity),
            Mesh3d(meshes.add(Sphere::new(1.0).mesh().uv(32, 18))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: COLOURS[player.slot % COLOURS.len()],
                perceptual_roughness: 0.5,
                ..default()
            })),
            Transform::default(),
        ));
    }
}

/// Each body where its character is drawn, scaled to its radii.
fn follow_others(
    players: Query<(&Transform, &MovementState), With<Player>>,
    mut bodies: Query<(&OtherBody, &mut Transform), Without<Player>>,
) {
    for (body, mut t) in &mut bodies {
        if let Ok((at, state)) = players.get(body.0) {
            *t = Transform::from_translation(at.translation).with_scale(state.radii);
        }
    }
}
