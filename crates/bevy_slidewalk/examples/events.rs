//! The movement events: footsteps (with the surface's tag), jumps,
//! landings (with the impact speed), steps climbed and walls hit, logged
//! as they happen — and played as sound with `--features audio`. Walk
//! onto the metal plate to hear (or read) a different footstep.

use bevy::prelude::*;
use bevy_slidewalk::prelude::*;

#[path = "minimal.rs"]
#[allow(dead_code)]
mod minimal;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SlidewalkPlugin::default()))
        .add_plugins((minimal::first_person, events))
        .add_systems(Startup, minimal::scene)
        .run();
}

/// A metal plate to walk on, and the systems that react to the events.
pub fn events(app: &mut App) {
    app.add_systems(Startup, metal_plate).add_systems(Update, log_events);
    #[cfg(feature = "audio")]
    app.add_systems(Startup, sound::load).add_systems(Update, sound::play);
}

fn metal_plate(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(4.0, 0.2, 4.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.7, 0.75, 0.8))),
        Transform::from_xyz(0.0, 0.1, -1.0),
        SlidewalkCollider::mesh(),
        Surface::new("metal"),
    ));
}

/// A few lines are all a game needs to react to movement.
fn log_events(
    mut footsteps: MessageReader<Footstep>,
    mut jumps: MessageReader<Jumped>,
    mut landings: MessageReader<Landed>,
    mut steps: MessageReader<SteppedUp>,
    mut walls: MessageReader<HitWall>,
) {
    for f in footsteps.read() {
        info!("footstep on {} at {:.1} m/s", f.surface.tag, f.speed);
    }
    for j in jumps.read() {
        info!("jumped at {:.1} m/s", j.speed);
    }
    for l in landings.read() {
        info!("landed on {} at {:.1} m/s", l.surface.tag, l.impact_speed);
    }
    for s in steps.read() {
        info!("stepped up {:.2} m", s.height);
    }
    for w in walls.read() {
        info!("hit a wall at {:.1} m/s", w.speed);
    }
}

/// Footsteps and landings as clicks, pitched by surface (no sound files:
/// the click is made here as a WAV in memory).
#[cfg(feature = "audio")]
mod sound {
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
    use bevy::prelude::*;
    use bevy_slidewalk::prelude::*;

    #[derive(Resource)]
    pub struct Click(Handle<AudioSource>);

    /// A 40 ms decaying 180 Hz click, 16-bit mono WAV.
    fn click_wav() -> Vec<u8> {
        let rate = 22_050u32;
        let samples: Vec<i16> = (0..rate / 25)
            .map(|i| {
                let t = i as f32 / rate as f32;
                ((t * 180.0 * std::f32::consts::TAU).sin() * (-t * 90.0).exp() * 20_000.0) as i16
            })
            .collect();
        let data_len = samples.len() as u32 * 2;
        let mut wav = Vec::new();
        for chunk in [
            &b"RIFF"[..],
            &(36 + data_len).to_le_bytes(),
            b"WAVEfmt ",
            &16u32.to_le_bytes(),
        ] {
            wav.extend_from_slice(chunk);
        }
        for chunk in [
            &1u16.to_le_bytes()[..],
            &1u16.to_le_bytes(),
            &rate.to_le_bytes(),
            &(rate * 2).to_le_bytes(),
        ] {
            wav.extend_from_slice(chunk);
        }
        for chunk in [
            &2u16.to_le_bytes()[..],
            &16u16.to_le_bytes(),
            b"data",
            &data_len.to_le_bytes(),
        ] {
            wav.extend_from_slice(chunk);
        }
        wav.extend(samples.iter().flat_map(|s| s.to_le_bytes()));
        wav
    }

    pub fn load(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
        let click = sources.add(AudioSource {
            bytes: click_wav().into(),
        });
        commands.insert_resource(Click(click));
    }

    pub fn play(
        click: Res<Click>,
        mut footsteps: MessageReader<Footstep>,
        mut landings: MessageReader<Landed>,
        mut commands: Commands,
    ) {
        let sounds = footsteps.read().map(|f| (f.surface.tag.clone(), 0.4)).chain(
            landings
                .read()
                .map(|l| (l.surface.tag.clone(), (l.impact_speed / 8.0).min(1.0))),
        );
        for (tag, volume) in sounds.collect::<Vec<_>>() {
            let speed = if &*tag == "metal" { 2.0 } else { 1.0 };
            let settings = PlaybackSettings::DESPAWN
                .with_speed(speed)
                .with_volume(Volume::Linear(volume));
            commands.spawn((AudioPlayer(click.0.clone()), settings));
        }
    }
}
