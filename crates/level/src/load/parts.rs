//! Where a node's triangles go (the static collider, a mover, a part of
//! its own, a sensor, water, or nowhere), the one-way direction a node
//! gives, and the static parts, sensors and water volumes while the loader
//! collects their triangles (in world space), then built.

use crate::conventions::SensorKind;
use crate::error::LevelError;
use crate::level::LoadReport;
use crate::parts::{Sensor, StaticPart, WaterVolume};
use glam::{Mat3, Mat4, Vec3};
use slidewalk_sweep::{BuildError, CollisionLayers, MeshCollider, Pose};
use std::path::Path;

/// The collider a mesh's triangles are added to.
#[derive(Clone, Copy, Debug)]
pub(super) enum Target {
    /// None: the node is under a no-collide node (its triangles are counted).
    NoCollide,
    /// The merged static collider, with this surface.
    Statics {
        /// Index in the level's surfaces.
        surface: u16,
    },
    /// The mover being collected (index of its draft).
    Mover(usize),
    /// The node's own static part (index of its draft).
    Part(usize),
    /// The node's own sensor (index of its draft).
    Sensor(usize),
    /// The node's own water volume (index of its draft).
    Water(usize),
}

/// The one-way direction a node at `world` gives: its local +Y as a
/// normal in the world (the inverse transpose of the linear part applied
/// to +Y, here as the cross product of its z and x axes with the sign of
/// its determinant, which does not overflow), normalised. `None` for a
/// transform that is singular or not finite.
pub(super) fn one_way_direction(world: &Mat4) -> Option<Vec3> {
    let linear = Mat3::from_mat4(*world);
    let det = linear.determinant();
    if !(det.is_finite() && det != 0.0) {
        return None;
    }
    (linear.z_axis.cross(linear.x_axis) * det.signum()).try_normalize()
}

/// A static part while its triangles are collected (world space).
pub(super) struct PartDraft {
    pub(super) name: String,
    pub(super) node: usize,
    pub(super) surface: u16,
    pub(super) layers: CollisionLayers,
    pub(super) one_way: Option<Vec3>,
    pub(super) climbable: bool,
    pub(super) launch: Option<Vec3>,
    /// World velocity, m/s.
    pub(super) conveyor: Option<Vec3>,
    pub(super) world: Vec<[Vec3; 3]>,
}

/// A sensor while its triangles are collected (world space).
pub(super) struct SensorDraft {
    pub(super) name: String,
    pub(super) node: usize,
    pub(super) kind: SensorKind,
    pub(super) layers: CollisionLayers,
    pub(super) world: Vec<[Vec3; 3]>,
}

/// A water volume while its triangles are collected (world space).
pub(super) struct WaterDraft {
    pub(super) name: String,
    pub(super) node: usize,
    /// The node's world rotation and translation.
    pub(super) pose: Pose,
    pub(super) layers: CollisionLayers,
    pub(super) world: Vec<[Vec3; 3]>,
}

/// The static parts built, what they rejected counted in `report`; a part
/// none of whose triangles is usable is left out, with a notice.
pub(super) fn build_parts(drafts: Vec<PartDraft>, report: &mut LoadReport) -> Vec<StaticPart> {
    let mut parts = Vec::with_capacity(drafts.len());
    for draft in drafts {
        let collider = match MeshCollider::from_triangles(&draft.world) {
            Ok(c) => c,
            Err(BuildError::NoTriangles(r)) => {
                count_rejected(report, &r);
                if r.input_triangles > 0 {
                    report.notices.push(format!(
                        "node {:?}: none of its {} triangles is usable (degenerate or non-finite): it is left out",
                        draft.name, r.input_triangles
                    ));
                }
                continue;
            }
            Err(e @ BuildError::IndexOutOfRange { .. }) => unreachable!("triangles given as corners: {e}"),
        };
        count_rejected(report, collider.report());
        parts.push(StaticPart {
            name: draft.name,
            node: draft.node,
            collider,
            surface: draft.surface,
            layers: draft.layers,
            one_way: draft.one_way,
            climbable: draft.climbable,
            launch: draft.launch,
            conveyor: draft.conveyor,
        });
    }
    report.parts = parts.len();
    parts
}

