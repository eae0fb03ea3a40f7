//! What the panel, the keys and the tests ask of the balls
//! ([`BallControl`]): new settings (checked first), clearing, and a rain
//! of balls onto the player's head.

use super::pit::{BallControl, BallPit};
use super::solids::{BallLevel, PLACEMENT_SWEEP_SECONDS};
use crate::notices::Notices;
use crate::sim::colliders::Colliders;
use crate::sim::player::Player;
use crate::sim::schedule::SimSet;
use bevy::prelude::*;
use bevy_slidewalk::MovementState;
use slidewalk_balls::{Ball, Solids};

pub(super) fn plugin(app: &mut App) {
    // Before the tick (see `tick::plugin`).
    app.add_systems(FixedUpdate, control_balls.in_set(SimSet::Balls));
}

pub(super) fn control_balls(
    mut controls: MessageReader<BallControl>,
    mut pit: ResMut<BallPit>,
    mut notices: ResMut<Notices>,
    colliders: Colliders,
    players: Query<&MovementState, With<Player>>,
    net: Option<Res<crate::sim::launch::NetPlayers>>,
) {
    if net.is_some() {
        if controls.read().count() > 0 {
            notices.info("the balls' settings are locked during a network game");
        }
        return;
    }
    for control in controls.read() {
        match control {
            BallControl::Settings(s) => match s.validate() {
                Ok(()) => pit.apply(*s),
                Err(e) => notices.error(format!("balls: {e}")),
            },
            BallControl::Clear => {
                pit.clear();
                notices.info("balls cleared");
            }
            BallControl::Rain(count) => {
                let Some(body) = players.iter().next() else { continue };
                rain(&mut pit, &mut notices, &colliders, body, *count);
            }
        }
    }
}

/// Drops `count` balls onto the player's head from 6 m above it (just
/// under a ceiling if one is lower), in a loose cloud; says how many found
/// no room.
fn rain(pit: &mut BallPit, notices: &mut Notices, colliders: &Colliders, body: &MovementState, count: usize) {
    let up = body.up;
    let head = body.position + up * slidewalk_controller::frame::extent_along(body.radii, up);
    let eye = crate::sim::player::eye(body.position, body.radii, up);
    let radius = pit.settings.radius;
    let for_balls = BallLevel::new(colliders);
    let level = for_balls.obstacles();
    let mut placed = 0;
    for k in 0..count {
        // A golden-angle spiral 6 m up, so the drops do not start
        // inside each other; each as high as the level leaves room
        // for between the head and there (under a ceiling, just under it).
        let angle = k as f32 * 2.399_963;
        let spread = radius * 3.0 * (k as f32).sqrt();
        let across = Vec3::new(angle.cos(), 0.0, angle.sin()) * spread;
        // Swept from the eye (the player fits under any
        // ceiling above it), over the head, up and out.
        let from = eye;
        let path = head + up * (radius + 0.05) - eye + across + up * (6.0 + (k % 7) as f32 * radius * 3.0);
        let to = match level.sweep(
            from,
            radius,
            path / PLACEMENT_SWEEP_SECONDS,
            0.0,
            PLACEMENT_SWEEP_SECONDS,
        ) {
            Some(hit) if hit.time <= 1e-4 * PLACEMENT_SWEEP_SECONDS => continue,
            Some(hit) => from + path * (hit.time / PLACEMENT_SWEEP_SECONDS - 1e-3 / path.length()).max(0.0),
            None => from + path,
        };
        let clear_of_others = pit
            .simulation
            .balls
            .iter()
            .all(|b| (b.position - to).length() > b.radius + radius);
        if clear_of_others {
            pit.add(Ball::new(to, Vec3::ZERO, radius));
            placed += 1;
        }
    }
    if placed < count {
        notices.info(format!("{placed} of {count} balls dropped: no room for more above you"));
    }
}
