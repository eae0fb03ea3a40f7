//! Drawing the balls and their explosions. Each ball is an entity sharing
//! one sphere mesh and one of a few materials (Bevy batches them into
//! instanced draws), placed between the last two ticks. Each hard impact
//! ([`BallBlast`]) takes the oldest slot of a fixed pool of billboards:
//! quads turned to the camera (and lifted half their size off the surface
//! hit, so it does not cut them) that grow and fade, drawn by
//! `shaders/explosion.wgsl` additively with no depth write. The charge of
//! a throw being held shows as a bar under the crosshair.

use super::camera::PlayerCamera;
use super::shaders;
use crate::sim::balls::{BallBlast, BallPit, ThrowCharge};
use crate::sim::player::LocalPlayer;
use bevy::light::NotShadowCaster;
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Explosions on screen at most; a new one takes the oldest's slot.
pub const EXPLOSION_POOL: usize = 32;
/// Seconds an explosion lasts.
const EXPLOSION_S: f32 = 0.8;
/// New explosions per frame at most (a pile settling hard is not a fireworks show).
const EXPLOSIONS_PER_FRAME: usize = 6;

/// What `shaders/explosion.wgsl` reads.
#[derive(Clone, Copy, Debug, PartialEq, ShaderType, Reflect)]
pub struct ExplosionUniform {
    /// Linear RGB of the flame's edge; alpha is the overall brightness.
    pub colour: Vec4,
    /// 0 at the impact, 1 when it is gone.
    pub age: f32,
    /// Varies the flame's shape.
    pub seed: f32,
    /// Keeps the struct a multiple of 16 bytes.
    pub padding: Vec2,
}

/// The explosion billboard's material: additive, unlit, no shadows.
#[derive(Asset, AsBindGroup, Reflect, Debug, Clone)]
pub struct ExplosionMaterial {
    /// Everything the shader reads.
    #[uniform(0)]
    pub uniform: ExplosionUniform,
}

impl Material for ExplosionMaterial {
    fn fragment_shader() -> ShaderRef {
        shaders::EXPLOSION.into()
    }

    /// Additive (Bevy draws it in the transparent pass, depth test on,
    /// depth write off).
    fn alpha_mode(&self) -> AlphaMode {
        AlphaMode::Add
    }

    fn enable_shadows() -> bool {
        false
    }

    fn enable_prepass() -> bool {
        false
    }
}

/// One billboard of the pool.
#[derive(Component, Debug)]
pub struct Explosion {
    /// Seconds (the app's clock) when it started.
    pub started: f32,
    /// Full size (the quad's side at the end), metres.
    pub size: f32,
    /// Where the ball hit, metres.
    pub point: Vec3,
    /// The surface's normal there (towards the ball's side).
    pub normal: Vec3,
    material: Handle<ExplosionMaterial>,
}

/// A drawn ball; the n-th entity shows the n-th ball.
#[derive(Component, Debug)]
struct BallVisual {
    /// Which of [`BallLook::materials`] it wears.
    colour: usize,
}

/// The shared mesh and colours of the balls, the ball entities, the pool.
#[derive(Resource, Debug, Default)]
struct BallLook {
    mesh: Handle<Mesh>,
    materials: Vec<Handle<StandardMaterial>>,
    shown: Vec<Entity>,
    pool: Vec<Entity>,
    next_slot: usize,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(MaterialPlugin::<ExplosionMaterial>::default())
        .init_resource::<BallLook>()
        .add_systems(Startup, setup)
        .add_systems(Update, draw_balls)
        // After the camera has moved this frame, so the quads face it.
        .add_systems(
            PostUpdate,
            (start_explosions, animate_explosions)
                .chain()
                .after(super::camera::follow_player)
                .before(TransformSystems::Propagate),
        )
        .add_systems(EguiPrimaryContextPass, draw_charge);
}

fn setup(
    mut look: ResMut<BallLook>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut explosion_materials: ResMut<Assets<ExplosionMaterial>>,
    mut commands: Commands,
) {
    look.mesh = meshes.add(Sphere::new(1.0).mesh().ico(3).expect("a valid subdivision"));
    // The lesson's balls are bright; a few rubber colours, glossy.
    look.materials = [
        Color::srgb(0.95, 0.25, 0.2),
        Color::srgb(0.2, 0.6, 0.95),
        Color::srgb(0.98, 0.8, 0.2),
        Color::srgb(0.3, 0.85, 0.4),
        Color::srgb(0.85, 0.4, 0.9),
        Color::srgb(0.95, 0.55, 0.2),
    ]
    .into_iter()
    .map(|c| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.35,
            reflectance: 0.6,
            ..default()
        })
    })
    .collect();
    let quad = meshes.add(Rectangle::new(1.0, 1.0));
    for k in 0..EXPLOSION_POOL {
        let material = explosion_materials.add(ExplosionMaterial {
            uniform: ExplosionUniform {
                colour: Vec4::new(1.0, 0.35, 0.06, 1.0),
                age: 1.0,
                seed: k as f32 * 0.618,
                padding: Vec2::ZERO,
            },
        });
        let entity = commands
            .spawn((
                Name::new("explosion"),
                Explosion {
                    started: f32::NEG_INFINITY,
                    size: 1.0,
                    point: Vec3::ZERO,
                    normal: Vec3::Y,
                    material: material.clone(),
                },
                Mesh3d(quad.clone()),
                MeshMaterial3d(material),
                Transform::default(),
                Visibility::Hidden,
                NotShadowCaster,
            ))
            .id();
        look.pool.push(entity);
    }
}