/// The sensors built, what they rejected counted in `report`. An error
/// (naming the file `path` and the node) for a sensor without a usable
/// triangle.
pub(super) fn build_sensors(
    drafts: Vec<SensorDraft>,
    path: &Path,
    report: &mut LoadReport,
) -> Result<Vec<Sensor>, LevelError> {
    let mut sensors = Vec::with_capacity(drafts.len());
    for draft in drafts {
        let collider = MeshCollider::from_triangles(&draft.world).map_err(|e| LevelError::BadConvention {
            path: path.to_owned(),
            node: draft.name.clone(),
            reason: format!(
                "\"sensor\": {:?} needs triangles in the node's own mesh: {e}",
                draft.kind.word()
            ),
        })?;
        count_rejected(report, collider.report());
        sensors.push(Sensor {
            name: draft.name,
            node: draft.node,
            kind: draft.kind,
            collider,
            layers: draft.layers,
        });
    }
    report.sensors = sensors.len();
    Ok(sensors)
}

/// The water volumes built, each in its node's frame, what they rejected
/// counted in `report`. An error (naming the file `path` and the node) for
/// one without a usable triangle.
pub(super) fn build_water(
    drafts: Vec<WaterDraft>,
    path: &Path,
    report: &mut LoadReport,
) -> Result<Vec<WaterVolume>, LevelError> {
    let mut water = Vec::with_capacity(drafts.len());
    for draft in drafts {
        let local: Vec<[Vec3; 3]> = draft
            .world
            .iter()
            .map(|t| t.map(|p| draft.pose.inverse_transform_point(p)))
            .collect();
        let collider = MeshCollider::from_triangles(&local).map_err(|e| LevelError::BadConvention {
            path: path.to_owned(),
            node: draft.name.clone(),
            reason: format!("\"water\" needs triangles in the node's own mesh: {e}"),
        })?;
        count_rejected(report, collider.report());
        water.push(WaterVolume {
            name: draft.name,
            node: draft.node,
            collider,
            pose: draft.pose,
            layers: draft.layers,
        });
    }
    report.water = water.len();
    Ok(water)
}

fn count_rejected(report: &mut LoadReport, built: &slidewalk_sweep::BuildReport) {
    report.part_rejected_non_finite += built.rejected_non_finite;
    report.part_rejected_degenerate += built.rejected_degenerate;
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn the_one_way_direction_is_the_normal_of_the_transformed_local_floor() {
        let rotation = Quat::from_rotation_z(0.5);
        let rotated = Mat4::from_rotation_translation(rotation, Vec3::new(3.0, 4.0, 5.0));
        assert!(
            one_way_direction(&rotated)
                .unwrap()
                .abs_diff_eq(rotation * Vec3::Y, 1e-6)
        );
        // Stretched along x after a 45° turn (a shear): not the image of +Y.
        let sheared = Mat4::from_scale(Vec3::new(2.0, 1.0, 1.0)) * Mat4::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let d = one_way_direction(&sheared).unwrap();
        for along in [Vec3::X, Vec3::Z] {
            assert!(d.dot(sheared.transform_vector3(along)).abs() < 1e-6, "{d}");
        }
        assert!(d.dot(sheared.transform_vector3(Vec3::Y)) > 0.0);
        assert!((d - Vec3::new(-1.0, 2.0, 0.0).normalize()).length() < 1e-6, "{d}");
        // A mirror keeps it on the side of the local +Y.
        let mirrored = Mat4::from_scale(Vec3::new(1.0, -2.0, 1.0));
        assert_eq!(one_way_direction(&mirrored), Some(Vec3::NEG_Y));
        assert_eq!(one_way_direction(&Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0))), None);
        assert_eq!(one_way_direction(&Mat4::from_scale(Vec3::splat(f32::NAN))), None);
    }
}
