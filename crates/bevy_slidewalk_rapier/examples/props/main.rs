//! A room of Rapier props walked by a bevy_slidewalk character: crates of
//! 5, 20 and 80 kg and a 5 t container to push, a seesaw on a revolute
//! joint to tip, a door on a hinge to push open, a ball pit, and barrels
//! rolling down a ramp. Nothing here is a bevy_slidewalk collider: every
//! collider is Rapier's. Rapier steps in `FixedUpdate` at the fixed
//! timestep, once per character tick. Walk with the keys of
//! bevy_slidewalk's `minimal` example (WASD, mouse, Space; click to grab
//! the cursor).

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_slidewalk::prelude::*;
use bevy_slidewalk_rapier::SlidewalkRapierPlugin;

#[allow(dead_code)]
mod minimal;

/// Fixed ticks a second, for the characters and Rapier alike.
const HZ: f32 = 60.0;

fn main() {
    App::new()
        .insert_resource(Time::<Fixed>::from_hz(HZ as f64))
        .insert_resource(TimestepMode::Fixed {
            dt: 1.0 / HZ,
            substeps: 1,
        })
        .add_plugins((
            DefaultPlugins,
            RapierPhysicsPlugin::<NoUserData>::default().in_fixed_schedule(),
        ))
        .add_plugins((SlidewalkPlugin::default(), SlidewalkRapierPlugin::default()))
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

/// A box collider of `size` metres (Rapier takes half extents).
fn cuboid(size: Vec3) -> Collider {
    Collider::cuboid(size.x / 2.0, size.y / 2.0, size.z / 2.0)
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
    let floor = Vec3::new(40.0, 1.0, 40.0);
    body(
        c,
        m,
        mat,
        (Cuboid::from_size(floor).into(), grey),
        (RigidBody::Fixed, cuboid(floor), Transform::from_xyz(0.0, -0.5, 0.0)),
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
                cuboid(Vec3::splat(size)),
                ColliderMassProperties::Mass(mass),
                Transform::from_xyz(-4.0 + 2.0 * k as f32, size / 2.0, -4.0),
            ),
        );
    }
    let container = Vec3::new(6.0, 2.6, 2.4);
    body(
        c,
        m,
        mat,
        (Cuboid::from_size(container).into(), steel),
        (
            RigidBody::Dynamic,
            cuboid(container),
            ColliderMassProperties::Mass(5000.0),
            Transform::from_xyz(4.0, 1.3, -8.0),
        ),
    );
    // A seesaw: a 4 m plank on a pivot 0.6 m up, turning about z.
    let pivot = c.spawn((RigidBody::Fixed, Transform::from_xyz(-8.0, 0.6, 2.0))).id();
    let plank = Vec3::new(4.0, 0.1, 1.0);
    body(
        c,
        m,
        mat,
        (Cuboid::from_size(plank).into(), wood),
        (
            RigidBody::Dynamic,
            cuboid(plank),
            ColliderMassProperties::Mass(20.0),
            Transform::from_xyz(-8.0, 0.6, 2.0),
            ImpulseJoint::new(pivot, RevoluteJointBuilder::new(Vec3::Z)),
        ),
    );
    // A door on a hinge at its left edge, turning about y.
    let post = c.spawn((RigidBody::Fixed, Transform::from_xyz(7.0, 1.1, 4.0))).id();
    let door = Vec3::new(1.2, 2.2, 0.1);
    let hinge = RevoluteJointBuilder::new(Vec3::Y).local_anchor2(Vec3::new(-0.6, 0.0, 0.0));
    body(
        c,
        m,
        mat,
        (Cuboid::from_size(door).into(), red),
        (
            RigidBody::Dynamic,
            cuboid(door),
            ColliderMassProperties::Mass(30.0),
            Transform::from_xyz(7.6, 1.1, 4.0),
            ImpulseJoint::new(post, hinge),
        ),
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
            (RigidBody::Fixed, cuboid(size), Transform::from_translation(at)),
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
                Collider::ball(0.25),
                ColliderMassProperties::Mass(2.0),
                Transform::from_xyz(-1.5 + 0.6 * i, 0.3 + 0.55 * l, 6.6 + 0.7 * j),
            ),
        );
    }
    // A ramp with barrels at its top.
    let ramp = Vec3::new(8.0, 0.3, 3.0);
    let ramp_at = Transform::from_xyz(10.0, 1.5, -2.0).with_rotation(Quat::from_rotation_z(0.25));
    body(
        c,
        m,
        mat,
        (Cuboid::from_size(ramp).into(), grey),
        (RigidBody::Fixed, cuboid(ramp), ramp_at),
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
                // Half height 0.5, radius 0.35: Bevy's Cylinder::new(0.35, 1.0).
                Collider::cylinder(0.5, 0.35),
                ColliderMassProperties::Mass(40.0),
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