/// One entity per ball, placed between the last two ticks. The n-th ball
/// is the n-th oldest; its colour follows it when older ones are removed.
fn draw_balls(
    pit: Res<BallPit>,
    fixed: Res<Time<Fixed>>,
    mut look: ResMut<BallLook>,
    mut commands: Commands,
    mut visuals: Query<(&mut Transform, &mut BallVisual, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let balls = &pit.simulation.balls;
    let look = &mut *look;
    while look.shown.len() > balls.len() {
        if let Some(e) = look.shown.pop() {
            commands.entity(e).despawn();
        }
    }
    let colours = look.materials.len().max(1);
    // Ball n was the (thrown − len + n)-th thrown: its colour stays its own.
    let first_serial = pit.thrown.saturating_sub(balls.len() as u64);
    let colour_of = |n: usize| ((first_serial + n as u64) % colours as u64) as usize;
    let a = fixed.overstep_fraction();
    for (n, ball) in balls.iter().enumerate() {
        let from = pit.previous.get(n).copied().unwrap_or(ball.position);
        let transform = Transform::from_translation(from.lerp(ball.position, a)).with_scale(Vec3::splat(ball.radius));
        let colour = colour_of(n);
        match look.shown.get(n) {
            Some(e) => {
                if let Ok((mut t, mut visual, mut material)) = visuals.get_mut(*e) {
                    *t = transform;
                    if visual.colour != colour {
                        visual.colour = colour;
                        material.0 = look.materials[colour].clone();
                    }
                }
            }
            None => {
                let e = commands
                    .spawn((
                        Name::new("ball"),
                        BallVisual { colour },
                        Mesh3d(look.mesh.clone()),
                        MeshMaterial3d(look.materials[colour].clone()),
                        transform,
                    ))
                    .id();
                look.shown.push(e);
            }
        }
    }
}

/// Hard impacts take the oldest billboards.
fn start_explosions(
    time: Res<Time>,
    mut blasts: MessageReader<BallBlast>,
    mut look: ResMut<BallLook>,
    mut explosions: Query<(&mut Explosion, &mut Visibility)>,
) {
    let now = time.elapsed_secs();
    let mut fresh: Vec<BallBlast> = blasts.read().copied().collect();
    // The hardest first, when there are more than a frame takes.
    fresh.sort_by(|a, b| b.speed.total_cmp(&a.speed));
    for blast in fresh.into_iter().take(EXPLOSIONS_PER_FRAME) {
        let slot = look.next_slot;
        look.next_slot = (slot + 1) % look.pool.len().max(1);
        let Some(&entity) = look.pool.get(slot) else { return };
        if let Ok((mut explosion, mut visibility)) = explosions.get_mut(entity) {
            explosion.started = now;
            // Bigger for harder hits and bigger balls: 6–16 ball radii.
            explosion.size = blast.radius * (6.0 + (blast.speed / 2.0).min(10.0));
            explosion.point = blast.point;
            explosion.normal = blast.normal;
            *visibility = Visibility::Visible;
        }
    }
}

/// Billboards face the camera, grow and fade; spent ones hide.
fn animate_explosions(
    time: Res<Time>,
    look: Res<BallLook>,
    camera: Query<&Transform, (With<PlayerCamera>, Without<Explosion>)>,
    mut explosions: Query<(&Explosion, &mut Transform, &mut Visibility)>,
    mut materials: ResMut<Assets<ExplosionMaterial>>,
) {
    let now = time.elapsed_secs();
    let (facing, eye) = camera
        .iter()
        .next()
        .map_or((Quat::IDENTITY, None), |c| (c.rotation, Some(c.translation)));
    for &entity in &look.pool {
        let Ok((explosion, mut transform, mut visibility)) = explosions.get_mut(entity) else {
            continue;
        };
        if *visibility == Visibility::Hidden {
            continue;
        }
        let age = (now - explosion.started) / EXPLOSION_S;
        if !(0.0..1.0).contains(&age) {
            *visibility = Visibility::Hidden;
            continue;
        }
        let size = explosion.size * (0.5 + 0.5 * age.sqrt());
        transform.rotation = facing;
        transform.scale = Vec3::splat(size);
        // Half its size off the surface it burst on, so the surface does
        // not cut the flame in two (seen at a grazing angle too), and never
        // past half way to the camera.
        let reach = eye.map_or(f32::INFINITY, |e| (e - explosion.point).length() / 2.0);
        transform.translation = explosion.point + explosion.normal * (size / 2.0).min(reach);
        if let Some(mut material) = materials.get_mut(&explosion.material) {
            material.uniform.age = age;
        }
    }
}

/// A bar under the crosshair while a throw is charging.
fn draw_charge(mut contexts: EguiContexts, players: Query<&ThrowCharge, With<LocalPlayer>>) -> Result {
    let Some(charge) = players.iter().next().filter(|c| c.held_s > 0.0) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let centre = ctx.content_rect().center();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("charge")));
    let (width, top) = (80.0, 22.0);
    let outline = egui::Rect::from_min_size(centre + egui::vec2(-width / 2.0, top), egui::vec2(width, 6.0));
    painter.rect_filled(outline.expand(1.5), 2.0, egui::Color32::from_black_alpha(160));
    let mut filled = outline;
    filled.set_width(width * charge.fraction());
    painter.rect_filled(filled, 2.0, egui::Color32::from_rgb(255, 170, 60));
    Ok(())
}
