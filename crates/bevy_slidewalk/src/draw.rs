//! Drawing each character between ticks: its `Transform` translation from
//! the last two ticks' centres, unless the game wrote one of its own (a
//! teleport, kept for the next tick).

use crate::character::MovementState;
use crate::memory::CharacterMemory;
use bevy::prelude::*;

/// Draws each character between its last two ticks (`fraction` of the way
/// from the previous tick's end, from `Time<Fixed>`).
pub(crate) fn interpolate_transforms(
    time: Res<Time<Fixed>>,
    mut characters: Query<(&MovementState, &mut CharacterMemory, &mut Transform)>,
) {
    let fraction = time.overstep_fraction();
    for (state, mut memory, mut transform) in &mut characters {
        draw(
            memory.interpolated(state.position, fraction),
            &mut memory,
            &mut transform,
        );
    }
}

/// Draws each character where its last tick left it (no interpolation).
pub(crate) fn place_transforms(mut characters: Query<(&MovementState, &mut CharacterMemory, &mut Transform)>) {
    for (state, mut memory, mut transform) in &mut characters {
        draw(state.position, &mut memory, &mut transform);
    }
}

/// Puts the translation at `at`, unless the game wrote one since the last
/// draw: that one is kept for the next tick to take as a teleport (frames
/// without a tick would otherwise draw over it).
fn draw(at: Vec3, memory: &mut CharacterMemory, transform: &mut Transform) {
    if memory.moved_by_the_game(transform) {
        return;
    }
    if transform.translation != at {
        transform.translation = at;
    }
    memory.drawn = Some(at);
}
