//! The impact sound (cargo feature `audio`): a short rubber "thump"
//! synthesised at start (a falling sine with a click of noise, written as a
//! WAV in memory, so no sound file ships), played for each [`BallBlast`],
//! louder for harder and nearer impacts, a few at most per frame.

use super::camera::PlayerCamera;
use crate::sim::balls::BallBlast;
use bevy::audio::{AudioSource, Volume};
use bevy::prelude::*;
use std::sync::Arc;

/// Impact sounds started per frame at most.
const SOUNDS_PER_FRAME: usize = 3;
/// Sample rate of the thump, Hz.
const RATE: u32 = 22_050;

#[derive(Resource)]
struct Thump(Handle<AudioSource>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_thump).add_systems(Update, play_impacts);
}

fn make_thump(mut sources: ResMut<Assets<AudioSource>>, mut commands: Commands) {
    let bytes: Arc<[u8]> = thump_wav().into();
    commands.insert_resource(Thump(sources.add(AudioSource { bytes })));
}

/// 0.25 s of 16-bit mono PCM: a sine falling from 220 to 70 Hz under an
/// exponential decay, with 4 ms of noise at the start for the click.
fn thump_wav() -> Vec<u8> {
    let n = RATE as usize / 4;
    let mut phase = 0.0f32;
    let mut noise = 0x9e37_79b9u32;
    let samples: Vec<i16> = (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let frequency = 70.0 + 150.0 * (-t * 18.0).exp();
            phase += std::f32::consts::TAU * frequency / RATE as f32;
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            let click = if t < 0.004 {
                (noise as f32 / u32::MAX as f32 - 0.5) * (1.0 - t / 0.004)
            } else {
                0.0
            };
            let v = phase.sin() * (-t * 22.0).exp() * 0.8 + click * 0.5;
            (v.clamp(-1.0, 1.0) * i16::MAX as f32) as i16
        })
        .collect();
    let data_len = (samples.len() * 2) as u32;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&RATE.to_le_bytes());
    wav.extend_from_slice(&(RATE * 2).to_le_bytes()); // bytes per second
    wav.extend_from_slice(&2u16.to_le_bytes()); // block align
    wav.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        wav.extend_from_slice(&s.to_le_bytes());
    }
    wav
}

fn play_impacts(
    thump: Option<Res<Thump>>,
    mut blasts: MessageReader<BallBlast>,
    camera: Query<&GlobalTransform, With<PlayerCamera>>,
    mut commands: Commands,
) {
    let Some(thump) = thump else { return };
    let ear = camera.iter().next().map_or(Vec3::ZERO, |c| c.translation());
    for blast in blasts.read().take(SOUNDS_PER_FRAME) {
        let distance = (blast.point - ear).length();
        let volume = (blast.speed / 20.0).min(1.0) / (1.0 + distance / 8.0);
        commands.spawn((
            AudioPlayer(thump.0.clone()),
            PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume)),
        ));
    }
}
