//! The light of every level: a sun with cascaded shadows, sky-coloured
//! ambient light, a sky-blue clear colour, and light fog of the same
//! colour on the camera (so far geometry fades into the sky).

use bevy::light::CascadeShadowConfigBuilder;
use bevy::prelude::*;

/// The sky: clear colour and fog colour.
pub const SKY: Color = Color::srgb(0.62, 0.74, 0.86);

/// Where the sun comes from (towards the sun from the level's origin).
const SUN_FROM: Vec3 = Vec3::new(0.6, 0.55, 0.35);

/// The fog on a camera: none nearer than 60 m, the sky colour by 220 m.
pub fn fog() -> DistanceFog {
    DistanceFog {
        color: SKY,
        directional_light_color: Color::srgba(1.0, 0.95, 0.85, 0.3),
        directional_light_exponent: 20.0,
        falloff: FogFalloff::Linear {
            start: 60.0,
            end: 220.0,
        },
    }
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(SKY))
        .insert_resource(GlobalAmbientLight {
            color: Color::srgb(0.80, 0.87, 1.0),
            brightness: 200.0,
            ..default()
        })
        .add_systems(Startup, sun);
}

fn sun(mut commands: Commands) {
    commands.spawn((
        Name::new("sun"),
        DirectionalLight {
            color: Color::srgb(1.0, 0.96, 0.88),
            illuminance: 7_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        // Shadows near the player sharp, out to 120 m.
        CascadeShadowConfigBuilder {
            num_cascades: 3,
            first_cascade_far_bound: 12.0,
            maximum_distance: 120.0,
            ..default()
        }
        .build(),
        Transform::from_translation(SUN_FROM).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}
