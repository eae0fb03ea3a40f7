//! A collider's triangles built from its source (its mesh, explicit
//! triangles, a prebuilt collider) with the linear part of its placement
//! baked in, and what was left out of them.

use crate::collider::{ColliderSource, SlidewalkCollider};
use crate::mesh::mesh_triangles;
use crate::placement::Placement;
use bevy::mesh::{Mesh, Mesh3d};
use bevy::prelude::*;
use glam::{Mat3, Vec3};
use slidewalk_sweep::MeshCollider;
use std::sync::Arc;

/// A collider's triangles built, with what was left out of them.
pub(crate) struct Built {
    pub shape: Arc<MeshCollider>,
    pub warnings: Vec<String>,
}

/// Builds a collider's triangles with the linear part of its placement
/// (mirrored ones rewound), or says why it cannot (`Ok(None)`: its mesh
/// is not loaded yet).
pub(crate) fn build_shape(
    collider: &SlidewalkCollider,
    mesh: Option<&Mesh3d>,
    meshes: Option<&Assets<Mesh>>,
    at: &Placement,
) -> Result<Option<Built>, String> {
    let mut warnings = Vec::new();
    let linear = at.linear;
    let wind = |[a, b, c]: [u32; 3]| if at.mirrors() { [a, c, b] } else { [a, b, c] };
    let (positions, triangles) = match &collider.source {
        ColliderSource::Built(shape) if linear == Mat3::IDENTITY => {
            return Ok(Some(Built {
                shape: shape.clone(),
                warnings,
            }));
        }
        ColliderSource::Built(shape) => {
            let corners: Vec<[Vec3; 3]> = shape
                .triangles()
                .map(|t| {
                    let [a, b, c] = t.map(|p| linear * p);
                    if at.mirrors() { [a, c, b] } else { [a, b, c] }
                })
                .collect();
            let built = MeshCollider::from_triangles(&corners).map_err(|e| e.to_string())?;
            return Ok(Some(Built {
                shape: Arc::new(built),
                warnings,
            }));
        }
        ColliderSource::Triangles(data) => {
            let n = data.0.len() as u32;
            let kept: Vec<[u32; 3]> = data.1.iter().copied().filter(|t| t.iter().all(|&i| i < n)).collect();
            if kept.len() < data.1.len() {
                warnings.push(format!(
                    "{} triangles name a vertex that does not exist",
                    data.1.len() - kept.len()
                ));
            }
            (
                data.0.iter().map(|&p| linear * p).collect::<Vec<_>>(),
                kept.into_iter().map(wind).collect::<Vec<_>>(),
            )
        }
        ColliderSource::Mesh => {
            let Some(handle) = mesh else {
                return Err("it has `SlidewalkCollider::mesh()` but no `Mesh3d`".into());
            };
            let Some(meshes) = meshes else {
                return Err("the app has no mesh assets: add `bevy::mesh::MeshPlugin` (DefaultPlugins has it)".into());
            };
            let Some(asset) = meshes.get(&handle.0) else {
                return Ok(None);
            };
            let read = mesh_triangles(asset, linear)?;
            if read.out_of_range > 0 {
                warnings.push(format!(
                    "{} triangles name a vertex that does not exist",
                    read.out_of_range
                ));
            }
            (read.positions, read.triangles.into_iter().map(wind).collect::<Vec<_>>())
        }
    };
    let shape = MeshCollider::build(&positions, &triangles).map_err(|e| e.to_string())?;
    let report = shape.report();
    if report.rejected_non_finite > 0 || report.rejected_degenerate > 0 {
        warnings.push(format!(
            "{} non-finite and {} degenerate triangles left out",
            report.rejected_non_finite, report.rejected_degenerate
        ));
    }
    Ok(Some(Built {
        shape: Arc::new(shape),
        warnings,
    }))
}
