//! A door or lift while the loader collects its triangles (in world space),
//! and the [`Mover`] it becomes: a collider in its own frame at its rest
//! pose, a sliding door's default offset from its width.

use crate::conventions::{DoorMotion, Role};
use crate::error::LevelError;
use crate::level::{LoadReport, Mover, MoverKind};
use glam::Vec3;
use slidewalk_sweep::{CollisionLayers, MeshCollider, Pose};
use std::path::Path;

/// A mover while its triangles are being collected (world space).
pub(super) struct MoverDraft {
    pub(super) name: String,
    pub(super) node: usize,
    pub(super) role: Role,
    pub(super) rest: Pose,
    pub(super) world: Vec<[Vec3; 3]>,
    pub(super) surface: u16,
    pub(super) layers: CollisionLayers,
    /// Whether the character can climb it.
    pub(super) climbable: bool,
    /// One-way direction in the mover's frame.
    pub(super) one_way: Option<Vec3>,
}

impl MoverDraft {
    /// The mover, its triangles moved into its own frame (the rest pose's);
    /// what its collider rejected is counted in `report`. An error (naming
    /// the file `path`) when it has no triangles of its own.
    pub(super) fn into_mover(self, path: &Path, report: &mut LoadReport) -> Result<Mover, LevelError> {
        let draft = self;
        let local: Vec<[Vec3; 3]> = draft
            .world
            .iter()
            .map(|t| t.map(|p| draft.rest.inverse_transform_point(p)))
            .collect();
        let collider = match MeshCollider::from_triangles(&local) {
            Ok(c) => c,
            Err(e) => {
                return Err(LevelError::BadConvention {
                    path: path.to_owned(),
                    node: draft.name,
                    reason: format!("a door or lift needs triangles of its own (in its mesh or its children's): {e}"),
                });
            }
        };
        report.mover_rejected_non_finite += collider.report().rejected_non_finite;
        report.mover_rejected_degenerate += collider.report().rejected_degenerate;
        let kind = match draft.role {
            Role::Door(mut spec) => {
                if let DoorMotion::Slide { offset: None } = spec.motion {
                    let width = collider.bounds().size().x;
                    spec.motion = DoorMotion::Slide {
                        offset: Some(draft.rest.rotation * Vec3::X * width * 0.95),
                    };
                }
                MoverKind::Door(spec)
            }
            Role::Lift(spec) => MoverKind::Lift(spec),
            _ => unreachable!("only doors and lifts become movers"),
        };
        Ok(Mover {
            name: draft.name,
            node: draft.node,
            kind,
            collider,
            rest: draft.rest,
            surface: draft.surface,
            layers: draft.layers,
            one_way: draft.one_way,
            climbable: draft.climbable,
        })
    }
}
