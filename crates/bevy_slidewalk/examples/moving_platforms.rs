//! Platforms moved by the example's own system — a lift going up and
//! down, a ferry going sideways, a turntable — carry the character
//! standing on them. Nothing marks them as moving: any collider whose
//! transform changes between ticks is a mover. Walk with the keys of the
//! `minimal` example.

use bevy::prelude::*;
use bevy_slidewalk::prelude::*;

#[path = "minimal.rs"]
#[allow(dead_code)]
mod minimal;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SlidewalkPlugin::default(), SlidewalkDebugPlugin))
        .add_plugins((platforms, minimal::first_person))
        .run();
}

/// How a platform moves, from where it was spawned.
#[derive(Component, Clone, Copy)]
pub enum Platform {
    /// Up and down by this many metres.
    Lift(f32),
    /// Along x by this many metres.
    Ferry(f32),
    /// Turning about y at this many radians a second.
    Turntable(f32),
}

/// The floor, three platforms and the system that moves them.
pub fn platforms(app: &mut App) {
    app.add_systems(Startup, spawn)
        // Moved each tick before the characters, so they ride this tick's motion.
        .add_systems(FixedUpdate, move_platforms.before(SlidewalkSystems::Prepare))
        .add_systems(FixedUpdate, turn_with_platform.after(SlidewalkSystems::Step));
}

/// The turntable turns the player standing on it (the plugin leaves the
/// heading to the game, and says how much it turned).
fn turn_with_platform(mut player: Query<(&mut Transform, &MovementReport)>) {
    for (mut body, report) in &mut player {
        body.rotate_y(report.tick.heading_delta);
    }
}

fn spawn(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let floor = meshes.add(Cuboid::new(40.0, 1.0, 40.0));
    let grey = materials.add(Color::srgb(0.5, 0.5, 0.55));
    commands.spawn((
        Mesh3d(floor),
        MeshMaterial3d(grey),
        Transform::from_xyz(0.0, -0.5, 0.0),
        SlidewalkCollider::mesh(),
    ));
    let pad = meshes.add(Cuboid::new(3.0, 0.3, 3.0));
    let orange = materials.add(Color::srgb(0.9, 0.5, 0.2));
    for (platform, at) in [
        (Platform::Lift(3.0), Vec3::new(-5.0, 0.65, -4.0)),
        (Platform::Ferry(6.0), Vec3::new(0.0, 0.65, -8.0)),
        (Platform::Turntable(0.6), Vec3::new(5.0, 0.65, -4.0)),
    ] {
        let base = Transform::from_translation(at);
        commands.spawn((
            Mesh3d(pad.clone()),
            MeshMaterial3d(orange.clone()),
            base,
            SlidewalkCollider::mesh(),
            platform,
            Base(base),
        ));
    }
    commands.spawn((
        DirectionalLight::default(),
        Transform::from_xyz(3.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Where a platform was spawned.
#[derive(Component)]
struct Base(Transform);

fn move_platforms(time: Res<Time>, mut platforms: Query<(&Platform, &Base, &mut Transform)>) {
    let t = time.elapsed_secs();
    let wave = |amplitude: f32| amplitude * 0.5 * (1.0 - (t * 0.8).cos());
    for (platform, base, mut transform) in &mut platforms {
        *transform = match *platform {
            Platform::Lift(h) => base.0.with_translation(base.0.translation + Vec3::Y * wave(h)),
            Platform::Ferry(d) => base.0.with_translation(base.0.translation + Vec3::X * wave(d)),
            Platform::Turntable(rate) => base.0.with_rotation(Quat::from_rotation_y(rate * t)),
        };
    }
}
