//! Drawing the crowd: each agent is an entity with one shared unit-sphere
//! mesh, scaled to its radii, and the material of its size (a few), so
//! Bevy batches them all into a few instanced draws; each is placed
//! between the last two ticks. The panel's crowd section: spawn buttons,
//! clear, and what a step costs.

use crate::sim::crowd::{CrowdControl, CrowdSim, MAX_AGENTS};
use bevy::prelude::*;
use bevy_egui::egui;

/// A drawn agent; the n-th entity shows the n-th agent.
#[derive(Component, Debug)]
struct AgentVisual {
    /// Which of [`CrowdLook::materials`] it wears.
    material: usize,
}

/// The shared mesh and materials, and the agent entities.
#[derive(Resource, Debug, Default)]
struct CrowdLook {
    mesh: Handle<Mesh>,
    materials: Vec<Handle<StandardMaterial>>,
    shown: Vec<Entity>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CrowdLook>()
        .add_systems(Startup, setup)
        .add_systems(Update, draw_agents);
}

fn setup(
    mut look: ResMut<CrowdLook>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    look.mesh = meshes.add(Sphere::new(1.0).mesh().ico(2).expect("a valid subdivision"));
    // Matte clay colours, one per agent size, apart from the balls' bright rubber.
    look.materials = [
        Color::srgb(0.72, 0.55, 0.45),
        Color::srgb(0.45, 0.58, 0.70),
        Color::srgb(0.62, 0.66, 0.42),
        Color::srgb(0.70, 0.48, 0.62),
    ]
    .into_iter()
    .map(|c| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.9,
            ..default()
        })
    })
    .collect();
}

/// One entity per agent, scaled to its radii, placed between the last two ticks.
fn draw_agents(
    sim: Res<CrowdSim>,
    fixed: Res<Time<Fixed>>,
    mut look: ResMut<CrowdLook>,
    mut commands: Commands,
    mut visuals: Query<(&mut Transform, &mut AgentVisual, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let agents = sim.crowd.agents();
    let look = &mut *look;
    while look.shown.len() > agents.len() {
        if let Some(e) = look.shown.pop() {
            commands.entity(e).despawn();
        }
    }
    let materials = look.materials.len().max(1);
    let a = fixed.overstep_fraction();
    for (n, agent) in agents.iter().enumerate() {
        let now = agent.position();
        let from = sim.previous.get(n).copied().unwrap_or(now);
        let transform = Transform::from_translation(from.lerp(now, a)).with_scale(agent.radii());
        let material = agent.size as usize % materials;
        match look.shown.get(n) {
            Some(e) => {
                if let Ok((mut t, mut visual, mut handle)) = visuals.get_mut(*e) {
                    *t = transform;
                    if visual.material != material {
                        visual.material = material;
                        handle.0 = look.materials[material].clone();
                    }
                }
            }
            None => {
                let e = commands
                    .spawn((
                        Name::new("agent"),
                        AgentVisual { material },
                        Mesh3d(look.mesh.clone()),
                        MeshMaterial3d(look.materials[material].clone()),
                        transform,
                    ))
                    .id();
                look.shown.push(e);
            }
        }
    }
}

/// The panel's crowd section.
pub fn panel_section(ui: &mut egui::Ui, sim: &CrowdSim, controls: &mut MessageWriter<CrowdControl>) {
    egui::CollapsingHeader::new("Crowd").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label("spawn");
            for (n, label) in [(10, "10"), (100, "100"), (1_000, "1,000"), (10_000, "10,000")] {
                if ui
                    .button(label)
                    .on_hover_text(format!(
                        "Add {label} agents on free ground around you ({MAX_AGENTS} at most). They wander with the player's controller."
                    ))
                    .clicked()
                {
                    controls.write(CrowdControl::Spawn(n));
                }
            }
            if ui.button("Clear").clicked() {
                controls.write(CrowdControl::Clear);
            }
        });
        let step = sim.last_step();
        ui.label(format!(
            "{} agents · step {:.2} ms ({:.2} µs per agent, {} threads)",
            sim.crowd.len(),
            step.micros / 1e3,
            step.micros_per_agent,
            step.threads
        ))
        .on_hover_text(
            "Wall-clock time of the last crowd step: every agent's controller tick on every core, \
             then the exact agent–agent check and the retries of refused moves.",
        );
        if sim.spawning() > 0 {
            ui.small(format!("placing agents… {} to go", sim.spawning()));
        }
        if !sim.crowd.is_empty() {
            ui.small(format!(
                "moves {:.2} ms · check {:.2} ms · retries {:.2} ms ({} retried, {} crushed)",
                step.move_micros / 1e3,
                step.check_micros / 1e3,
                step.retry_micros / 1e3,
                step.retried,
                step.crushed
            ));
        }
    });
}
