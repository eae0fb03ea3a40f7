//! A room of Avian props walked by a bevy_slidewalk character: crates of
//! 5, 20 and 80 kg and a 5 t container to push, a seesaw on a pivot to
//! tip, a door on a hinge to push open, a ball pit, and barrels rolling
//! down a ramp. Nothing here is a bevy_slidewalk collider: every collider
//! is Avian's. Walk with the keys of bevy_slidewalk's `minimal` example
//! (WASD, mouse, Space; click to grab the cursor).

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk_avian::SlidewalkAvianPlugin;

#[allow(dead_code)]
mod minimal;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, PhysicsPlugins::default()))
        .add_plugins((SlidewalkPlugin::default(), SlidewalkAvianPlugin::default()))
        .add_plugins(minimal::first_person)
        .add_systems(Startup, props)
        .run();
}

/// Draws and spawns a body: `shape` drawn by `mesh` in `color`.
fn body(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    (mesh, color): (Mesh, Color),
    bundle: impl Bundle,
) -> Entity {
    let mesh = Mesh3d(meshes.add(mesh));
    let material = MeshMaterial3d(materials.add(color));
    commands.spawn((mesh, material, bundle)).id()
}

fn props(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let (grey, wood, steel, red) = (
        Color::srgb(0.6, 0.6, 0.65),
        Color::srgb(0.6, 0.45, 0.3),
        Color::srgb(0.35, 0.45, 0.55),
        Color::srgb(0.8, 0.25, 0.2),
    );
    let c = &mut commands;
    let (m, mat) = (&mut *meshes, &mut *materials);
    // The floor.
    body(
        c,
        m,
        mat,
        (Cuboid::new(40.0, 1.0, 40.0).into(), grey),
        (
            RigidBody::Static,
            Collider::cuboid(40.0, 1.0, 40.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ),
    );
    // Crates of 5, 20 and 80 kg, and a 5 t container.
    for (k, (size, mass)) in [(0.6, 5.0), (0.9, 20.0), (1.2, 80.0)].into_iter().enumerate() {
        body(
            c,
            m,
            mat,
            (Cuboid::from_length(size).into(), wood),
            (
                RigidBody::Dynamic,
                Collider::cuboid(size, size, size),
                Mass(mass),
                Transform::from_xyz(-4.0 + 2.0 * k as f32, size / 2.0, -4.0),
            ),
        );
    }
    body(
        c,
        m,
        mat,
        (Cuboid::new(6.0, 2.6, 2.4).into(), steel),
        (
            RigidBody::Dynamic,
            Collider::cuboid(6.0, 2.6, 2.4),
            Mass(5000.0),
            Transform::from_xyz(4.0, 1.3, -8.0),
        ),
    );
    // A seesaw: a 4 m plank on a pivot 0.6 m up.
    let pivot = c.spawn((RigidBody::Static, Transform::from_xyz(-8.0, 0.6, 2.0))).id();
    let plank = body(
        c,
        m,
        mat,
        (Cuboid::new(4.0, 0.1, 1.0).into(), wood),
        (
            RigidBody::Dynamic,
            Collider::cuboid(4.0, 0.1, 1.0),
            Mass(20.0),
            Transform::from_xyz(-8.0, 0.6, 2.0),
        ),
    );
    c.spawn(RevoluteJoint::new(pivot, plank).with_hinge_axis(Vec3::Z));
    // A door on a hinge at its left edge.
    let post = c.spawn((RigidBody::Static, Transform::from_xyz(7.0, 1.1, 4.0))).id();
    let door = body(
        c,
        m,
        mat,
        (Cuboid::new(1.2, 2.2, 0.1).into(), red),
        (
            RigidBody::Dynamic,
            Collider::cuboid(1.2, 2.2, 0.1),
            Mass(30.0),
            Transform::from_xyz(7.6, 1.1, 4.0),
        ),
    );
    c.spawn(
        RevoluteJoint::new(post, door)
            .with_hinge_axis(Vec3::Y)
            .with_local_anchor2(Vec3::new(-0.6, 0.0, 0.0)),
    );
    // A ball pit: a pen of four low walls and 60 balls.
    for (at, size) in [
        (Vec3::new(0.0, 0.25, 6.0), Vec3::new(4.0, 0.5, 0.2)),
        (Vec3::new(0.0, 0.25, 10.0), Vec3::new(4.0, 0.5, 0.2)),
        (Vec3::new(-2.0, 0.25, 8.0), Vec3::new(0.2, 0.5, 4.0)),
        (Vec3::new(2.0, 0.25, 8.0), Vec3::new(0.2, 0.5, 4.0)),
    ] {
        body(
            c,
            m,
            mat,
            (Cuboid::from_size(size).into(), grey),
            (
                RigidBody::Static,
                Collider::cuboid(size.x, size.y, size.z),
                Transform::from_translation(at),
            ),
        );
    }
    for k in 0..60 {
        let (i, j, l) = ((k % 6) as f32, ((k / 6) % 5) as f32, (k / 30) as f32);
        body(
            c,
            m,
            mat,
            (Sphere::new(0.25).into(), Color::hsl(k as f32 * 37.0 % 360.0, 0.7, 0.55)),
            (
                RigidBody::Dynamic,
                Collider::sphere(0.25),
                Mass(2.0),
                Transform::from_xyz(-1.5 + 0.6 * i, 0.3 + 0.55 * l, 6.6 + 0.7 * j),
            ),
        );
    }
    // A ramp with barrels at its top.
    let ramp = Transform::from_xyz(10.0, 1.5, -2.0).with_rotation(Quat::from_rotation_z(0.25));
    body(
        c,
        m,
        mat,
        (Cuboid::new(8.0, 0.3, 3.0).into(), grey),
        (RigidBody::Static, Collider::cuboid(8.0, 0.3, 3.0), ramp),
    );
    for k in 0..4 {
        let lying = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        body(
            c,
            m,
            mat,
            (Cylinder::new(0.35, 1.0).into(), steel),
            (
                RigidBody::Dynamic,
                Collider::cylinder(0.35, 1.0),
                Mass(40.0),
                Transform::from_xyz(12.5, 3.0 + 0.8 * k as f32, -2.5 + 0.3 * k as f32).with_rotation(lying),
            ),
        );
    }
    let sun = Transform::from_xyz(3.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y);
    c.spawn((
        DirectionalLight {
            shadow_maps_enabled: true,
            ..default()
        },
        sun,
    ));
}
